import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/harness.ts';
import { insertOrg } from '../test/fixtures.ts';
import type { Database } from './connection.ts';

/**
 * ledger_post, the one writer of the ledger and balances, against a model of its rules in
 * exact integers of cents: for random postings on organizations live and active, inactive
 * or deleted, with amounts from a cent to beyond the maximum, the database refuses exactly
 * what the model refuses, with the same reason and detail, and otherwise leaves the balances
 * and balance_after the model computes. A refused posting writes nothing.
 */
let database: Database;
const orgs: { key: string; id: string; live: boolean; active: boolean }[] = [];
/** numeric(16, 2): the most a balance holds, in cents. */
const MAX = 9_999_999_999_999_999n;

beforeAll(async () => {
  database = await freshDatabase();
  const db = database.db;
  const house = await insertOrg(db, { name: 'Posting House', type: 'house' });
  orgs.push({ key: 'H', id: house.id, live: true, active: true });
  for (const [key, state] of [
    ['A', 'active'],
    ['B', 'active'],
    ['I', 'inactive'],
    ['D', 'deleted'],
  ] as const) {
    const org = await insertOrg(db, { name: `Posting ${key}`, type: 'super_agency', parentId: house.id });
    if (state === 'inactive') await db.updateTable('organizations').set({ status: 'inactive' }).where('id', '=', org.id).execute();
    if (state === 'deleted') await db.updateTable('organizations').set({ deleted_at: new Date() }).where('id', '=', org.id).execute();
    orgs.push({ key, id: org.id, live: state !== 'deleted', active: state === 'active' });
  }
});
afterAll(async () => {
  await database?.close();
});

const text = (cents: bigint) => {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

type Outcome = { refused: string; detail: string | null } | { balances: bigint[] };

/** The rules, as the model states them: live first, then active where asked, then each entry's bounds in order. */
function expected(balances: Map<string, bigint>, posting: { org: number; cents: bigint }[], requireActive: boolean): Outcome {
  const touched = posting.map((entry) => orgs[entry.org]!);
  if (touched.some((org) => !org.live)) return { refused: 'not_found', detail: null };
  if (requireActive && touched.some((org) => !org.active)) return { refused: 'organization_not_active', detail: null };
  const running = new Map(balances);
  const after: bigint[] = [];
  for (const { org, cents } of posting) {
    const id = orgs[org]!.id;
    const next = running.get(id)! + cents;
    if (next < 0n) return { refused: 'insufficient_credits', detail: text(balances.get(id)!) };
    if (next > MAX) return { refused: 'balance_limit', detail: text(MAX) };
    running.set(id, next);
    after.push(next);
  }
  for (const [id, value] of running) balances.set(id, value);
  return { balances: after };
}

const amount = fc.oneof(fc.bigInt({ min: 1n, max: 100_000n }), fc.bigInt({ min: 1n, max: MAX }), fc.constantFrom(1n, MAX));
const posting = fc.record({
  entries: fc.array(fc.record({ org: fc.nat({ max: 4 }), cents: amount, debit: fc.boolean() }), { minLength: 1, maxLength: 4 }),
  requireActive: fc.boolean(),
});

async function post(entries: { org: number; cents: bigint }[], requireActive: boolean) {
  const ids = entries.map((e) => orgs[e.org]!.id);
  const amounts = entries.map((e) => text(e.cents));
  const types = entries.map((e) => (e.cents < 0n ? 'adjustment_decrease' : 'adjustment_increase'));
  const meta = entries.map(() => '{}');
  return sql<{ balance_after: string; organization_id: string }>`
    select balance_after, organization_id from ledger_post(gen_random_uuid(), null, ${requireActive}::boolean,
      ${ids}::uuid[], ${amounts}::numeric[], ${types}::text[], ${meta}::jsonb[])`.execute(database.db);
}

async function storedBalances(): Promise<Map<string, bigint>> {
  const rows = await database.db.selectFrom('organization_billing_settings').select(['organization_id', 'credit_balance']).execute();
  const cents = (value: string) => BigInt(value.replace('.', ''));
  return new Map(rows.filter((r) => orgs.some((o) => o.id === r.organization_id)).map((r) => [r.organization_id, cents(r.credit_balance)]));
}

describe('ledger_post', () => {
  it('refuses exactly what the rules refuse, with their reason, and otherwise posts the balances the rules compute', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(posting, { minLength: 1, maxLength: 8 }), async (postings) => {
        const model = await storedBalances();
        for (const { entries, requireActive } of postings) {
          const signed = entries.map((e) => ({ org: e.org, cents: e.debit ? -e.cents : e.cents }));
          const want = expected(model, signed, requireActive);
          const got = await post(signed, requireActive).then(
            ({ rows }) => ({ balances: rows.map((r) => BigInt(r.balance_after.replace('.', ''))) }),
            (error: { code?: string; message?: string; detail?: string }) => {
              if (error.code !== 'CR001') throw error;
              return { refused: error.message!, detail: error.detail ?? null };
            },
          );
          expect(got).toEqual(want);
          expect(await storedBalances()).toEqual(model);
        }
      }),
      { numRuns: 40 },
    );
    const { rows } = await sql<{ breaks: number }>`
      select count(*)::int as breaks from (
        select balance_after, sum(amount) over (partition by organization_id order by seq) as running from credit_ledger_entries
      ) l where l.running <> l.balance_after`.execute(database.db);
    expect(rows[0]!.breaks).toBe(0);
  });

  it('posts nothing for an empty list, and answers the entries in order with their metadata and references', async () => {
    const [a, b] = [orgs[1]!.id, orgs[2]!.id];
    expect(
      (
        await sql`select * from ledger_post(gen_random_uuid(), null, false, '{}'::uuid[], '{}'::numeric[], '{}'::text[], '{}'::jsonb[])`.execute(
          database.db,
        )
      ).rows,
    ).toEqual([]);
    await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${a}::uuid], array[10::numeric], array['adjustment_increase'], array['{}'::jsonb])`.execute(
      database.db,
    );
    const group = '7d1c3b1e-5a54-4e53-9e51-2f0c1c2a9b10';
    const { rows } = await sql<{
      organization_id: string;
      amount: string;
      entry_type: string;
      transaction_group: string;
      metadata: unknown;
      external_ref: string | null;
    }>`
      select organization_id, amount, entry_type, transaction_group, metadata, external_ref from ledger_post(${group}::uuid, null, true,
        array[${a}::uuid, ${b}::uuid], array[-2.5::numeric, 2.5::numeric], array['allocation_sent', 'allocation_received'],
        array['{"to":"b"}'::jsonb, '{"from":"a"}'::jsonb], array['ref-a', null])`.execute(database.db);
    expect(rows).toEqual([
      {
        organization_id: a,
        amount: '-2.50',
        entry_type: 'allocation_sent',
        transaction_group: group,
        metadata: { to: 'b' },
        external_ref: 'ref-a',
      },
      {
        organization_id: b,
        amount: '2.50',
        entry_type: 'allocation_received',
        transaction_group: group,
        metadata: { from: 'a' },
        external_ref: null,
      },
    ]);
  });
});
