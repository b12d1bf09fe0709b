import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dashboardSchema } from '@console/domain';
import { useWorld } from '../../test/harness.ts';

/**
 * The dashboard's agent figures end to end, every step through the API as its callers make
 * it: the house's admins fill the catalog and fund the tree, A1's admins activate agents and
 * make a key, and the runtime reports usage and heartbeats with that key.
 */
const w = useWorld();
const id = (key: Parameters<typeof w.id>[0]) => w.id(key);
const HOUR = 3_600_000;

async function call(who: string, method: string, path: string, body?: unknown, expected = 200) {
  const response = await w.t.request(method, path, body, { token: await w.as(who) });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(expected);
  return response.body;
}

let key: string;
const types: Record<string, string> = {};
const activations: Record<string, string> = {};
const runtime = (path: string, body: unknown) =>
  w.t.request('POST', `/api/v1/${path}`, body, { headers: { authorization: `Bearer ${key}` } });
const event = (eventId: string, org: string, agent: string, units: string, hoursAgo = 0.1) => ({
  id: eventId,
  organization_id: org,
  agent,
  units,
  occurred_at: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
});
const dashboard = async (who = 'A1.admin') => {
  const response = await w.t.request('GET', '/api/dashboard', undefined, { token: await w.as(who) });
  expect(response.status).toBe(200);
  expect(dashboardSchema.safeParse(response.body).success).toBe(true);
  return response.body;
};

beforeAll(async () => {
  await call('H.admin', 'POST', '/api/credits/adjustments', { direction: 'increase', amount: '1000', reason: 'Opening balance' });
  await call('H.admin', 'POST', '/api/credits/allocations', { from_org_id: id('H'), to_org_id: id('SA1'), amount: '300' });
  await call('SA1.admin', 'POST', '/api/credits/allocations', { from_org_id: id('SA1'), to_org_id: id('A1'), amount: '200' });
  await call('H.admin', 'PUT', `/api/organizations/${id('H')}/agent-limit`, { activated_agent_limit: 100 });
  await call('H.admin', 'PUT', `/api/organizations/${id('SA1')}/agent-limit`, { activated_agent_limit: 10 });
  await call('SA1.admin', 'PUT', `/api/organizations/${id('A1')}/agent-limit`, { activated_agent_limit: 5 });
  for (const [code, kind, unit, price] of [
    ['support-bot', 'assistant', 'run', '0.25'],
    ['etl', 'automation', '1k rows', '0.0125'],
  ] as const) {
    const { agent_type } = await call('H.admin', 'POST', '/api/agent-types', { code, name: `Agent ${code}`, kind, unit, price }, 201);
    types[code] = agent_type.id;
  }
  // The runtime reports an event of ten days ago: the first price must have been in force then.
  await sql`update agent_prices set effective_from = now() - interval '40 days'`.execute(w.t.database.db);
  for (const code of ['support-bot', 'etl']) {
    const { activation } = await call('A1.admin', 'POST', `/api/organizations/${id('A1')}/agents`, { agent_type_id: types[code] }, 201);
    activations[code] = activation.id;
  }
  const made = await call(
    'A1.admin',
    'POST',
    `/api/organizations/${id('A1')}/api-keys`,
    { name: 'runtime', scopes: ['usage:write', 'agents:report'] },
    201,
  );
  key = made.secret;

  const usage = await runtime('usage-events', {
    events: [
      event('e1', id('A1'), 'support-bot', '3'), // 0.75
      event('e2', id('A1'), 'support-bot', '1'), // 0.25
      event('e3', id('A1'), 'etl', '10'), // 0.125: 0.12 charged, 0.005 carried
      event('e4', id('A1'), 'support-bot', '2', 240), // 0.50, ten days ago
      event('e1', id('A1'), 'support-bot', '3'), // a duplicate: counted once
      event('t1', id('T1'), 'support-bot', '1'), // T1 has no activation: refused
    ],
  });
  expect(usage.status).toBe(200);
  expect(usage.body).toMatchObject({ accepted: 4, duplicates: 1, rejected: 1 });
  expect(
    (await runtime('heartbeats', { organization_id: id('A1'), agent: 'support-bot', status: 'active', health_score: 92 })).status,
  ).toBe(200);
  expect((await runtime('heartbeats', { organization_id: id('A1'), agent: 'etl', status: 'error', health_score: 40 })).status).toBe(200);
});

