import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';

/**
 * A statement's verification code checked against the ledger's hash chain: it matches while
 * the entries it sums are as they were, and after one is edited in SQL (the append-only guard
 * lifted for the test) the check names that entry. A month that ended before the edit still
 * matches: its chain ends before the entry.
 */
const w = useWorld();
const db = () => w.t.database.db;
const id = (key: Parameters<typeof w.id>[0]) => w.id(key);

const now = new Date();
const monthOf = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
const [M0, M1] = [monthOf(0), monthOf(-1)];

const get = async (who: string, path: string) => w.t.request('GET', path, undefined, { token: await w.as(who) });
const codeOf = async (org: string, month: string, who = 'A1.admin') => {
  const response = await get(who, `/api/organizations/${org}/statements/${month}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.verification_code as string | null;
};
const verify = (org: string, month: string, code: string, who = 'A1.admin') =>
  get(who, `/api/organizations/${org}/statements/${month}/verify?code=${code}`);

/** Runs `change` on the ledger with its append-only guard lifted, in one transaction. */
async function tamper(change: string) {
  await db()
    .transaction()
    .execute(async (trx) => {
      await sql`alter table credit_ledger_entries disable trigger credit_ledger_no_update`.execute(trx);
      await sql.raw(change).execute(trx);
      await sql`alter table credit_ledger_entries enable trigger credit_ledger_no_update`.execute(trx);
    });
}

async function postDated(at: Date, org: string, amount: string) {
  await db()
    .transaction()
    .execute(async (trx) => {
      await sql`select set_config('console.ledger_at', ${at.toISOString()}, true)`.execute(trx);
      await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${org}::uuid], array[${amount}::numeric],
                array['adjustment_increase'], array['{"reason":"last month"}'::jsonb])`.execute(trx);
    });
}

const entriesOf = (org: string) =>
  db().selectFrom('credit_ledger_entries').select(['id', 'seq', 'entry_type']).where('organization_id', '=', org).orderBy('seq').execute();

beforeAll(async () => {
  for (const day of [3, 9]) {
    await postDated(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, day)), id('A1'), '100.00');
  }
  const as = async (who: string, path: string, body: unknown) => {
    const response = await w.t.request('POST', path, body, { token: await w.as(who) });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  await as('H.admin', '/api/credits/adjustments', { direction: 'increase', amount: '1000', reason: 'Verify tests' });
  await as('H.admin', '/api/credits/allocations', { from_org_id: id('H'), to_org_id: id('SA1'), amount: '600' });
  await as('SA1.admin', '/api/credits/allocations', { from_org_id: id('SA1'), to_org_id: id('A1'), amount: '300' });
  for (const amount of ['40', '25', '10']) {
    await as('A1.admin', '/api/credits/allocations', { from_org_id: id('A1'), to_org_id: id('T1'), amount });
  }
});

describe('verifying a statement', () => {
  it("matches the code of this month's and last month's statements while the ledger is untouched", async () => {
    for (const [month, checked] of [
      [M0, 6],
      [M1, 2],
    ] as const) {
      const code = await codeOf(id('A1'), month);
      const response = await verify(id('A1'), month, code!);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toEqual({ month, code, head: code, matches: true, chain: { whole: true, checked, first_broken: null } });
    }
  });

  it('does not match another code, and says the chain is whole; a code in capitals is the same code', async () => {
    const code = (await codeOf(id('A1'), M0))!;
    const other = code.replace(/^./, code[0] === 'a' ? 'b' : 'a');
    expect((await verify(id('A1'), M0, other)).body).toMatchObject({ head: code, matches: false, chain: { whole: true } });
    expect((await verify(id('A1'), M0, code.toUpperCase())).body).toMatchObject({ code, matches: true });
  });

  it('refuses a code that is not 64 hexadecimal characters (400), and a month not started (422)', async () => {
    for (const code of ['', 'abc', 'g'.repeat(64), 'a'.repeat(65)]) {
      const response = await verify(id('A1'), M0, code);
      expect(response.status, code).toBe(400);
    }
    const future = await verify(id('A1'), monthOf(1), 'a'.repeat(64));
    expect(future.status).toBe(422);
    expect(future.body.error.message).toBe(MESSAGES.invoices.monthInFuture);
  });

  it('for an organization without entries answers no head and no match', async () => {
    expect(await codeOf(id('A2'), M0, 'SA1.admin')).toBeNull();
    expect((await verify(id('A2'), M0, 'a'.repeat(64), 'SA1.admin')).body).toEqual({
      month: M0,
      code: 'a'.repeat(64),
      head: null,
      matches: false,
      chain: { whole: true, checked: 0, first_broken: null },
    });
  });

  it('names the entry edited in SQL after the statement was made; the month before it still matches', async () => {
    const [current, last] = [await codeOf(id('A1'), M0), await codeOf(id('A1'), M1)];
    const entries = await entriesOf(id('A1'));
    const edited = entries.find((entry) => entry.entry_type === 'allocation_received')!;
    await tamper(`update credit_ledger_entries set metadata = metadata || '{"notes":"changed"}' where id = '${edited.id}'`);

    const response = await verify(id('A1'), M0, current!);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: current,
      matches: false,
      chain: { whole: false, checked: 3, first_broken: { id: edited.id, seq: String(edited.seq), reason: 'edited' } },
    });
    // Its ancestors read it too, and are told the same.
    expect((await verify(id('A1'), M0, current!, 'H.admin')).body.chain.first_broken.id).toBe(edited.id);
    expect((await verify(id('A1'), M1, last!)).body).toMatchObject({ matches: true, chain: { whole: true, checked: 2 } });
  });

  it('names the entry after one deleted in SQL', async () => {
    const code = await codeOf(id('T1'), M0);
    const [, deleted, next] = await entriesOf(id('T1'));
    await tamper(`delete from credit_ledger_entries where id = '${deleted!.id}'`);
    expect((await verify(id('T1'), M0, code!)).body).toMatchObject({
      matches: false,
      chain: { whole: false, first_broken: { id: next!.id, seq: String(next!.seq), reason: 'missing_before' } },
    });
  });
});
