import { beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { useWorld } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { activate, insertAgentType } from '../../test/usage-rows.ts';
import { NOTHING_LISTED as EMPTY, reportAfter as reportOn } from '../../test/reconcile-report.ts';
import { reconcile } from './reconcile.ts';

/**
 * Reconciliation must fail on broken books, not only pass on healthy ones: each test breaks
 * the books one way inside a transaction that is rolled back (reportAfter).
 */
const w = useWorld();
const db = () => w.t.database.db;
const reportAfter = (corrupt: (trx: Transaction<DB>) => Promise<void>, options?: { bypassTriggers?: boolean }) =>
  reportOn(db(), corrupt, options);

/** The one entry of an organization (those set up below with exactly one). */
async function onlyEntry(q: Kysely<DB>, orgId: string) {
  const rows = await q.selectFrom('credit_ledger_entries').selectAll().where('organization_id', '=', orgId).execute();
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** The organization's consumption entry (T1 has exactly one). */
async function onlyConsumption(q: Kysely<DB>, orgId: string) {
  const rows = await q
    .selectFrom('credit_ledger_entries')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('entry_type', '=', 'consumption')
    .execute();
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

let agentTypeId = '';

beforeAll(async () => {
  // H: 1000 in; SA2 receives 50 once (its only entry); SA1 passes 100 to A1, which passes
  // 10 to T2 and 20 to T1; T1 consumes one unit at 0.3333 (0.33 charged, 0.0033 carried).
  const request = async (who: string, path: string, body: unknown) => {
    const response = await w.t.request('POST', path, body, { token: await w.as(who) });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  await request('H.admin', '/api/credits/adjustments', { direction: 'increase', amount: '1000', reason: 'reconcile tests' });
  const allocate = (who: string, from: string, to: string, amount: string) =>
    request(who, '/api/credits/allocations', { from_org_id: w.id(from as 'H'), to_org_id: w.id(to as 'H'), amount });
  await allocate('H.admin', 'H', 'SA2', '50');
  await allocate('H.admin', 'H', 'SA1', '100');
  await allocate('SA1.admin', 'SA1', 'A1', '100');
  await allocate('A1.admin', 'A1', 'T2', '10');
  await allocate('A1.admin', 'A1', 'T1', '20');
  const agent = await insertAgentType(db(), 'reconciled', '0.3333');
  agentTypeId = agent.id;
  await activate(db(), w.id('T1'), agent.id);
  const usage = await request('H.admin', '/api/credits/usage', {
    events: [
      {
        id: 'reconcile-usage-1',
        organization_id: w.id('T1'),
        agent: agent.code,
        units: '1',
        occurred_at: new Date(Date.now() - 60_000).toISOString(),
      },
    ],
  });
  expect(usage.results[0]).toMatchObject({ status: 'accepted', credits_charged: '0.33' });
});

describe('reconcile on healthy books', () => {
  it('answers ok with nothing listed', async () => {
    expect(await reconcile(db())).toMatchObject({ ...EMPTY, ok: true });
    // The harness itself rolls back and leaves the books healthy.
    expect(await reportAfter(async () => {})).toMatchObject({ ...EMPTY, ok: true });
  });
});

describe('reconcile reports each kind of broken books, naming the organization, with ok: false', () => {
  it('a balance that is not the sum of its entries (its last balance_after moved with it)', async () => {
    const report = await reportAfter(async (trx) => {
      const entry = await onlyEntry(trx, w.id('SA2'));
      await sql`update organization_billing_settings set credit_balance = 55 where organization_id = ${w.id('SA2')}`.execute(trx);
      await sql`update credit_ledger_entries set balance_after = 55 where id = ${entry.id}`.execute(trx);
    });
    expect(report.ok).toBe(false);
    expect(report.balance_mismatches).toEqual([
      { organization_id: w.id('SA2'), credit_balance: '55.00', ledger_sum: '50.00', last_balance_after: '55.00' },
    ]);
  });

  it('a balance edited alone', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`update organization_billing_settings set credit_balance = credit_balance + 1 where organization_id = ${w.id('T2')}`.execute(
        trx,
      );
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      balance_mismatches: [{ organization_id: w.id('T2'), credit_balance: '11.00', ledger_sum: '10.00', last_balance_after: '10.00' }],
    });
  });

  it('a last balance_after that differs from the balance and the sum', async () => {
    const report = await reportAfter(async (trx) => {
      const entry = await onlyEntry(trx, w.id('SA2'));
      await sql`update credit_ledger_entries set balance_after = 49 where id = ${entry.id}`.execute(trx);
    });
    expect(report.ok).toBe(false);
    expect(report.balance_mismatches).toEqual([
      { organization_id: w.id('SA2'), credit_balance: '50.00', ledger_sum: '50.00', last_balance_after: '49.00' },
    ]);
    expect(report.balance_chain_breaks).toEqual([
      expect.objectContaining({ organization_id: w.id('SA2'), running: '50.00', balance_after: '49.00' }),
    ]);
  });

  it('an earlier balance_after that is not the running sum (the last one right)', async () => {
    const report = await reportAfter(async (trx) => {
      const first = await trx
        .selectFrom('credit_ledger_entries')
        .select('id')
        .where('organization_id', '=', w.id('H'))
        .orderBy('seq')
        .limit(1)
        .executeTakeFirstOrThrow();
      await sql`update credit_ledger_entries set balance_after = balance_after + 1 where id = ${first.id}`.execute(trx);
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      balance_chain_breaks: [expect.objectContaining({ organization_id: w.id('H'), running: '1000.00', balance_after: '1001.00' })],
      // The entry was changed after it was written: its hash no longer covers it.
      hash_chain_breaks: [expect.objectContaining({ organization_id: w.id('H'), reason: 'edited' })],
    });
  });

  it('a running balance below zero that every balance_after follows (books written without the CHECK on balance_after)', async () => {
    let org = '';
    const report = await reportAfter(
      async (trx) => {
        // Only books from before the CHECK, or restored around it, can hold this: the
        // corruption drops the CHECK inside its transaction (rolled back with the rest).
        await sql`alter table credit_ledger_entries drop constraint credit_ledger_entries_balance_after_check`.execute(trx);
        org = (await insertOrg(trx, { name: 'Overdrawn Tenant', type: 'tenant', parentId: w.id('A1') })).id;
        // -1.00 then +1.00, each balance_after the running sum: the sums, the last balance_after
        // and the balance (0.00) all agree, but the balance stood at -1.00 in between. The
        // triggers run, so the ledger totals agree too.
        await sql`
          insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, created_at) values
            (${org}, -1.00, 'adjustment_decrease', gen_random_uuid(), -1.00, now() - interval '1 minute'),
            (${org}, 1.00, 'adjustment_increase', gen_random_uuid(), 0.00, now())`.execute(trx);
      },
      { bypassTriggers: false },
    );
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      balance_chain_breaks: [{ organization_id: org, ledger_entry_id: expect.any(String), running: '-1.00', balance_after: '-1.00' }],
    });
  });

  it('an allocation group that does not net to zero, everything else consistent', async () => {
    let group = '';
    const report = await reportAfter(async (trx) => {
      // SA2 received 45 of the 50 H sent: its entry, balance and totals all say 45.
      const entry = await onlyEntry(trx, w.id('SA2'));
      group = entry.transaction_group;
      await sql`update credit_ledger_entries set amount = 45, balance_after = 45 where id = ${entry.id}`.execute(trx);
      await sql`update organization_billing_settings set credit_balance = 45 where organization_id = ${w.id('SA2')}`.execute(trx);
      await sql`update credit_ledger_totals set total = 45 where organization_id = ${w.id('SA2')}`.execute(trx);
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      unbalanced_groups: [{ transaction_group: group, total: '-5.00' }],
      hash_chain_breaks: [expect.objectContaining({ organization_id: w.id('SA2'), reason: 'edited' })],
    });
    // The group's entries name the organizations on both sides.
    const sides = await db()
      .selectFrom('credit_ledger_entries')
      .select('organization_id')
      .where('transaction_group', '=', group)
      .orderBy('seq')
      .execute();
    expect(sides.map((s) => s.organization_id)).toEqual([w.id('H'), w.id('SA2')]);
  });

  it('a reversal that names no allocation, its two entries balanced and posted as any movement is', async () => {
    const nothing = '00000000-0000-4000-8000-000000000000';
    const meta = JSON.stringify({ reverses_transaction_id: nothing, reason: 'forged' });
    const report = await reportAfter(
      async (trx) => {
        await sql`select * from ledger_post(gen_random_uuid(), null, false, array[${w.id('SA2')}, ${w.id('H')}]::uuid[],
          array[-5, 5]::numeric[], array['reversal_sent', 'reversal_received'], array[${meta}, ${meta}]::jsonb[])`.execute(trx);
      },
      { bypassTriggers: false },
    );
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      reversal_mismatches: [{ transaction_group: expect.any(String), reverses: nothing }],
    });
  });

  it('a ledger total that is off by an amount', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`update credit_ledger_totals set total = total + 1 where organization_id = ${w.id('H')} and entry_type = 'adjustment_increase'`.execute(
        trx,
      );
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      ledger_total_mismatches: [
        expect.objectContaining({ organization_id: w.id('H'), entry_type: 'adjustment_increase', actual: '1000.00' }),
      ],
    });
    expect(Number(report.ledger_total_mismatches[0]!.stored)).toBe(1001);
  });

  it('a ledger total whose entry count is off (the amount right)', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`update credit_ledger_totals set entries = entries + 1 where organization_id = ${w.id('A1')} and entry_type = 'allocation_sent'`.execute(
        trx,
      );
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      ledger_total_mismatches: [expect.objectContaining({ organization_id: w.id('A1'), entry_type: 'allocation_sent' })],
    });
  });

  it('a ledger entry the totals never counted', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`delete from credit_ledger_totals where organization_id = ${w.id('T2')}`.execute(trx);
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      ledger_total_mismatches: [{ organization_id: w.id('T2'), entry_type: 'allocation_received', stored: null, actual: '10.00' }],
    });
  });

  it('a subtree count that is off', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`update organization_subtree_counts set n = n + 1 where ancestor_id = ${w.id('SA1')} and org_type = 'agency'`.execute(trx);
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      subtree_count_mismatches: [expect.objectContaining({ ancestor_id: w.id('SA1'), org_type: 'agency', stored: 3, actual: 2 })],
    });
  });

  it('a deleted organization still counted in its ancestors', async () => {
    const report = await reportAfter(async (trx) => {
      // The counting trigger skipped: A2 (no balance) deleted behind the counts' back.
      await sql`update organizations set deleted_at = now() where id = ${w.id('A2')}`.execute(trx);
    });
    expect(report.ok).toBe(false);
    expect(report.deleted_with_balance).toEqual([]);
    const ancestors = report.subtree_count_mismatches
      .filter((m) => m.org_type === 'agency')
      .map((m) => [m.ancestor_id, m.stored, m.actual]);
    expect(ancestors.sort()).toEqual(
      [
        [w.id('H'), 3, 2],
        [w.id('SA1'), 2, 1],
      ].sort(),
    );
  });

  it('a balance held by a deleted organization', async () => {
    // The triggers run: the subtree counts follow the deletion, only the balance is wrong.
    const report = await reportAfter(
      async (trx) => {
        await sql`update organizations set deleted_at = now() where id = ${w.id('T2')}`.execute(trx);
      },
      { bypassTriggers: false },
    );
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      deleted_with_balance: [{ organization_id: w.id('T2'), name: 'Tenant Two', credit_balance: '10.00' }],
    });
  });

  it('a usage carry that does not make up the costs', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`update usage_carry set carry = carry + 0.001 where organization_id = ${w.id('T1')}`.execute(trx);
    });
    expect(report).toMatchObject({ ...EMPTY, ok: false, usage_carry_mismatches: [expect.anything()] });
    const [carry] = report.usage_carry_mismatches;
    expect(carry).toMatchObject({ organization_id: w.id('T1'), agent_type_id: agentTypeId, charged: '0.33' });
    expect([Number(carry!.cost), Number(carry!.carry)]).toEqual([0.3333, 0.0043]);
  });

  it('a usage event charged more than its costs (no carry to explain it)', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`delete from usage_carry where organization_id = ${w.id('T1')}`.execute(trx);
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      usage_carry_mismatches: [expect.objectContaining({ organization_id: w.id('T1'), carry: '0' })],
    });
  });

  it('an earning carry that no margin of any event explains', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`insert into earning_carry (organization_id, agent_type_id, carry) values (${w.id('A1')}, ${agentTypeId}, 0.001)`.execute(
        trx,
      );
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      earning_mismatches: [{ organization_id: w.id('A1'), agent_type_id: agentTypeId, earned: '0', credited: '0', carry: '0.00100000' }],
    });
  });

  it("earnings posted with a usage batch beyond what it consumed, and beyond its events' margins", async () => {
    const report = await reportAfter(
      async (trx) => {
        const entry = await onlyConsumption(trx, w.id('T1'));
        await sql`select 1 from ledger_post(${entry.transaction_group}::uuid, null, false, array[${w.id('A1')}]::uuid[], array[1.00]::numeric[],
          array['earning'], array['{}'::jsonb], null, null, array[${agentTypeId}]::uuid[], array[1]::numeric[])`.execute(trx);
      },
      { bypassTriggers: false },
    );
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      earning_mismatches: [expect.objectContaining({ organization_id: w.id('A1'), earned: '0', credited: '1.00' })],
      over_earned_groups: [expect.objectContaining({ earned: '1.00', consumed: '0.33' })],
    });
  });

  it('a consumption entry that differs from its usage event', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`update credit_ledger_entries set units = 2 where organization_id = ${w.id('T1')} and entry_type = 'consumption'`.execute(
        trx,
      );
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      usage_entry_mismatches: [expect.objectContaining({ organization_id: w.id('T1'), problem: 'entry differs' })],
      hash_chain_breaks: [expect.objectContaining({ organization_id: w.id('T1'), reason: 'edited' })],
    });
  });

  it('a day total of usage that differs from the events it sums', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`update usage_event_days set units = units + 1 where organization_id = ${w.id('T1')}`.execute(trx);
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      usage_day_mismatches: [
        expect.objectContaining({
          organization_id: w.id('T1'),
          agent_type_id: agentTypeId,
          stored: '1 events, 2.0000 units, 0.33 charged',
          actual: '1 events, 1.0000 units, 0.33 charged',
        }),
      ],
    });
  });

  it('a day total of consumptions that differs from the ledger, or is missing', async () => {
    const report = await reportAfter(async (trx) => {
      await sql`delete from credit_usage_days where organization_id = ${w.id('T1')}`.execute(trx);
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      credit_day_mismatches: [
        expect.objectContaining({ organization_id: w.id('T1'), entry_type: 'consumption', stored: null, actual: '-0.33 in 1 entries' }),
      ],
    });
  });
});
