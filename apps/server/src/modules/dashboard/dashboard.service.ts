import { sql, type Kysely } from 'kysely';
import { canHaveChildren, DASHBOARD_USAGE_PERIOD_DAYS, mayReadOrganization, mayWatchChildBalances, type Dashboard } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { activationFigures, agentUsageFigures, subtreeAgentFigures } from './agent-figures.ts';
import { childFigures, ledgerTotals, lowChildFigures, subtreeUsageFigures, usageFigures, usageHistory } from './credit-figures.ts';
import { BOUNDARY_DAYS, organizationFigures, type Boundaries } from './organization-figures.ts';
import { teamFigures } from './team-figures.ts';
import { readAlertLines } from '../../lib/alert-lines.ts';

export const FORECAST_METHOD =
  'Average daily net consumption of the last 30 days (UTC, today included; or of the days since the first consumption occurred, when that is more recent), times 30 (next month) and times 90 (next quarter). Projected depletion: the balance divided by the next month.';

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
          const subtreeUsage = await subtreeUsageFigures(trx, org.path);
          const totals = await ledgerTotals(trx, org.id);
          const children = await childFigures(trx, org.id);
          const lowChildren = mayWatchChildBalances(caller) ? await lowChildFigures(trx, org.id) : { count: 0, children: [] };
          const team = await teamFigures(trx, org.id);
          const crossedLines = await readAlertLines(trx, org.id, { crossed: true });
          const activations = await activationFigures(trx, org.id);
          const agentUsage = await agentUsageFigures(trx, { organizationId: org.id });
          const subtreeAgents = canHaveChildren(org.org_type) ? await subtreeAgentFigures(trx, org.path) : null;
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
              subtree_usage: subtreeUsage,
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
              children_needing_attention: lowChildren,
              crossed_alert_lines: crossedLines,
              by_entry_type: totals.byEntryType,
            },
            resources: { activated_agent_limit: limit, active_agents: activations.live, children_limit_total: children.limitTotal },
            team,
            agents: {
              by_status: activations.by_status,
              average_health: activations.average_health,
              activations: activations.activations,
              usage: agentUsage,
              subtree: subtreeAgents,
            },
          };
        });
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