describe('dashboard: agents and usage reported through the machine API', () => {
  it('shows the live agents as their heartbeats left them, worst health first', async () => {
    const { agents, resources } = await dashboard();
    expect(resources.active_agents).toBe(2);
    expect(agents.by_status).toEqual({ active: 1, inactive: 0, error: 1 });
    expect(agents.average_health).toBe(66);
    expect(
      agents.activations.map((a: { code: string; status: string; health_score: number }) => [a.code, a.status, a.health_score]),
    ).toEqual([
      ['etl', 'error', 40],
      ['support-bot', 'active', 92],
    ]);
    expect(agents.activations[1].last_active_at).not.toBeNull();
  });

  it('counts each accepted event once, by the time it occurred, with what it was charged', async () => {
    const { agents } = await dashboard();
    const row = (code: string, unit: string, events: number, units: string, credits: string) => ({
      agent_type_id: types[code],
      code,
      name: `Agent ${code}`,
      unit,
      events,
      units,
      credits,
    });
    expect(agents.usage.last_7_days).toEqual({
      days: 7,
      events: 3,
      credits: '1.12',
      by_agent: [row('support-bot', 'run', 2, '4.0000', '1.00'), row('etl', '1k rows', 1, '10.0000', '0.12')],
    });
    expect(agents.usage.last_30_days).toEqual({
      days: 30,
      events: 4,
      credits: '1.62',
      by_agent: [row('support-bot', 'run', 3, '6.0000', '1.50'), row('etl', '1k rows', 1, '10.0000', '0.12')],
    });
  });

  it('forecasts from the credits the events took, averaged over the days since the first of them occurred', async () => {
    const { credits } = await dashboard();
    expect(credits.balance).toBe('198.38'); // 200 − 1.62
    // The ledger counts a charge when it was made: all four today, the late report included.
    expect(credits.usage.current_period).toBe('1.62');
    expect(credits.usage.history.at(-1)).toMatchObject({ consumption: '1.62', refunds: '0.00', net: '1.62' });
    // The late report occurred ten days ago: 1.62 over 11 days (today included), × 30 = 4.418…
    expect(credits.forecast).toMatchObject({ basis_days: 11, average_daily: '0.15', next_month: '4.42', next_quarter: '13.25' });
    expect(credits.depletion_months).toBe(44.9); // 198.38 ÷ 4.418…
  });

  it("follows the organization's threshold and a deactivation, keeping the usage that happened", async () => {
    await call('A1.admin', 'PUT', `/api/organizations/${id('A1')}/low-balance-threshold`, { low_balance_threshold: '250' });
    await call('A1.admin', 'DELETE', `/api/organizations/${id('A1')}/agents/${activations.etl}`);
    const { credits, agents, resources } = await dashboard();
    expect(credits.low_balance_threshold).toBe('250.00');
    expect(resources.active_agents).toBe(1);
    expect(agents.by_status).toEqual({ active: 1, inactive: 0, error: 0 });
    expect(agents.activations.map((a: { code: string }) => a.code)).toEqual(['support-bot']);
    expect(agents.usage.last_30_days.by_agent.map((a: { code: string }) => a.code)).toEqual(['support-bot', 'etl']);
  });

  it("is the organization's own: its parent's dashboard shows none of it, a reader of A1 sees it", async () => {
    const parent = await dashboard('SA1.admin');
    expect(parent.resources.active_agents).toBe(0);
    expect(parent.agents.usage.last_30_days.events).toBe(0);
    const response = await w.t.request('GET', `/api/dashboard?organization_id=${id('A1')}`, undefined, {
      token: await w.as('SA1.manager'),
    });
    expect(response.body.agents.usage.last_30_days.events).toBe(4);
  });

  it("rolls the subtree's agents and usage up to every parent above it; a tenant has no subtree", async () => {
    for (const who of ['SA1.admin', 'H.admin', 'A1.admin']) {
      const { agents } = await dashboard(who);
      expect(agents.subtree.by_status, who).toEqual({ active: 1, inactive: 0, error: 0 });
      expect(agents.subtree.average_health, who).toBe(92);
      expect(agents.subtree.usage.last_7_days).toMatchObject({ events: 3, credits: '1.12' });
      expect(agents.subtree.usage.last_30_days).toMatchObject({ events: 4, credits: '1.62' });
      // The deactivated agent's usage happened, and stays counted.
      expect(agents.subtree.usage.last_30_days.by_agent.map((a: { code: string }) => a.code)).toEqual(['support-bot', 'etl']);
    }
    // Another branch sees none of it.
    const sibling = await w.t.request('GET', `/api/dashboard?organization_id=${id('SA2')}`, undefined, { token: await w.as('H.admin') });
    expect(sibling.body.agents.subtree.usage.last_30_days.events).toBe(0);
    expect(sibling.body.agents.subtree.by_status).toEqual({ active: 0, inactive: 0, error: 0 });
    expect((await dashboard('T1.admin')).agents.subtree).toBeNull();
  });
});
