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
