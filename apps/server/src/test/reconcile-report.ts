import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { reconcile } from '../modules/credits/reconcile.ts';

/**
 * Reconciliation must fail on broken books, not only pass on healthy ones. A test breaks the
 * books one way by direct SQL inside a transaction, runs reconcile in that transaction, and
 * rolls it back, so every test starts from the same healthy books.
 *
 * The ledger is append-only (a trigger refuses update and delete) and its totals, the
 * subtree counts and the low-balance alerts are kept by triggers; a corruption that must
 * get past them runs with `session_replication_role = replica`, which skips triggers (the
 * CHECK constraints still hold).
 */
export type ReconcileReport = Awaited<ReturnType<typeof reconcile>>;

class Rollback extends Error {
  readonly report: ReconcileReport;
  constructor(report: ReconcileReport) {
    super('rollback');
    this.report = report;
  }
}

/** Reconcile's report on the books as `corrupt` leaves them; the corruption is rolled back. */
export async function reportAfter(
  db: Kysely<DB>,
  corrupt: (trx: Transaction<DB>) => Promise<void>,
  options: { bypassTriggers?: boolean } = {},
): Promise<ReconcileReport> {
  try {
    await db.transaction().execute(async (trx) => {
      if (options.bypassTriggers ?? true) await sql`set local session_replication_role = replica`.execute(trx);
      await corrupt(trx);
      await sql`set local session_replication_role = origin`.execute(trx);
      throw new Rollback(await reconcile(trx));
    });
  } catch (error) {
    if (error instanceof Rollback) return error.report;
    throw error;
  }
  throw new Error('the corruption was not rolled back');
}

/** Every list of a report on healthy books: empty. */
export const NOTHING_LISTED = {
  balance_mismatches: [],
  unbalanced_groups: [],
  deleted_with_balance: [],
  subtree_count_mismatches: [],
  ledger_total_mismatches: [],
  usage_carry_mismatches: [],
  usage_entry_mismatches: [],
  balance_chain_breaks: [],
  usage_day_mismatches: [],
  credit_day_mismatches: [],
  earning_mismatches: [],
  over_earned_groups: [],
  reversal_mismatches: [],
  hash_chain_breaks: [],
  grant_mismatches: [],
};
