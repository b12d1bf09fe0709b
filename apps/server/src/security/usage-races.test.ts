import { sql } from 'kysely';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { insertOrg } from '../test/fixtures.ts';
import { useWorld, type ApiResponse } from '../test/harness.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { activate, balanceOf, cents, fund, insertAgentType, insertApiKey } from '../test/usage-rows.ts';

/**
 * Metered usage under concurrent batches, through real HTTP. On PostgreSQL the batches of a
 * round run truly concurrently (a pool of ten connections), so these are the proofs; PGlite
 * runs one statement at a time, so there the same tests only check the arithmetic.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const mode = onPostgres ? 'PostgreSQL: truly concurrent' : 'PGlite: serialized, arithmetic only';
const w = useWorld();
const db = () => w.t.database.db;

let key: string;
let agent: { id: string; code: string };
const now = () => new Date().toISOString();
const report = (events: unknown[]) =>
  w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key}` } });

async function tenant(name: string, funds: string) {
  const org = await insertOrg(db(), { name, type: 'tenant', parentId: w.id('A1') });
  await activate(db(), org.id, agent.id);
  if (funds !== '0.00') await fund(db(), org.id, funds);
  return org.id;
}

/** What the organization's accepted events charged, summed in SQL. */
async function charged(orgId: string) {
  const { rows } = await sql<{
    total: string;
  }>`select coalesce(sum(charged), 0)::text as total from usage_events where organization_id = ${orgId}`.execute(db());
  return rows[0]!.total;
}

function noServerErrors(responses: ApiResponse[]) {
  expect(responses.filter((r) => r.status !== 200).map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)).toEqual([]);
}

beforeAll(async () => {
  agent = await insertAgentType(db(), 'racer', '0.0500');
  key = (await insertApiKey(db(), w.id('A1'))).key;
});

describe(`the balance floor under concurrent batches (${mode})`, () => {
  it('20 batches of 50 events against 10.00 at 0.05 each: exactly 200 accepted, the balance 0.00, charged = the drop', {
    timeout: 120_000,
  }, async () => {
    const org = await tenant('Contended Tenant', '10.00');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, b) =>
        report(
          Array.from({ length: 50 }, (_, i) => ({
            id: `floor-${b}-${i}`,
            organization_id: org,
            agent: agent.code,
            units: '1',
            occurred_at: now(),
          })),
        ),
      ),
    );
    noServerErrors(responses);
    const accepted = responses.reduce((n, r) => n + r.body.accepted, 0);
    const rejected = responses.flatMap((r) => r.body.results).filter((e: any) => e.status === 'rejected');
    expect(accepted).toBe(200);
    expect(rejected).toHaveLength(800);
    expect(new Set(rejected.map((e: any) => e.reason))).toEqual(new Set(['insufficient_credits']));
    expect(await balanceOf(db(), org)).toBe('0.00');
    expect(await charged(org)).toBe('10.00');
    const report_ = await reconcile(db());
    expect(report_.balance_chain_breaks).toEqual([]);
    expect(report_.ok).toBe(true);
  });

  it('many organizations, each batch naming them in another order: no deadlock, every charge equals its balance drop', {
    timeout: 120_000,
  }, async () => {
    const orgs: string[] = [];
    for (let i = 0; i < 6; i++) orgs.push(await tenant(`Crossed Tenant ${i}`, '3.00'));
    const before = await Promise.all(orgs.map((org) => balanceOf(db(), org)));
    // 12 batches, each 60 events over the six organizations, half of them in reverse order.
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, b) => {
        const order = b % 2 ? [...orgs].reverse() : orgs;
        return report(
          Array.from({ length: 60 }, (_, i) => ({
            id: `crossed-${b}-${i}`,
            organization_id: order[i % 6]!,
            agent: agent.code,
            units: '1',
            occurred_at: now(),
          })),
        );
      }),
    );
    noServerErrors(responses);
    // Each organization affords 60 events of 0.05; 120 were sent to each.
    expect(responses.reduce((n, r) => n + r.body.accepted, 0)).toBe(360);
    for (const [i, org] of orgs.entries()) {
      const after = await balanceOf(db(), org);
      expect(cents(before[i]!) - cents(after)).toBe(cents(await charged(org)));
      expect(after).toBe('0.00');
    }
    expect((await reconcile(db())).ok).toBe(true);
  });
});

describe(`the same events sent many times at once (${mode})`, () => {
  it('one batch of 100 events sent 10 times together: each event accepted once, the others duplicates, charged once', {
    timeout: 120_000,
  }, async () => {
    const org = await tenant('Replayed Tenant', '50.00');
    const events = Array.from({ length: 100 }, (_, i) => ({
      id: `replay-${i}`,
      organization_id: org,
      agent: agent.code,
      units: '3',
      occurred_at: now(),
    }));
    const responses = await Promise.all(Array.from({ length: 10 }, () => report(events)));
    noServerErrors(responses);
    expect(responses.reduce((n, r) => n + r.body.accepted, 0)).toBe(100);
    expect(responses.reduce((n, r) => n + r.body.duplicates, 0)).toBe(900);
    // Every answer gives each event the same charge, first time or duplicate.
    for (const response of responses) expect(new Set(response.body.results.map((r: any) => r.credits_charged))).toEqual(new Set(['0.15']));
    expect(await charged(org)).toBe('15.00');
    expect(await balanceOf(db(), org)).toBe('35.00');
    expect((await reconcile(db())).ok).toBe(true);
  });
});

