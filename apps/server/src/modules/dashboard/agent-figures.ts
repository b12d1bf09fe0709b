import { sql } from 'kysely';
import {
  ACTIVATION_STATUSES,
  DASHBOARD_ACTIVATIONS_SHOWN,
  DASHBOARD_AGENT_USAGE_DAYS,
  type ActivationStatus,
  type AgentKind,
  type DashboardAgentUsagePeriod,
} from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { organizationInSubtree } from '../../lib/sql.ts';
import { today } from './credit-figures.ts';

/** Whose figures: one organization's own, or a subtree's (the organizations whose path starts with it). */
export type AgentScope = { organizationId: string } | { path: string; live: boolean };

/** The condition on an organization id column for a scope; `live` leaves deleted organizations out. */
function inScope(column: string, scope: AgentScope) {
  if ('organizationId' in scope) return sql<boolean>`${sql.ref(column)} = ${scope.organizationId}`;
  return organizationInSubtree(column, scope.path, { live: scope.live });
}

/** Live activations by reported status, and the mean health of those that reported one. */
async function activationCounts(db: Executor, scope: AgentScope) {
  const counts = await db
    .selectFrom('agent_activations as a')
    .where(inScope('a.organization_id', scope))
    .where('a.deactivated_at', 'is', null)
    .select([
      'a.status',
      sql<number>`count(*)::int`.as('n'),
      sql<string | null>`sum(a.health_score)::text`.as('health_sum'),
      sql<number>`count(a.health_score)::int`.as('reported'),
    ])
    .groupBy('a.status')
    .execute();
  const by_status = Object.fromEntries(ACTIVATION_STATUSES.map((s) => [s, counts.find((c) => c.status === s)?.n ?? 0])) as Record<
    ActivationStatus,
    number
  >;
  const reported = counts.reduce((sum, c) => sum + c.reported, 0);
  const healthSum = counts.reduce((sum, c) => sum + Number(c.health_sum ?? 0), 0);
  return {
    live: counts.reduce((sum, c) => sum + c.n, 0),
    by_status,
    average_health: reported === 0 ? null : Math.round((healthSum / reported) * 10) / 10,
  };
}

/**
 * A parent's agents as they run below it: the live activations of its live subtree by
 * status with their mean health, and the subtree's usage by agent over 7 and 30 days.
 */
export async function subtreeAgentFigures(db: Executor, path: string) {
  const { by_status, average_health } = await activationCounts(db, { path, live: true });
  return { by_status, average_health, usage: await agentUsageFigures(db, { path, live: false }) };
}

/**
 * The live activations: counted by the status their runtime last reported with the mean
 * health score, and the first DASHBOARD_ACTIVATIONS_SHOWN worst health first. At most one
 * live activation per agent type, so these are a handful of rows, read through the
 * partial index of live activations.
 */
export async function activationFigures(db: Executor, organizationId: string) {
  const counts = await activationCounts(db, { organizationId });
  const rows = await db
    .selectFrom('agent_activations as a')
    .where('a.organization_id', '=', organizationId)
    .where('a.deactivated_at', 'is', null)
    .innerJoin('agent_types as t', 't.id', 'a.agent_type_id')
    .select(['a.id', 'a.agent_type_id', 't.code', 't.name', 't.kind', 'a.status', 'a.health_score', 'a.last_active_at', 'a.activated_at'])
    .orderBy(sql`a.health_score asc nulls last`)
    .orderBy('t.name')
    .orderBy('a.id')
    .limit(DASHBOARD_ACTIVATIONS_SHOWN)
    .execute();
  return {
    ...counts,
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
 * The accepted usage events of the last 7 and 30 UTC days (today included, by the day they
 * occurred) of an organization or a subtree, by agent type: events, units and the credits
 * charged. Read from usage_event_days by its key (organization, day): at most 30 rows per
 * organization and agent type, however many events there were.
 */
export async function agentUsageFigures(db: Executor, scope: AgentScope) {
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
      where ${inScope('organization_id', scope)} and day > ${today} - ${long}::int
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
      .sort(
        (a, b) =>
          compareDecimal(b.credits, a.credits) ||
          b.events - a.events ||
          a.name.localeCompare(b.name) ||
          a.agent_type_id.localeCompare(b.agent_type_id),
      );
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
