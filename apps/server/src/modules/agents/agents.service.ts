import { sql, type Kysely } from 'kysely';
import {
  MESSAGES,
  mayManageAgentsOf,
  mayManageCatalog,
  type Activation,
  type ActivationList,
  type ActivationStatus,
  type AgentKind,
  type AgentType,
  type AgentTypeStatus,
  type UsageSummary,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

const a = MESSAGES.agents;

/**
 * The catalog holds at most this many agent types, so its list, and an organization's live
 * activations (one per type at most), are always whole.
 */
export const AGENT_TYPES_MAX = 1000;

export interface AgentTypeInput {
  code: string;
  name: string;
  description?: string;
  kind: AgentKind;
  unit: string;
  /** Credits per unit, four decimals. */
  price: string;
}

export type AgentTypeChanges = Partial<Omit<AgentTypeInput, 'code'>>;

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** The price in force now: every price takes effect when it is written, so it is the latest. */
const currentPrice = sql<string>`(select p.price::text from agent_prices p
  where p.agent_type_id = t.id order by p.effective_from desc limit 1)`;

function typesQuery(executor: Executor) {
  return executor
    .selectFrom('agent_types as t')
    .select(['t.id', 't.code', 't.name', 't.description', 't.kind', 't.unit', 't.status', 't.created_at', 't.updated_at', 't.retired_at', currentPrice.as('price')]);
}

type TypeRow = Awaited<ReturnType<ReturnType<typeof typesQuery>['executeTakeFirstOrThrow']>>;

function toAgentType(row: TypeRow): AgentType {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    kind: row.kind,
    unit: row.unit,
    price: row.price,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    retired_at: iso(row.retired_at),
  };
}

interface ActivationRow {
  id: string;
  organization_id: string;
  status: ActivationStatus;
  health_score: number | null;
  last_active_at: Date | string | null;
  activated_at: Date | string;
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
}

/** The first UTC day of a window of `days` days ending today (UTC). */
const firstDay = (days: number) => sql`((now() at time zone 'UTC')::date - ${days - 1}::int)`;

/**
 * Activations of one organization with their usage of the last 30 UTC days (today
 * included): the live ones, or one by id (live or not). The live ones are found through the
 * index of live activations, the usage of each in the day totals of accepted events (at
 * most 30 rows an activation, however many events). Exported so a test can EXPLAIN it.
 */
