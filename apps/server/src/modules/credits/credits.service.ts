import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  MESSAGES,
  isOwnOrganization,
  ledgerSentence,
  mayAdjustBalance,
  mayAllocateFrom,
  personName,
  type AllocationInput,
  type AllocationResult,
  type EntryType,
  type LedgerEntry,
  type LedgerPage,
  type LedgerParams,
  type LedgerRow,
  type RefundResult,
  type UsageImportResult,
  type UsageRefundInput,
} from '@console/domain';
import { preparedStatement } from '../../db/connection.ts';
import type { CreditLedgerEntriesTable, DB, Executor } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requirePermission } from '../../lib/authorize.ts';
import { likeEscape } from '../../lib/sql.ts';
import type { Caller } from '../../lib/caller.ts';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { reconcile } from './reconcile.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { UsageEvent, UsageService } from '../usage/usage.service.ts';

const c = MESSAGES.credits;

/** One side of a movement: signed amount (an exact decimal string) on one organization. */
export interface Movement {
  organizationId: string;
  amount: string;
  type: EntryType;
  metadata: Record<string, unknown>;
  externalRef?: string | null;
  /** A refund's consumption (its external_ref). */
  refundOf?: string | null;
}

export interface MoveOptions {
  /** Every organization of the movement must be active, not only live (allocations). */
  requireActive?: boolean;
  /** Runs once the balance rows are locked, before anything is written: a check that must see them settled. */
  afterLock?: () => Promise<void>;
}

/** A refund as validated (the amount an exact string). */
type RefundInput = Omit<UsageRefundInput, 'amount'> & { amount: string };

/** How long an Idempotency-Key is remembered; a retry after that is a new request. */
const IDEMPOTENCY_WINDOW = sql`interval '24 hours'`;

/**
 * The SQLSTATE the money functions raise a refusal with; its message names the reason, and
 * its detail is the balance for insufficient_credits and the maximum for balance_limit.
 */
const REFUSED = 'CR001';
const REFUSALS = ['not_found', 'not_own_source', 'not_direct_child', 'organization_not_active', 'insufficient_credits', 'balance_limit', 'idempotency_conflict'] as const;
type Refusal = (typeof REFUSALS)[number];

function refusalOf(error: unknown): Refusal | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === REFUSED && REFUSALS.includes(message as Refusal) ? (message as Refusal) : null;
}

/** A refusal as the same HTTP error the service answered before the functions existed. */
function refusalError(reason: Exclude<Refusal, 'not_own_source'>, error: unknown): AppError {
  switch (reason) {
    case 'not_found':
      return new NotFoundError(MESSAGES.organizations.notFound);
    case 'not_direct_child':
      return new RuleError(c.notDirectChild, 'not_direct_child');
    case 'organization_not_active':
      return new RuleError(c.notActive, 'organization_not_active');
    case 'insufficient_credits':
      return new RuleError(c.insufficient(String((error as { detail?: unknown }).detail)), 'insufficient_credits');
    case 'balance_limit':
      return new RuleError(c.balanceLimit(String((error as { detail?: unknown }).detail)), 'balance_limit');
    case 'idempotency_conflict':
      return new ConflictError(c.idempotencyConflict);
  }
}

const negate = (amount: string) => (amount.startsWith('-') ? amount.slice(1) : `-${amount}`);

type EntryRow = Selectable<CreditLedgerEntriesTable>;

function toEntry(row: EntryRow): LedgerRow {
  return {
    id: row.id,
    organization_id: row.organization_id,
    amount: row.amount,
    entry_type: row.entry_type,
    transaction_group: row.transaction_group,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    balance_after: row.balance_after,
    external_ref: row.external_ref,
    agent_type_id: row.agent_type_id,
    units: row.units,
    created_by: row.created_by,
    created_at: row.created_at,
  };
}

