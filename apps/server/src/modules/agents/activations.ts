import { sql, type Kysely } from 'kysely';
import {
  MESSAGES,
  mayManageAgentsOf,
  pricingViewOf,
  type Activation,
  type CapUsage,
  type CapsInput,
  type WindowCapUsage,
  type ActivationList,
  type ActivationStatus,
  type AgentKind,
  type AgentTypeStatus,
  type PricingView,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import { capUsage, windowCapUsage } from '../../lib/spend-caps.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { AGENT_TYPES_MAX, a, firstDay, priceFor } from './queries.ts';

interface ActivationRow {
  id: string;
  organization_id: string;
  status: ActivationStatus;
  health_score: number | null;
  last_active_at: string | null;
  activated_at: string;
  type_id: string;
  code: string;
  name: string;
  kind: AgentKind;
  unit: string;
  type_status: AgentTypeStatus;
  price: string;
  events: number;
  units: string;
  credits: string;
  monthly_cap: CapUsage;
  daily_cap: WindowCapUsage;
  weekly_cap: WindowCapUsage;
}

/**
 * Activations of one organization with their usage of the last 30 UTC days (today
 * included): the live ones, or one by id (live or not). The live ones are found through the
 * index of live activations, the usage of each in the day totals of accepted events (at
 * most 30 rows an activation, however many events). Exported so a test can EXPLAIN it.
 */
export function activationsQuery(organizationId: string, activationId?: string) {
  return sql<ActivationRow>`
    select a.id, a.organization_id, a.status, a.health_score, a.last_active_at, a.activated_at,
      t.id as type_id, t.code, t.name, t.kind, t.unit, t.status as type_status, ${priceFor(sql.ref('a.organization_id'))} as price,
      u.events, u.units, u.credits, ${capUsage('activation', sql.ref('a.id'), sql.ref('a.monthly_cap'))} as monthly_cap,
      ${windowCapUsage('activation', 'day', sql.ref('a.id'), sql.ref('a.daily_cap'))} as daily_cap,
      ${windowCapUsage('activation', 'week', sql.ref('a.id'), sql.ref('a.weekly_cap'))} as weekly_cap
    from agent_activations a
    join agent_types t on t.id = a.agent_type_id
    cross join lateral (
      select coalesce(sum(d.events), 0)::int as events,
        coalesce(sum(d.units), 0)::numeric(30, 4)::text as units,
        coalesce(sum(d.charged), 0)::numeric(30, 2)::text as credits
      from usage_event_days d
      where d.organization_id = a.organization_id and d.day >= ${firstDay(30)} and d.agent_type_id = a.agent_type_id
    ) u
    where a.organization_id = ${organizationId}
      and ${activationId === undefined ? sql`a.deactivated_at is null` : sql`a.id = ${activationId}`}
    order by t.name, a.id
    limit ${AGENT_TYPES_MAX}`;
}

/** The activations as `view` allows: the organization's price per unit only where prices show (the margins rule). */
async function readActivations(
  executor: Executor,
  organizationId: string,
  view: Pick<PricingView, 'prices'>,
  activationId?: string,
): Promise<Activation[]> {
  const { rows } = await activationsQuery(organizationId, activationId).execute(executor);
  return rows.map((row) => ({
    id: row.id,
    organization_id: row.organization_id,
    agent_type: {
      id: row.type_id,
      code: row.code,
      name: row.name,
      kind: row.kind,
      unit: row.unit,
      price: view.prices ? row.price : null,
      status: row.type_status,
    },
    status: row.status,
    health_score: row.health_score,
    last_active_at: row.last_active_at,
    activated_at: row.activated_at,
    usage_30d: { events: row.events, units: row.units, credits: row.credits },
    monthly_cap: row.monthly_cap,
    daily_cap: row.daily_cap,
    weekly_cap: row.weekly_cap,
  }));
}

/** An organization's activations: listed, activated under its limit, deactivated. */
export function createActivations({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  /** The organization in the caller's read scope whose agents the caller may activate and deactivate. */
  async function manageable(caller: Caller, organizationId: string, executor: Executor) {
    const target = await organizations.visible(caller, organizationId, executor);
    if (!mayManageAgentsOf(caller, target)) throw new ForbiddenError(a.onlyOwnOrParentAdmins);
    return target;
  }

  /** The live activations of an organization in the caller's read scope, with the count and the limit. */
  async function listActivations(caller: Caller, organizationId: string): Promise<ActivationList> {
    const org = await organizations.visible(caller, organizationId);
    const activations = await readActivations(db, org.id, pricingViewOf(caller, org));
    return {
      organization_id: org.id,
      activations,
      active_agent_count: activations.length,
      activated_agent_limit: org.activated_agent_limit,
    };
  }

  /**
   * Activates an agent type for an organization, never beyond its activated agent limit.
   * The organization's billing row is locked first (limit changes lock it too, and it is
   * the only billing row held here), then the organization's row and the agent type's row
   * are shared, so a status change, a deletion or a retirement waits; the organization, the
   * type, the live activations and the limit are all read under those locks.
   */
  async function activate(caller: Caller, organizationId: string, agentTypeId: string, info: ClientInfo): Promise<Activation> {
    return db.transaction().execute(async (trx) => {
      const target = await manageable(caller, organizationId, trx);
      const billing = await trx
        .selectFrom('organization_billing_settings')
        .select('activated_agent_limit')
        .where('organization_id', '=', target.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      // Shared, so a status change or a deletion under way is waited for and seen, and none
      // starts before this commits (a deletion locks the billing row first, as here).
      const org = await trx
        .selectFrom('organizations')
        .select(['status', 'deleted_at'])
        .where('id', '=', target.id)
        .forShare()
        .executeTakeFirstOrThrow();
      if (org.deleted_at) throw new NotFoundError(MESSAGES.organizations.notFound);
      if (org.status !== 'active') throw new RuleError(a.organizationNotActive, 'organization_not_active');
      const type = await trx
        .selectFrom('agent_types')
        .select(['id', 'code', 'name', 'status'])
        .where('id', '=', agentTypeId)
        .forShare()
        .executeTakeFirst();
      if (!type) throw new RuleError(a.unknownAgentType, 'unknown_agent_type');
      if (type.status !== 'active') throw new RuleError(a.retired(type.name), 'agent_type_retired');
      const live = await trx
        .selectFrom('agent_activations')
        .select([sql<number>`count(*)::int`.as('n'), sql<boolean>`coalesce(bool_or(agent_type_id = ${type.id}), false)`.as('duplicate')])
        .where('organization_id', '=', target.id)
        .where('deactivated_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (live.duplicate) throw new ConflictError(a.alreadyActive(type.name));
      const limit = billing.activated_agent_limit;
      if (live.n >= limit) throw new RuleError(a.limitReached(live.n, limit), 'agent_limit_reached');
      const created = await trx
        .insertInto('agent_activations')
        .values({ organization_id: target.id, agent_type_id: type.id, activated_by: caller.userId })
        .returning('id')
        .executeTakeFirstOrThrow();
      await auditAction(trx, caller, info, {
        organizationId: target.id,
        action: 'agent.activate',
        targetType: 'agent_activation',
        targetId: created.id,
        details: { agent_type_id: type.id, code: type.code, active: live.n + 1, limit },
      });
      return (await readActivations(trx, target.id, pricingViewOf(caller, target), created.id))[0]!;
    });
  }

  /** Deactivates an activation of the organization; deactivating it again changes nothing. */
  async function deactivate(caller: Caller, organizationId: string, activationId: string, info: ClientInfo): Promise<Activation> {
    return db.transaction().execute(async (trx) => {
      const target = await manageable(caller, organizationId, trx);
      const row = await trx
        .selectFrom('agent_activations')
        .select(['id', 'agent_type_id', 'deactivated_at'])
        .where('id', '=', activationId)
        .where('organization_id', '=', target.id)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw new NotFoundError(a.activationNotFound);
      if (!row.deactivated_at) {
        await trx
          .updateTable('agent_activations')
          .set({ deactivated_at: sql`now()`, deactivated_by: caller.userId, status: 'inactive' })
          .where('id', '=', row.id)
          .execute();
        await auditAction(trx, caller, info, {
          organizationId: target.id,
          action: 'agent.deactivate',
          targetType: 'agent_activation',
          targetId: row.id,
          details: { agent_type_id: row.agent_type_id },
        });
      }
      return (await readActivations(trx, target.id, pricingViewOf(caller, target), row.id))[0]!;
    });
  }

  /**
   * Sets or removes a live activation's caps, each window's left out staying (its
   * organization's admins or its parent's, whose organization a refusal then names as the
   * setter). The organization's balance row is locked first, as each usage batch of it locks
   * it, so no batch is half-way through; a changed cap's window rows are dropped, to be
   * recounted from the day totals by the next batch that needs them.
   */
  async function setCap(
    caller: Caller,
    organizationId: string,
    activationId: string,
    caps: CapsInput,
    info: ClientInfo,
  ): Promise<Activation> {
    return db.transaction().execute(async (trx) => {
      const target = await organizations.visible(caller, organizationId, trx);
      if (!mayManageAgentsOf(caller, target)) throw new ForbiddenError(MESSAGES.spend.activationCapOnlyAdmins);
      await sql`select credit_balances_lock(array[${target.id}]::uuid[])`.execute(trx);
      const row = await trx
        .selectFrom('agent_activations')
        .select(['id', 'agent_type_id', 'monthly_cap', 'weekly_cap', 'daily_cap'])
        .where('id', '=', activationId)
        .where('organization_id', '=', target.id)
        .where('deactivated_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw new NotFoundError(MESSAGES.spend.activationNotFound);
      const windows = { monthly_cap: 'month', weekly_cap: 'week', daily_cap: 'day' } as const;
      const changed = (Object.keys(windows) as (keyof typeof windows)[]).filter((f) => caps[f] !== undefined && caps[f] !== row[f]);
      if (changed.length > 0) {
        const set = Object.fromEntries(changed.map((f) => [f, caps[f]]));
        await trx
          .updateTable('agent_activations')
          .set({ ...set, caps_set_by: caller.organization.id })
          .where('id', '=', row.id)
          .execute();
        await trx
          .deleteFrom('spend_cap_months')
          .where('scope', '=', 'activation')
          .where('scope_id', '=', row.id)
          .where(
            'kind',
            'in',
            changed.map((f) => windows[f]),
          )
          .execute();
        // The month cap keeps its audit shape (before, after); the day and week caps are told beside it.
        const audit = (f: keyof typeof windows) => ({ before: row[f], after: caps[f] === undefined ? row[f] : caps[f] });
        await auditAction(trx, caller, info, {
          organizationId: target.id,
          action: 'agent.cap',
          targetType: 'agent_activation',
          targetId: row.id,
          details: { agent_type_id: row.agent_type_id, ...audit('monthly_cap'), weekly: audit('weekly_cap'), daily: audit('daily_cap') },
        });
      }
      return (await readActivations(trx, target.id, pricingViewOf(caller, target), row.id))[0]!;
    });
  }

  return { listActivations, activate, deactivate, setCap };
}
