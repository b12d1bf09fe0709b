import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { useWorld } from '../../test/harness.ts';
import { activate, insertAgentType } from '../../test/usage-rows.ts';
import { reconcile } from './reconcile.ts';

/**
 * Each organization's ledger is hash-chained (migration 0048, rules ledger_entry_hash,
 * ledger_post and ledger_chain_check): each entry's hash covers the hash before it and its own
 * fields, and the organization's ledger_head is the hash of its last entry. Healthy books
 * check whole; an entry edited or deleted in SQL behind the append-only guard is named, the
 * first broken one, by ledger_chain_check and by reconcile. Each corruption is rolled back.
 */
const w = useWorld();
const db = () => w.t.database.db;
const onPostgres = Boolean(inject('pgServerUrl'));

interface Check {
  checked: string;
  head: Uint8Array | null;
  broken_seq: string | null;
  broken_id: string | null;
  reason: string | null;
}
type Report = Awaited<ReturnType<typeof reconcile>>;

const chainCheck = async (q: Kysely<DB>, orgId: string, until?: string) =>
  (await sql<Check>`select * from ledger_chain_check(${orgId}::uuid, ${until ?? null}::timestamptz)`.execute(q)).rows[0]!;

/** An organization's entries in seq order, with their chain columns. */
const entriesOf = (q: Kysely<DB>, orgId: string) =>
  q.selectFrom('credit_ledger_entries').selectAll().where('organization_id', '=', orgId).orderBy('seq').execute();

const ledgerHead = async (q: Kysely<DB>, orgId: string) =>
  (await q.selectFrom('organization_billing_settings').select('ledger_head').where('organization_id', '=', orgId).executeTakeFirstOrThrow())
    .ledger_head;

const hex = (bytes: Uint8Array | null | undefined) => (bytes ? Buffer.from(bytes).toString('hex') : null);

/** Every organization with entries. */
async function organizationsWithEntries(q: Kysely<DB>) {
  const rows = await q.selectFrom('credit_ledger_entries').select('organization_id').distinct().execute();
  return rows.map((r) => r.organization_id);
}

/** Every chain whole: each entry's prev_hash is the hash before it, the head the last hash, and the check agrees. */
async function expectWholeChains(q: Kysely<DB>) {
  const orgs = await organizationsWithEntries(q);
  expect(orgs.length).toBeGreaterThan(0);
  for (const org of orgs) {
    const entries = await entriesOf(q, org);
    entries.forEach((entry, n) => {
      expect(hex(entry.prev_hash), `prev_hash of entry ${n} of ${org}`).toBe(n === 0 ? null : hex(entries[n - 1]!.hash));
      expect(entry.hash).toHaveLength(32);
    });
    expect(hex(await ledgerHead(q, org))).toBe(hex(entries.at(-1)!.hash));
    const check = await chainCheck(q, org);
    expect({ ...check, head: hex(check.head) }).toEqual({
      checked: String(entries.length),
      head: hex(entries.at(-1)!.hash),
      broken_seq: null,
      broken_id: null,
      reason: null,
    });
  }
}

class Rollback extends Error {
  readonly value: { check: Check; report: Report };
  constructor(value: { check: Check; report: Report }) {
    super('rollback');
    this.value = value;
  }
}

/**
 * What ledger_chain_check (for `orgId`) and reconcile answer on the books as `corrupt` leaves
 * them: the ledger's append-only guard is lifted for the corruption only, and everything is
 * rolled back.
 */
async function brokenBy(orgId: string, corrupt: (trx: Transaction<DB>) => Promise<void>) {
  try {
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`alter table credit_ledger_entries disable trigger credit_ledger_no_update`.execute(trx);
        await corrupt(trx);
        await sql`alter table credit_ledger_entries enable trigger credit_ledger_no_update`.execute(trx);
        throw new Rollback({ check: await chainCheck(trx, orgId), report: await reconcile(trx) });
      });
  } catch (error) {
    if (error instanceof Rollback) return error.value;
    throw error;
  }
  throw new Error('the corruption was not rolled back');
}