/** The day after a YYYY-MM-DD date: an inclusive end date runs to the start of the next day. */
function upperBound(to: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(to)) return to;
  const next = new Date(`${to}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

interface AllocationCall {
  user: string;
  org: string;
  reach: string;
  sourceOk: boolean;
  to: string;
  amount: string;
  notes: string | null;
  key: string | null;
  requestHash: string;
  ip: string | null;
  requestId: string | null;
}

/** The allocation's one statement (db/rules/functions); its text never changes, only the values. */
const allocation = (a: AllocationCall) => sql<{ result: AllocationResult }>`
  select credits_allocate(${a.user}::uuid, ${a.org}::uuid, ${a.reach}::text, ${a.sourceOk}::boolean, ${a.to}::uuid,
    ${a.amount}::text, ${a.notes}::text, ${a.key}::text, ${a.requestHash}::text, ${IDEMPOTENCY_WINDOW},
    ${a.ip}::text, ${a.requestId}::text) as result`;

interface AdjustmentCall {
  user: string;
  org: string;
  amount: string;
  magnitude: string;
  reason: string;
  ip: string | null;
  requestId: string | null;
}

/** The adjustment's one statement (db/rules/functions); its text never changes, only the values. */
const adjustment = (a: AdjustmentCall) => sql<EntryRow>`
  select * from credits_adjust(${a.user}::uuid, ${a.org}::uuid, ${a.amount}::text, ${a.magnitude}::text,
    ${a.reason}::text, ${a.ip}::text, ${a.requestId}::text)`;

export function createCreditsService({ db, organizations, usage }: { db: Kysely<DB>; organizations: OrganizationsService; usage: UsageService }) {
  // Every allocation, and every adjustment, sends the same text: on PostgreSQL each connection parses it once.
  preparedStatement(allocation({ user: '', org: '', reach: '', sourceOk: false, to: '', amount: '', notes: null, key: null, requestHash: '', ip: null, requestId: null }).compile(db).sql);
  preparedStatement(adjustment({ user: '', org: '', amount: '', magnitude: '', reason: '', ip: null, requestId: null }).compile(db).sql);

  /**
   * Posts movements through `ledger_post`, the one writer of the ledger and balances, in the
   * caller's transaction: it locks every balance row touched in id order, re-checks under the
   * locks that each organization is live (and active, where asked) and that no balance goes
   * below zero or above the maximum, and appends one entry per movement with its
   * balance_after. `afterLock` runs once the rows are locked, before anything is written.
   */
  async function move(trx: Transaction<DB>, movements: Movement[], group: string, createdBy: string | null, options: MoveOptions = {}) {
    if (options.afterLock) {
      const ids = [...new Set(movements.map((mv) => mv.organizationId))];
      await sql`select credit_balances_lock(${ids}::uuid[])`.execute(trx);
      await options.afterLock();
    }
    const column = <T,>(pick: (mv: Movement) => T) => movements.map(pick);
    try {
      const { rows } = await sql<EntryRow>`
        select * from ledger_post(${group}::uuid, ${createdBy}::uuid, ${options.requireActive ?? false}::boolean,
          ${column((mv) => mv.organizationId)}::uuid[], ${column((mv) => mv.amount)}::numeric[], ${column((mv) => mv.type)}::text[],
          ${column((mv) => JSON.stringify(mv.metadata))}::jsonb[], ${column((mv) => mv.externalRef ?? null)}::text[],
          ${column((mv) => mv.refundOf ?? null)}::text[])`.execute(trx);
      return rows.map(toEntry);
    } catch (error) {
      const reason = refusalOf(error);
      throw reason && reason !== 'not_own_source' ? refusalError(reason, error) : error;
    }
  }

  /**
   * Refuses a refund that names no consumption of the organization, or that would give back
   * more than the consumption took minus its refunds so far. Called with the balance row locked.
   */
  async function refundable(trx: Transaction<DB>, organizationId: string, consumptionRef: string, amount: string) {
    const { rows } = await sql<{ consumed: string | null; left: string | null; fits: boolean | null }>`
      with consumed as (
        select -sum(amount) as total from credit_ledger_entries
        where organization_id = ${organizationId} and entry_type = 'consumption' and external_ref = ${consumptionRef}
      ),
      refunded as (
        select coalesce(sum(amount), 0) as total from credit_ledger_entries
        where organization_id = ${organizationId} and refund_of = ${consumptionRef}
      )
      select consumed.total::text as consumed, (consumed.total - refunded.total)::numeric(16,2)::text as left,
             consumed.total - refunded.total >= ${amount}::numeric as fits
      from consumed, refunded`.execute(trx);
    const row = rows[0]!;
    if (row.consumed === null) throw new RuleError(c.refundUnknownConsumption(consumptionRef), 'refund_without_consumption');
    if (!row.fits) throw new RuleError(c.refundExceeds(row.left!), 'refund_exceeds_consumption');
  }

  function ledgerQuery(executor: Executor, organizationId: string, params: LedgerParams) {
    let query = executor.selectFrom('credit_ledger_entries').selectAll().where('organization_id', '=', organizationId);
    if (params.entry_type) query = query.where('entry_type', '=', params.entry_type);
    // Served by the partial index of entries that name an agent type.
    if (params.agent_type_id) query = query.where('agent_type_id', '=', params.agent_type_id);
    if (params.from) query = query.where('created_at', '>=', new Date(params.from).toISOString());
    if (params.to) query = query.where('created_at', '<', new Date(upperBound(params.to)).toISOString());
    if (params.amount_min !== undefined) query = query.where('amount', '>=', String(params.amount_min));
    if (params.amount_max !== undefined) query = query.where('amount', '<=', String(params.amount_max));
    if (params.q) {
      const pattern = `%${likeEscape(params.q)}%`;
      // Within the organization's entries (and the other filters): what a person typed in a note,
      // a reason, the other organization's name, the agent's code or the external reference.
      query = query.where(
        sql<boolean>`(metadata->>'notes' ilike ${pattern} or metadata->>'reason' ilike ${pattern} or metadata->>'to_org_name' ilike ${pattern}
          or metadata->>'from_org_name' ilike ${pattern} or metadata->>'agent' ilike ${pattern} or external_ref ilike ${pattern})`,
      );
    }
    return query;
  }

  /** Newest first, keyed by (created_at, seq): a page costs the same at any depth. */
  async function page(executor: Executor, organizationId: string, params: LedgerParams, cursor: string | undefined, limit: number) {
    let query = ledgerQuery(executor, organizationId, params);
    if (cursor !== undefined) {
      // A cursor is a seq: a bigint, so 19 digits may still overflow it.
      if (!/^\d{1,19}$/.test(cursor) || BigInt(cursor) > 2n ** 63n - 1n) throw new BadRequestError(c.invalidCursor);
      query = query.where(
        sql<boolean>`(created_at, seq) < (select c.created_at, c.seq from credit_ledger_entries c where c.seq = ${cursor}::bigint)`,
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(limit + 1).execute();
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    return { rows: shown, nextCursor: more ? String(shown[shown.length - 1]!.seq) : null };
  }

  /**
   * A refund of an earlier consumption of an organization in the caller's subtree: it names
   * that consumption (`refund_of`: the usage event's id, which is its entry's external_ref)
   * and, with the refunds of it before, never exceeds what it took, so credits are only
   * given back, never made. `external_ref` makes it idempotent; an organization out of
   * reach, or a rule it breaks, rejects this refund alone.
   */
  async function refund(caller: Caller, record: RefundInput, info: ClientInfo): Promise<RefundResult> {
    const rejected = (message: string): RefundResult => ({ external_ref: record.external_ref, status: 'rejected', entry_id: null, message });
    const org = await organizations.visible(caller, record.organization_id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!org) return rejected(MESSAGES.usage.outOfReach);
    const existing = await db
      .selectFrom('credit_ledger_entries')
      .select(['id', 'entry_type', 'refund_of'])
      .where('organization_id', '=', org.id)
      .where('external_ref', '=', record.external_ref)
      .executeTakeFirst();
    if (existing) {
      return existing.entry_type === 'refund' && existing.refund_of === record.refund_of
        ? { external_ref: record.external_ref, status: 'duplicate', entry_id: existing.id, message: null }
        : rejected(MESSAGES.usage.refundIdTaken);
    }
    try {
      const entry = await db.transaction().execute(async (trx) => {
        const [created] = await move(
          trx,
          [
            {
              organizationId: org.id,
              amount: record.amount,
              type: 'refund',
              metadata: { refund_of: record.refund_of, ...(record.reason && { reason: record.reason, notes: record.reason }) },
              externalRef: record.external_ref,
              refundOf: record.refund_of,
            },
          ],
          randomUUID(),
          caller.userId,
          // Refunds of one consumption all lock its organization's balance row, so each sees the ones before it.
          { afterLock: () => refundable(trx, org.id, record.refund_of, record.amount) },
        );
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: org.id,
          action: 'credits.refund',
          targetType: 'organization',
          targetId: org.id,
          details: { amount: record.amount, external_ref: record.external_ref, refund_of: record.refund_of, ...(record.reason && { reason: record.reason }) },
          ...info,
        });
        return created!;
      });
      return { external_ref: record.external_ref, status: 'recorded', entry_id: entry.id, message: null };
    } catch (error) {
      // The same refund recorded by a request racing this one.
      if ((error as { code?: string }).code === '23505') return { external_ref: record.external_ref, status: 'duplicate', entry_id: null, message: null };
      // An organization deleted meanwhile, or a rule the refund breaks.
      if (error instanceof RuleError || error instanceof NotFoundError) return rejected(error.message);
      throw error;
    }
  }

  const readable = (caller: Caller, organizationId: string | undefined) =>
    organizations.visible(caller, organizationId ?? caller.organization.id);

  /**
   * The page's entries as the ledger shows them: the person who moved the credits, the other
   * organization of an allocation (by its name now, and whether the caller may open it) and
   * the sentence naming a consumption's agent from the catalog. Three reads for the whole
   * page, by primary key.
   */
  async function described(caller: Caller, rows: EntryRow[]): Promise<LedgerEntry[]> {
    const counterpartyOf = (row: EntryRow) => {
      const meta = (row.metadata ?? {}) as { to_org_id?: unknown; from_org_id?: unknown };
      const id = row.entry_type === 'allocation_sent' ? meta.to_org_id : row.entry_type === 'allocation_received' || row.entry_type === 'initial_balance' ? meta.from_org_id : null;
      return typeof id === 'string' ? id : null;
    };
    const userIds = [...new Set(rows.map((row) => row.created_by).filter((id): id is string => !!id))];
    const orgIds = [...new Set(rows.map(counterpartyOf).filter((id): id is string => !!id))];
    const agentIds = [...new Set(rows.map((row) => row.agent_type_id).filter((id): id is string => !!id))];
    const [people, orgs, agents] = await Promise.all([
      userIds.length ? db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email']).where('id', 'in', userIds).execute() : [],
      orgIds.length ? db.selectFrom('organizations').select(['id', 'name', 'path', 'deleted_at']).where('id', 'in', orgIds).execute() : [],
      agentIds.length ? db.selectFrom('agent_types').select(['id', 'name', 'unit']).where('id', 'in', agentIds).execute() : [],
    ]);
    const agentById = new Map(agents.map((agent) => [agent.id, agent]));
    const personById = new Map(people.map((person) => [person.id, { id: person.id, name: personName(person), email: person.email }]));
    const orgById = new Map(
      orgs.map((org) => [org.id, { id: org.id, name: org.name, in_scope: !org.deleted_at && org.path.startsWith(caller.organization.path) }]),
    );
    return rows.map((row) => {
      const entry = toEntry(row);
      const actor = row.created_by ? (personById.get(row.created_by) ?? null) : null;
      const otherId = counterpartyOf(row);
      const meta = entry.metadata as { to_org_name?: unknown; from_org_name?: unknown };
      const storedName = typeof (meta.to_org_name ?? meta.from_org_name) === 'string' ? String(meta.to_org_name ?? meta.from_org_name) : null;
      const counterparty = otherId ? (orgById.get(otherId) ?? { id: otherId, name: storedName ?? otherId, in_scope: false }) : null;
      const agent = row.agent_type_id ? (agentById.get(row.agent_type_id) ?? null) : null;
      const description = ledgerSentence({ ...entry, actor: actor?.name ?? null, counterparty: counterparty?.name ?? null, agent });
      return { ...entry, actor, counterparty, description };
    });
  }

  return {
    move,

    /**
     * One call of `credits_allocate` (db/rules/functions), run as a single statement outside any
     * transaction: idempotency, scope, locks, movement, entries, audit row and the recorded
     * answer in one round trip. The caller's facts come from authentication; the function
     * re-reads the target's and, under the locks, both organizations'.
     */
    async allocate(caller: Caller, input: AllocationInput & { amount: string }, idempotencyKey: string | null, info: ClientInfo): Promise<AllocationResult> {
      const request = { from_org_id: input.from_org_id, to_org_id: input.to_org_id, amount: input.amount, notes: input.notes ?? null };
      const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
      try {
        const { rows } = await allocation({
          user: caller.userId,
          org: caller.organization.id,
          reach: caller.organization.path,
          sourceOk: mayAllocateFrom(caller, { id: input.from_org_id }),
          to: input.to_org_id,
          amount: input.amount,
          notes: request.notes,
          key: idempotencyKey,
          requestHash,
          ip: info.ip,
          requestId: info.requestId,
        }).execute(db);
        return rows[0]!.result;
      } catch (error) {
        const reason = refusalOf(error);
        // Another organization than the caller's own: 404 when the caller cannot see it, else 403.
        if (reason === 'not_own_source') {
          await organizations.visible(caller, input.from_org_id);
          throw new ForbiddenError(c.onlyOwnOrganization);
        }
        throw reason ? refusalError(reason, error) : error;
      }
    },

    /** Credits enter or leave the system here: house admins, on their own house, with a reason. */
    async adjust(caller: Caller, input: { organization_id?: string; direction: 'increase' | 'decrease'; amount: string; reason: string }, info: ClientInfo): Promise<LedgerRow> {
      const target = input.organization_id ?? caller.organization.id;
      if (!mayAdjustBalance(caller, { id: target })) {
        // Another organization outside the caller's subtree answers 404, like everywhere else.
        if (!isOwnOrganization(caller, { id: target })) await organizations.visible(caller, target);
        throw new ForbiddenError(c.adjustOnlyHouse);
      }
      // One call of `credits_adjust` (db/rules/functions), a single statement: the lock, the
      // checks under it, the balance, the entry and the audit row in one round trip.
      const amount = input.direction === 'increase' ? input.amount : negate(input.amount);
      try {
        const { rows } = await adjustment({
          user: caller.userId,
          org: target,
          amount,
          magnitude: input.amount,
          reason: input.reason,
          ip: info.ip,
          requestId: info.requestId,
        }).execute(db);
        return toEntry(rows[0]!);
      } catch (error) {
        const reason = refusalOf(error);
        throw reason && reason !== 'not_own_source' ? refusalError(reason, error) : error;
      }
    },

    /**
     * The console's usage import (the route requires credits.import_usage): usage events for
     * the caller's whole tree, charged by the same engine as the machine API (each idempotent
     * by its id per organization, one outcome per event), then refunds, each standing alone.
     */
    async importUsage(caller: Caller, input: { events?: UsageEvent[]; refunds?: RefundInput[] }, info: ClientInfo): Promise<UsageImportResult> {
      const events = input.events ?? [];
      const batch = events.length > 0 ? await usage.record({ kind: 'user', caller }, events, info) : { results: [], accepted: 0, duplicates: 0, rejected: 0 };
      const refunds: RefundResult[] = [];
      // After the events, so a refund may name an event of the same import.
      for (const record of input.refunds ?? []) refunds.push(await refund(caller, record, info));
      return { ...batch, refunds };
    },

    /**
     * An organization created with credits: they move from its parent (an allocation_sent
     * on the parent, an initial_balance on the child, one transaction group), so none are made.
     */
    async moveInitialBalance(trx: Transaction<DB>, caller: Caller, child: { id: string; name: string }, amount: string, info: ClientInfo) {
      requirePermission(caller, 'organizations.allocate_credits');
      const group = randomUUID();
      await move(
        trx,
        [
          { organizationId: caller.organization.id, amount: negate(amount), type: 'allocation_sent', metadata: { to_org_id: child.id, to_org_name: child.name, notes: 'Initial balance' } },
          { organizationId: child.id, amount, type: 'initial_balance', metadata: { from_org_id: caller.organization.id, from_org_name: caller.organization.name, notes: 'Initial balance' } },
        ],
        group,
        caller.userId,
        { requireActive: true },
      );
      await writeAudit(trx, {
        actorUserId: caller.userId,
        organizationId: caller.organization.id,
        action: 'credits.initial_balance',
        targetType: 'organization',
        targetId: child.id,
        details: { amount, transaction_group: group },
        ...info,
      });
    },

    async ledger(caller: Caller, params: LedgerParams): Promise<LedgerPage> {
      const org = await readable(caller, params.organization_id);
      const { rows, nextCursor } = await page(db, org.id, params, params.cursor, params.limit);
      return { entries: await described(caller, rows), next_cursor: nextCursor, credit_balance: org.credit_balance, low_balance_threshold: org.low_balance_threshold };
    },

    /** Every filtered entry, newest first, fetched a page at a time so memory stays flat. */
    async *exportRows(caller: Caller, params: LedgerParams): AsyncGenerator<LedgerEntry> {
      const org = await readable(caller, params.organization_id);
      let cursor: string | undefined;
      do {
        const batch = await page(db, org.id, params, cursor, 1000);
        for (const entry of await described(caller, batch.rows)) yield entry;
        cursor = batch.nextCursor ?? undefined;
      } while (cursor);
    },

    reconcile: () => reconcile(db),
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;
