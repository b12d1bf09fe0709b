import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dashboardSchema } from '@console/domain';
import { useWorld } from '../../test/harness.ts';

const w = useWorld();
const id = (key: Parameters<typeof w.id>[0]) => w.id(key);
const get = async (who: string, query = '') => w.t.request('GET', `/api/dashboard${query}`, undefined, { token: await w.as(who) });

/** Backdates an organization's creation (the dashboard reads created_at). */
async function createdDaysAgo(key: Parameters<typeof w.id>[0], days: number) {
  await sql`update organizations set created_at = now() - make_interval(days => ${days}) where id = ${id(key)}`.execute(w.t.database.db);
}

/**
 * A consumption entry in the past, which the API cannot write (entries take the time of the
 * moment): appended directly, with the balance moved to match.
 */
async function pastConsumption(key: Parameters<typeof w.id>[0], amount: string, daysAgo: number, ref = `past-${daysAgo}`) {
  const db = w.t.database.db;
  await sql`update organization_billing_settings set credit_balance = credit_balance - ${amount}::numeric where organization_id = ${id(key)}`.execute(
    db,
  );
  await sql`
    insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, external_ref, created_at)
    select ${id(key)}, -${amount}::numeric, 'consumption', gen_random_uuid(), credit_balance, ${ref}, now() - make_interval(days => ${daysAgo})
    from organization_billing_settings where organization_id = ${id(key)}
  `.execute(db);
}

/** An agent type of the catalog, written directly (the catalog's own routes are tested with it). */
async function agentType(code: string, kind: string, unit: string) {
  const { rows } = await sql<{ id: string }>`
    insert into agent_types (code, name, kind, unit) values (${code}, ${`Agent ${code}`}, ${kind}, ${unit}) returning id
  `.execute(w.t.database.db);
  return rows[0]!.id;
}

/** A live activation as a runtime's heartbeat leaves it; `deactivated` writes a past one. */
async function activation(
  key: Parameters<typeof w.id>[0],
  agentTypeId: string,
  status: string,
  health: number | null,
  deactivated = false,
) {
  await sql`
    insert into agent_activations (organization_id, agent_type_id, status, health_score, last_active_at, deactivated_at)
    values (${id(key)}, ${agentTypeId}, ${status}, ${health}, now(), ${deactivated ? sql`now()` : null})
  `.execute(w.t.database.db);
}

/** Noon (UTC) of the day `days` before today (UTC): a moment whose day does not depend on the hour the test runs. */
const noonDaysAgo = (days: number) => sql`((now() at time zone 'UTC')::date - ${days}::int + time '12:00') at time zone 'UTC'`;

/**
 * An accepted usage event `hoursAgo` (or at a moment), as the ingestion records it: with what
 * it charged and, when that is above zero, its consumption entry (with agent and units) and
 * the balance moved.
 */
async function usageEvent(
  key: Parameters<typeof w.id>[0],
  agentTypeId: string,
  units: string,
  charged: string,
  when: number | ReturnType<typeof sql>,
) {
  const db = w.t.database.db;
  const at = typeof when === 'number' ? sql`now() - make_interval(hours => ${when})` : when;
  let entryId: string | null = null;
  if (charged !== '0.00') {
    await sql`update organization_billing_settings set credit_balance = credit_balance - ${charged}::numeric where organization_id = ${id(key)}`.execute(
      db,
    );
    const { rows } = await sql<{ id: string }>`
      insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, agent_type_id, units, created_at)
      select ${id(key)}, -${charged}::numeric, 'consumption', gen_random_uuid(), credit_balance, ${agentTypeId}, ${units}::numeric, ${at}
      from organization_billing_settings where organization_id = ${id(key)}
      returning id
    `.execute(db);
    entryId = rows[0]!.id;
  }
  await sql`
    insert into usage_events (organization_id, client_event_id, agent_type_id, units, price, cost, charged, occurred_at, ledger_entry_id)
    values (${id(key)}, gen_random_uuid()::text, ${agentTypeId}, ${units}::numeric, 0, ${charged}::numeric, ${charged}::numeric, ${at}, ${entryId})
  `.execute(db);
}

