import { sql, type Kysely } from 'kysely';
import {
  ACTIVATION_STATUSES,
  DASHBOARD_ACTIVATIONS_SHOWN,
  DASHBOARD_AGENT_USAGE_DAYS,
  DASHBOARD_CHILDREN_SHOWN,
  DASHBOARD_USAGE_PERIOD_DAYS,
  ENTRY_TYPES,
  ORG_STATUSES,
  ORG_TYPES,
  PAGING,
  USER_STATUSES,
  mayReadOrganization,
  percentChange,
  type ActivationStatus,
  type AgentKind,
  type Dashboard,
  type DashboardAgentUsagePeriod,
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


export const FORECAST_METHOD =
  'Average daily net consumption of the last 30 days (UTC, today included; or of the days since the first consumption, when that is more recent), times 30 (next month) and times 90 (next quarter).';

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
    recent,
    growth: {
      monthly: growth(GROWTH_PERIODS.monthly),
      quarterly: growth(GROWTH_PERIODS.quarterly),
      yearly: growth(GROWTH_PERIODS.yearly),
    },
  };
}

/** The UTC day of the transaction's now(): the periods below are whole UTC days, today included. */
const today = sql`(now() at time zone 'UTC')::date`;

/**
 * Usage of the organization's own ledger: net consumption (consumption entries are
 * negative, refunds positive) of the last 30 UTC days (today included) and the 30 before,
 * the forecast and the depletion estimate, all in numeric; amounts leave the database as
 * text. The sums come from credit_usage_days (at most 60 rows per entry type), not from
 * the entries. The forecast's average is taken over the days since the day of the first
 * consumption when that is less than 30 days ago, so an organization that started using
 * agents this week is not forecast a month's usage spread as if over thirty days.
 */
async function usageFigures(db: Executor, organizationId: string, balance: string) {
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
  }>`
    with usage as (
      select
        greatest(-coalesce(sum(total) filter (where day > ${today} - ${period}::int), 0), 0) as cur,
        greatest(-coalesce(sum(total) filter (where day <= ${today} - ${period}::int), 0), 0) as prev
      from credit_usage_days
      where organization_id = ${organizationId} and day > ${today} - ${2 * period}::int
    ),
    -- The first consumption ever: the first of its day totals.
    first as (
      select min(day) as day from credit_usage_days where organization_id = ${organizationId} and entry_type = 'consumption'
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
      case when month = 0 then null else round(${balance}::numeric / month, 1)::float8 end as depletion_months
    from forecast
  `.execute(db);
  return rows[0]!;
}

