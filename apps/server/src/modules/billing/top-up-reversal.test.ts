import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { activate, balanceOf, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { reconcile } from '../credits/reconcile.ts';
import { runTopUpsNow } from '../../test/top-up-run.ts';

/**
 * A parent sees on its child's spend controls what each top-up of the month was for, and takes
 * back one the child has not spent, as it reverses any allocation. The children are tenants of
 * Agency One (whose admins are the parent's), one agent at 1.0000 a unit.
 */
const w = useWorld({ topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;

let agent: { id: string; code: string };
let key: string;
let n = 0;

const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });
const controlsOf = (child: string, who = 'A1.admin') => as(who, 'GET', `/api/organizations/${child}/spend-controls`);
const reverse = (transactionId: string, who = 'A1.admin') =>
  as(who, 'POST', `/api/credits/allocations/${transactionId}/reversal`, { reason: 'Pulled by usage it never paid for' });
const runTopUps = () => runTopUpsNow(db(), w.t.app.log);

async function child(holding: string, topUp: { below: string; amount: string; monthly_max: string }) {
  n += 1;
  const org = await insertOrg(db(), { name: `Top-up Tenant ${n}`, type: 'tenant', parentId: w.id('A1') });
  await activate(db(), org.id, agent.id);
  await fund(db(), org.id, holding);
  const set = await as('A1.admin', 'PUT', `/api/organizations/${org.id}/spend-controls`, { spend_cap: null, top_up: topUp });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  return org.id;
}

async function use(org: string, units: string) {
  const response = await w.t.request(
    'POST',
    '/api/v1/usage-events',
    { events: [{ id: `reversal-${++n}`, organization_id: org, agent: agent.code, units, occurred_at: new Date().toISOString() }] },
    { headers: { authorization: `Bearer ${key}` } },
  );
  return response.body.results[0].status as string;
}

beforeAll(async () => {
  agent = await insertAgentType(db(), 'reversal-bot', '1.0000');
  await fund(db(), w.id('A1'), '10000.00');
  key = (await insertApiKey(db(), w.id('A1'), { name: 'top-up runtime' })).key;
});

describe("a child's top-ups on its spend controls", () => {
  it('lists what each was for and what became of it, latest first; its parent admins may reverse a made one', async () => {
    const org = await child('50.00', { below: '20.00', amount: '100.00', monthly_max: '150.00' });
    expect(await use(org, '120')).toBe('rejected');
    await runTopUps();
    expect(await use(org, '140')).toBe('accepted');
    await runTopUps();
    const { body, status } = await controlsOf(org);
    expect(status).toBe(200);
    expect(body.top_ups).toEqual([
      expect.objectContaining({
        reason: 'crossed',
        balance: '10.00',
        refused: null,
        outcome: 'monthly_max',
        amount: null,
        can_reverse: false,
      }),
      expect.objectContaining({
        reason: 'refused',
        balance: '50.00',
        refused: '120.00',
        outcome: 'topped_up',
        amount: '100.00',
        can_reverse: true,
      }),
    ]);
    expect(body.top_ups[1].transaction_id).toEqual(expect.any(String));
    expect(body.top_ups[1].reversed_by).toBeNull();
    // The agency's manager sees the list but may not reverse.
    const manager = await controlsOf(org, 'A1.manager');
    expect(manager.body.top_ups.map((t: { can_reverse: boolean }) => t.can_reverse)).toEqual([false, false]);
  });
});

describe('reversing an automatic top-up', () => {
  it('gives back one the child has not spent, frees its part of the monthly maximum, and queues no new top-up', async () => {
    const org = await child('50.00', { below: '20.00', amount: '100.00', monthly_max: '100.00' });
    expect(await use(org, '120')).toBe('rejected');
    await runTopUps();
    expect(await balanceOf(db(), org)).toBe('150.00');
    const parentBefore = await balanceOf(db(), w.id('A1'));
    const made = (await controlsOf(org)).body.top_ups[0];
    const response = await reverse(made.transaction_id);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(await balanceOf(db(), org)).toBe('50.00');
    expect(await balanceOf(db(), w.id('A1'))).toBe((Number(parentBefore) + 100).toFixed(2));
    const after = (await controlsOf(org)).body;
    expect(after.topped_up_this_month).toBe('0.00');
    expect(after.top_ups[0]).toMatchObject({ outcome: 'topped_up', reversed_by: response.body.transaction_id, can_reverse: false });
    expect((await reverse(made.transaction_id)).status).toBe(409);
    // The freed maximum lets the next top-up through.
    expect(await use(org, '120')).toBe('rejected');
    await runTopUps();
    expect(await balanceOf(db(), org)).toBe('150.00');
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('taking the child below its line by the reversal queues no top-up that would hand the amount straight back', async () => {
    const org = await child('15.00', { below: '20.00', amount: '100.00', monthly_max: '500.00' });
    // Set below its line: the top-up is queued at once.
    await runTopUps();
    expect(await balanceOf(db(), org)).toBe('115.00');
    const made = (await controlsOf(org)).body.top_ups[0];
    expect((await reverse(made.transaction_id)).status).toBe(200);
    await runTopUps();
    expect(await balanceOf(db(), org)).toBe('15.00');
    expect(
      await db().selectFrom('top_up_requests').select('id').where('organization_id', '=', org).where('done_at', 'is', null).execute(),
    ).toEqual([]);
  });

  it('refuses one the child has spent part of, or made more than 24 hours ago, and anyone but the parent admins', async () => {
    const org = await child('50.00', { below: '20.00', amount: '100.00', monthly_max: '500.00' });
    expect(await use(org, '120')).toBe('rejected');
    await runTopUps();
    expect(await use(org, '101')).toBe('accepted');
    const made = (await controlsOf(org)).body.top_ups[0];
    const spent = await reverse(made.transaction_id);
    expect(spent.status).toBe(422);
    const { name } = await db().selectFrom('organizations').select('name').where('id', '=', org).executeTakeFirstOrThrow();
    expect(spent.body.error.message).toBe(MESSAGES.credits.reversalNotCovered(name, '49.00'));
    expect((await reverse(made.transaction_id, 'A1.manager')).status).toBe(403);
    await fund(db(), org, '100.00');
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`alter table credit_ledger_entries disable trigger credit_ledger_no_update`.execute(trx);
        await sql`update credit_ledger_entries set created_at = created_at - interval '25 hours' where transaction_group = ${made.transaction_id}::uuid`.execute(
          trx,
        );
        await sql`alter table credit_ledger_entries enable trigger credit_ledger_no_update`.execute(trx);
      });
    expect((await controlsOf(org)).body.top_ups[0].can_reverse).toBe(false);
    expect((await reverse(made.transaction_id)).status).toBe(422);
  });
});
