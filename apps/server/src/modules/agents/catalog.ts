import { sql, type Kysely, type RawBuilder } from 'kysely';
import { mayManageCatalog, type AgentKind, type AgentType } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { PricingService } from '../pricing/pricing.service.ts';
import { AGENT_TYPES_MAX, a, currentPrice, priceFor } from './queries.ts';

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

/** The types with a price: the catalog's unless another is asked for (priceFor an organization). */
function typesQuery(executor: Executor, price: RawBuilder<string> = currentPrice) {
  return executor
    .selectFrom('agent_types as t')
    .select([
      't.id',
      't.code',
      't.name',
      't.description',
      't.kind',
      't.unit',
      't.status',
      't.created_at',
      't.updated_at',
      't.retired_at',
      price.as('price'),
    ]);
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
    retired_at: row.retired_at,
  };
}

/** Two requests saved the same unique value at once. */

const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';

/** The agent catalog: its types and their prices, kept by house admins. */
export function createCatalog({ db, pricing }: { db: Kysely<DB>; pricing: Pick<PricingService, 'tellFlooredSellers'> }) {
  function requireCatalogManager(caller: Caller) {
    if (!mayManageCatalog(caller)) throw new ForbiddenError(a.catalogOnlyHouseAdmins);
  }

  async function readType(executor: Executor, id: string): Promise<AgentType> {
    return toAgentType(await typesQuery(executor).where('t.id', '=', id).executeTakeFirstOrThrow());
  }

  /**
   * Every agent type, by name (retired ones too), with the price the caller's organization
   * pays: the catalog's for the house, its own price (after its sellers' books) elsewhere.
   */
  async function listTypes(caller: Caller): Promise<{ agent_types: AgentType[] }> {
    const rows = await typesQuery(db, priceFor(caller.organization.id)).orderBy('t.name').orderBy('t.id').limit(AGENT_TYPES_MAX).execute();
    return { agent_types: rows.map(toAgentType) };
  }

  /** A new agent type and its first price, in force from now. */
  async function createType(caller: Caller, input: AgentTypeInput, info: ClientInfo): Promise<AgentType> {
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
          .values({
            agent_type_id: created.id,
            effective_from: sql<Date>`clock_timestamp()`,
            price: input.price,
            created_by: caller.userId,
          })
          .execute();
        await auditAction(trx, caller, info, {
          organizationId: caller.organization.id,
          action: 'agent_type.create',
          targetType: 'agent_type',
          targetId: created.id,
          details: { code: input.code, name: input.name, kind: input.kind, unit: input.unit, price: input.price },
        });
        return readType(trx, created.id);
      });
    } catch (error) {
      // The only unique value of a new type is its code: another request saved it meanwhile.
      if (isUniqueViolation(error)) throw new ConflictError(a.codeTaken(input.code));
      throw error;
    }
  }

  /**
   * Edits an agent type. A new price is a new price row in force from now: events that
   * occurred before it keep the price of their time; a seller whose book it overtakes is mailed. The type's row is locked, so two
   * price changes of one type get distinct, ordered times.
   */
  async function updateType(caller: Caller, id: string, changes: AgentTypeChanges, info: ClientInfo): Promise<AgentType> {
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
      // Sellers whose book the new catalog price overtakes are told: their children pay it now.
      if (newPrice !== undefined) await pricing.tellFlooredSellers(trx, id);
      const after = { ...fields, ...(newPrice !== undefined && { price: newPrice }) };
      await auditAction(trx, caller, info, {
        organizationId: caller.organization.id,
        action: 'agent_type.update',
        targetType: 'agent_type',
        targetId: id,
        details: { before: Object.fromEntries(Object.keys(after).map((k) => [k, before[k as keyof AgentType]])), after },
      });
      return readType(trx, id);
    });
  }

  /** Retired: no new activations; the live ones keep running and are still charged. Retiring again changes nothing. */
  async function retireType(caller: Caller, id: string, info: ClientInfo): Promise<AgentType> {
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
        await auditAction(trx, caller, info, {
          organizationId: caller.organization.id,
          action: 'agent_type.retire',
          targetType: 'agent_type',
          targetId: id,
        });
      }
      return readType(trx, id);
    });
  }

  return { listTypes, createType, updateType, retireType };
}
