import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { DAY, activate, addPrice, ago, fund } from '../../test/usage-rows.ts';
import type { Database } from '../../db/connection.ts';
import { reconcile } from '../credits/reconcile.ts';

/**
 * Margins against a model in exact integers (ten-thousandths of a credit per unit): over
 * random trees, catalog prices, price books and child prices (some below the seller's own
 * price, so the floor applies; some removed again) and event streams in random batches, every
 * event is charged the greatest of the catalog and what each seller above charges down the
 * path (its child price for the next organization, else its book), each seller's earnings credited plus its carry equal units
 * × its margin (reconcile), no batch credits more than it charged, and the credits that left
 * the tree are exactly the house's part: what was charged minus what was earned.
 */
let database: Database;
let house: { id: string; path: string };

beforeAll(async () => {
  database = await freshDatabase();
  house = await insertOrg(database.db, { name: 'Margin House', type: 'house' });
});
afterAll(async () => {
  await database?.close();
});

/** Four-decimal text of an integer count of ten-thousandths. */
const p4 = (n: number) => `${Math.floor(n / 10_000)}.${String(n % 10_000).padStart(4, '0')}`;

const treeArb = fc.record({
  // Per super agency, its agencies; per agency, its tenants (at least one of each below).
  shape: fc.array(fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }),
  // A free catalog price often: the house's part is then nothing, and only the cap on a batch's
  // earnings (never more than it charged) keeps rounding from making credits.
  catalog: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30_000 })), { minLength: 2, maxLength: 2 }),
  // A book price per (seller, agent), or none; drawn freely, so some sit below the floor.
  books: fc.array(fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: null }), { minLength: 16, maxLength: 16 }),
  // A child price per (organization below a seller, agent), or none; drawn freely as the books
  // are. An odd one is then removed by a later row of no price (the book applies again).
  childPrices: fc.array(fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: null }), { minLength: 16, maxLength: 16 }),
  events: fc.array(
    fc.record({
      who: fc.nat(),
      agent: fc.integer({ min: 0, max: 1 }),
      units: fc.oneof(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 500_000 })),
    }),
    { minLength: 1, maxLength: 40 },
  ),
  cuts: fc.array(fc.nat({ max: 40 }), { maxLength: 4 }),
});

type Case = typeof treeArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * Two sellers with a margin of half a cent each on a free catalog, a tenant paying 0.0100 a
 * unit and using one unit in each of two batches: the second batch charges 0.01 and finds
 * each seller's carry at a whole cent. Nearest first, the agency is credited the cent and
 * the super agency nothing (its cent waits in its carry); a batch that did not count down
 * what it had left would credit both, 0.02 on a 0.01 charge.
 */
const NEAREST_FIRST: Case = {
  shape: [[1]],
  catalog: [0, 0],
  books: [50, null, 100, ...Array.from({ length: 13 }, () => null)],
  childPrices: Array.from({ length: 16 }, () => null),
  events: [
    { who: 2, agent: 0, units: 10_000 },
    { who: 2, agent: 0, units: 10_000 },
  ],
  cuts: [1],
};

let run = 0;

