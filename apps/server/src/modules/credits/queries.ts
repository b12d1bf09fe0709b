import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { GRANT_MESSAGES, MESSAGES, type EntryType, type LedgerRow } from '@console/domain';
import type { CreditLedgerEntriesTable, DB } from '../../db/schema.ts';
import { AppError, ConflictError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { UsageService } from '../usage/usage.service.ts';

export const c = MESSAGES.credits;

/** What each use case of the module is built from. */
export interface CreditsDeps {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  usage: UsageService;
}

/** One side of a movement: signed amount (an exact decimal string) on one organization. */
export interface Movement {
  organizationId: string;
  amount: string;
  type: EntryType;
  metadata: Record<string, unknown>;
  externalRef?: string | null;
  /** A refund's consumption (its external_ref). */
  refundOf?: string | null;
  /** A debit's draws from named grants ({grant id: amount}); absent: drawn by the ledger's rule. */
  draws?: Record<string, string> | null;
}

export interface MoveOptions {
  /** Every organization of the movement must be active, not only live (allocations). */
  requireActive?: boolean;
  /** Runs once the balance rows are locked, before anything is written: a check that must see them settled. */
  afterLock?: () => Promise<void>;
}

/**
 * The SQLSTATE the money functions raise a refusal with; its message names the reason, and
 * its detail is the balance for insufficient_credits and the maximum for balance_limit.
 */
const REFUSED = 'CR001';
const REFUSALS = [
  'not_found',
  'not_own_source',
  'not_direct_child',
  'organization_not_active',
  'insufficient_credits',
  'balance_limit',
  'idempotency_conflict',
] as const;
type Refusal = (typeof REFUSALS)[number];

export function refusalOf(error: unknown): Refusal | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === REFUSED && REFUSALS.includes(message as Refusal) ? (message as Refusal) : null;
}

/** A refusal as the same HTTP error the service answered before the functions existed. */
export function refusalError(reason: Exclude<Refusal, 'not_own_source'>, error: unknown): AppError {
  switch (reason) {
    case 'not_found':
      return new NotFoundError(MESSAGES.organizations.notFound);
    case 'not_direct_child':
      return new RuleError(c.notDirectChild, 'not_direct_child');
    case 'organization_not_active':
      return new RuleError(c.notActive, 'organization_not_active');
    case 'insufficient_credits': {
      const { detail, hint } = error as { detail?: unknown; hint?: unknown };
      // 'spendable': the balance held enough, but not in credits this debit may draw (grants for some agents only, or expired).
      const message = hint === 'spendable' ? GRANT_MESSAGES.notSpendable(String(detail)) : c.insufficient(String(detail));
      return new RuleError(message, 'insufficient_credits');
    }
    case 'balance_limit':
      return new RuleError(c.balanceLimit(String((error as { detail?: unknown }).detail)), 'balance_limit');
    case 'idempotency_conflict':
      return new ConflictError(c.idempotencyConflict);
  }
}

export const negate = (amount: string) => (amount.startsWith('-') ? amount.slice(1) : `-${amount}`);

export type EntryRow = Selectable<CreditLedgerEntriesTable>;

export function toEntry(row: EntryRow): LedgerRow {
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

/**
 * Posts movements through `ledger_post`, the one writer of the ledger and balances, in the
 * caller's transaction: it locks every balance row touched in id order, re-checks under the
 * locks that each organization is live (and active, where asked) and that no balance goes
 * below zero or above the maximum, and appends one entry per movement with its
 * balance_after. `afterLock` runs once the rows are locked, before anything is written.
 */
export async function move(
  trx: Transaction<DB>,
  movements: Movement[],
  group: string,
  createdBy: string | null,
  options: MoveOptions = {},
) {
  if (options.afterLock) {
    const ids = [...new Set(movements.map((mv) => mv.organizationId))];
    await sql`select credit_balances_lock(${ids}::uuid[])`.execute(trx);
    await options.afterLock();
  }
  const column = <T>(pick: (mv: Movement) => T) => movements.map(pick);
  try {
    const { rows } = await sql<EntryRow>`
      select * from ledger_post(${group}::uuid, ${createdBy}::uuid, ${options.requireActive ?? false}::boolean,
        ${column((mv) => mv.organizationId)}::uuid[], ${column((mv) => mv.amount)}::numeric[], ${column((mv) => mv.type)}::text[],
        ${column((mv) => JSON.stringify(mv.metadata))}::jsonb[], ${column((mv) => mv.externalRef ?? null)}::text[],
        ${column((mv) => mv.refundOf ?? null)}::text[], p_draws => ${column((mv) => (mv.draws ? JSON.stringify(mv.draws) : null))}::jsonb[])`.execute(
      trx,
    );
    return rows.map(toEntry);
  } catch (error) {
    const reason = refusalOf(error);
    throw reason && reason !== 'not_own_source' ? refusalError(reason, error) : error;
  }
}
