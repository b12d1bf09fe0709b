import { beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely, type Transaction } from 'kysely';
import { MESSAGES } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError } from '../../lib/errors.ts';
import { ledgerEntryCount } from '../../test/books.ts';
import { useWorld } from '../../test/harness.ts';
import { createOrganizationsService } from '../organizations/organizations.service.ts';
import { reconcile } from './reconcile.ts';
import { createReverseAllocation } from './reverse.ts';

/**
 * An allocation is reversed at most once, by two guards, each enough alone: the unique index
 * on the reversed allocation (ledger_reversal_once_idx, on reversal_sent entries) and the
 * reversal's own check, under the balance locks, that the allocation has no reversal yet.
 * Each is tested here with the other out of the way, so that losing either shows.
 */
// The app's top-up runner is kept away: nothing else touches the ledger while a test holds it.
const w = useWorld({ topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;
const INDEX = 'ledger_reversal_once_idx';

const request = async (who: string, path: string, body: unknown) => w.t.request('POST', path, body, { token: await w.as(who) });
async function allocate(to: 'SA1' | 'SA2', amount: string): Promise<string> {
  const response = await request('H.admin', '/api/credits/allocations', { from_org_id: w.id('H'), to_org_id: w.id(to), amount });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.transaction_id;
}
async function reverse(transactionId: string) {
  const response = await request('H.admin', `/api/credits/allocations/${transactionId}/reversal`, { reason: 'Sent by mistake' });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.transaction_id as string;
}

/** The house admin as the API would load them for a request. */
async function houseAdmin(executor: Kysely<DB>): Promise<Caller> {
  const row = await executor
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.role', 'o.id as org_id', 'o.name', 'o.org_type', 'o.status', 'o.path'])
    .where('u.email', '=', w.world.users['H.admin']!)
    .executeTakeFirstOrThrow();
  return {
    userId: row.id,
    email: row.email,
    role: row.role,
    sessionId: '00000000-0000-4000-8000-000000000001',
    stepUpFreshUntil: 0,
    organization: { id: row.org_id, name: row.name, org_type: row.org_type, status: row.status, path: row.path, ancestor_status: null },
  };
}

/** `trx` as a whole database: a use case's own transaction runs inside it, so it is rolled back with it. */
function inside(trx: Transaction<DB>): Kysely<DB> {
  return new Proxy(trx, {
    get(target, key) {
      if (key === 'transaction') return () => ({ execute: <T>(work: (t: Transaction<DB>) => Promise<T>) => work(trx) });
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as Kysely<DB>;
}

class Rollback extends Error {}

beforeAll(async () => {
  const response = await request('H.admin', '/api/credits/adjustments', {
    direction: 'increase',
    amount: '1000',
    reason: 'Reversal guards',
  });
  expect(response.status).toBe(200);
});

describe('an allocation is reversed at most once', () => {
  it('the unique index alone: a second reversal_sent of the same allocation, posted directly, is refused with 23505', async () => {
    const allocation = await allocate('SA1', '40.00');
    await reverse(allocation);
    await allocate('SA1', '40.00'); // SA1 could give it back again
    const before = await ledgerEntryCount(db());
    // Straight to the ledger's writer: no use case, so no check but the index.
    const meta = JSON.stringify({ reverses_transaction_id: allocation, reason: 'again' });
    const second = sql`select * from ledger_post(gen_random_uuid(), null, false, array[${w.id('SA1')}, ${w.id('H')}]::uuid[],
      array[-40, 40]::numeric[], array['reversal_sent', 'reversal_received'], array[${meta}, ${meta}]::jsonb[])`.execute(db());
    const error = await second.then(
      () => null,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(error).toMatchObject({ code: '23505', message: expect.stringContaining(INDEX) });
    expect(await ledgerEntryCount(db())).toBe(before);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('the check under the locks alone: with the index dropped (in a transaction rolled back), a second reversal is refused (409)', async () => {
    const allocation = await allocate('SA2', '30.00');
    await reverse(allocation);
    await allocate('SA2', '30.00'); // SA2 could give it back again
    const before = await ledgerEntryCount(db());
    const caller = await houseAdmin(db());
    const info = { ip: '127.0.0.1', userAgent: null, requestId: 'reversal-guards' };
    let outcome: unknown = null;
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await sql.raw(`drop index ${INDEX}`).execute(trx);
          const { rows } = await sql<{ gone: boolean }>`select to_regclass(${INDEX}) is null as gone`.execute(trx);
          expect(rows[0]!.gone).toBe(true);
          const { reverseAllocation } = createReverseAllocation({
            db: inside(trx),
            organizations: createOrganizationsService({ db: trx }),
          });
          outcome = await reverseAllocation(caller, allocation, { reason: 'Twice' }, info).then(
            (result) => result,
            (error: unknown) => error,
          );
          throw new Rollback();
        }),
    ).rejects.toThrow(Rollback);
    expect(outcome).toBeInstanceOf(ConflictError);
    expect((outcome as ConflictError).message).toBe(MESSAGES.credits.alreadyReversed);
    // The index is back, and nothing was written.
    const { rows } = await sql<{ back: boolean }>`select to_regclass(${INDEX}) is not null as back`.execute(db());
    expect(rows[0]!.back).toBe(true);
    expect(await ledgerEntryCount(db())).toBe(before);
  });
});
