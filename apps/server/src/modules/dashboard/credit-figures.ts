import { sql } from 'kysely';
import { DASHBOARD_CHILDREN_SHOWN, DASHBOARD_USAGE_PERIOD_DAYS, ENTRY_TYPES, PAGING, type EntryType } from '@console/domain';
import { ADMIN_ROLES } from '../../lib/admins.ts';
import type { Executor } from '../../db/schema.ts';
import { organizationInSubtree } from '../../lib/sql.ts';
import { today } from '../../lib/usage-forecast.ts';
import { capReached, capStanding } from '../../lib/spend-caps.ts';

// The forecast's rule lives in lib/ so the runway alert lines read the very same figures.
export { today, usageFigures } from '../../lib/usage-forecast.ts';

/**
 * Net consumption of the organization and all its descendants (deleted ones too: what they
 * consumed was consumed) in the last 30 UTC days and the 30 before, and the change in
 * percent, from the day totals of those 60 days (credit_usage_days_day_idx) of the
 * organizations whose path starts with its own.
 */
export async function subtreeUsageFigures(db: Executor, path: string) {
  const period = DASHBOARD_USAGE_PERIOD_DAYS;
  const { rows } = await sql<{ current_period: string; previous_period: string; percent_change: number | null }>`
    with usage as (
      select
        greatest(-coalesce(sum(d.total) filter (where d.day > ${today} - ${period}::int), 0), 0) as cur,
        greatest(-coalesce(sum(d.total) filter (where d.day <= ${today} - ${period}::int), 0), 0) as prev
      from credit_usage_days d
      where d.day > ${today} - ${2 * period}::int
        and ${organizationInSubtree('d.organization_id', path)}
    )
    select
      round(cur, 2)::text as current_period,
      round(prev, 2)::text as previous_period,
      case when prev = 0 then null else round((cur - prev) / prev * 100, 1)::float8 end as percent_change
    from usage
  `.execute(db);
  return rows[0]!;
}

/** Consumption and refunds of each of the last 7 UTC days, oldest first, from credit_usage_days. */
export async function usageHistory(db: Executor, organizationId: string) {
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
 * and from those sums the allocated and received totals, net of reversals (a reversed
 * allocation was neither sent nor received).
 */
export async function ledgerTotals(db: Executor, organizationId: string) {
  const { rows } = await sql<{ entry_type: EntryType | 'allocated' | 'received'; total: string; count: number }>`
    with by_type as (
      select entry_type, total, entries::int as count
      from credit_ledger_totals
      where organization_id = ${organizationId}
    )
    select entry_type, round(total, 2)::text as total, count from by_type
    union all
    select 'allocated', round(-coalesce(sum(total) filter (where entry_type in ('allocation_sent', 'reversal_received')), 0), 2)::text, 0 from by_type
    union all
    select 'received', round(coalesce(sum(total) filter (where entry_type in ('allocation_received', 'initial_balance', 'reversal_sent')), 0), 2)::text, 0 from by_type
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

/** The organization's direct children that are not deleted, with their billing settings (`b`). */
const liveChildren = (db: Executor, organizationId: string) =>
  db
    .selectFrom('organizations as o')
    .innerJoin('organization_billing_settings as b', 'b.organization_id', 'o.id')
    .where('o.parent_org_id', '=', organizationId)
    .where('o.deleted_at', 'is', null);

/** What each listed child shows: who it is, its balance and its agent limit. */
const childColumns = [
  'o.id',
  'o.name',
  'o.org_type',
  'o.status',
  sql<string>`b.credit_balance::text`.as('credit_balance'),
  'b.activated_agent_limit',
] as const;

/** The children's balances (largest first) and their totals, with the children's agent limits. */
export async function childFigures(db: Executor, organizationId: string) {
  const children = liveChildren(db, organizationId);
  const rows = await children
    .select([...childColumns])
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

/**
 * The direct children needing attention: a balance below their low-balance threshold, or
 * stopped by a subtree spend cap (only those with a cap are asked); lowest balance first (then
 * by name), each with both reasons, whether it has an active admin, and their count.
 */
export async function lowChildFigures(db: Executor, organizationId: string) {
  const low = liveChildren(db, organizationId).where((eb) =>
    eb.or([
      eb('b.credit_balance', '<', eb.ref('b.low_balance_threshold')),
      sql<boolean>`((b.spend_cap is not null or b.daily_spend_cap is not null or b.weekly_spend_cap is not null) and ${capReached(sql`o.id`)})`,
    ]),
  );
  const children = await low
    .select((eb) => [
      ...childColumns,
      sql<string>`b.low_balance_threshold::text`.as('low_balance_threshold'),
      sql<boolean>`b.credit_balance < b.low_balance_threshold`.as('low_balance'),
      capStanding(sql`o.id`).as('cap_standing'),
      eb
        .exists(
          eb
            .selectFrom('users as u')
            .select(sql`1`.as('one'))
            .whereRef('u.organization_id', '=', 'o.id')
            .where('u.role', 'in', ADMIN_ROLES)
            .where('u.status', '=', 'active')
            .where('u.deleted_at', 'is', null),
        )
        .$castTo<boolean>()
        .as('has_active_admin'),
    ])
    .orderBy('b.credit_balance')
    .orderBy('o.name')
    .orderBy('o.id')
    .limit(DASHBOARD_CHILDREN_SHOWN)
    .execute();
  const total = await low.select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
  return { count: total.count, children };
}