const utcDay = (daysAgo: number, from: string) => new Date(Date.parse(from) - daysAgo * 86_400_000).toISOString().slice(0, 10);

/**
 *   H ─ SA1 (400 days ago) ─ A1 (100) ─ T1 (5), T2 (today, suspended)
 *     │                    └ A2 (45)
 *     └ SA2 (200, inactive) ─ A3 (10)
 * H: +1000.00, 200.00 to SA1, 100.50 to SA2; consumption 30.00 + 12.25 − refund 2.25 today,
 * 5.00 three days ago (current 30 days: 45.00), 20.00 forty days ago (previous: 20.00).
 */
beforeAll(async () => {
  const db = w.t.database.db;
  await createdDaysAgo('SA1', 400);
  await createdDaysAgo('SA2', 200);
  await createdDaysAgo('A1', 100);
  await createdDaysAgo('A2', 45);
  await createdDaysAgo('A3', 10);
  await createdDaysAgo('T1', 5);
  await sql`update users set status = 'inactive' where email = 'user@h.test'`.execute(db);
  await sql`update organization_billing_settings set activated_agent_limit = case organization_id
      when ${id('H')}::uuid then 100 when ${id('SA1')}::uuid then 30 when ${id('SA2')}::uuid then 10 else activated_agent_limit end`.execute(
    db,
  );

  const token = await w.as('H.admin');
  const ok = async (path: string, body: unknown) => {
    const response = await w.t.request('POST', path, body, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  await ok('/api/credits/adjustments', { direction: 'increase', amount: '1000', reason: 'Opening balance' });
  await ok('/api/credits/allocations', { from_org_id: id('H'), to_org_id: id('SA1'), amount: '200' });
  await ok('/api/credits/allocations', { from_org_id: id('H'), to_org_id: id('SA2'), amount: '100.50' });
  // Consumption without an agent (H runs none), then a refund of part of it through the import.
  await pastConsumption('H', '30.00', 0, 'u1');
  await pastConsumption('H', '12.25', 0, 'u2');
  await ok('/api/credits/usage', { refunds: [{ organization_id: id('H'), amount: '2.25', external_ref: 'r1', refund_of: 'u2' }] });
  await pastConsumption('H', '5.00', 3);
  await pastConsumption('H', '20.00', 40);

  // A1 meters two agents and runs three: its first consumption was 9 days before today.
  await sql`update organization_billing_settings set credit_balance = 500 where organization_id = ${id('A1')}`.execute(db);
  await sql`
    insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, created_at)
    values (${id('A1')}, 500, 'adjustment_increase', gen_random_uuid(), 500, now() - interval '20 days')
  `.execute(db);
  const bot = await agentType('support-bot', 'assistant', 'run');
  const etl = await agentType('etl', 'automation', '1k rows');
  const reporter = await agentType('reporter', 'analytics', 'report');
  await activation('A1', bot, 'active', 95);
  await activation('A1', etl, 'error', 60);
  await activation('A1', reporter, 'inactive', null);
  await activation('A1', bot, 'inactive', 10, true);
  await usageEvent('A1', bot, '2.5', '1.25', 1);
  await usageEvent('A1', bot, '1', '0.50', 2);
  await usageEvent('A1', bot, '4', '2.00', noonDaysAgo(9));
  await usageEvent('A1', etl, '10', '0.12', 72);
  await usageEvent('A1', etl, '0.4', '0.00', 71);
  // Outside both periods, and another organization's events: neither counts for A1.
  await usageEvent('A1', etl, '1', '0.00', 24 * 40);
  await usageEvent('T1', bot, '3', '0.00', 1);

  // Statuses last: allocations go to active children only.
  await sql`update organizations set status = 'inactive' where id = ${id('SA2')}`.execute(db);
  await sql`update organizations set status = 'suspended' where id = ${id('T2')}`.execute(db);
});

describe('GET /api/dashboard: figures against hand-computed values', () => {
  it('counts the descendants by status and type, newest first, with growth rates', async () => {
    const response = await get('H.admin');
    expect(response.status).toBe(200);
    expect(dashboardSchema.safeParse(response.body).success).toBe(true);
    const { organization, organizations } = response.body;
    expect(organization).toEqual({ id: id('H'), name: expect.any(String), org_type: 'house', status: 'active' });
    expect(organizations.total).toBe(7);
    expect(organizations.by_status).toEqual({ active: 5, inactive: 1, suspended: 1 });
    expect(organizations.by_type).toEqual({ house: 0, super_agency: 2, agency: 3, tenant: 2 });
    expect(organizations.recent.map((o: { id: string }) => o.id)).toEqual([id('T2'), id('T1'), id('A3'), id('A2'), id('A1')]);
    expect(organizations.recent[0]).toEqual({
      id: id('T2'),
      name: 'Tenant Two',
      org_type: 'tenant',
      status: 'suspended',
      created_at: expect.any(String),
    });
    // 30 days: A3, T1, T2 against A2; 90 days: A2, A3, T1, T2 against A1; 365 days: all but SA1 against SA1.
    expect(organizations.growth).toEqual({
      monthly: { days: 30, current: 3, previous: 1, percent: 200 },
      quarterly: { days: 90, current: 4, previous: 1, percent: 300 },
      yearly: { days: 365, current: 6, previous: 1, percent: 500 },
    });
  });

  it('reports usage, forecast, depletion and the 7-day history from consumption net of refunds', async () => {
    const { body } = await get('H.admin');
    const { credits } = body;
    expect(credits.balance).toBe('634.50'); // 1000 − 200 − 100.50 − 30 − 12.25 + 2.25 − 5 − 20
    expect(credits.usage).toMatchObject({ period_days: 30, current_period: '45.00', previous_period: '20.00', percent_change: 125 });
    expect(credits.forecast).toEqual({
      basis_days: 30,
      average_daily: '1.50',
      next_month: '45.00',
      next_quarter: '135.00',
      method: expect.stringContaining('last 30 days'),
    });
    expect(credits.depletion_months).toBe(14.1); // 634.50 ÷ 45.00 = 14.1
    const history = credits.usage.history as { date: string; consumption: string; refunds: string; net: string }[];
    expect(history).toHaveLength(7);
    expect(history.map((d) => d.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map((n) => utcDay(n, body.generated_at)));
    expect(history[6]).toEqual({ date: utcDay(0, body.generated_at), consumption: '42.25', refunds: '2.25', net: '40.00' });
    expect(history[3]).toEqual({ date: utcDay(3, body.generated_at), consumption: '5.00', refunds: '0.00', net: '5.00' });
    expect(history.filter((d) => d.net === '0.00')).toHaveLength(5);
  });

  it('sums the own entries by type, the flows, and the children balances', async () => {
    const { credits, resources, team, agents } = (await get('H.admin')).body;
    expect(credits.by_entry_type).toEqual([
      { entry_type: 'allocation_sent', total: '-300.50', count: 2 },
      { entry_type: 'consumption', total: '-67.25', count: 4 },
      { entry_type: 'refund', total: '2.25', count: 1 },
      { entry_type: 'adjustment_increase', total: '1000.00', count: 1 },
    ]);
    expect(credits.allocated).toBe('300.50');
    expect(credits.received).toBe('0.00');
    expect(credits.by_child).toEqual({
      count: 2,
      total_balance: '300.50',
      children: [
        {
          id: id('SA1'),
          name: 'Super One',
          org_type: 'super_agency',
          status: 'active',
          credit_balance: '200.00',
          activated_agent_limit: 30,
        },
        {
          id: id('SA2'),
          name: 'Super Two',
          org_type: 'super_agency',
          status: 'inactive',
          credit_balance: '100.50',
          activated_agent_limit: 10,
        },
      ],
    });
    expect(resources).toEqual({ activated_agent_limit: 100, active_agents: 0, children_limit_total: 40 });
    // The first house admin and H's four fixture users, one of them made inactive.
    expect(team).toEqual({ total: 5, by_status: { active: 4, inactive: 1, pending: 0, suspended: 0 } });
    // H runs no agents: its descendants' activations and events are theirs, not H's.
    const none = (days: number) => ({ days, events: 0, credits: '0.00', by_agent: [] });
    expect(agents).toEqual({
      by_status: { active: 0, inactive: 0, error: 0 },
      average_health: null,
      activations: [],
      usage: { last_7_days: none(7), last_30_days: none(30) },
      // ...and they roll up to it as its subtree's.
      subtree: expect.objectContaining({ by_status: { active: 1, inactive: 1, error: 1 }, average_health: 77.5 }),
    });
    // A1's six events, the 3.87 credits its consumption rolls up to H's subtree usage too.
    expect(agents.subtree.usage.last_30_days).toMatchObject({ events: 6, credits: '3.87' });
    expect(credits.low_balance_threshold).toBe('100.00');
  });

  it("rolls up a parent's subtree consumption: its own and every descendant's, over the same periods", async () => {
    // H consumed 45.00 net (and 20.00 before), A1 below it 3.87: the house's tree 48.87 against 20.00.
    expect((await get('H.admin')).body.credits.subtree_usage).toEqual({
      current_period: '48.87',
      previous_period: '20.00',
      percent_change: 144.4,
    });
    // SA1 consumed nothing itself; its agency A1 did.
    const sa1 = (await get('SA1.admin')).body.credits;
    expect(sa1.usage.current_period).toBe('0.00');
    expect(sa1.subtree_usage).toEqual({ current_period: '3.87', previous_period: '0.00', percent_change: null });
    expect((await get('A1.admin')).body.credits.subtree_usage.current_period).toBe('3.87');
    expect((await get('T1.admin')).body.credits.subtree_usage).toEqual({
      current_period: '0.00',
      previous_period: '0.00',
      percent_change: null,
    });
  });

  it('gives null percentages when the previous period is empty and no depletion without usage', async () => {
    const response = await get('H.admin', `?organization_id=${id('SA1')}`);
    expect(response.status).toBe(200);
    const { organizations, credits } = response.body;
    expect(organizations.total).toBe(4);
    expect(organizations.growth.monthly).toEqual({ days: 30, current: 2, previous: 1, percent: 100 });
    expect(organizations.growth.yearly).toEqual({ days: 365, current: 4, previous: 0, percent: null });
    expect(credits).toMatchObject({
      balance: '200.00',
      received: '200.00',
      allocated: '0.00',
      depletion_months: null,
      usage: { current_period: '0.00', previous_period: '0.00', percent_change: null },
      forecast: { basis_days: 0, average_daily: '0.00', next_month: '0.00', next_quarter: '0.00' },
      by_entry_type: [{ entry_type: 'allocation_received', total: '200.00', count: 1 }],
    });
  });

  it('shows a tenant with no descendants and no children', async () => {
    const { status, body } = await get('T1.admin');
    expect(status).toBe(200);
    expect(body.organization.id).toBe(id('T1'));
    expect(body.organizations).toMatchObject({ total: 0, recent: [], by_status: { active: 0, inactive: 0, suspended: 0 } });
    expect(body.credits.by_child).toEqual({ count: 0, total_balance: '0.00', children: [] });
    expect(body.credits.by_entry_type).toEqual([]);
    expect(body.credits.usage.history.every((d: { net: string }) => d.net === '0.00')).toBe(true);
  });
});

describe('GET /api/dashboard: agents from activations and usage events', () => {
  it('counts the live activations by reported status, with their mean health, worst health first', async () => {
    const response = await get('A1.admin');
    expect(response.status).toBe(200);
    expect(dashboardSchema.safeParse(response.body).success).toBe(true);
    const { agents, resources } = response.body;
    // The deactivated activation is history: three live ones, against the limit.
    expect(resources.active_agents).toBe(3);
    expect(agents.by_status).toEqual({ active: 1, inactive: 1, error: 1 });
    expect(agents.average_health).toBe(77.5); // (95 + 60) ÷ 2; the one without a report is left out
    expect(
      agents.activations.map((a: { code: string; status: string; health_score: number | null }) => [a.code, a.status, a.health_score]),
    ).toEqual([
      ['etl', 'error', 60],
      ['support-bot', 'active', 95],
      ['reporter', 'inactive', null],
    ]);
    expect(agents.activations[0]).toEqual({
      id: expect.any(String),
      agent_type_id: expect.any(String),
      code: 'etl',
      name: 'Agent etl',
      kind: 'automation',
      status: 'error',
      health_score: 60,
      last_active_at: expect.any(String),
      activated_at: expect.any(String),
    });
  });

  it('sums events, units and credits by agent over 7 and 30 days, most credits first', async () => {
    const { agents } = (await get('A1.admin')).body;
    const row = (code: string, unit: string, events: number, units: string, credits: string) => ({
      agent_type_id: expect.any(String),
      code,
      name: `Agent ${code}`,
      unit,
      events,
      units,
      credits,
    });
    expect(agents.usage.last_30_days).toEqual({
      days: 30,
      events: 5,
      credits: '3.87',
      by_agent: [row('support-bot', 'run', 3, '7.5000', '3.75'), row('etl', '1k rows', 2, '10.4000', '0.12')],
    });
    // The 4 runs of 9 days ago fall out of the week.
    expect(agents.usage.last_7_days).toEqual({
      days: 7,
      events: 4,
      credits: '1.87',
      by_agent: [row('support-bot', 'run', 2, '3.5000', '1.75'), row('etl', '1k rows', 2, '10.4000', '0.12')],
    });
  });

  it('forecasts from the days since the first consumption when that is under 30 days ago', async () => {
    const { credits } = (await get('A1.admin')).body;
    expect(credits.balance).toBe('496.13'); // 500 − 1.25 − 0.50 − 2.00 − 0.12
    expect(credits.usage.current_period).toBe('3.87');
    // 3.87 over 10 days (the day of the first consumption, 9 days ago, to today): 0.387 a day.
    expect(credits.forecast).toMatchObject({ basis_days: 10, average_daily: '0.39', next_month: '11.61', next_quarter: '34.83' });
    expect(credits.depletion_months).toBe(42.7); // 496.13 ÷ 11.61
  });

  it('forecasts by the days the consumption occurred: a backlog reported today spans the days its events occurred', async () => {
    const db = w.t.database.db;
    const bot = (await sql<{ id: string }>`select id from agent_types where code = 'support-bot'`.execute(db)).rows[0]!.id;
    await sql`update organization_billing_settings set credit_balance = 300 where organization_id = ${id('A3')}`.execute(db);
    await sql`
      insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, created_at)
      values (${id('A3')}, 300, 'adjustment_increase', gen_random_uuid(), 300, now() - interval '40 days')
    `.execute(db);
    // One batch posted today charges 6.00 for events that occurred 19 days ago and today.
    await sql`update organization_billing_settings set credit_balance = 294 where organization_id = ${id('A3')}`.execute(db);
    const { rows } = await sql<{ id: string }>`
      insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, agent_type_id, units)
      values (${id('A3')}, -6, 'consumption', gen_random_uuid(), 294, ${bot}, 6) returning id
    `.execute(db);
    await sql`
      insert into usage_events (organization_id, client_event_id, agent_type_id, units, price, cost, charged, occurred_at, ledger_entry_id)
      values (${id('A3')}, 'backlog-1', ${bot}, 3, 1, 3, 3, ${noonDaysAgo(19)}, ${rows[0]!.id}),
             (${id('A3')}, 'backlog-2', ${bot}, 3, 1, 3, 3, now() - interval '1 minute', ${rows[0]!.id})
    `.execute(db);
    const { credits } = (await get('H.admin', `?organization_id=${id('A3')}`)).body;
    expect(credits.usage.current_period).toBe('6.00');
    // 6.00 over the 20 days from the first occurrence (19 days ago) to today: 0.30 a day.
    expect(credits.forecast).toMatchObject({ basis_days: 20, average_daily: '0.30', next_month: '9.00', next_quarter: '27.00' });
    expect(credits.depletion_months).toBe(32.7); // 294.00 ÷ 9.00
  });

  it('shows a tenant its own events only, with no activation', async () => {
    const { agents, resources } = (await get('T1.admin')).body;
    expect(resources.active_agents).toBe(0);
    expect(agents.activations).toEqual([]);
    expect(agents.usage.last_7_days).toMatchObject({
      events: 1,
      credits: '0.00',
      by_agent: [{ code: 'support-bot', events: 1, units: '3.0000', credits: '0.00' }],
    });
  });
});

describe('GET /api/dashboard: children needing attention (issue 29)', () => {
  it("lists an admin's direct children below their threshold, lowest balance first, with whether each has an active admin", async () => {
    const sa1 = (await get('SA1.admin')).body.credits.children_needing_attention;
    // A2 holds nothing against the default threshold of 100 and has no people; A1 holds 496.13.
    expect(sa1).toEqual({
      count: 1,
      children: [
        {
          id: id('A2'),
          name: 'Agency Two',
          org_type: 'agency',
          status: 'active',
          credit_balance: '0.00',
          activated_agent_limit: 0,
          low_balance_threshold: '100.00',
          low_balance: true,
          cap_standing: { reached: false, refused_this_month: 0 },
          has_active_admin: false,
        },
      ],
    });
    await sql`update organization_billing_settings set credit_balance = 60, low_balance_threshold = 50 where organization_id = ${id('T1')}`.execute(
      w.t.database.db,
    );
    const a1 = (await get('A1.admin')).body.credits.children_needing_attention;
    expect(a1.children.map((c: any) => [c.name, c.credit_balance, c.status, c.has_active_admin])).toEqual([
      ['Tenant Two', '0.00', 'suspended', false],
    ]);
    await sql`update organization_billing_settings set credit_balance = 0, low_balance_threshold = 100 where organization_id = ${id('T1')}`.execute(
      w.t.database.db,
    );
    const again = (await get('A1.admin')).body.credits.children_needing_attention;
    expect(again.count).toBe(2);
    expect(again.children.map((c: any) => [c.name, c.has_active_admin])).toEqual([
      ['Tenant One', true],
      ['Tenant Two', false],
    ]);
    // H's children hold 200.00 and 100.50: neither is below 100.
    expect((await get('H.admin')).body.credits.children_needing_attention).toEqual({ count: 0, children: [] });
  });

  it("shows them to an ancestor's admins reading the organization, and to no manager, user or support", async () => {
    expect((await get('H.admin', `?organization_id=${id('A1')}`)).body.credits.children_needing_attention.count).toBe(2);
    for (const who of ['A1.manager', 'A1.user', 'A1.support', 'SA1.manager']) {
      const response = await get(who);
      expect(response.status, who).toBe(200);
      expect(response.body.credits.children_needing_attention, who).toEqual({ count: 0, children: [] });
    }
  });
});

describe('GET /api/dashboard: scope', () => {
  it('answers 404 outside the scope, as for an organization that does not exist', async () => {
    expect((await get('H.admin', `?organization_id=${id('H2')}`)).status).toBe(404);
    expect((await get('SA1.admin', `?organization_id=${id('SA2')}`)).status).toBe(404);
    expect((await get('SA1.admin', `?organization_id=${id('H')}`)).status).toBe(404);
    expect((await get('SA1.support', `?organization_id=${id('SA3')}`)).status).toBe(404);
    expect((await get('H.admin', '?organization_id=00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('lets callers with organizations.get read a descendant', async () => {
    const response = await get('SA1.manager', `?organization_id=${id('A1')}`);
    expect(response.status).toBe(200);
    expect(response.body.organization.id).toBe(id('A1'));
    expect(response.body.organizations.by_type.tenant).toBe(2);
    expect((await get('SA1.support', `?organization_id=${id('T1')}`)).status).toBe(200);
  });

  it('keeps users without organizations.get to their own organization (403 for another)', async () => {
    expect((await get('SA1.user')).body.organization.id).toBe(id('SA1'));
    expect((await get('SA1.user', `?organization_id=${id('SA1')}`)).status).toBe(200);
    const other = await get('SA1.user', `?organization_id=${id('A1')}`);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('forbidden');
    expect((await get('T1.user', `?organization_id=${id('H2')}`)).status).toBe(403);
  });

  it('needs a session and a valid id', async () => {
    expect((await w.t.request('GET', '/api/dashboard')).status).toBe(401);
    expect((await get('H.admin', '?organization_id=nope')).status).toBe(400);
  });
});
