import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, type BalanceAlertKind } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { activate, balanceOf, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { reconcile } from '../credits/reconcile.ts';
import { topUpsSettled } from '../../test/top-up-run.ts';
import { createTopUpRunner } from './top-ups.ts';

// The app's own runner is kept away: each test makes the top-ups it expects with its own.
const w = useWorld({ topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;
const m = MESSAGES.usage;

let agent: { id: string; code: string };
let key: { id: string; key: string };
const month = new Date().toISOString().slice(0, 7);
// When the month's window resets: the first instant of the next month, UTC.
const monthEnds = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString();
let n = 0;
const use = (org: string, units = '1') => ({
  id: `cap-${++n}`,
  organization_id: org,
  agent: agent.code,
  units,
  occurred_at: new Date().toISOString(),
});
const report = (events: unknown[], bearer = key.key) =>
  w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${bearer}` } });
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });
const controls = (org: string, body: unknown, who = 'SA1.admin') => as(who, 'PUT', `/api/organizations/${org}/spend-controls`, body);
const alerts = (kind: BalanceAlertKind) =>
  db()
    .selectFrom('balance_alerts')
    .select(['organization_id', 'balance', 'threshold', 'detail'])
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();
const runner = () => createTopUpRunner({ db: db(), logger: w.t.app.log, pollMs: 3_600_000 });

beforeAll(async () => {
  agent = await insertAgentType(db(), 'capped', '0.2500');
  for (const org of ['SA1', 'A1', 'T1', 'T2', 'A2'] as const) {
    await activate(db(), w.id(org), agent.id);
    await fund(db(), w.id(org), '100.00');
  }
  await sql`update organizations set status = 'active' where id = ${w.id('T2')}`.execute(db());
  key = await insertApiKey(db(), w.id('A1'), { name: 'capped runtime' });
});

describe('a monthly cap per API key', () => {
  it('is set by the key organization admins; an event that would pass it is refused with the cap and the month named', async () => {
    const path = `/api/organizations/${w.id('A1')}/api-keys/${key.id}`;
    expect((await as('A1.manager', 'PATCH', path, { monthly_cap: '1.00' })).status).toBe(403);
    expect((await as('A1.admin', 'PATCH', path, { monthly_cap: '-1' })).status).toBe(400);
    const set = await as('A1.admin', 'PATCH', path, { monthly_cap: '1.00' });
    expect(set.status).toBe(200);
    expect(set.body.api_key.monthly_cap).toEqual({ cap: '1.00', month, charged: '0.00' });
    // One organization's events, taken in the order sent (a batch takes its organizations in id order).
    const response = await report([use(w.id('T1')), use(w.id('T1')), use(w.id('T1')), use(w.id('T1')), use(w.id('T1'))]);
    expect(response.body.results.map((r: any) => r.status)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'rejected']);
    expect(response.body.results[4]).toMatchObject({
      reason: 'key_cap_reached',
      message: m.keyCapReached('1.00', 'month', monthEnds, 'capped runtime', 'Agency One'),
      cap: {
        scope: 'key',
        limit: '1.00',
        window: 'month',
        window_start: `${month}-01`,
        resets_at: monthEnds,
        name: 'capped runtime',
        organization_id: w.id('A1'),
        set_by: { organization_id: w.id('A1'), name: 'Agency One' },
      },
    });
    const list = await as('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/api-keys`);
    expect(list.body.api_keys.find((k: any) => k.id === key.id).monthly_cap).toEqual({ cap: '1.00', month, charged: '1.00' });
    const entitled = await w.t.request('GET', `/api/v1/entitlements?organization_id=${w.id('T1')}&agent=${agent.code}`, undefined, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(entitled.body).toMatchObject({ allowed: false, reason: 'key_cap_reached', cap: response.body.results[4].cap });
    // The batch went from nothing to the cap: one alert, at 100 % (none at 80 % on the way), to the key's organization; never again this month.
    expect((await alerts('cap_warning')).map((a) => [a.organization_id, a.threshold])).toEqual([]);
    expect((await alerts('cap_reached')).map((a) => [a.organization_id, a.balance, a.threshold, (a.detail as any).scope])).toEqual([
      [w.id('A1'), '1.00', '1.00', 'key'],
    ]);
    await report([use(w.id('T1'))]);
    expect(await alerts('cap_reached')).toHaveLength(1);
    await as('A1.admin', 'PATCH', path, { monthly_cap: null });
    expect((await report([use(w.id('T1'))])).body.results[0].status).toBe('accepted');
  });
});

