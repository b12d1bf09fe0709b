import { sql } from 'kysely';
import { DASHBOARD_USAGE_PERIOD_DAYS } from '@console/domain';
import type { Executor } from '../db/schema.ts';

/** The UTC day of the transaction's now(): the periods below are whole UTC days, today included. */
export const today = sql`(now() at time zone 'UTC')::date`;

/**
 * Usage of the organization's own ledger: net consumption (consumption entries are
 * negative, refunds positive) of the last 30 UTC days (today included) and the 30 before,
 * the forecast, the depletion estimate and the runway in days, all in numeric; amounts leave
 * the database as text. The sums come from credit_usage_days (at most 60 rows per entry type), not from
 * the entries. The forecast's average is taken over the days since the day of the first
 * consumption by the time it occurred (the first charged usage event's day, or the first
 * consumption entry's when earlier) when that is less than 30 days ago, so an organization
 * that started using agents this week is not forecast a month's usage spread as if over
 * thirty days, and a backlog of events reported at once is spread over the days they occurred.
 */
export async function usageFigures(db: Executor, organizationId: string, balance: string) {
  const period = DASHBOARD_USAGE_PERIOD_DAYS;
  const { rows } = await sql<{
    current_period: string;
    previous_period: string;
    percent_change: number | null;
    basis_days: number;
    average_daily: string;
    next_month: string;
    next_quarter: string;
    depletion_months: number | null;
    runway_days: string | null;
  }>`
    with usage as (
      select
        greatest(-coalesce(sum(total) filter (where day > ${today} - ${period}::int), 0), 0) as cur,
        greatest(-coalesce(sum(total) filter (where day <= ${today} - ${period}::int), 0), 0) as prev
      from credit_usage_days
      where organization_id = ${organizationId} and day > ${today} - ${2 * period}::int
    ),
    -- The first day anything was consumed, by the time it occurred: the day of the first
    -- charged usage event, or of the first consumption entry when that is earlier (an import
    -- has no events). A batch reported today for events of past days spans those days.
    first as (
      select least(
        (select min(day) from credit_usage_days where organization_id = ${organizationId} and entry_type = 'consumption'),
        (select min(day) from usage_event_days where organization_id = ${organizationId} and charged > 0)
      ) as day
    ),
    basis as (
      select usage.*, case when first.day is null then 0 else least(${period}, ${today} - first.day + 1) end as days
      from usage, first
    ),
    forecast as (
      -- cur × 30 ÷ days: exactly cur when the average covers the whole period.
      select basis.*, case when days = 0 then 0 else cur * ${period} / days end as month from basis
    )
    select
      round(cur, 2)::text as current_period,
      round(prev, 2)::text as previous_period,
      case when prev = 0 then null else round((cur - prev) / prev * 100, 1)::float8 end as percent_change,
      days as basis_days,
      round(case when days = 0 then 0 else cur / days end, 2)::text as average_daily,
      round(month, 2)::text as next_month,
      round(month * 3, 2)::text as next_quarter,
      case when month = 0 then null else round(${balance}::numeric / month, 1)::float8 end as depletion_months,
      -- The days the balance lasts at the forecast's daily rate (runway alert lines read this).
      case when month = 0 then null else trunc(greatest(${balance}::numeric, 0) * ${period} / month, 2)::text end as runway_days
    from forecast
  `.execute(db);
  return rows[0]!;
}
