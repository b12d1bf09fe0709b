import { sql } from 'kysely';
import { ORG_STATUSES, ORG_TYPES, PAGING, percentChange, type OrgStatus, type OrgType } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { likeEscape } from '../../lib/sql.ts';

/** `now()` minus N days, as exact timestamptz text, by N. */
export type Boundaries = Record<number, string>;

export const BOUNDARY_DAYS = [30, 60, 90, 180, 365, 730] as const;

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

export async function organizationFigures(db: Executor, org: { id: string; path: string }, ago: Boundaries) {
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
