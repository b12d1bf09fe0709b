import { sql, type RawBuilder } from 'kysely';
import type { CapUsage, WindowCapUsage } from '@console/domain';

/** The first day of the current calendar month (UTC): caps count usage by the month it occurred in. */
export const CURRENT_MONTH = sql<string>`date_trunc('month', now() at time zone 'UTC')::date`;

/**
 * A cap as the console shows it: the cap (null: none) and what this month charged against it
 * (spend_cap_charged: the month row usage_record keeps, else recounted from the day totals).
 */
export function capUsage(scope: 'key' | 'activation' | 'subtree', id: RawBuilder<unknown>, cap: RawBuilder<unknown>) {
  return sql<CapUsage>`json_build_object(
    'cap', ${cap}::numeric(16, 2)::text,
    'month', to_char(${CURRENT_MONTH}, 'YYYY-MM'),
    'charged', spend_cap_charged(${scope}, ${id}, ${CURRENT_MONTH})::numeric(16, 2)::text)`;
}

/** What automatic top-ups moved into an organization this calendar month (UTC), less those reversed since (`top_up_month_total`). */
export function toppedUpThisMonth(organizationId: RawBuilder<unknown>) {
  return sql<string>`top_up_month_total(${organizationId}, now())`;
}

/**
 * A day or week cap as the console shows it: the cap (null: none), its window holding now
 * (UTC) and what that window charged against it (its row while kept, else recounted).
 */
export function windowCapUsage(
  scope: 'key' | 'activation' | 'subtree',
  kind: 'day' | 'week',
  id: RawBuilder<unknown>,
  cap: RawBuilder<unknown>,
) {
  return sql<WindowCapUsage>`json_build_object(
    'cap', ${cap}::numeric(16, 2)::text,
    'window_start', to_char(cap_window_start(${kind}, now()), 'YYYY-MM-DD'),
    'charged', spend_cap_charged(${scope}, ${id}, ${kind}, cap_window_start(${kind}, now()))::numeric(16, 2)::text)`;
}
