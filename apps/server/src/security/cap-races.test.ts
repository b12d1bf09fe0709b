import { sql } from 'kysely';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { insertOrg } from '../test/fixtures.ts';
import { useWorld, type ApiResponse } from '../test/harness.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../test/usage-rows.ts';

/**
 * Caps under concurrent batches, through real HTTP: sibling tenants under one capped
 * agency, and several keys' batches under one capped activation, meet on the cap's month row.
 * On PostgreSQL these run truly concurrently; PGlite only checks the arithmetic.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const mode = onPostgres ? 'PostgreSQL: truly concurrent' : 'PGlite: serialized, arithmetic only';
const w = useWorld({ topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;

let agent: { id: string; code: string };
const keys: string[] = [];
const report = (events: unknown[], key: string) =>
  w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key}` } });
const month = () => new Date().toISOString().slice(0, 7);

function noServerErrors(responses: ApiResponse[]) {
  expect(responses.filter((r) => r.status !== 200).map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)).toEqual([]);
}

beforeAll(async () => {
  agent = await insertAgentType(db(), 'raced-cap', '0.0500');
  for (let i = 0; i < 4; i++) keys.push((await insertApiKey(db(), w.id('SA1'), { name: `racer ${i}` })).key);
});

describe(`caps under concurrent batches (${mode})`, () => {
  it("sibling tenants racing under a parent's cap on their agency: exactly the cap is charged, never more", {
    timeout: 180_000,
  }, async () => {
    const tenants: string[] = [];
    for (let i = 0; i < 6; i++) {
      const org = await insertOrg(db(), { name: `Capped Tenant ${i}`, type: 'tenant', parentId: w.id('A2') });
      await activate(db(), org.id, agent.id);
      await fund(db(), org.id, '100.00');
      tenants.push(org.id);
    }
    const set = await w.t.request(
      'PUT',
      `/api/organizations/${w.id('A2')}/spend-controls`,
      { spend_cap: '5.00', top_up: null },
      { token: await w.as('SA1.admin') },
    );
    expect(set.status).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, b) =>
        report(
          Array.from({ length: 10 }, (_, i) => ({
            id: `subtree-${b}-${i}`,
            // One tenant a batch: batches of different tenants lock different balances and meet only at the cap's month row.
            organization_id: tenants[b % tenants.length],
            agent: agent.code,
            units: '1',
            occurred_at: new Date().toISOString(),
          })),
          keys[b % keys.length]!,
        ),
      ),
    );
    noServerErrors(responses);
    const accepted = responses.reduce((n, r) => n + r.body.accepted, 0);
    const refused = responses.flatMap((r) => r.body.results).filter((r: any) => r.reason === 'spend_cap_reached').length;
    // 5.00 at 0.05 an event: exactly 100 accepted of 240, the rest refused for the cap.
    expect(accepted).toBe(100);
    expect(refused).toBe(140);
    const row = await sql<{ charged: string; recount: string }>`
      select m.charged::text, spend_cap_recount('subtree', ${w.id('A2')}, m.month)::numeric(16, 2)::text as recount
      from spend_cap_months m where m.scope = 'subtree' and m.scope_id = ${w.id('A2')} and to_char(m.month, 'YYYY-MM') = ${month()}`.execute(
      db(),
    );
    expect(row.rows).toEqual([{ charged: '5.00', recount: '5.00' }]);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it("tenants racing under a parent's day cap (beside a looser week and month cap): exactly the day cap, nothing past it", {
    timeout: 180_000,
  }, async () => {
    const agency = await insertOrg(db(), { name: 'Day Capped Agency', type: 'agency', parentId: w.id('SA1') });
    const tenants: string[] = [];
    for (let i = 0; i < 4; i++) {
      const org = await insertOrg(db(), { name: `Day Capped Tenant ${i}`, type: 'tenant', parentId: agency.id });
      await activate(db(), org.id, agent.id);
      await fund(db(), org.id, '100.00');
      tenants.push(org.id);
    }
    const set = await w.t.request(
      'PUT',
      `/api/organizations/${agency.id}/spend-controls`,
      { spend_cap: '50.00', weekly_spend_cap: '20.00', daily_spend_cap: '3.00', top_up: null },
      { token: await w.as('SA1.admin') },
    );
    expect(set.status).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, b) =>
        report(
          Array.from({ length: 10 }, (_, i) => ({
            id: `day-${b}-${i}`,
            organization_id: tenants[b % tenants.length],
            agent: agent.code,
            units: '1',
            occurred_at: new Date().toISOString(),
          })),
          keys[b % keys.length]!,
        ),
      ),
    );
    noServerErrors(responses);
    const refusals = responses.flatMap((r) => r.body.results).filter((r: any) => r.status === 'rejected');
    // 3.00 at 0.05 an event: exactly 60 accepted of 160, every other refused by the day cap.
    expect(responses.reduce((n, r) => n + r.body.accepted, 0)).toBe(60);
    expect(refusals).toHaveLength(100);
    expect(new Set(refusals.map((r: any) => `${r.reason} ${r.cap.window} ${r.cap.limit}`))).toEqual(
      new Set(['spend_cap_reached day 3.00']),
    );
    const rows = await sql<{ kind: string; charged: string; recount: string }>`
      select m.kind, m.charged::text, spend_cap_recount('subtree', ${agency.id}, m.kind, m.month)::numeric(16, 2)::text as recount
      from spend_cap_months m where m.scope = 'subtree' and m.scope_id = ${agency.id}
        and m.month = cap_window_start(m.kind, now())
      order by m.kind`.execute(db());
    expect(rows.rows).toEqual([
      { kind: 'day', charged: '3.00', recount: '3.00' },
      { kind: 'month', charged: '3.00', recount: '3.00' },
      { kind: 'week', charged: '3.00', recount: '3.00' },
    ]);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('several keys racing on one capped activation: exactly the cap is charged', { timeout: 180_000 }, async () => {
    const org = await insertOrg(db(), { name: 'Capped Activation Tenant', type: 'tenant', parentId: w.id('A1') });
    const activation = await activate(db(), org.id, agent.id);
    await fund(db(), org.id, '100.00');
    await sql`update agent_activations set monthly_cap = 2.00 where id = ${activation}`.execute(db());
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, b) =>
        report(
          Array.from({ length: 10 }, (_, i) => ({
            id: `activation-${b}-${i}`,
            organization_id: org.id,
            agent: agent.code,
            units: '1',
            occurred_at: new Date().toISOString(),
          })),
          keys[b % keys.length]!,
        ),
      ),
    );
    noServerErrors(responses);
    expect(responses.reduce((n, r) => n + r.body.accepted, 0)).toBe(40);
    const charged = await sql<{
      total: string;
    }>`select sum(charged)::text as total from usage_events where organization_id = ${org.id}`.execute(db());
    expect(charged.rows[0]!.total).toBe('2.00');
    expect((await reconcile(db())).ok).toBe(true);
  });
});
