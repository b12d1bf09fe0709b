import { sql, type RawBuilder } from 'kysely';
import type { CapStanding, CapUsage, WindowCapUsage } from '@console/domain';

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

/**
 * Whether an organization's own subtree caps stop its usage now: a cap of the window holding now
 * (day, week or month, UTC) that its window has charged in full, or at which an event was refused
 * (its window row is marked at 100 % then: a cap can stop an event that would pass it while a
 * few cents of it are left). Only an organization with a cap has rows to read.
 */
export function capReached(organizationId: RawBuilder<unknown>) {
  return sql<boolean>`exists (
    select 1 from spend_cap_standing(${organizationId}, now()) cs
    left join spend_cap_months cm
      on cm.scope = 'subtree' and cm.scope_id = ${organizationId} and cm.kind = cs.kind and cm.month = cs.window_start
    where cs.charged >= cs.cap or cm.alerted = 100)`;
}

/** The events refused at an organization's own subtree caps that occurred this calendar month (UTC; `spend_cap_refusals`). */
export function capRefusedThisMonth(organizationId: RawBuilder<unknown>) {
  return sql<number>`coalesce((
    select cr.refused::float8 from spend_cap_refusals cr where cr.organization_id = ${organizationId} and cr.month = ${CURRENT_MONTH}), 0)`;
}

/** Both, as the contract's `CapStanding`. */
export function capStanding(organizationId: RawBuilder<unknown>) {
  return sql<CapStanding>`json_build_object('reached', ${capReached(organizationId)}, 'refused_this_month', ${capRefusedThisMonth(organizationId)})`;
}
