import { sql, type Kysely } from 'kysely';
import type { UsageSummary } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { firstDay } from './queries.ts';

/** An organization's day totals within the window of `days` UTC days ending today. */
const inWindow = (organizationId: string, days: number) =>
  sql`d.organization_id = ${organizationId} and d.day between ${firstDay(days)} and (now() at time zone 'UTC')::date`;

/**
 * Usage of an organization by agent type over the window, most credits first, from the day
 * totals of accepted events (exported so a test can EXPLAIN it).
 */
export function usageByAgentQuery(organizationId: string, days: number) {
  return sql<{ agent_type_id: string; code: string; name: string; unit: string; events: number; units: string; credits: string }>`
    select t.id as agent_type_id, t.code, t.name, t.unit, u.events, u.units::numeric(30, 4)::text as units, u.credits::numeric(30, 2)::text as credits
    from (
      select d.agent_type_id, sum(d.events)::int as events, sum(d.units) as units, sum(d.charged) as credits
      from usage_event_days d
      where ${inWindow(organizationId, days)}
      group by d.agent_type_id
    ) u
    join agent_types t on t.id = u.agent_type_id
    order by u.credits desc, t.name, t.id`;
}

/** Usage of an organization by UTC day over the window, every day of it (exported so a test can EXPLAIN it). */
export function usageByDayQuery(organizationId: string, days: number) {
  return sql<{ day: string; events: number; credits: string }>`
    select to_char(g.day, 'YYYY-MM-DD') as day, coalesce(u.events, 0)::int as events,
      coalesce(u.credits, 0)::numeric(30, 2)::text as credits
    from (select ${firstDay(days)} + i as day from generate_series(0, ${days - 1}::int) as i) g
    left join (
      select d.day, sum(d.events) as events, sum(d.charged) as credits
      from usage_event_days d
      where ${inWindow(organizationId, days)}
      group by d.day
    ) u on u.day = g.day
    order by g.day`;
}

export function createUsageSummary({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  /**
   * Usage of an organization over the last 7 or 30 UTC days (today included): by agent
   * type, most credits first, and by day, every day of the window. Read from the day
   * totals of accepted events, so it costs at most a row per day and agent type however
   * many events there were.
   */
  async function usage(caller: Caller, organizationId: string, days: 7 | 30): Promise<UsageSummary> {
    const org = await organizations.visible(caller, organizationId);
    const [byAgent, byDay] = await Promise.all([usageByAgentQuery(org.id, days).execute(db), usageByDayQuery(org.id, days).execute(db)]);
    return { organization_id: org.id, days, by_agent: byAgent.rows, by_day: byDay.rows };
  }

  return { usage };
}
