import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { activate, balanceOf, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { reconcile } from '../credits/reconcile.ts';

/**
 * Child prices: a seller's price for one direct child replaces its book for that child's
 * subtree (not for its siblings), never below the seller's own price; the child's own floor is
 * then that price; removing it is an appended row that puts the child back on the book.
 */
const w = useWorld();
const db = () => w.t.database.db;
type Org = 'H' | 'SA1' | 'A1' | 'A2' | 'T1' | 'T2';

let bot: { id: string; code: string };
let key: { key: string };

const as = async (who: string) => ({ token: await w.as(who) });
const childUrl = (seller: Org, child: Org) => `/api/organizations/${w.id(seller)}/prices/children/${w.id(child)}/${bot.id}`;
const setChild = async (seller: Org, child: Org, price: unknown, who: string) =>
  w.t.request('PUT', childUrl(seller, child), { price }, await as(who));
const clearChild = async (seller: Org, child: Org, who: string) => w.t.request('DELETE', childUrl(seller, child), undefined, await as(who));
const list = async (seller: Org, who: string) =>
  w.t.request('GET', `/api/organizations/${w.id(seller)}/prices/children`, undefined, await as(who));
const myPrice = async (org: Org, who: string) =>
  (await w.t.request('GET', `/api/organizations/${w.id(org)}/prices`, undefined, await as(who))).body.items.find(
    (i: any) => i.agent_type.id === bot.id,
  );
const paysSql = async (org: Org) =>
  (await sql<{ p: string }>`select organization_price(${w.id(org)}::uuid, ${bot.id}::uuid, now())::numeric(14, 4)::text as p`.execute(db()))
    .rows[0]!.p;
let n = 0;
const report = async (org: Org, units: string) =>
  (
    await w.t.request(
      'POST',
      '/api/v1/usage-events',
      {
        events: [{ id: `cp${++n}`, organization_id: w.id(org), agent: bot.code, units, occurred_at: new Date().toISOString() }],
      },
      { headers: { authorization: `Bearer ${key.key}` } },
    )
  ).body.results[0];
const earnings = (org: Org) =>
  db()
    .selectFrom('credit_ledger_entries')
    .select(['amount', 'metadata'])
    .where('organization_id', '=', w.id(org))
    .where('entry_type', '=', 'earning')
    .orderBy('seq')
    .execute();

beforeAll(async () => {
  bot = await insertAgentType(db(), 'cpbot', '0.2500');
  for (const org of ['T1', 'T2', 'A1', 'A2', 'SA1'] as const) {
    await activate(db(), w.id(org), bot.id);
    await fund(db(), w.id(org), '100.00');
  }
  key = await insertApiKey(db(), w.id('SA1'), { name: 'SA1 runtime' });
  const book = await w.t.request('PUT', `/api/organizations/${w.id('SA1')}/prices/${bot.id}`, { price: '0.3000' }, await as('SA1.admin'));
  expect(book.status).toBe(200);
});

describe('a child price', () => {
  it('is set by the seller for a direct child only, by its admins only; the house uses the catalog', async () => {
    expect((await setChild('SA1', 'T1', '0.4000', 'SA1.admin')).body.error).toMatchObject({
      code: 'not_direct_child',
      message: MESSAGES.pricing.notDirectChild,
    });
    expect((await setChild('SA1', 'A1', '0.4000', 'SA1.manager')).status).toBe(403);
    expect((await setChild('SA1', 'A1', '0.4000', 'A1.admin')).status).toBeGreaterThanOrEqual(403);
    expect((await setChild('H', 'SA1', '0.4000', 'H.admin')).status).toBe(422);
    expect((await list('SA1', 'A1.admin')).status).not.toBe(200);
    expect(await db().selectFrom('organization_child_prices').selectAll().execute()).toEqual([]);
  });

  it('is refused below what the seller pays, with a 422 that says the floor', async () => {
    const low = await setChild('SA1', 'A1', '0.2000', 'SA1.admin');
    expect(low.status).toBe(422);
    expect(low.body.error).toMatchObject({ code: 'below_own_price', message: MESSAGES.pricing.childBelowOwnPrice('0.2500') });
    expect((await setChild('SA1', 'A1', '0.35001', 'SA1.admin')).status).toBe(400);
    expect((await setChild('SA1', 'A1', null, 'SA1.admin')).status).toBe(400);
    expect(await db().selectFrom('organization_child_prices').selectAll().execute()).toEqual([]);
  });

  it("applies to the child's subtree and not to its siblings, and the child sees the price it pays", async () => {
    const set = await setChild('SA1', 'A1', '0.3500', 'SA1.admin');
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ organization_id: w.id('SA1'), can_edit: true });
    expect(set.body.children.map((c: any) => c.name)).toEqual(['Agency One', 'Agency Two']);
    expect(set.body.items).toEqual([
      expect.objectContaining({
        child: { id: w.id('A1'), name: 'Agency One' },
        price: '0.3500',
        child_pays: '0.3500',
        my_price: '0.2500',
        floored: false,
      }),
    ]);
    expect(await paysSql('A1')).toBe('0.3500');
    expect(await paysSql('T1')).toBe('0.3500');
    expect(await paysSql('A2')).toBe('0.3000');
    expect(await myPrice('A1', 'A1.admin')).toMatchObject({ my_price: '0.3500', children_price: '0.3500' });
    const seenBy = async (who: string) =>
      (await w.t.request('GET', '/api/agent-types', undefined, await as(who))).body.agent_types.find((t: any) => t.id === bot.id).price;
    expect(await seenBy('T1.user')).toBe('0.3500');
    expect(await seenBy('SA1.user')).toBe('0.2500');
    // A user of the seller reads the list but may not change it.
    expect((await list('SA1', 'SA1.user')).body).toMatchObject({ can_edit: false, items: [expect.objectContaining({ price: '0.3500' })] });
  });

  it("is the child's floor for its own book", async () => {
    const below = await w.t.request('PUT', `/api/organizations/${w.id('A1')}/prices/${bot.id}`, { price: '0.3200' }, await as('A1.admin'));
    expect(below.status).toBe(422);
    expect(below.body.error.message).toBe(MESSAGES.pricing.belowOwnPrice('0.3500'));
  });

  it("charges usage in the child's subtree the child price, and the seller earns on it", async () => {
    const before = { T1: await balanceOf(db(), w.id('T1')), A2: await balanceOf(db(), w.id('A2')) };
    const seen = (await earnings('SA1')).length;
    expect(await report('T1', '10')).toMatchObject({ status: 'accepted', credits_charged: '3.50' });
    expect(await report('A2', '10')).toMatchObject({ status: 'accepted', credits_charged: '3.00' });
    expect(await balanceOf(db(), w.id('T1'))).toBe((Number(before.T1) - 3.5).toFixed(2));
    expect(await balanceOf(db(), w.id('A2'))).toBe((Number(before.A2) - 3).toFixed(2));
    // Super One earns 0.35 − 0.25 a unit through Agency One, 0.30 − 0.25 through Agency Two.
    const earned = (await earnings('SA1')).slice(seen).map((e) => [e.amount, (e.metadata as any).child_name, (e.metadata as any).margin]);
    expect(earned).toEqual([
      ['1.00', 'Agency One', '0.1000'],
      ['0.50', 'Agency Two', '0.0500'],
    ]);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('when removed, falls back to the book, as an appended row', async () => {
    const cleared = await clearChild('SA1', 'A1', 'SA1.admin');
    expect(cleared.status).toBe(200);
    expect(cleared.body.items).toEqual([]);
    expect(await paysSql('T1')).toBe('0.3000');
    expect(await report('T1', '10')).toMatchObject({ status: 'accepted', credits_charged: '3.00' });
    // Removing it again changes nothing.
    expect((await clearChild('SA1', 'A1', 'SA1.admin')).status).toBe(200);
    const rows = await db().selectFrom('organization_child_prices').select('price').orderBy('effective_from').execute();
    expect(rows.map((r) => r.price)).toEqual(['0.3500', null]);
    await expect(sql`update organization_child_prices set price = 1`.execute(db())).rejects.toThrow(/append-only/);
    await expect(sql`delete from organization_child_prices`.execute(db())).rejects.toThrow(/append-only/);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('keeps its changes in the history, naming the child, and audits each', async () => {
    const history = await w.t.request('GET', `/api/organizations/${w.id('SA1')}/prices/history`, undefined, await as('SA1.user'));
    expect(history.status).toBe(200);
    expect(history.body.items.map((i: any) => [i.child?.name ?? null, i.price])).toEqual([
      ['Agency One', null],
      ['Agency One', '0.3500'],
      [null, '0.3000'],
    ]);
    expect(history.body.total).toBe(3);
    const audits = await db()
      .selectFrom('audit_log')
      .select(['organization_id', 'target_id', 'details'])
      .where('action', '=', 'pricing.child_price_set')
      .orderBy('created_at')
      .execute();
    expect(audits.map((a) => [a.organization_id, a.target_id, (a.details as any).before, (a.details as any).after])).toEqual([
      [w.id('SA1'), w.id('A1'), null, '0.3500'],
      [w.id('SA1'), w.id('A1'), '0.3500', null],
    ]);
  });
});
