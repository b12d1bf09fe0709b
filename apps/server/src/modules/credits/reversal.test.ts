import { describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { balanceOf, creditsInSystem, ledgerEntryCount } from '../../test/books.ts';
import { parseCsv } from '../../test/csv.ts';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertOrg, insertUser } from '../../test/fixtures.ts';
import { reconcile } from './reconcile.ts';

const w = useWorld();
const c = MESSAGES.credits;
const id = (key: Parameters<typeof w.id>[0]) => w.id(key);
const db = () => w.t.database.db;
const concurrency = inject('pgServerUrl') ? 'PostgreSQL: truly concurrent, proves the locks' : 'PGlite: serialized, arithmetic only';

const balance = (orgId: string) => balanceOf(db(), orgId);
const total = () => creditsInSystem(db());
const entryCount = () => ledgerEntryCount(db());
const request = async (who: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
  w.t.request(method, path, body, { token: await w.as(who) });
const adjust = (amount: string) =>
  request('H.admin', 'POST', '/api/credits/adjustments', { direction: 'increase', amount, reason: 'Reversal tests' });
async function allocate(who: string, from: string, to: string, amount: string): Promise<string> {
  const response = await request(who, 'POST', '/api/credits/allocations', { from_org_id: from, to_org_id: to, amount });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.transaction_id;
}
const reverse = (who: string, transactionId: string, reason: unknown = 'Sent to the wrong agency') =>
  request(who, 'POST', `/api/credits/allocations/${transactionId}/reversal`, { reason });

/**
 * Moves the whole ledger back in time, so its order (which the books replay) is kept: the
 * ledger refuses every update, so its guard is lifted for the statement.
 */
async function ageLedger(hours: number) {
  await db()
    .transaction()
    .execute(async (trx) => {
      await sql`alter table credit_ledger_entries disable trigger credit_ledger_no_update`.execute(trx);
      await sql`update credit_ledger_entries set created_at = created_at - make_interval(hours => ${hours})`.execute(trx);
      // Each entry's hash covers its time: the aged ledger is chained again, as if written then.
      await sql`select ledger_chain_rebuild(o.id) from organizations o`.execute(trx);
      await sql`alter table credit_ledger_entries enable trigger credit_ledger_no_update`.execute(trx);
    });
}

describe('reversing an allocation', () => {
  it('gives the whole amount back to the parent as a linked pair of entries, audited, shown on both ledgers', async () => {
    await adjust('1000');
    const allocation = await allocate('H.admin', id('H'), id('SA1'), '300.00');
    const before = { total: await total(), house: await balance(id('H')), child: await balance(id('SA1')) };

    const response = await reverse('H.admin', allocation);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({
      transaction_id: expect.any(String),
      reverses_transaction_id: allocation,
      from_balance: (Number(before.house) + 300).toFixed(2),
      to_balance: (Number(before.child) - 300).toFixed(2),
    });
    expect(await total()).toBe(before.total);

    const entries = await db()
      .selectFrom('credit_ledger_entries')
      .selectAll()
      .where('transaction_group', '=', response.body.transaction_id)
      .orderBy('seq')
      .execute();
    expect(entries.map((e) => [e.organization_id, e.entry_type, e.amount])).toEqual([
      [id('SA1'), 'reversal_sent', '-300.00'],
      [id('H'), 'reversal_received', '300.00'],
    ]);
    for (const entry of entries) {
      expect(entry.metadata).toMatchObject({ reverses_transaction_id: allocation, reason: 'Sent to the wrong agency' });
    }

    // The parent's ledger: the allocation now names its reversal; the reversal names the child.
    const ledger = await request('H.admin', 'GET', '/api/credits/ledger');
    const sent = ledger.body.entries.find((e: { transaction_group: string }) => e.transaction_group === allocation);
    expect(sent.reversed_by).toBe(response.body.transaction_id);
    const back = ledger.body.entries.find((e: { entry_type: string }) => e.entry_type === 'reversal_received');
    expect(back.counterparty).toMatchObject({ id: id('SA1'), name: 'Super One' });
    expect(back.description).toMatch(/reversed an allocation to Super One: 300\.00 credits returned: Sent to the wrong agency$/);
    // The child's ledger says the same from its side.
    const child = await request('SA1.admin', 'GET', '/api/credits/ledger');
    expect(child.body.entries.find((e: { entry_type: string }) => e.entry_type === 'reversal_sent').description).toMatch(
      /reversed an allocation: 300\.00 credits returned to /,
    );
    expect(child.body.entries.find((e: { transaction_group: string }) => e.transaction_group === allocation).reversed_by).toBe(
      response.body.transaction_id,
    );

    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'credits.reverse_allocation')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ organization_id: id('H'), target_id: id('SA1') });
    expect(audit.details).toMatchObject({ amount: '300.00', reverses_transaction_id: allocation, reason: 'Sent to the wrong agency' });

    // The CSV export says the same: the allocation's reversal, and the reversal's reason.
    const csv = await fetch(`${w.t.baseUrl}/api/credits/ledger/export`, { headers: { authorization: `Bearer ${await w.as('H.admin')}` } });
    const [header, ...lines] = parseCsv(await csv.text());
    const column = (name: string) => header!.indexOf(name);
    const row = (group: string, type: string) =>
      lines.find((cells) => cells[column('transaction_group')] === group && cells[column('entry_type')] === type)!;
    expect(row(allocation, 'allocation_sent')[column('reversed_by')]).toBe(response.body.transaction_id);
    expect(row(response.body.transaction_id, 'reversal_received')[column('notes')]).toBe('Sent to the wrong agency');

    // Once only.
    const again = await reverse('H.admin', allocation);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(c.alreadyReversed);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('refuses the wrong person, the wrong organization, a late, uncovered or unknown reversal, and writes nothing', async () => {
    await insertUser(db(), { email: 'admin@h2.test', password: PASSWORD, role: 'house_admin', organizationId: id('H2') });
    await adjust('500');
    const allocation = await allocate('H.admin', id('H'), id('SA1'), '100.00');
    const below = await allocate('SA1.admin', id('SA1'), id('A1'), '40.00');
    const before = await entryCount();
    const cases: [string, string, number, string | null][] = [
      // Not an admin of the sender, or not of the sender at all.
      ['H.manager', allocation, 403, null],
      ['H.user', allocation, 403, null],
      ['SA1.admin', allocation, 404, c.allocationNotFound],
      // The house admin sees SA1's allocation to A1 but did not make it.
      ['H.admin', below, 403, c.onlySenderAdmins],
      ['A1.admin', below, 404, c.allocationNotFound],
      // Another house's admin cannot even tell it exists.
      ['admin@h2.test', allocation, 404, c.allocationNotFound],
      ['H.admin', '00000000-0000-4000-8000-000000000000', 404, c.allocationNotFound],
    ];
    for (const [who, transaction, status, message] of cases) {
      const response = await reverse(who, transaction);
      expect(response.status, `${who} ${transaction}`).toBe(status);
      if (message) expect(response.body.error.message).toBe(message);
    }
    // A reason is required; an id must be one.
    expect((await reverse('H.admin', allocation, '')).status).toBe(400);
    expect((await reverse('H.admin', allocation, 'no')).body.error.message).toContain(c.reversalReason);
    expect((await reverse('H.admin', 'not-a-uuid')).status).toBe(400);

    // The child moved part of it on: its balance no longer covers the whole amount.
    expect(await balance(id('SA1'))).toBe('60.00');
    const uncovered = await reverse('H.admin', allocation);
    expect(uncovered.status).toBe(422);
    expect(uncovered.body.error.message).toBe(c.reversalNotCovered('Super One', '60.00'));
    expect(await entryCount()).toBe(before);

    // Past the window (the database's clock decides).
    const late = await allocate('SA1.admin', id('SA1'), id('A1'), '10.00');
    await ageLedger(25);
    const tooLate = await reverse('SA1.admin', late);
    expect(tooLate.status).toBe(422);
    expect(tooLate.body.error.message).toBe(c.reversalWindowPassed(24));

    // A suspended sender's admins act on nothing.
    const recent = await allocate('SA1.admin', id('SA1'), id('A1'), '5.00');
    const counted = await entryCount();
    await db().updateTable('organizations').set({ status: 'inactive' }).where('id', '=', id('SA1')).execute();
    expect((await reverse('SA1.admin', recent)).status).toBe(403);
    await db().updateTable('organizations').set({ status: 'active' }).where('id', '=', id('SA1')).execute();
    expect(await entryCount()).toBe(counted);
    // Back in force, the same admin may.
    expect((await reverse('SA1.admin', recent)).status).toBe(200);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('a suspended child still gives an allocation back', async () => {
    await adjust('200');
    const allocation = await allocate('H.admin', id('H'), id('SA1'), '20.00');
    await db().updateTable('organizations').set({ status: 'inactive' }).where('id', '=', id('SA1')).execute();
    const response = await reverse('H.admin', allocation);
    await db().updateTable('organizations').set({ status: 'active' }).where('id', '=', id('SA1')).execute();
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  });
});

describe(`concurrent reversals (${concurrency})`, () => {
  it('ten reversals of one allocation at once: exactly one succeeds, the rest answer 409, and the books balance', async () => {
    await adjust('100');
    const allocation = await allocate('H.admin', id('H'), id('SA1'), '50.00');
    const before = await total();
    const token = await w.as('H.admin');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        w.t.request('POST', `/api/credits/allocations/${allocation}/reversal`, { reason: 'Race' }, { token }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const reversals = await sql<{ n: number }>`select count(*)::int as n from credit_ledger_entries
      where entry_type = 'reversal_sent' and metadata->>'reverses_transaction_id' = ${allocation}`.execute(db());
    expect(reversals.rows[0]!.n).toBe(1);
    expect(await total()).toBe(before);
    expect((await reconcile(db())).ok).toBe(true);
  }, 60_000);

  it("a reversal racing the child's own allocations: the child never goes below zero, and credits are conserved", async () => {
    const parent = await insertOrg(db(), { name: 'Racing Super', type: 'super_agency', parentId: id('H') });
    const grandchild = await insertOrg(db(), { name: 'Racing Agency', type: 'agency', parentId: parent.id });
    await insertUser(db(), { email: 'racing@admin.test', password: PASSWORD, role: 'super_agency_admin', organizationId: parent.id });
    await adjust('100');
    const allocation = await allocate('H.admin', id('H'), parent.id, '100.00');
    const before = await total();
    const [reversal, ...moves] = await Promise.all([
      reverse('H.admin', allocation, 'Race with spending'),
      ...Array.from({ length: 10 }, async () =>
        request('racing@admin.test', 'POST', '/api/credits/allocations', {
          from_org_id: parent.id,
          to_org_id: grandchild.id,
          amount: '15.00',
        }),
      ),
    ]);
    const moved = moves.filter((r) => r.status === 200).length;
    if (reversal!.status === 200) {
      // The reversal came first: the whole 100 went back, and nothing was left to move.
      expect(moved).toBe(0);
      expect(await balance(parent.id)).toBe('0.00');
    } else {
      // Some allocations came first: the child no longer held the whole 100.
      expect(reversal!.status).toBe(422);
      expect(moved).toBeGreaterThan(0);
      expect(await balance(parent.id)).toBe((100 - 15 * moved).toFixed(2));
    }
    expect(await total()).toBe(before);
    expect((await reconcile(db())).ok).toBe(true);
  }, 60_000);
});
