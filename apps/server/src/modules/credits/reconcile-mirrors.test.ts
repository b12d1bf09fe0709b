import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';
import { NOTHING_LISTED as EMPTY, reportAfter } from '../../test/reconcile-report.ts';
import { activate, fund, insertAgentType } from '../../test/usage-rows.ts';

/**
 * Two checks of reconcile that its other lists never stand in for, each broken alone (in a
 * transaction rolled back, see reportAfter): a usage posting whose earnings exceed what its
 * consumption took, every earning explained by its events' margins, must make the report not
 * ok by itself; and a reversal must give back exactly the allocation it names, on each side.
 */
const w = useWorld();
const db = () => w.t.database.db;

let agentTypeId = '';
let allocation = '';

beforeAll(async () => {
  // H sends SA2 50 (its only allocation); T1 consumes one unit at 0.3333 (0.33 charged).
  const request = async (who: string, path: string, body: unknown) => {
    const response = await w.t.request('POST', path, body, { token: await w.as(who) });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  await request('H.admin', '/api/credits/adjustments', { direction: 'increase', amount: '1000', reason: 'reconcile mirrors' });
  allocation = (await request('H.admin', '/api/credits/allocations', { from_org_id: w.id('H'), to_org_id: w.id('SA2'), amount: '50' }))
    .transaction_id;
  const agent = await insertAgentType(db(), 'mirrored', '0.3333');
  agentTypeId = agent.id;
  await activate(db(), w.id('T1'), agent.id);
  await fund(db(), w.id('T1'), '20.00');
  const usage = await request('H.admin', '/api/credits/usage', {
    events: [
      {
        id: 'mirror-usage-1',
        organization_id: w.id('T1'),
        agent: agent.code,
        units: '1',
        occurred_at: new Date(Date.now() - 60_000).toISOString(),
      },
    ],
  });
  expect(usage.results[0]).toMatchObject({ status: 'accepted', credits_charged: '0.33' });
});

describe('reconcile, each of these alone', () => {
  it('a usage posting whose earnings exceed its consumption, each earning matching its margins: over_earned_groups, and ok false', async () => {
    expect(await reportAfter(db(), async () => {})).toMatchObject({ ...EMPTY, ok: true });
    let group = '';
    const report = await reportAfter(db(), async (trx) => {
      const consumption = await trx
        .selectFrom('credit_ledger_entries')
        .select('transaction_group')
        .where('organization_id', '=', w.id('T1'))
        .where('entry_type', '=', 'consumption')
        .executeTakeFirstOrThrow();
      group = consumption.transaction_group;
      // The event keeps a margin of 1.00 a unit for T1's parent, A1 (triggers skipped)...
      await sql`update usage_events set margins = array[1]::numeric[] where organization_id = ${w.id('T1')}`.execute(trx);
      // ... and A1 is credited exactly that with the posting, as any posting is (triggers on):
      // every earning is explained, but 1.00 earned on 0.33 consumed.
      await sql`set local session_replication_role = origin`.execute(trx);
      await sql`select 1 from ledger_post(${group}::uuid, null, false, array[${w.id('A1')}]::uuid[], array[1.00]::numeric[],
        array['earning'], array['{}'::jsonb], null, null, array[${agentTypeId}]::uuid[], array[1]::numeric[])`.execute(trx);
    });
    expect(report).toMatchObject({
      ...EMPTY,
      ok: false,
      over_earned_groups: [{ transaction_group: group, earned: '1.00', consumed: '0.33' }],
    });
  });

  it("a reversal that gives back another amount than its allocation's: reversal_mismatches, on either side", async () => {
    /** A reversal of the allocation H → SA2 (50.00), posted as any movement is: SA2 gives `taken`, H gets `returned`. */
    const reversal = (taken: string, returned: string) =>
      reportAfter(
        db(),
        async (trx) => {
          const meta = JSON.stringify({ reverses_transaction_id: allocation, reason: 'forged' });
          await sql`select * from ledger_post(gen_random_uuid(), null, false, array[${w.id('SA2')}, ${w.id('H')}]::uuid[],
            array[${`-${taken}`}, ${returned}]::numeric[], array['reversal_sent', 'reversal_received'], array[${meta}, ${meta}]::jsonb[])`.execute(
            trx,
          );
        },
        { bypassTriggers: false },
      );
    const listed = [{ transaction_group: expect.any(String), reverses: allocation }];
    expect(await reversal('50.00', '50.00')).toMatchObject({ ...EMPTY, ok: true });
    // Balanced, so only the comparison with the allocation tells.
    expect(await reversal('5.00', '5.00')).toMatchObject({ ...EMPTY, ok: false, reversal_mismatches: listed });
    // One side mirrors the allocation, the other does not (the group no longer nets to zero either).
    expect(await reversal('50.00', '45.00')).toMatchObject({
      ok: false,
      reversal_mismatches: listed,
      unbalanced_groups: [expect.anything()],
    });
    expect(await reversal('45.00', '50.00')).toMatchObject({
      ok: false,
      reversal_mismatches: listed,
      unbalanced_groups: [expect.anything()],
    });
  });
});
