import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * Checks the dashboard's day totals against the rows they count: usage_event_days against
 * the accepted usage events (events, units and charges by organization, UTC day of
 * occurrence and agent type) and credit_usage_days against the consumption and refund
 * entries (by organization, UTC day and type). Each list holds at most 100 differences.
 */
export async function usageDayMismatches(db: Kysely<DB>) {
  const events = await sql<{ organization_id: string; day: string; agent_type_id: string; stored: string | null; actual: string | null }>`
    with actual as (
      select organization_id, (occurred_at at time zone 'UTC')::date as day, agent_type_id,
             count(*) as events, sum(units) as units, sum(charged) as charged
      from usage_events group by 1, 2, 3
    )
    select organization_id, to_char(day, 'YYYY-MM-DD') as day, agent_type_id,
           concat_ws(' / ', s.events, s.units, s.charged) as stored, concat_ws(' / ', actual.events, actual.units, actual.charged) as actual
    from actual full join usage_event_days s using (organization_id, day, agent_type_id)
    where actual.events is distinct from s.events or actual.units is distinct from s.units or actual.charged is distinct from s.charged
    order by 1, 2, 3
    limit 100`.execute(db);
  const entries = await sql<{ organization_id: string; day: string; entry_type: string; stored: string | null; actual: string | null }>`
    with actual as (
      select organization_id, (created_at at time zone 'UTC')::date as day, entry_type, sum(amount) as total, count(*) as entries
      from credit_ledger_entries where entry_type in ('consumption', 'refund') group by 1, 2, 3
    )
    select organization_id, to_char(day, 'YYYY-MM-DD') as day, entry_type,
           concat_ws(' / ', s.total, s.entries) as stored, concat_ws(' / ', actual.total, actual.entries) as actual
    from actual full join credit_usage_days s using (organization_id, day, entry_type)
    where actual.total is distinct from s.total or actual.entries is distinct from s.entries
    order by 1, 2, 3
    limit 100`.execute(db);
  return { usage_event_day_mismatches: events.rows, credit_usage_day_mismatches: entries.rows };
}
