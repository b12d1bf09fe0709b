import { sql, type Kysely } from 'kysely';
import {
  DASHBOARD_CHILDREN_SHOWN,
  DASHBOARD_USAGE_PERIOD_DAYS,
  ENTRY_TYPES,
  ORG_STATUSES,
  ORG_TYPES,
  PAGING,
  USER_STATUSES,
  isOwnOrganization,
  mayViewOrganization,
  percentChange,
  type Dashboard,
  type EntryType,
  type OrgStatus,
  type OrgType,
  type UserStatus,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import { likeEscape } from '../../lib/sql.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

/** `now()` minus N days, as exact timestamptz text, by N. */
export type Boundaries = Record<number, string>;

export const BOUNDARY_DAYS = [30, 60, 90, 180, 365, 730] as const;

export const AGENTS_UNAVAILABLE_REASON =
  'Agents run in the agent service this console is sold with; no agent activity (success rate, response time, status) is recorded in this database, so no agent figures are shown.';

export const FORECAST_METHOD =
  'Average daily net consumption of the last 30 days, times 30 (next month) and times 90 (next quarter).';

const GROWTH_PERIODS = { monthly: 30, quarterly: 90, yearly: 365 } as const;

/**
 * Counts, growth and the most recent of the live descendants (the organization itself
 * excluded). Counts come from organization_subtree_counts (per ancestor, creation day,
 * status and type), so a house with a million descendants sums a few thousand rows.
 * "Created since B" is the whole days after B's day from those rows plus the organizations
 * created on B's own day from B on, counted exactly through the created_at index.
 * Exported for the bench, which explains these same queries on a million organizations.
 */
export function organizationQueries(db: Executor, org: { id: string; path: string }, ago: Boundaries) {
  const at = (days: number) => sql`${ago[days]!}::timestamptz`;
  const dayOf = (days: number) => sql`(${at(days)} at time zone 'UTC')::date`;
  const nextMidnight = (days: number) => sql`((${dayOf(days)} + 1)::timestamp at time zone 'UTC')`;
  const counts = db
    .selectFrom('organization_subtree_counts')
    .where('ancestor_id', '=', org.id)
    .select([
      sql<number>`coalesce(sum(n), 0)::int`.as('total'),
      ...ORG_STATUSES.map((status) => sql<number>`coalesce(sum(n) filter (where status = ${status}), 0)::int`.as(`status_${status}`)),
      ...ORG_TYPES.map((type) => sql<number>`coalesce(sum(n) filter (where org_type = ${type}), 0)::int`.as(`type_${type}`)),
      ...BOUNDARY_DAYS.map((days) => sql<number>`coalesce(sum(n) filter (where created_day > ${dayOf(days)}), 0)::int`.as(`after_${days}`)),
    ]);
  const subtree = db
    .selectFrom('organizations')
    .where('path', 'like', `${likeEscape(org.path)}%`)
    .where('id', '<>', org.id)
    .where('deleted_at', 'is', null);
  const onBoundaryDay = (days: number) => sql<boolean>`(created_at >= ${at(days)} and created_at < ${nextMidnight(days)})`;
  const partial = subtree
    .where(sql<boolean>`(${sql.join(BOUNDARY_DAYS.map(onBoundaryDay), sql` or `)})`)
    .select(BOUNDARY_DAYS.map((days) => sql<number>`count(*) filter (where ${onBoundaryDay(days)})::int`.as(`partial_${days}`)));
  const recent = subtree
    .select(['id', 'name', 'org_type', 'status', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAGING.dashboardRecentOrgs);
  return { counts, partial, recent };
}

async function organizationFigures(db: Executor, org: { id: string; path: string }, ago: Boundaries) {
  const queries = organizationQueries(db, org, ago);
  // Sequential: inside a transaction every statement goes through one connection.
  const counts = (await queries.counts.executeTakeFirstOrThrow()) as Record<string, number>;
  const partial = (await queries.partial.executeTakeFirstOrThrow()) as Record<string, number>;
  const recent = await queries.recent.execute();
  const createdSince = (days: number) => counts[`after_${days}`]! + partial[`partial_${days}`]!;
  const growth = (days: number) => {
    const current = createdSince(days);
    const previous = createdSince(2 * days) - current;
    return { days, current, previous, percent: percentChange(current, previous) };
  };
  return {
    total: counts.total!,
    by_status: Object.fromEntries(ORG_STATUSES.map((s) => [s, counts[`status_${s}`]!])) as Record<OrgStatus, number>,
    by_type: Object.fromEntries(ORG_TYPES.map((t) => [t, counts[`type_${t}`]!])) as Record<OrgType, number>,
    recent: recent.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
    growth: {
      monthly: growth(GROWTH_PERIODS.monthly),
      quarterly: growth(GROWTH_PERIODS.quarterly),
      yearly: growth(GROWTH_PERIODS.yearly),
    },
  };
}

/**
 * Usage of the organization's own ledger: net consumption (consumption entries are
 * negative, refunds positive) of the last 30 days and the 30 before, the forecast and the
 * depletion estimate, all in numeric; amounts leave the database as text.
 */
async function usageFigures(db: Executor, organizationId: string, balance: string, ago: Boundaries) {
  const periodStart = sql`${ago[DASHBOARD_USAGE_PERIOD_DAYS]!}::timestamptz`;
  const previousStart = sql`${ago[2 * DASHBOARD_USAGE_PERIOD_DAYS]!}::timestamptz`;
  const { rows } = await sql<{
    current_period: string;
    previous_period: string;
    percent_change: number | null;
    average_daily: string;
    next_month: string;
    next_quarter: string;
    depletion_months: number | null;
  }>`
    with usage as (
      select
        greatest(-coalesce(sum(amount) filter (where created_at >= ${periodStart}), 0), 0) as cur,
        greatest(-coalesce(sum(amount) filter (where created_at < ${periodStart}), 0), 0) as prev
      from credit_ledger_entries
      where organization_id = ${organizationId}
        and entry_type in ('consumption', 'refund')
        and created_at >= ${previousStart}
    )
    select
      round(cur, 2)::text as current_period,
      round(prev, 2)::text as previous_period,
      case when prev = 0 then null else round((cur - prev) / prev * 100, 1)::float8 end as percent_change,
      round(cur / ${DASHBOARD_USAGE_PERIOD_DAYS}, 2)::text as average_daily,
      -- (cur / 30) × 30 and (cur / 30) × 90, written exactly.
      round(cur, 2)::text as next_month,
      round(cur * 3, 2)::text as next_quarter,
      case when cur = 0 then null else round(${balance}::numeric / cur, 1)::float8 end as depletion_months
    from usage
  `.execute(db);
  return rows[0]!;
}

/** Consumption and refunds of each of the last 7 UTC days, oldest first. */
async function usageHistory(db: Executor, organizationId: string) {
  const days = PAGING.dashboardHistoryDays;
  const { rows } = await sql<{ date: string; consumption: string; refunds: string; net: string }>`
    with days as (
      select d::date as day
      from generate_series((now() at time zone 'UTC')::date - ${days - 1}::int, (now() at time zone 'UTC')::date, interval '1 day') d
    ),
    sums as (
      select
        (created_at at time zone 'UTC')::date as day,
        -coalesce(sum(amount) filter (where entry_type = 'consumption'), 0) as consumption,
        coalesce(sum(amount) filter (where entry_type = 'refund'), 0) as refunds
      from credit_ledger_entries
      where organization_id = ${organizationId}
        and entry_type in ('consumption', 'refund')
        and created_at >= ((now() at time zone 'UTC')::date - ${days - 1}::int) at time zone 'UTC'
      group by 1
    )
    select
      to_char(days.day, 'YYYY-MM-DD') as date,
      round(coalesce(sums.consumption, 0), 2)::text as consumption,
      round(coalesce(sums.refunds, 0), 2)::text as refunds,
      round(coalesce(sums.consumption, 0) - coalesce(sums.refunds, 0), 2)::text as net
    from days left join sums using (day)
    order by days.day
  `.execute(db);
  return rows;
}

/**
 * The organization's own entries summed by type (credit_ledger_totals, kept by a trigger),
 * and from those sums the allocated and received totals.
 */
async function ledgerTotals(db: Executor, organizationId: string) {
  const { rows } = await sql<{ entry_type: EntryType | 'allocated' | 'received'; total: string; count: number }>`
    with by_type as (
      select entry_type, total, entries::int as count
      from credit_ledger_totals
      where organization_id = ${organizationId}
    )
    select entry_type, round(total, 2)::text as total, count from by_type
    union all
    select 'allocated', round(-coalesce(sum(total) filter (where entry_type = 'allocation_sent'), 0), 2)::text, 0 from by_type
    union all
    select 'received', round(coalesce(sum(total) filter (where entry_type in ('allocation_received', 'initial_balance')), 0), 2)::text, 0 from by_type
  `.execute(db);
  const byEntryType = rows.flatMap(({ entry_type, total, count }) =>
    entry_type === 'allocated' || entry_type === 'received' ? [] : [{ entry_type, total, count }],
  );
  const order = (type: EntryType) => ENTRY_TYPES.indexOf(type);
  return {
    byEntryType: byEntryType.sort((a, b) => order(a.entry_type) - order(b.entry_type)),
    allocated: rows.find((r) => r.entry_type === 'allocated')!.total,
    received: rows.find((r) => r.entry_type === 'received')!.total,
  };
}

/** The children's balances (largest first) and their totals, with the children's agent limits. */
async function childFigures(db: Executor, organizationId: string) {
  const children = db
    .selectFrom('organizations as o')
    .innerJoin('organization_billing_settings as b', 'b.organization_id', 'o.id')
    .where('o.parent_org_id', '=', organizationId)
    .where('o.deleted_at', 'is', null);
  const rows = await children
      .select(['o.id', 'o.name', 'o.org_type', 'o.status', sql<string>`b.credit_balance::text`.as('credit_balance'), 'b.activated_agent_limit'])
      .orderBy('b.credit_balance', 'desc')
      .orderBy('o.name')
      .orderBy('o.id')
      .limit(DASHBOARD_CHILDREN_SHOWN)
      .execute();
  const totals = await children
      .select([
        sql<number>`count(*)::int`.as('count'),
        sql<string>`round(coalesce(sum(b.credit_balance), 0), 2)::text`.as('total_balance'),
        sql<number>`coalesce(sum(b.activated_agent_limit), 0)::int`.as('limit_total'),
      ])
      .executeTakeFirstOrThrow();
  return {
    count: totals.count,
    total_balance: totals.total_balance,
    limitTotal: totals.limit_total,
    children: rows,
  };
}

async function teamFigures(db: Executor, organizationId: string) {
  const rows = await db
    .selectFrom('users')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .groupBy('status')
    .execute();
  const by_status = Object.fromEntries(USER_STATUSES.map((s) => [s, rows.find((r) => r.status === s)?.n ?? 0])) as Record<UserStatus, number>;
  return { total: rows.reduce((sum, r) => sum + r.n, 0), by_status };
}

export function createDashboardService({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  /**
   * The organization the dashboard is for. Callers with organizations.get may name any
   * organization in scope (404 outside, whether it exists or not); callers without it
   * (the user level) see only their own organization, and naming another answers 403.
   */
  async function target(caller: Caller, organizationId: string | undefined) {
    if (!organizationId || isOwnOrganization(caller, { id: organizationId })) {
      return organizations.visible(caller, caller.organization.id);
    }
    if (!mayViewOrganization(caller)) throw new ForbiddenError();
    return organizations.visible(caller, organizationId);
  }

  return {
    async get(caller: Caller, organizationId: string | undefined): Promise<Dashboard> {
      const org = await target(caller, organizationId);
      // One read-only snapshot: every figure sees the same rows and the same now().
      return db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          await sql`set transaction read only`.execute(trx);
          // A report over many rows: compiling it (JIT) costs more than it saves.
          await sql`set local jit = off`.execute(trx);
          const { rows: clock } = await sql<{ now: Date; balance: string; limit: number } & Record<string, unknown>>`
            select now() as now, credit_balance::text as balance, activated_agent_limit as limit,
              ${sql.join(BOUNDARY_DAYS.map((days) => sql`(now() - ${sql.raw(`interval '${days} days'`)})::text as ${sql.ref(`d${days}`)}`))}
            from organization_billing_settings where organization_id = ${org.id}
          `.execute(trx);
          const { now, balance, limit } = clock[0]!;
          const ago: Boundaries = Object.fromEntries(BOUNDARY_DAYS.map((days) => [days, clock[0]![`d${days}`] as string]));
          // One connection serves a transaction: the statements run one after another.
          const orgFigures = await organizationFigures(trx, org, ago);
          const usage = await usageFigures(trx, org.id, balance, ago);
          const history = await usageHistory(trx, org.id);
          const totals = await ledgerTotals(trx, org.id);
          const children = await childFigures(trx, org.id);
          const team = await teamFigures(trx, org.id);
          return {
            organization: { id: org.id, name: org.name, org_type: org.org_type, status: org.status },
            generated_at: new Date(now).toISOString(),
            organizations: orgFigures,
            credits: {
              balance,
              allocated: totals.allocated,
              received: totals.received,
              usage: {
                period_days: DASHBOARD_USAGE_PERIOD_DAYS,
                current_period: usage.current_period,
                previous_period: usage.previous_period,
                percent_change: usage.percent_change,
                history,
              },
              forecast: {
                average_daily: usage.average_daily,
                next_month: usage.next_month,
                next_quarter: usage.next_quarter,
                method: FORECAST_METHOD,
              },
              depletion_months: usage.depletion_months,
              by_child: { count: children.count, total_balance: children.total_balance, children: children.children },
              by_entry_type: totals.byEntryType,
            },
            resources: { activated_agent_limit: limit, active_agents: 0, children_limit_total: children.limitTotal },
            team,
            agents: { available: false as const, reason: AGENTS_UNAVAILABLE_REASON },
          };
        });
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