/** Consumption and refunds of each of the last 7 UTC days, oldest first, from credit_usage_days. */
async function usageHistory(db: Executor, organizationId: string) {
  const days = PAGING.dashboardHistoryDays;
  const { rows } = await sql<{ date: string; consumption: string; refunds: string; net: string }>`
    with days as (
      select d::date as day from generate_series(${today} - ${days - 1}::int, ${today}, interval '1 day') d
    ),
    sums as (
      select
        day,
        -coalesce(sum(total) filter (where entry_type = 'consumption'), 0) as consumption,
        coalesce(sum(total) filter (where entry_type = 'refund'), 0) as refunds
      from credit_usage_days
      where organization_id = ${organizationId} and day > ${today} - ${days}::int
      group by day
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

/**
 * The live activations: counted by the status their runtime last reported with the mean
 * health score, and the first DASHBOARD_ACTIVATIONS_SHOWN worst health first. At most one
 * live activation per agent type, so these are a handful of rows, read through the
 * partial index of live activations.
 */
async function activationFigures(db: Executor, organizationId: string) {
  const live = db
    .selectFrom('agent_activations as a')
    .where('a.organization_id', '=', organizationId)
    .where('a.deactivated_at', 'is', null);
  const counts = await live
    .select(['a.status', sql<number>`count(*)::int`.as('n'), sql<string | null>`sum(a.health_score)::text`.as('health_sum'), sql<number>`count(a.health_score)::int`.as('reported')])
    .groupBy('a.status')
    .execute();
  const rows = await live
    .innerJoin('agent_types as t', 't.id', 'a.agent_type_id')
    .select(['a.id', 'a.agent_type_id', 't.code', 't.name', 't.kind', 'a.status', 'a.health_score', 'a.last_active_at', 'a.activated_at'])
    .orderBy(sql`a.health_score asc nulls last`)
    .orderBy('t.name')
    .orderBy('a.id')
    .limit(DASHBOARD_ACTIVATIONS_SHOWN)
    .execute();
  const by_status = Object.fromEntries(ACTIVATION_STATUSES.map((s) => [s, counts.find((c) => c.status === s)?.n ?? 0])) as Record<ActivationStatus, number>;
  const reported = counts.reduce((sum, c) => sum + c.reported, 0);
  const healthSum = counts.reduce((sum, c) => sum + Number(c.health_sum ?? 0), 0);
  return {
    live: counts.reduce((sum, c) => sum + c.n, 0),
    by_status,
    average_health: reported === 0 ? null : Math.round((healthSum / reported) * 10) / 10,
    activations: rows.map((r) => ({
      id: r.id,
      agent_type_id: r.agent_type_id,
      code: r.code,
      name: r.name,
      kind: r.kind as AgentKind,
      status: r.status,
      health_score: r.health_score,
      last_active_at: r.last_active_at,
      activated_at: r.activated_at,
    })),
  };
}

/**
 * The organization's accepted usage events of the last 7 and 30 UTC days (today included,
 * by the day they occurred), by agent type: events, units and the credits charged. Read from
 * usage_event_days: at most 30 rows per agent type, however many events there were.
 */
async function agentUsageFigures(db: Executor, organizationId: string) {
  const [short, long] = DASHBOARD_AGENT_USAGE_DAYS;
  const inShort = sql`day > ${today} - ${short}::int`;
  const { rows } = await sql<{
    agent_type_id: string;
    code: string;
    name: string;
    unit: string;
    events_short: number;
    units_short: string;
    credits_short: string;
    events_long: number;
    units_long: string;
    credits_long: string;
  }>`
    with sums as (
      select
        agent_type_id,
        coalesce(sum(events) filter (where ${inShort}), 0)::int as events_short,
        coalesce(sum(units) filter (where ${inShort}), 0) as units_short,
        coalesce(sum(charged) filter (where ${inShort}), 0) as credits_short,
        sum(events)::int as events_long,
        sum(units) as units_long,
        sum(charged) as credits_long
      from usage_event_days
      where organization_id = ${organizationId} and day > ${today} - ${long}::int
      group by agent_type_id
    )
    select
      sums.agent_type_id, t.code, t.name, t.unit,
      events_short, round(units_short, 4)::text as units_short, round(credits_short, 2)::text as credits_short,
      events_long, round(units_long, 4)::text as units_long, round(credits_long, 2)::text as credits_long
    from sums join agent_types t on t.id = sums.agent_type_id
  `.execute(db);
  const period = (days: number, which: 'short' | 'long'): DashboardAgentUsagePeriod => {
    const byAgent = rows
      .filter((r) => r[`events_${which}`] > 0)
      .map((r) => ({
        agent_type_id: r.agent_type_id,
        code: r.code,
        name: r.name,
        unit: r.unit,
        events: r[`events_${which}`],
        units: r[`units_${which}`],
        credits: r[`credits_${which}`],
      }))
      .sort((a, b) => compareDecimal(b.credits, a.credits) || b.events - a.events || a.name.localeCompare(b.name) || a.agent_type_id.localeCompare(b.agent_type_id));
    return {
      days,
      events: byAgent.reduce((sum, r) => sum + r.events, 0),
      credits: centsToText(byAgent.reduce((sum, r) => sum + textToCents(r.credits), 0n)),
      by_agent: byAgent,
    };
  };
  return { last_7_days: period(short, 'short'), last_30_days: period(long, 'long') };
}

/** An amount with two decimals as whole cents, exactly. */
function textToCents(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

function centsToText(cents: bigint): string {
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

function compareDecimal(a: string, b: string): number {
  const [x, y] = [textToCents(a), textToCents(b)];
  return x === y ? 0 : x < y ? -1 : 1;
}

export function createDashboardService({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  /**
   * The organization the dashboard is for. Callers with organizations.get may name any
   * organization in scope (404 outside, whether it exists or not); callers without it
   * (the user level) see only their own organization, and naming another answers 403.
   */
  async function target(caller: Caller, organizationId: string | undefined) {
    const id = organizationId ?? caller.organization.id;
    if (!mayReadOrganization(caller, { id })) throw new ForbiddenError();
    return organizations.visible(caller, id);
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
          const { rows: clock } = await sql<{ now: string; balance: string; limit: number; threshold: string } & Record<string, unknown>>`
            select now() as now, credit_balance::text as balance, activated_agent_limit as limit,
              low_balance_threshold::text as threshold,
              ${sql.join(BOUNDARY_DAYS.map((days) => sql`(now() - ${sql.raw(`interval '${days} days'`)})::text as ${sql.ref(`d${days}`)}`))}
            from organization_billing_settings where organization_id = ${org.id}
          `.execute(trx);
          const { now, balance, limit, threshold } = clock[0]!;
          const ago: Boundaries = Object.fromEntries(BOUNDARY_DAYS.map((days) => [days, clock[0]![`d${days}`] as string]));
          // One connection serves a transaction: the statements run one after another.
          const orgFigures = await organizationFigures(trx, org, ago);
          const usage = await usageFigures(trx, org.id, balance);
          const history = await usageHistory(trx, org.id);
          const totals = await ledgerTotals(trx, org.id);
          const children = await childFigures(trx, org.id);
          const team = await teamFigures(trx, org.id);
          const activations = await activationFigures(trx, org.id);
          const agentUsage = await agentUsageFigures(trx, org.id);
          return {
            organization: { id: org.id, name: org.name, org_type: org.org_type, status: org.status },
            generated_at: now,
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
              low_balance_threshold: threshold,
              forecast: {
                basis_days: usage.basis_days,
                average_daily: usage.average_daily,
                next_month: usage.next_month,
                next_quarter: usage.next_quarter,
                method: FORECAST_METHOD,
              },
              depletion_months: usage.depletion_months,
              by_child: { count: children.count, total_balance: children.total_balance, children: children.children },
              by_entry_type: totals.byEntryType,
            },
            resources: { activated_agent_limit: limit, active_agents: activations.live, children_limit_total: children.limitTotal },
            team,
            agents: {
              by_status: activations.by_status,
              average_health: activations.average_health,
              activations: activations.activations,
              usage: agentUsage,
            },
          };
        });
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
