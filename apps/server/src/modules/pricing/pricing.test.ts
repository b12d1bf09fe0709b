import { beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { activate, balanceOf, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { reconcile } from '../credits/reconcile.ts';

const w = useWorld();
const db = () => w.t.database.db;

let bot: { id: string; code: string };
let other: { id: string; code: string };
let key: { key: string };

const book = async (org: string, who: string) =>
  w.t.request('GET', `/api/organizations/${w.id(org as never)}/prices`, undefined, { token: await w.as(who) });
const setPrice = async (org: string, agentTypeId: string, price: unknown, who: string) =>
  w.t.request('PUT', `/api/organizations/${w.id(org as never)}/prices/${agentTypeId}`, { price }, { token: await w.as(who) });
const report = (events: unknown[]) =>
  w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key.key}` } });
let n = 0;
const use = (org: string, units: string, agent = 'pbot') => ({
  id: `p${++n}`,
  organization_id: w.id(org as never),
  agent,
  units,
  // After the price changes the test just made: an event takes the price of its time.
  occurred_at: new Date().toISOString(),
});
/** The outbox's newest id now: the mail a step stores comes after it. */
const outboxMark = async () => (await sql<{ id: string }>`select coalesce(max(id), 0)::text as id from outbox`.execute(db())).rows[0]!.id;
/**
 * The mails telling sellers their book for `agent` was floored, stored after `mark`, by
 * recipient. Other mail is not theirs: the background sender stores low-balance alerts of
 * this file's usage whenever it looks, so the outbox is never read whole.
 */
const flooredMailsSince = (mark: string, agent: string) =>
  db()
    .selectFrom('outbox')
    .select(['to_address', 'subject', 'body_text'])
    .where(sql<boolean>`id > ${mark}::bigint`)
    .where('subject', '=', MESSAGES.pricing.flooredSubject(agent))
    .orderBy('to_address')
    .execute();
/** A low-balance alert's mail, as the background sender may store it at any moment (to a recipient the price mails have too). */
const lowBalanceMailMeanwhile = () =>
  db()
    .insertInto('outbox')
    .values({ to_address: 'admin@a1.test', subject: MESSAGES.balanceAlerts.lowBalanceSubject('Agency One'), body_text: 'Low balance.' })
    .execute();
const entries = (org: string) =>
  db()
    .selectFrom('credit_ledger_entries')
    .select(['entry_type', 'amount', 'metadata', 'transaction_group'])
    .where('organization_id', '=', w.id(org as never))
    .where('entry_type', 'in', ['consumption', 'earning'])
    .orderBy('seq')
    .execute();

beforeAll(async () => {
  bot = await insertAgentType(db(), 'pbot', '0.2500');
  other = await insertAgentType(db(), 'pother', '1.0000');
  for (const org of ['T1', 'A1', 'SA1', 'A2'] as const) {
    await activate(db(), w.id(org), bot.id);
    await fund(db(), w.id(org), '100.00');
  }
  key = await insertApiKey(db(), w.id('SA1'), { name: 'SA1 runtime' });
});

describe('price books', () => {
  it('start as pass-through: a super agency pays the catalog and its children pay the same', async () => {
    const response = await book('SA1', 'SA1.admin');
    expect(response.status).toBe(200);
    expect(response.body.can_edit).toBe(true);
    expect(response.body.catalog).toBe(false);
    const item = response.body.items.find((i: any) => i.agent_type.id === bot.id);
    expect(item).toMatchObject({ my_price: '0.2500', book_price: null, children_price: '0.2500', margin: '0.0000', floored: false });
  });

  it('are read by the own organization only, set by its admins only, and the house sets none', async () => {
    expect((await book('SA1', 'SA1.user')).body.can_edit).toBe(false);
    expect((await book('T1', 'T1.admin')).status).toBe(403);
    expect([403, 404]).toContain((await book('SA1', 'A1.admin')).status);
    expect((await book('A1', 'SA1.admin')).status).toBe(403);
    const house = await book('H', 'H.admin');
    expect(house.body).toMatchObject({ catalog: true, can_edit: false });
    expect((await setPrice('H', bot.id, '1.0000', 'H.admin')).status).toBe(422);
    expect((await setPrice('SA1', bot.id, '0.3000', 'SA1.manager')).status).toBe(403);
    expect((await setPrice('SA1', bot.id, '0.3000', 'A1.admin')).status).toBeGreaterThanOrEqual(403);
    expect((await setPrice('A1', bot.id, '0.3000', 'SA1.admin')).status).toBe(403);
    expect((await setPrice('T1', bot.id, '0.3000', 'T1.admin')).status).toBe(403);
    expect(await db().selectFrom('organization_prices').selectAll().execute()).toEqual([]);
  });

  it('refuse a price below the own price or with more than four decimals, changing nothing', async () => {
    const low = await setPrice('SA1', bot.id, '0.2000', 'SA1.admin');
    expect(low.status).toBe(422);
    expect(low.body.error.message).toBe(MESSAGES.pricing.belowOwnPrice('0.2500'));
    expect((await setPrice('SA1', bot.id, '0.30001', 'SA1.admin')).status).toBe(400);
    expect((await setPrice('SA1', bot.id, '-1', 'SA1.admin')).status).toBe(400);
    // A price is a decimal string of one form: a space around it is refused, naming the field.
    for (const spaced of [' 1', '1 ', ' 0.3000']) {
      const refused = await setPrice('SA1', bot.id, spaced, 'SA1.admin');
      expect(refused.status, JSON.stringify(spaced)).toBe(400);
      expect(refused.body.error.fields).toEqual({ price: 'Enter a price of at least 0 with at most 4 decimal places.' });
    }
    expect(await db().selectFrom('organization_prices').selectAll().execute()).toEqual([]);
  });

  it('a super agency marks up 20 % and its agency a further 25 %: each level pays its price and earns its margin', async () => {
    expect((await setPrice('SA1', bot.id, '0.3000', 'SA1.admin')).body.item).toMatchObject({ children_price: '0.3000', margin: '0.0500' });
    const below = await setPrice('A1', bot.id, '0.2900', 'A1.admin');
    expect(below.body.error.message).toBe(MESSAGES.pricing.belowOwnPrice('0.3000'));
    expect((await setPrice('A1', bot.id, '0.3750', 'A1.admin')).body.item).toMatchObject({
      my_price: '0.3000',
      children_price: '0.3750',
      margin: '0.0750',
    });
    const before = {
      T1: await balanceOf(db(), w.id('T1')),
      A1: await balanceOf(db(), w.id('A1')),
      SA1: await balanceOf(db(), w.id('SA1')),
    };
    const response = await report([use('T1', '10'), use('A1', '10'), use('SA1', '10')]);
    expect(response.body.results.map((r: any) => [r.status, r.credits_charged])).toEqual([
      ['accepted', '3.75'],
      ['accepted', '3.00'],
      ['accepted', '2.50'],
    ]);
    // T1 pays 3.75; A1 pays 3.00 and earns 0.75 from T1; SA1 pays 2.50 and earns 0.50 from T1 and 0.50 from A1.
    expect(await balanceOf(db(), w.id('T1'))).toBe((Number(before.T1) - 3.75).toFixed(2));
    expect(await balanceOf(db(), w.id('A1'))).toBe((Number(before.A1) - 3 + 0.75).toFixed(2));
    expect(await balanceOf(db(), w.id('SA1'))).toBe((Number(before.SA1) - 2.5 + 1).toFixed(2));
    const a1 = await entries('A1');
    const earning = a1.find((e) => e.entry_type === 'earning')!;
    expect(earning.amount).toBe('0.75');
    expect(earning.metadata).toMatchObject({
      agent: 'pbot',
      margin: '0.0750',
      child_id: w.id('T1'),
      child_name: 'Tenant One',
      units: '10.0000',
    });
    // SA1 earned through Agency One on T1's and A1's usage: one entry for the child, agent and margin.
    const sa1 = (await entries('SA1')).filter((e) => e.entry_type === 'earning');
    expect(sa1.map((e) => [e.amount, (e.metadata as any).child_name, (e.metadata as any).units])).toEqual([
      ['1.00', 'Agency One', '20.0000'],
    ]);
    const margins = await sql<{ margins: string[] | null }>`
      select margins::text[] as margins from usage_events where organization_id = ${w.id('T1')} and client_event_id = 'p1'`.execute(db());
    expect(margins.rows[0]!.margins).toEqual(['0.0750', '0.0500']);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('shows each viewer the price that applies to it: the catalog, activations and the machine API', async () => {
    const priceIn = async (who: string) =>
      (await w.t.request('GET', '/api/agent-types', undefined, { token: await w.as(who) })).body.agent_types.find(
        (t: any) => t.id === bot.id,
      ).price;
    expect(await priceIn('H.admin')).toBe('0.2500');
    expect(await priceIn('SA1.admin')).toBe('0.2500');
    expect(await priceIn('A1.user')).toBe('0.3000');
    expect(await priceIn('T1.user')).toBe('0.3750');
    const activations = await w.t.request('GET', `/api/organizations/${w.id('T1')}/agents`, undefined, { token: await w.as('T1.admin') });
    expect(activations.body.activations.find((a: any) => a.agent_type.id === bot.id).agent_type.price).toBe('0.3750');
    // Super One's key is told the price of its child, not of its grandchild (which holds Agency One's margin).
    const entitled = async (org: 'A1' | 'T1') =>
      (
        await w.t.request('GET', `/api/v1/entitlements?organization_id=${w.id(org)}&agent=pbot`, undefined, {
          headers: { authorization: `Bearer ${key.key}` },
        })
      ).body;
    expect(await entitled('A1')).toMatchObject({ allowed: true, price: '0.3000' });
    expect(await entitled('T1')).toMatchObject({ allowed: true, price: null });
  });

  it('shows what was earned this month, by child and by agent, to the earner only', async () => {
    const earned = await w.t.request('GET', `/api/organizations/${w.id('SA1')}/earnings`, undefined, { token: await w.as('SA1.admin') });
    expect(earned.status).toBe(200);
    expect(earned.body.total).toBe('1.00');
    expect(earned.body.by_child).toEqual([{ organization_id: w.id('A1'), name: 'Agency One', amount: '1.00' }]);
    expect(earned.body.by_agent).toEqual([{ agent_type_id: bot.id, code: 'pbot', name: 'Agent pbot', amount: '1.00' }]);
    expect(
      (await w.t.request('GET', `/api/organizations/${w.id('SA1')}/earnings`, undefined, { token: await w.as('A1.admin') })).status,
    ).not.toBe(200);
  });

  it('a seller whose own price rises above its book passes the new price on, earns nothing, and its admins are told', async () => {
    const mark = await outboxMark();
    await lowBalanceMailMeanwhile();
    expect((await setPrice('SA1', bot.id, '0.4000', 'SA1.admin')).status).toBe(200);
    const a1 = (await book('A1', 'A1.admin')).body.items.find((i: any) => i.agent_type.id === bot.id);
    expect(a1).toMatchObject({ my_price: '0.4000', book_price: '0.3750', children_price: '0.4000', margin: '0.0000', floored: true });
    await vi.waitFor(async () => expect((await flooredMailsSince(mark, 'Agent pbot')).map((m) => m.to_address)).toEqual(['admin@a1.test']));
    const [mail] = await flooredMailsSince(mark, 'Agent pbot');
    expect(mail!.body_text).toBe(MESSAGES.pricing.flooredMail('Agency One', 'Agent pbot', '0.4000', '0.3750'));
    const a1Entries = (await entries('A1')).length;
    const response = await report([use('T1', '10')]);
    expect(response.body.results[0].credits_charged).toBe('4.00');
    // A1's margin is zero: no earning entry for it; SA1 earns 0.40 - 0.25 on each unit.
    expect(await entries('A1')).toHaveLength(a1Entries);
    expect((await entries('SA1')).at(-1)).toMatchObject({ entry_type: 'earning', amount: '1.50' });
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('keeps every change as history, newest first, and audits it', async () => {
    await setPrice('SA1', bot.id, null, 'SA1.admin');
    const history = await w.t.request('GET', `/api/organizations/${w.id('SA1')}/prices/history`, undefined, {
      token: await w.as('SA1.user'),
    });
    expect(history.status).toBe(200);
    expect(history.body.items.map((i: any) => i.price)).toEqual([null, '0.4000', '0.3000']);
    expect(history.body.total).toBe(3);
    const audits = await db().selectFrom('audit_log').select('details').where('action', '=', 'pricing.price_set').execute();
    expect(audits).toHaveLength(4);
    expect(await setPrice('SA1', other.id, '2.0000', 'SA1.admin')).toMatchObject({ status: 200 });
  });

  it('credits earnings exactly over many sub-cent events: per seller, credited plus carry equals units × margin', async () => {
    await setPrice('SA1', bot.id, '0.2503', 'SA1.admin');
    await setPrice('A1', bot.id, '0.2507', 'A1.admin');
    for (let i = 0; i < 5; i++) {
      const response = await report(Array.from({ length: 37 }, () => use('T1', '0.0333')));
      expect(response.body.results.every((r: any) => r.status === 'accepted')).toBe(true);
    }
    const result = await reconcile(db());
    expect(result.earning_mismatches).toEqual([]);
    expect(result.over_earned_groups).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describe('the floor: a book at exactly the own price', () => {
  it('is accepted (pass-through at a price of its own): the children pay that price and the margin is zero', async () => {
    const before = (await book('A1', 'A1.admin')).body.items.find((i: any) => i.agent_type.id === other.id);
    expect(before.my_price).toMatch(/^\d+\.\d{4}$/);
    const equal = await setPrice('A1', other.id, before.my_price, 'A1.admin');
    expect(equal.status).toBe(200);
    expect(equal.body.item).toMatchObject({
      my_price: before.my_price,
      book_price: before.my_price,
      children_price: before.my_price,
      margin: '0.0000',
      floored: false,
    });
    // One ten-thousandth under it is below the floor.
    const [whole, fraction] = (before.my_price as string).split('.') as [string, string];
    const under = (BigInt(whole + fraction) - 1n).toString().padStart(5, '0');
    const below = await setPrice('A1', other.id, `${under.slice(0, -4)}.${under.slice(-4)}`, 'A1.admin');
    expect(below.status).toBe(422);
    expect(below.body.error.code).toBe('below_own_price');
  });
});

describe('a catalog price that overtakes the books', () => {
  it("floors every seller's book it passes, and tells each seller's admins once", async () => {
    const mark = await outboxMark();
    const since = new Date().toISOString();
    await lowBalanceMailMeanwhile();
    const raised = await w.t.request('PATCH', `/api/agent-types/${bot.id}`, { price: '0.2600' }, { token: await w.as('H.admin') });
    expect(raised.status).toBe(200);
    await vi.waitFor(async () =>
      expect((await flooredMailsSince(mark, 'Agent pbot')).map((m) => m.to_address)).toEqual(['admin@a1.test', 'admin@sa1.test']),
    );
    // The mail and the webhook event name the same sellers: one rule decides both.
    const events = await db()
      .selectFrom('webhook_events')
      .select('organization_id')
      .where('type', '=', 'price.floored')
      .where('created_at', '>=', since)
      .where(sql<boolean>`data -> 'agent_type' ->> 'id' = ${bot.id}`)
      .orderBy('organization_id')
      .execute();
    expect(events.map((e) => e.organization_id)).toEqual([w.id('A1' as never), w.id('SA1' as never)].sort());
    const mail = await flooredMailsSince(mark, 'Agent pbot');
    expect(mail[1]!.body_text).toBe(MESSAGES.pricing.flooredMail('Super One', 'Agent pbot', '0.2600', '0.2503'));
    const sa1 = (await book('SA1', 'SA1.admin')).body.items.find((i: any) => i.agent_type.id === bot.id);
    expect(sa1).toMatchObject({ my_price: '0.2600', book_price: '0.2503', children_price: '0.2600', margin: '0.0000', floored: true });
    // Raised again: the books were already below, so nobody is told twice. The price mails are
    // stored in the price change's own transaction, so what its answer left is all there is.
    const again = await outboxMark();
    await lowBalanceMailMeanwhile();
    expect((await w.t.request('PATCH', `/api/agent-types/${bot.id}`, { price: '0.2700' }, { token: await w.as('H.admin') })).status).toBe(
      200,
    );
    expect(await flooredMailsSince(again, 'Agent pbot')).toEqual([]);
  });
});

describe('a parent moving its price up and down', () => {
  it('tells the seller whose book it passes once an hour, however often it rises past it; a new book is told of again', async () => {
    const flip = await insertAgentType(db(), 'pflip', '0.1000');
    expect((await setPrice('A1', flip.id, '0.3000', 'A1.admin')).status).toBe(200);
    const mark = await outboxMark();
    for (const price of ['0.4000', '0.2000', '0.4000', '0.2000', '0.4000']) {
      expect((await setPrice('SA1', flip.id, price, 'SA1.admin')).status).toBe(200);
    }
    expect((await flooredMailsSince(mark, 'Agent pflip')).map((m) => m.to_address)).toEqual(['admin@a1.test']);
    // The seller answers with a new book, which the parent's next rise floors again: told again.
    expect((await setPrice('SA1', flip.id, '0.2000', 'SA1.admin')).status).toBe(200);
    expect((await setPrice('A1', flip.id, '0.3500', 'A1.admin')).status).toBe(200);
    expect((await setPrice('SA1', flip.id, '0.4000', 'SA1.admin')).status).toBe(200);
    expect((await flooredMailsSince(mark, 'Agent pflip')).map((m) => m.to_address)).toEqual(['admin@a1.test', 'admin@a1.test']);
  });
});