describe('the 80 % warning of a cap', () => {
  it("queues one cap_warning to the cap's organization on reaching exactly 80 %, none at 79.99 %, and no second one that month", async () => {
    // A key of its own (its month starts at 0.00) and an agent at 1.0000 a unit: units are credits.
    const exact = await insertAgentType(db(), 'warned', '1.0000');
    await activate(db(), w.id('A1'), exact.id);
    const warned = await insertApiKey(db(), w.id('A1'), { name: 'warned runtime' });
    // What this test spends is added first, so A1's balance is where the other tests expect it.
    await fund(db(), w.id('A1'), '80.01');
    const set = await as('A1.admin', 'PATCH', `/api/organizations/${w.id('A1')}/api-keys/${warned.id}`, { monthly_cap: '100.00' });
    expect(set.status).toBe(200);
    const send = async (units: string) => {
      const response = await report([{ ...use(w.id('A1'), units), agent: exact.code }], warned.key);
      expect(response.body.results[0], JSON.stringify(response.body)).toMatchObject({ status: 'accepted' });
    };
    const warnings = async () =>
      (await alerts('cap_warning'))
        .filter((a) => (a.detail as { name?: string }).name === 'warned runtime')
        .map((a) => [a.organization_id, a.balance, a.threshold, a.detail]);

    await send('79.99');
    expect(await warnings()).toEqual([]);
    await send('0.01');
    expect(await warnings()).toEqual([
      [
        w.id('A1'),
        '80.00',
        '100.00',
        {
          scope: 'key',
          scope_id: warned.id,
          name: 'warned runtime',
          month,
          percent: 80,
          window: 'month',
          window_start: `${month}-01`,
        },
      ],
    ]);
    await send('0.01');
    expect(await warnings()).toHaveLength(1);
    expect((await alerts('cap_reached')).filter((a) => (a.detail as { name?: string }).name === 'warned runtime')).toEqual([]);
  });
});

describe('a cap changed again and again', () => {
  it('warns its organization once within the hour, though each change starts its month afresh', async () => {
    const recapped = await insertAgentType(db(), 'recapped', '1.0000');
    const activation = await activate(db(), w.id('A1'), recapped.id);
    await fund(db(), w.id('A1'), '9.02');
    const cap = (monthly_cap: string) =>
      as('A1.admin', 'PUT', `/api/organizations/${w.id('A1')}/agents/${activation}/cap`, { monthly_cap });
    const send = async (units: string) =>
      expect((await report([{ ...use(w.id('A1'), units), agent: recapped.code }])).body.results[0].status).toBe('accepted');
    const warnings = async () =>
      (await alerts('cap_warning')).filter((a) => (a.detail as { scope_id?: string }).scope_id === activation).map((a) => a.balance);
    expect((await cap('10.00')).status).toBe(200);
    await send('9');
    expect(await warnings()).toEqual(['9.00']);
    for (const next of ['10.50', '11.00']) {
      expect((await cap(next)).status).toBe(200);
      await send('0.01');
    }
    expect(await warnings()).toEqual(['9.00']);
    await as('A1.admin', 'PUT', `/api/organizations/${w.id('A1')}/agents/${activation}/cap`, { monthly_cap: null });
  });
});

describe('a monthly cap per activation', () => {
  it('is set by the organization or its parent, counts the month so far, and refuses past it', async () => {
    const agents = await as('A1.admin', 'GET', `/api/organizations/${w.id('T1')}/agents`);
    const activation = agents.body.activations.find((a: any) => a.agent_type.id === agent.id);
    const path = `/api/organizations/${w.id('T1')}/agents/${activation.id}/cap`;
    expect((await as('T1.user', 'PUT', path, { monthly_cap: '2.00' })).status).toBe(403);
    expect([403, 404]).toContain(
      (await as('A2.admin' in w.world.users ? 'A2.admin' : 'SA1.admin', 'PUT', path, { monthly_cap: '2.00' })).status,
    );
    const set = await as('A1.admin', 'PUT', path, { monthly_cap: '2.00' });
    expect(set.status).toBe(200);
    // T1's five accepted events above (0.25 each) count: the month so far is recounted from the day totals.
    expect(set.body.activation.monthly_cap).toEqual({ cap: '2.00', month, charged: '1.25' });
    const response = await report([use(w.id('T1'), '3'), use(w.id('T1'), '3')]);
    expect(response.body.results.map((r: any) => [r.status, r.reason])).toEqual([
      ['accepted', null],
      ['rejected', 'activation_cap_reached'],
    ]);
    // Another organization's activation of the same agent is not held by T1's cap.
    expect((await report([use(w.id('A1'), '8')])).body.results[0].status).toBe('accepted');
    // Set by T1's parent, which the key's organization is: named.
    expect(response.body.results[1].message).toBe(m.activationCapReached('2.00', 'month', monthEnds, 'Agent capped', 'Agency One'));
    expect(response.body.results[1].cap).toMatchObject({
      scope: 'activation',
      set_by: { organization_id: w.id('A1'), name: 'Agency One' },
    });
    await as('A1.admin', 'PUT', path, { monthly_cap: null });
  });
});