async function checkMargins({ shape, catalog, books, childPrices, events, cuts }: Case) {
  const db = database.db;
  run++;
  const agents: string[] = [];
  for (const [i, price] of catalog.entries()) {
    const type = await db
      .insertInto('agent_types')
      .values({ code: `m${run}x${i}`, name: `Margin ${run}.${i}`, kind: 'assistant', unit: 'run' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await addPrice(db, type.id, p4(price), ago(40 * DAY));
    agents.push(type.id);
  }
  // The tree, with each organization's sellers (ancestors below the house) in path order.
  const orgs: { id: string; sellers: string[] }[] = [];
  const sellers: string[] = [];
  for (const [s, agencies] of shape.entries()) {
    const sa = await insertOrg(db, { name: `S${run}.${s}`, type: 'super_agency', parentId: house.id });
    sellers.push(sa.id);
    orgs.push({ id: sa.id, sellers: [] });
    for (const [a, tenants] of agencies.entries()) {
      const ag = await insertOrg(db, { name: `A${run}.${s}.${a}`, type: 'agency', parentId: sa.id });
      sellers.push(ag.id);
      orgs.push({ id: ag.id, sellers: [sa.id] });
      for (let t = 0; t < tenants; t++) {
        const tn = await insertOrg(db, { name: `T${run}.${s}.${a}.${t}`, type: 'tenant', parentId: ag.id });
        orgs.push({ id: tn.id, sellers: [sa.id, ag.id] });
      }
    }
  }
  const book = new Map<string, number>();
  for (const [i, seller] of sellers.entries()) {
    for (const [j, agent] of agents.entries()) {
      const price = books[(i * 2 + j) % books.length];
      if (price === null || price === undefined) continue;
      book.set(`${seller}:${agent}`, price);
      await db
        .insertInto('organization_prices')
        .values({ organization_id: seller, agent_type_id: agent, price: p4(price), effective_from: ago(DAY) })
        .execute();
    }
  }
  // Child prices: each organization below a seller may have one from its parent, per agent.
  const childPrice = new Map<string, number>();
  for (const [k, org] of orgs.entries()) {
    const parent = org.sellers.at(-1);
    if (!parent) continue;
    for (const [j, agent] of agents.entries()) {
      const price = childPrices[(k * 2 + j) % childPrices.length];
      if (price === null || price === undefined) continue;
      const removed = price % 2 === 1;
      if (!removed) childPrice.set(`${parent}:${org.id}:${agent}`, price);
      await db
        .insertInto('organization_child_prices')
        .values({ organization_id: parent, child_id: org.id, agent_type_id: agent, price: p4(price), effective_from: ago(DAY) })
        .execute();
      if (removed)
        await db
          .insertInto('organization_child_prices')
          .values({ organization_id: parent, child_id: org.id, agent_type_id: agent, price: null, effective_from: ago(DAY / 2) })
          .execute();
    }
  }
  for (const org of orgs) {
    for (const agent of agents) await activate(db, org.id, agent);
    await fund(db, org.id, '1000000.00');
  }
  const totalBefore = await sql<{ total: string }>`
    select sum(credit_balance)::text as total from organization_billing_settings where organization_id = any(${orgs.map((o) => o.id)}::uuid[])`.execute(
    db,
  );

  // The model: the price an organization pays is the greatest of the catalog and what each
  // seller above it charges the next organization down its path: its child price for that
  // organization when one stands, else its book.
  const priceOf = (org: { id: string; sellers: string[] }, j: number) =>
    Math.max(
      catalog[j]!,
      ...org.sellers.map((s, i) => {
        const next = org.sellers[i + 1] ?? org.id;
        return childPrice.get(`${s}:${next}:${agents[j]}`) ?? book.get(`${s}:${agents[j]}`) ?? 0;
      }),
    );
  const stream = events.map((e, k) => ({ org: orgs[e.who % orgs.length]!, j: e.agent, units: e.units, id: `ev${k}` }));
  const bounds = [...new Set([0, ...cuts.filter((c) => c < stream.length), stream.length])].sort((a, b) => a - b);
  for (let b = 0; b + 1 < bounds.length; b++) {
    const payload = stream.slice(bounds[b], bounds[b + 1]).map((e, i) => ({
      i: i + 1,
      org: e.org.id,
      id: e.id,
      agent: `m${run}x${e.j}`,
      units: p4(e.units),
      occurred: ago(60_000).toISOString(),
    }));
    const { rows } = await sql<{ r_outcome: string }>`
      select * from usage_record(${JSON.stringify(payload)}::jsonb, ${house.path}, null, null,
        interval '5 minutes', interval '30 days', null, interval '40 days')`.execute(db);
    expect(rows.every((r) => r.r_outcome === 'accepted')).toBe(true);
  }

  const stored = await db
    .selectFrom('usage_events')
    .select(['organization_id', 'client_event_id', 'price', 'charged'])
    .where(
      'organization_id',
      'in',
      orgs.map((o) => o.id),
    )
    .execute();
  expect(stored).toHaveLength(stream.length);
  for (const e of stream) {
    const row = stored.find((s) => s.client_event_id === e.id && s.organization_id === e.org.id)!;
    expect(row.price).toBe(p4(priceOf(e.org, e.j)));
  }
  const books_ = await reconcile(db);
  expect(books_.earning_mismatches).toEqual([]);
  expect(books_.over_earned_groups).toEqual([]);
  expect(books_.ok).toBe(true);
  // Conservation: what left the tree is what was charged minus what was earned, and never negative.
  const flows = await sql<{ charged: string; earned: string; total: string }>`
    select (select coalesce(-sum(amount), 0) from credit_ledger_entries where organization_id = any(${orgs.map((o) => o.id)}::uuid[]) and entry_type = 'consumption')::text as charged,
           (select coalesce(sum(amount), 0) from credit_ledger_entries where organization_id = any(${orgs.map((o) => o.id)}::uuid[]) and entry_type = 'earning')::text as earned,
           (select sum(credit_balance) from organization_billing_settings where organization_id = any(${orgs.map((o) => o.id)}::uuid[]))::text as total`.execute(
    db,
  );
  const f = flows.rows[0]!;
  const cents = (v: string) => BigInt(v.replace('.', ''));
  expect(cents(f.earned)).toBeLessThanOrEqual(cents(f.charged));
  expect(cents(totalBefore.rows[0]!.total) - cents(f.total)).toBe(cents(f.charged) - cents(f.earned));
}

describe('margins over random trees, books and event streams', () => {
  it('charge the floor price, credit each seller exactly its margin and never more than was charged', async () => {
    // Random cases, and always the case that needs the sellers credited nearest first within the charge.
    await fc.assert(fc.asyncProperty(treeArb, checkMargins), { numRuns: 25, examples: [[NEAREST_FIRST]] });
  });

  it('credit the sellers nearest first, never more in a batch than it charged', async () => {
    await checkMargins(NEAREST_FIRST);
  });
});
