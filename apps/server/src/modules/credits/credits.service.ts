import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { reconcile } from './reconcile.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { UsageService } from '../usage/usage.service.ts';
import { createAdjust } from './adjust.ts';
import { createAllocate } from './allocate.ts';
import { createImportUsage } from './import-usage.ts';
import { moveInitialBalance } from './initial-balance.ts';
import { createLedger } from './ledger.ts';
import { createReverseAllocation } from './reverse.ts';
import { move } from './queries.ts';

export type { Movement, MoveOptions } from './queries.ts';

/** The credits service: the ledger, allocations with idempotency and their reversal, adjustments, usage import, initial balances, reconciliation. */
export function createCreditsService({
  db,
  readDb = db,
  organizations,
  usage,
}: {
  db: Kysely<DB>;
  /** The ledger's pages and export read here (the replica when there is one); every movement reads the primary. */
  readDb?: Kysely<DB>;
  organizations: OrganizationsService;
  usage: UsageService;
}) {
  const deps = { db, organizations, usage };
  const { allocate } = createAllocate(deps);
  const { adjust } = createAdjust(deps);
  const { reverseAllocation } = createReverseAllocation(deps);
  const { importUsage } = createImportUsage(deps);
  const { ledger, exportRows } = createLedger({ db: readDb, organizations });

  return {
    move,
    allocate,
    reverseAllocation,
    adjust,
    importUsage,
    moveInitialBalance,
    ledger,
    exportRows,
    reconcile: () => reconcile(db),
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;