describe("a parent's monthly spend cap on a child's subtree", () => {
  it('is set by the parent admins only, on a direct child only, and covers the child and everything below it', async () => {
    expect((await controls(w.id('A1'), { spend_cap: '5.00', top_up: null }, 'A1.admin')).status).toBe(403);
    expect((await controls(w.id('A1'), { spend_cap: '5.00', top_up: null }, 'H.admin')).status).toBe(403);
    expect((await controls(w.id('A1'), { spend_cap: '5.00', top_up: null }, 'SA1.manager')).status).toBe(403);
    expect((await controls(w.id('T1'), { spend_cap: '5.00', top_up: null }, 'SA1.admin')).status).toBe(403);
    const before = await as('SA1.admin', 'GET', `/api/organizations/${w.id('A1')}/spend-controls`);
    const spent = before.body.spend_cap.charged;
    const cap = (Number(spent) + 1).toFixed(2);
    const set = await controls(w.id('A1'), { spend_cap: cap, top_up: null });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ spend_cap: { cap, month, charged: spent }, top_up: null, can_edit: true });
    // One batch at a time: a batch takes its organizations in id order, not in the order sent.
    const outcomes = [];
    for (const org of [w.id('T1'), w.id('T2'), w.id('A1')]) outcomes.push((await report([use(org, '2')])).body.results[0]);
    expect(outcomes.map((r: any) => [r.status, r.reason])).toEqual([
      ['accepted', null],
      ['accepted', null],
      ['rejected', 'spend_cap_reached'],
    ]);
    // The cap is on the key's own organization, set by its parent, which the key's owner may not see.
    expect(outcomes[2].message).toBe(m.spendCapReached(cap, 'month', monthEnds, 'Agency One', m.organizationAbove));
    expect(outcomes[2].cap).toMatchObject({
      scope: 'subtree',
      name: 'Agency One',
      organization_id: w.id('A1'),
      set_by: { organization_id: null, name: m.organizationAbove },
    });
    const seen = await as('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/spend-controls`);
    expect(seen.body).toMatchObject({ spend_cap: { cap, charged: cap }, can_edit: false });
    expect((await alerts('cap_reached')).filter((a) => a.organization_id === w.id('A1')).map((a) => (a.detail as any).scope)).toContain(
      'subtree',
    );
    await controls(w.id('A1'), { spend_cap: null, top_up: null });
    expect((await reconcile(db())).ok).toBe(true);
  });
});