describe(`usage beside allocations into the same organization (${mode})`, () => {
  it('allocations arriving while batches charge: every credit accounted, the books reconcile', { timeout: 120_000 }, async () => {
    const org = await insertOrg(db(), { name: 'Fed Tenant', type: 'tenant', parentId: w.id('A1') });
    await activate(db(), org.id, agent.id);
    await fund(db(), w.id('A1'), '20.00');
    const token = await w.as('A1.admin');
    const work = [
      ...Array.from({ length: 20 }, (_, i) =>
        w.t.request(
          'POST',
          '/api/credits/allocations',
          { from_org_id: w.id('A1'), to_org_id: org.id, amount: '1.00' },
          { token, headers: { 'idempotency-key': `fed-${i}` } },
        ),
      ),
      ...Array.from({ length: 10 }, (_, b) =>
        report(
          Array.from({ length: 20 }, (_, i) => ({
            id: `fed-${b}-${i}`,
            organization_id: org.id,
            agent: agent.code,
            units: '1',
            occurred_at: now(),
          })),
        ),
      ),
    ];
    const responses = await Promise.all(work);
    noServerErrors(responses);
    const accepted = responses.slice(20).reduce((n, r) => n + r.body.accepted, 0);
    // 20.00 arrived; each accepted event took 0.05.
    expect(cents(await balanceOf(db(), org.id))).toBe(2000n - BigInt(accepted) * 5n);
    expect((await reconcile(db())).ok).toBe(true);
  });
});

describe(`a batch naming 1,000 organizations beside allocations and limit changes on the same rows (${mode})`, () => {
  it('no deadlock and no 5xx: every event, allocation and limit change lands, and the books reconcile', { timeout: 240_000 }, async () => {
    const parent = w.id('A1');
    // A1 may hold a thousand more tenants' limits; each tenant holds a limit of 2 and one live activation.
    await sql`update organization_billing_settings set activated_agent_limit = 5000 where organization_id = ${parent}`.execute(db());
    const { rows } = await sql<{ id: string }>`
      with o as (
        insert into organizations (name, org_type, parent_org_id, parent_org_type)
        select 'Wide Tenant ' || n, 'tenant', ${parent}::uuid, 'agency' from generate_series(1, 1000) n returning id
      ),
      b as (insert into organization_billing_settings (organization_id, activated_agent_limit) select id, 2 from o),
      a as (insert into agent_activations (organization_id, agent_type_id, status) select id, ${agent.id}::uuid, 'active' from o)
      select id from o order by id`.execute(db());
    const orgs = rows.map((r) => r.id);
    await sql`
      select 1 from ledger_post(gen_random_uuid(), null, false, ${orgs}::uuid[], array_fill(1.00::numeric, array[1000]),
        array_fill('adjustment_increase'::text, array[1000]), array_fill('{"reason":"test funding"}'::jsonb, array[1000]))`.execute(db());
    await fund(db(), parent, '100.00');
    const token = await w.as('A1.admin');
    // Four batches, one event for each organization, in ascending, descending and two interleaved orders.
    const orders = [
      orgs,
      [...orgs].reverse(),
      orgs.filter((_, i) => i % 2 === 0).concat(orgs.filter((_, i) => i % 2 === 1)),
      [...orgs.slice(500), ...orgs.slice(0, 500)],
    ];
    const touched = [...orgs.slice(0, 10), ...orgs.slice(-10)];
    const work = [
      ...orders.map((order, b) =>
        report(order.map((org) => ({ id: `wide-${b}`, organization_id: org, agent: agent.code, units: '1', occurred_at: now() }))),
      ),
      ...touched.flatMap((child, i) => [
        w.t.request('POST', '/api/credits/allocations', { from_org_id: parent, to_org_id: child, amount: '1.00' }, { token }),
        w.t.request('PUT', `/api/organizations/${child}/agent-limit`, { activated_agent_limit: 1 + (i % 3) }, { token }),
      ]),
    ];
    const responses = await Promise.all(work);
    noServerErrors(responses);
    expect(responses.slice(0, 4).map((r) => r.body.accepted)).toEqual([1000, 1000, 1000, 1000]);
    // Each organization paid 0.20 for its four events; the touched ones also received 1.00.
    for (const org of [...touched, orgs[500]!]) {
      expect(await balanceOf(db(), org)).toBe(touched.includes(org) ? '1.80' : '0.80');
    }
    // One consumption entry per batch and organization.
    const { rows: entries } = await sql<{ n: number }>`
      select count(*)::int as n from credit_ledger_entries where entry_type = 'consumption' and organization_id = any(${orgs}::uuid[])`.execute(
      db(),
    );
    expect(entries[0]!.n).toBe(4000);
    expect((await reconcile(db())).ok).toBe(true);
  });
});