export function activationsQuery(organizationId: string, activationId?: string) {
  return sql<ActivationRow>`
    select a.id, a.organization_id, a.status, a.health_score, a.last_active_at, a.activated_at,
      t.id as type_id, t.code, t.name, t.kind, t.unit, t.status as type_status, ${currentPrice} as price,
      u.events, u.units, u.credits
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

async function readActivations(executor: Executor, organizationId: string, activationId?: string): Promise<Activation[]> {
  const { rows } = await activationsQuery(organizationId, activationId).execute(executor);
  return rows.map((row) => ({
    id: row.id,
    organization_id: row.organization_id,
    agent_type: { id: row.type_id, code: row.code, name: row.name, kind: row.kind, unit: row.unit, price: row.price, status: row.type_status },
    status: row.status,
    health_score: row.health_score,
    last_active_at: iso(row.last_active_at),
    activated_at: iso(row.activated_at)!,
    usage_30d: { events: row.events, units: row.units, credits: row.credits },
  }));
}

/** Two requests saved the same unique value at once. */
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

const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';

export function createAgentsService({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  function requireCatalogManager(caller: Caller) {
    if (!mayManageCatalog(caller)) throw new ForbiddenError(a.catalogOnlyHouseAdmins);
  }

  async function readType(executor: Executor, id: string): Promise<AgentType> {
    return toAgentType(await typesQuery(executor).where('t.id', '=', id).executeTakeFirstOrThrow());
  }

  /** The organization in the caller's read scope whose agents the caller may activate and deactivate. */
  async function manageable(caller: Caller, organizationId: string, executor: Executor) {
    const target = await organizations.visible(caller, organizationId, executor);
    if (!mayManageAgentsOf(caller, target)) throw new ForbiddenError(a.onlyOwnOrParentAdmins);
    return target;
  }

  return {
    /** Every agent type with its current price, by name (retired ones too). */
    async listTypes(): Promise<{ agent_types: AgentType[] }> {
      const rows = await typesQuery(db).orderBy('t.name').orderBy('t.id').limit(AGENT_TYPES_MAX).execute();
      return { agent_types: rows.map(toAgentType) };
    },

    /** A new agent type and its first price, in force from now. */
    async createType(caller: Caller, input: AgentTypeInput, info: ClientInfo): Promise<AgentType> {
      requireCatalogManager(caller);
      try {
        return await db.transaction().execute(async (trx) => {
          const taken = await trx.selectFrom('agent_types').select('id').where('code', '=', input.code).executeTakeFirst();
          if (taken) throw new ConflictError(a.codeTaken(input.code));
          const count = await trx.selectFrom('agent_types').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
          if (count.n >= AGENT_TYPES_MAX) throw new RuleError(a.catalogFull(AGENT_TYPES_MAX), 'catalog_full');
          const created = await trx
            .insertInto('agent_types')
            .values({
              code: input.code,
              name: input.name,
              description: input.description || null,
              kind: input.kind,
              unit: input.unit,
              created_by: caller.userId,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('agent_prices')
            .values({ agent_type_id: created.id, effective_from: sql<Date>`clock_timestamp()`, price: input.price, created_by: caller.userId })
            .execute();
          await writeAudit(trx, {
            actorUserId: caller.userId,
            organizationId: caller.organization.id,
            action: 'agent_type.create',
            targetType: 'agent_type',
            targetId: created.id,
            details: { code: input.code, name: input.name, kind: input.kind, unit: input.unit, price: input.price },
            ...info,
          });
          return readType(trx, created.id);
        });
      } catch (error) {
        // The only unique value of a new type is its code: another request saved it meanwhile.
        if (isUniqueViolation(error)) throw new ConflictError(a.codeTaken(input.code));
        throw error;
      }
    },

    /**
     * Edits an agent type. A new price is a new price row in force from now: events that
     * occurred before it keep the price of their time. The type's row is locked, so two
     * price changes of one type get distinct, ordered times.
     */
    async updateType(caller: Caller, id: string, changes: AgentTypeChanges, info: ClientInfo): Promise<AgentType> {
      requireCatalogManager(caller);
      return db.transaction().execute(async (trx) => {
        // No key update: usage events referring to the type (a key share lock) never wait on it.
        const locked = await trx.selectFrom('agent_types').select('id').where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
        if (!locked) throw new NotFoundError(a.typeNotFound);
        const before = await readType(trx, id);
        const fields = {
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.description !== undefined && { description: changes.description || null }),
          ...(changes.kind !== undefined && { kind: changes.kind }),
          ...(changes.unit !== undefined && { unit: changes.unit }),
        };
        const newPrice = changes.price !== undefined && changes.price !== before.price ? changes.price : undefined;
        await trx
          .updateTable('agent_types')
          .set({ ...fields, updated_at: sql`now()` })
          .where('id', '=', id)
          .execute();
        if (newPrice !== undefined) {
          await trx
            .insertInto('agent_prices')
            .values({ agent_type_id: id, effective_from: sql<Date>`clock_timestamp()`, price: newPrice, created_by: caller.userId })
            .execute();
        }
        const after = { ...fields, ...(newPrice !== undefined && { price: newPrice }) };
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: caller.organization.id,
          action: 'agent_type.update',
          targetType: 'agent_type',
          targetId: id,
          details: {
            before: Object.fromEntries(Object.keys(after).map((k) => [k, before[k as keyof AgentType]])),
            after,
          },
          ...info,
        });
        return readType(trx, id);
      });
    },

    /** Retired: no new activations; the live ones keep running and are still charged. Retiring again changes nothing. */
    async retireType(caller: Caller, id: string, info: ClientInfo): Promise<AgentType> {
      requireCatalogManager(caller);
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('agent_types').select(['id', 'status']).where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
        if (!row) throw new NotFoundError(a.typeNotFound);
        if (row.status === 'active') {
          await trx
            .updateTable('agent_types')
            .set({ status: 'retired', retired_at: sql`now()`, updated_at: sql`now()` })
            .where('id', '=', id)
            .execute();
          await writeAudit(trx, {
            actorUserId: caller.userId,
            organizationId: caller.organization.id,
            action: 'agent_type.retire',
            targetType: 'agent_type',
            targetId: id,
            ...info,
          });
        }
        return readType(trx, id);
      });
    },

    /** The live activations of an organization in the caller's read scope, with the count and the limit. */
    async listActivations(caller: Caller, organizationId: string): Promise<ActivationList> {
      const org = await organizations.visible(caller, organizationId);
      const activations = await readActivations(db, org.id);
      return {
        organization_id: org.id,
        activations,
        active_agent_count: activations.length,
        activated_agent_limit: org.activated_agent_limit,
      };
    },

    /**
     * Activates an agent type for an organization, never beyond its activated agent limit.
     * The organization's billing row is locked first (limit changes lock it too, and it is
     * the only billing row held here), then the organization's row and the agent type's row
     * are shared, so a status change, a deletion or a retirement waits; the organization, the
     * type, the live activations and the limit are all read under those locks.
     */
    async activate(caller: Caller, organizationId: string, agentTypeId: string, info: ClientInfo): Promise<Activation> {
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
        const org = await trx.selectFrom('organizations').select(['status', 'deleted_at']).where('id', '=', target.id).forShare().executeTakeFirstOrThrow();
        if (org.deleted_at) throw new NotFoundError(MESSAGES.organizations.notFound);
        if (org.status !== 'active') throw new RuleError(a.organizationNotActive, 'organization_not_active');
        const type = await trx.selectFrom('agent_types').select(['id', 'code', 'name', 'status']).where('id', '=', agentTypeId).forShare().executeTakeFirst();
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
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: target.id,
          action: 'agent.activate',
          targetType: 'agent_activation',
          targetId: created.id,
          details: { agent_type_id: type.id, code: type.code, active: live.n + 1, limit },
          ...info,
        });
        return (await readActivations(trx, target.id, created.id))[0]!;
      });
    },

    /** Deactivates an activation of the organization; deactivating it again changes nothing. */
    async deactivate(caller: Caller, organizationId: string, activationId: string, info: ClientInfo): Promise<Activation> {
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
          await writeAudit(trx, {
            actorUserId: caller.userId,
            organizationId: target.id,
            action: 'agent.deactivate',
            targetType: 'agent_activation',
            targetId: row.id,
            details: { agent_type_id: row.agent_type_id },
            ...info,
          });
        }
        return (await readActivations(trx, target.id, row.id))[0]!;
      });
    },

    /**
     * Usage of an organization over the last 7 or 30 UTC days (today included): by agent
     * type, most credits first, and by day, every day of the window. Read from the day
     * totals of accepted events, so it costs at most a row per day and agent type however
     * many events there were.
     */
    async usage(caller: Caller, organizationId: string, days: 7 | 30): Promise<UsageSummary> {
      const org = await organizations.visible(caller, organizationId);
      const [byAgent, byDay] = await Promise.all([usageByAgentQuery(org.id, days).execute(db), usageByDayQuery(org.id, days).execute(db)]);
      return { organization_id: org.id, days, by_agent: byAgent.rows, by_day: byDay.rows };
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