describe('automatic top-up from the parent', () => {
  it('refuses a top-up larger than its monthly maximum, or set by anyone but the parent admins', async () => {
    const big = await controls(w.id('A2'), { spend_cap: null, top_up: { below: '5', amount: '20', monthly_max: '10' } });
    expect(big.status).toBe(400);
    expect(JSON.stringify(big.body)).toContain(MESSAGES.spend.topUpAboveMonthlyMax);
    expect([403, 404]).toContain(
      (await controls(w.id('A2'), { spend_cap: null, top_up: { below: '5', amount: '2', monthly_max: '10' } }, 'A1.admin')).status,
    );
    expect(
      (await controls(w.id('T1'), { spend_cap: null, top_up: { below: '5', amount: '2', monthly_max: '10' } }, 'T1.admin')).status,
    ).toBe(403);
  });

  it('moves the amount from the parent once per crossing, marked automatic, and refuses past the monthly maximum with an alert', async () => {
    const t2 = w.id('T2');
    // A1 is T2's parent: its admins set the top-up.
    const set = await controls(t2, { spend_cap: null, top_up: { below: '99.00', amount: '10.00', monthly_max: '15.00' } }, 'A1.admin');
    expect(set.status).toBe(200);
    const before = { t2: await balanceOf(db(), t2), a1: await balanceOf(db(), w.id('A1')) };
    // Crossing below 99.00: one request; a second batch below the line makes no second one.
    await report([use(t2, '8')]);
    await report([use(t2, '4')]);
    const pending = await db()
      .selectFrom('top_up_requests')
      .select(['reason'])
      .where('organization_id', '=', t2)
      .where('done_at', 'is', null)
      .execute();
    expect(pending.map((p) => p.reason)).toEqual(['crossed']);
    // Two runners at once (two server processes): one top-up.
    await Promise.all([runner().runNow(), runner().runNow()]);
    await topUpsSettled(db());
    expect(await balanceOf(db(), t2)).toBe((Number(before.t2) - 3 + 10).toFixed(2));
    expect(await balanceOf(db(), w.id('A1'))).toBe((Number(before.a1) - 10).toFixed(2));
    const entries = await db()
      .selectFrom('credit_ledger_entries')
      .select(['organization_id', 'entry_type', 'amount', 'metadata'])
      .where('entry_type', 'in', ['allocation_sent', 'allocation_received'])
      .where(sql<boolean>`metadata->>'automatic' = 'true'`)
      .execute();
    expect(entries.map((e) => [e.organization_id, e.entry_type, e.amount])).toEqual([
      [w.id('A1'), 'allocation_sent', '-10.00'],
      [t2, 'allocation_received', '10.00'],
    ]);
    const shown = await as('A1.admin', 'GET', `/api/organizations/${t2}/spend-controls`);
    expect(shown.body).toMatchObject({ topped_up_this_month: '10.00', last_top_up: { outcome: 'topped_up' } });
    // Cross again: 10 more would make 20 this month, past 15: refused, and A1's admins alerted.
    await report([use(t2, '40')]);
    await runner().runNow();
    await topUpsSettled(db());
    const failed = await alerts('top_up_failed');
    expect(failed.map((a) => [a.organization_id, (a.detail as any).reason, (a.detail as any).child_name])).toEqual([
      [w.id('A1'), 'monthly_max', 'Tenant Two'],
    ]);
    expect((await as('A1.admin', 'GET', `/api/organizations/${t2}/spend-controls`)).body.last_top_up.outcome).toBe('monthly_max');
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('an event refused for want of credits while a top-up is possible starts one at once, and a parent without the funds is told', async () => {
    const t1 = w.id('T1');
    const drained = await balanceOf(db(), t1);
    await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${t1}]::uuid[], array[${`-${drained}`}]::numeric[],
      array['adjustment_decrease'], array['{"reason":"test drain"}'::jsonb])`.execute(db());
    await controls(t1, { spend_cap: null, top_up: { below: '0.50', amount: '5.00', monthly_max: '50.00' } }, 'A1.admin');
    // Setting the top-up on a child already below its line queues one at once.
    expect(
      await db().selectFrom('top_up_requests').select('reason').where('organization_id', '=', t1).where('done_at', 'is', null).execute(),
    ).toEqual([{ reason: 'crossed' }]);
    await runner().runNow();
    await topUpsSettled(db());
    expect(await balanceOf(db(), t1)).toBe('5.00');
    const refused = await report([use(t1, '40')]);
    expect(refused.body.results[0].reason).toBe('insufficient_credits');
    expect(
      await db().selectFrom('top_up_requests').select('reason').where('organization_id', '=', t1).where('done_at', 'is', null).execute(),
    ).toEqual([{ reason: 'refused' }]);
    // The runner tops it up though its balance (5.00) is above the line: its usage was refused.
    await runner().runNow();
    await topUpsSettled(db());
    expect(await balanceOf(db(), t1)).toBe('10.00');
    expect((await report([use(t1, '41')])).body.results[0].reason).toBe('insufficient_credits');
    // The parent cannot fund the next one: refused, with an alert to the parent.
    const a1 = await balanceOf(db(), w.id('A1'));
    await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${w.id('A1')}]::uuid[], array[${`-${a1}`}]::numeric[],
      array['adjustment_decrease'], array['{"reason":"test drain"}'::jsonb])`.execute(db());
    await runner().runNow();
    await topUpsSettled(db());
    expect((await alerts('top_up_failed')).at(-1)).toMatchObject({ organization_id: w.id('A1'), detail: { reason: 'parent_short' } });
    expect((await reconcile(db())).ok).toBe(true);
  });
});