const request = async (who: string, path: string, body: unknown) => {
  const response = await w.t.request('POST', path, body, { token: await w.as(who) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const allocate = (who: string, from: string, to: string, amount: string) =>
  request(who, '/api/credits/allocations', { from_org_id: from, to_org_id: to, amount });
let agentCode = '';

beforeAll(async () => {
  // H: 1000 in; allocations down to T1, one of them reversed; T1 consumes in a batch of three
  // events and is refunded once; two more adjustments on H after that.
  await request('H.admin', '/api/credits/adjustments', { direction: 'increase', amount: '1000', reason: 'chain tests' });
  await allocate('H.admin', w.id('H'), w.id('SA1'), '200');
  const reversed = await allocate('H.admin', w.id('H'), w.id('SA2'), '50');
  await allocate('SA1.admin', w.id('SA1'), w.id('A1'), '100');
  await allocate('A1.admin', w.id('A1'), w.id('T1'), '30');
  await request('H.admin', `/api/credits/allocations/${reversed.transaction_id}/reversal`, { reason: 'Sent to the wrong agency' });
  const agent = await insertAgentType(db(), 'chained', '0.3333');
  agentCode = agent.code;
  await activate(db(), w.id('T1'), agent.id);
  const occurred_at = new Date(Date.now() - 60_000).toISOString();
  const usage = await request('H.admin', '/api/credits/usage', {
    events: ['chain-1', 'chain-2', 'chain-3'].map((id) => ({
      id,
      organization_id: w.id('T1'),
      agent: agent.code,
      units: '2',
      occurred_at,
    })),
    refunds: [{ organization_id: w.id('T1'), amount: '0.50', external_ref: 'chain-refund', refund_of: 'chain-1' }],
  });
  expect(usage.results.map((r: { status: string }) => r.status)).toEqual(['accepted', 'accepted', 'accepted']);
  expect(usage.refunds[0].status).toBe('recorded');
  await request('H.admin', '/api/credits/adjustments', { direction: 'decrease', amount: '7.25', reason: 'chain tests' });
  await request('H.admin', '/api/credits/adjustments', { direction: 'increase', amount: '3', reason: 'chain tests' });
});

describe('healthy books', () => {
  it('every chain is whole: each prev_hash the hash before it, each ledger_head the last hash; reconcile is ok', async () => {
    await expectWholeChains(db());
    expect(await entriesOf(db(), w.id('H'))).toHaveLength(6);
    expect(await reconcile(db())).toMatchObject({ hash_chain_breaks: [], ok: true });
  });

  it('an organization without entries has no head and checks whole, with nothing walked', async () => {
    expect(await entriesOf(db(), w.id('T2'))).toEqual([]);
    expect(await ledgerHead(db(), w.id('T2'))).toBeNull();
    expect(await chainCheck(db(), w.id('T2'))).toEqual({ checked: '0', head: null, broken_seq: null, broken_id: null, reason: null });
  });

  it('the entries of one posting share one created_at and chain in posting order', async () => {
    const [entry] = (await entriesOf(db(), w.id('T1'))).filter((e) => e.entry_type === 'consumption');
    const group = await db()
      .selectFrom('credit_ledger_entries')
      .selectAll()
      .where('transaction_group', '=', entry!.transaction_group)
      .orderBy('seq')
      .execute();
    expect(new Set(group.map((e) => e.created_at)).size).toBe(1);
  });

  it('the hashes do not depend on the session time zone', async () => {
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`set local timezone = 'Pacific/Chatham'`.execute(trx);
        for (const org of await organizationsWithEntries(trx)) expect((await chainCheck(trx, org)).reason).toBeNull();
      });
  });

  it('with a moment, answers the chain head as of then: the hash of the last entry dated before it', async () => {
    const entries = await entriesOf(db(), w.id('H'));
    const fourth = entries[3]!;
    const check = await chainCheck(db(), w.id('H'), fourth.created_at);
    expect({ ...check, head: hex(check.head) }).toEqual({
      checked: '3',
      head: hex(entries[2]!.hash),
      broken_seq: null,
      broken_id: null,
      reason: null,
    });
    expect(await chainCheck(db(), w.id('H'), '2000-01-01T00:00:00Z')).toMatchObject({ checked: '0', head: null, reason: null });
  });

  it('an entry inserted by hand, not through ledger_post, is chained as ledger_post would', async () => {
    const org = w.id('T2');
    const rows = await brokenBy(org, async (trx) => {
      await sql`update organization_billing_settings set credit_balance = 2 where organization_id = ${org}`.execute(trx);
      await sql`insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after)
                values (${org}, 2, 'adjustment_increase', gen_random_uuid(), 2)`.execute(trx);
      await expectWholeChains(trx);
    });
    expect(rows.check).toMatchObject({ checked: '1', reason: null });
    expect(rows.report).toMatchObject({ hash_chain_breaks: [], balance_mismatches: [] });
  });
});

describe('an entry edited or deleted behind the append-only guard is named: the first broken one', () => {
  it('an amount edited: that entry, edited', async () => {
    const target = (await entriesOf(db(), w.id('H')))[2]!;
    const { check, report } = await brokenBy(w.id('H'), async (trx) => {
      await sql`update credit_ledger_entries set amount = amount - 1 where id = ${target.id}`.execute(trx);
    });
    expect(check).toMatchObject({ checked: '3', broken_seq: target.seq, broken_id: target.id, reason: 'edited' });
    expect(report.ok).toBe(false);
    expect(report.hash_chain_breaks).toEqual([
      { organization_id: w.id('H'), ledger_entry_id: target.id, seq: target.seq, reason: 'edited' },
    ]);
  });

  it('the metadata edited (the amount untouched): that entry, edited', async () => {
    const target = (await entriesOf(db(), w.id('T1'))).find((e) => e.entry_type === 'consumption')!;
    const { check, report } = await brokenBy(w.id('T1'), async (trx) => {
      await sql`update credit_ledger_entries set metadata = metadata || '{"agent": "someone-else"}' where id = ${target.id}`.execute(trx);
    });
    expect(check).toMatchObject({ broken_id: target.id, reason: 'edited' });
    expect(report.hash_chain_breaks).toEqual([
      { organization_id: w.id('T1'), ledger_entry_id: target.id, seq: target.seq, reason: 'edited' },
    ]);
  });

  it('only the date moved: that entry, edited', async () => {
    const target = (await entriesOf(db(), w.id('SA1')))[0]!;
    const { check } = await brokenBy(w.id('SA1'), async (trx) => {
      await sql`update credit_ledger_entries set created_at = created_at - interval '1 microsecond' where id = ${target.id}`.execute(trx);
    });
    expect(check).toMatchObject({ checked: '1', broken_id: target.id, reason: 'edited' });
  });

  it('an entry edited and its hash recomputed: the entry after it, missing_before', async () => {
    const [, target, next] = await entriesOf(db(), w.id('H'));
    const { check, report } = await brokenBy(w.id('H'), async (trx) => {
      await sql`update credit_ledger_entries set metadata = '{"reason": "forged"}' where id = ${target!.id}`.execute(trx);
      await sql`update credit_ledger_entries set hash = ledger_entry_hash(prev_hash, id, organization_id, amount, entry_type,
                  transaction_group, metadata, balance_after, external_ref, refund_of, agent_type_id, units, created_by, created_at)
                where id = ${target!.id}`.execute(trx);
    });
    expect(check).toMatchObject({ checked: '3', broken_id: next!.id, reason: 'missing_before' });
    expect(report.hash_chain_breaks).toEqual([
      { organization_id: w.id('H'), ledger_entry_id: next!.id, seq: next!.seq, reason: 'missing_before' },
    ]);
  });

  it('a middle entry deleted: the next one, missing_before', async () => {
    const entries = await entriesOf(db(), w.id('H'));
    const [deleted, next] = [entries[3]!, entries[4]!];
    const { check, report } = await brokenBy(w.id('H'), async (trx) => {
      await sql`delete from credit_ledger_entries where id = ${deleted.id}`.execute(trx);
    });
    expect(check).toMatchObject({ checked: '4', broken_seq: next.seq, broken_id: next.id, reason: 'missing_before' });
    expect(report.ok).toBe(false);
    expect(report.hash_chain_breaks).toEqual([
      { organization_id: w.id('H'), ledger_entry_id: next.id, seq: next.seq, reason: 'missing_before' },
    ]);
  });

  it('the first entry deleted: the new first one, missing_before', async () => {
    const [first, second] = await entriesOf(db(), w.id('H'));
    const { check } = await brokenBy(w.id('H'), async (trx) => {
      await sql`delete from credit_ledger_entries where id = ${first!.id}`.execute(trx);
    });
    expect(check).toMatchObject({ checked: '1', broken_id: second!.id, reason: 'missing_before' });
  });

  it('the last entry deleted: missing_at_end, naming the entry now last', async () => {
    const entries = await entriesOf(db(), w.id('H'));
    const [nowLast, deleted] = entries.slice(-2) as [(typeof entries)[number], (typeof entries)[number]];
    const { check, report } = await brokenBy(w.id('H'), async (trx) => {
      await sql`delete from credit_ledger_entries where id = ${deleted.id}`.execute(trx);
    });
    expect({ ...check, head: hex(check.head) }).toEqual({
      checked: String(entries.length - 1),
      head: hex(nowLast.hash),
      broken_seq: null,
      broken_id: nowLast.id,
      reason: 'missing_at_end',
    });
    expect(report.ok).toBe(false);
    expect(report.hash_chain_breaks).toEqual([
      { organization_id: w.id('H'), ledger_entry_id: nowLast.id, seq: null, reason: 'missing_at_end' },
    ]);
  });

  it("all of an organization's entries deleted: missing_at_end, with no entry left to name", async () => {
    expect((await entriesOf(db(), w.id('SA2'))).map((e) => e.entry_type)).toEqual(['allocation_received', 'reversal_sent']);
    const { check, report } = await brokenBy(w.id('SA2'), async (trx) => {
      await sql`delete from credit_ledger_entries where organization_id = ${w.id('SA2')}`.execute(trx);
    });
    expect(check).toEqual({ checked: '0', head: null, broken_seq: null, broken_id: null, reason: 'missing_at_end' });
    expect(report.hash_chain_breaks).toEqual([
      { organization_id: w.id('SA2'), ledger_entry_id: null, seq: null, reason: 'missing_at_end' },
    ]);
  });

  it('the books are whole again once the corruption is rolled back', async () => {
    await expectWholeChains(db());
    expect((await reconcile(db())).ok).toBe(true);
  });
});

describe.skipIf(!onPostgres)('concurrent postings (PostgreSQL: truly concurrent)', () => {
  it('adjustments, allocations both ways and usage batches at once keep every chain whole', { timeout: 120_000 }, async () => {
    const token = async (who: string) => w.as(who);
    const send = async (who: string, path: string, body: unknown) => w.t.request('POST', path, body, { token: await token(who) });
    const occurred_at = new Date(Date.now() - 30_000).toISOString();
    const requests = Array.from({ length: 12 }, (_, i) => [
      send('H.admin', '/api/credits/adjustments', { direction: 'increase', amount: '5', reason: `race ${i}` }),
      send('H.admin', '/api/credits/allocations', { from_org_id: w.id('H'), to_org_id: w.id('SA1'), amount: '2' }),
      send('SA1.admin', '/api/credits/allocations', { from_org_id: w.id('SA1'), to_org_id: w.id('A1'), amount: '1' }),
      send('A1.admin', '/api/credits/allocations', { from_org_id: w.id('A1'), to_org_id: w.id('T1'), amount: '1' }),
      send('H.admin', '/api/credits/usage', {
        events: [0, 1].map((k) => ({ id: `race-${i}-${k}`, organization_id: w.id('T1'), agent: agentCode, units: '1', occurred_at })),
      }),
    ]).flat();
    const answers = await Promise.all(requests);
    expect(answers.filter((r) => r.status !== 200).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
    await expectWholeChains(db());
    expect(await reconcile(db())).toMatchObject({ hash_chain_breaks: [], ok: true });
  });
});
