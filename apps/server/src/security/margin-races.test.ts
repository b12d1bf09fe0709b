import { sql } from 'kysely';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { USAGE_WINDOW } from '@console/domain';
import { insertOrg } from '../test/fixtures.ts';
import { useWorld, type ApiResponse } from '../test/harness.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../test/usage-rows.ts';
import { lockKeyed } from '../lib/locks.ts';

/**
 * Margins under concurrency, through real HTTP. A tenant's usage now locks the balances of
 * the sellers above it that keep a price book, so batches of sibling tenants, the sellers'
 * own usage and allocations from the sellers all meet on the same rows. On PostgreSQL these
 * run truly concurrently; PGlite runs one statement at a time and only checks the arithmetic.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const mode = onPostgres ? 'PostgreSQL: truly concurrent' : 'PGlite: serialized, arithmetic only';
const w = useWorld();
const db = () => w.t.database.db;

let key: string;
let agent: { id: string; code: string };
const report = (events: unknown[]) =>
  w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key}` } });
const setPrice = async (org: 'SA1' | 'A1', price: string | null) =>
  w.t.request('PUT', `/api/organizations/${w.id(org)}/prices/${agent.id}`, { price }, { token: await w.as(`${org}.admin`) });

function noServerErrors(responses: ApiResponse[]) {
  expect(responses.filter((r) => r.status !== 200).map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)).toEqual([]);
}

beforeAll(async () => {
  agent = await insertAgentType(db(), 'marginal', '0.0500');
  key = (await insertApiKey(db(), w.id('SA1'))).key;
  for (const org of ['SA1', 'A1', 'A2'] as const) {
    await activate(db(), w.id(org), agent.id);
    await fund(db(), w.id(org), '1000.00');
  }
  expect((await setPrice('SA1', '0.0600')).status).toBe(200);
  expect((await setPrice('A1', '0.0777')).status).toBe(200);
});

describe(`earnings under concurrent batches (${mode})`, () => {
  it('sibling tenants, the sellers themselves and allocations from a seller at once: no deadlock, no 5xx, the books reconcile', {
    timeout: 180_000,
  }, async () => {
    const tenants: string[] = [];
    for (let i = 0; i < 6; i++) {
      const org = await insertOrg(db(), { name: `Marginal Tenant ${i}`, type: 'tenant', parentId: w.id('A1') });
      await activate(db(), org.id, agent.id);
      await fund(db(), org.id, '50.00');
      tenants.push(org.id);
    }
    const token = await w.as('A1.admin');
    const payers = [...tenants, w.id('A1'), w.id('SA1'), w.id('A2')];
    const work = [
      ...Array.from({ length: 30 }, (_, b) =>
        report(
          // Each batch names several payers in its own order, so lock order is tested too.
          Array.from({ length: 40 }, (_, i) => ({
            id: `race-${b}-${i}`,
            organization_id: payers[(b * 7 + i * 3) % payers.length],
            agent: agent.code,
            units: '0.3333',
            occurred_at: new Date().toISOString(),
          })),
        ),
      ),
      ...Array.from({ length: 12 }, (_, i) =>
        w.t.request(
          'POST',
          '/api/credits/allocations',
          { from_org_id: w.id('A1'), to_org_id: tenants[i % tenants.length], amount: '0.50' },
          { token, headers: { 'idempotency-key': `marginal-${i}` } },
        ),
      ),
    ];
    const responses = await Promise.all(work);
    noServerErrors(responses);
    const accepted = responses.slice(0, 30).reduce((n, r) => n + r.body.accepted, 0);
    expect(accepted).toBe(30 * 40);
    const books = await reconcile(db());
    expect(books.earning_mismatches).toEqual([]);
    expect(books.over_earned_groups).toEqual([]);
    expect(books.ok).toBe(true);
    const earned = await sql<{ n: number }>`
      select count(*)::int as n from credit_ledger_entries where entry_type = 'earning' and organization_id in (${w.id('A1')}, ${w.id('SA1')})`.execute(
      db(),
    );
    expect(earned.rows[0]!.n).toBeGreaterThan(0);
  });

  it('price changes racing usage: every event is charged exactly the price in force at its time', { timeout: 180_000 }, async () => {
    const org = await insertOrg(db(), { name: 'Raced Tenant', type: 'tenant', parentId: w.id('A1') });
    await activate(db(), org.id, agent.id);
    await fund(db(), org.id, '500.00');
    const prices = ['0.0800', '0.0900', '0.1000', null, '0.0850', '0.1100'];
    const work: Promise<ApiResponse>[] = [];
    for (let round = 0; round < prices.length; round++) {
      work.push(setPrice('A1', prices[round]!));
      if (round % 2 === 1) work.push(setPrice('SA1', round === 3 ? '0.0700' : '0.0650'));
      for (let b = 0; b < 5; b++) {
        work.push(
          report(
            Array.from({ length: 20 }, (_, i) => ({
              id: `raced-${round}-${b}-${i}`,
              organization_id: org.id,
              agent: agent.code,
              units: '1',
              occurred_at: new Date().toISOString(),
            })),
          ),
        );
      }
    }
    noServerErrors(await Promise.all(work));
    // A key's event takes the price at the later of its time and its arrival minus the grace,
    // and a book never later than its arrival.
    const wrong = await sql<{ client_event_id: string; price: string; expected: string }>`
      select e.client_event_id, e.price::text, x.expected::numeric(14, 4)::text as expected
      from usage_events e
      cross join lateral (
        select organization_price(e.organization_id, e.agent_type_id,
          least(greatest(e.occurred_at, e.received_at - make_interval(secs => ${USAGE_WINDOW.priceGraceSeconds})), e.received_at)) as expected
      ) x
      where e.organization_id = ${org.id} and e.price <> x.expected`.execute(db());
    expect(wrong.rows).toEqual([]);
    const used = await sql<{ n: number; prices: number }>`
      select count(*)::int as n, count(distinct price)::int as prices from usage_events where organization_id = ${org.id}`.execute(db());
    expect(used.rows[0]!.n).toBe(prices.length * 5 * 20);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it.runIf(onPostgres)(
    'an event arriving while a price change is being saved waits for it and pays the new price of its time',
    {
      timeout: 60_000,
    },
    async () => {
      const org = await insertOrg(db(), { name: 'Waiting Tenant', type: 'tenant', parentId: w.id('A1') });
      await activate(db(), org.id, agent.id);
      await fund(db(), org.id, '10.00');
      let response: ApiResponse | undefined;
      // The change as the price service makes it: the book's lock, then the row in force from now.
      await db()
        .transaction()
        .execute(async (trx) => {
          await lockKeyed(trx, 'book', w.id('A1'));
          await sql`insert into organization_prices (organization_id, agent_type_id, price, effective_from)
          values (${w.id('A1')}, ${agent.id}, 0.5000, clock_timestamp())`.execute(trx);
          // The event's time is after the change's (its milliseconds cannot round below it).
          await new Promise((resolve) => setTimeout(resolve, 5));
          const pending = report([
            { id: 'waiting-1', organization_id: org.id, agent: agent.code, units: '1', occurred_at: new Date().toISOString() },
          ]);
          pending.then((r) => (response = r));
          await new Promise((resolve) => setTimeout(resolve, 500));
          // Still waiting on the book: nothing was charged at the old price meanwhile.
          expect(response).toBeUndefined();
        });
      for (let i = 0; i < 100 && !response; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(response?.body.results[0]).toMatchObject({ status: 'accepted', credits_charged: '0.50' });
    },
  );
});
