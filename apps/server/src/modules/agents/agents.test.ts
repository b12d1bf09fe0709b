import { describe, expect, it, beforeAll } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, type ActivityAction } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertOrg, insertUser } from '../../test/fixtures.ts';
import { activationsQuery } from './activations.ts';
import { usageByAgentQuery, usageByDayQuery } from './usage-summary.ts';
import { generateKey } from '../../lib/api-key.ts';

const w = useWorld();
const db = () => w.t.database.db;
const a = MESSAGES.agents;

async function api(who: string, method: string, path: string, body?: unknown) {
  return w.t.request(method, path, body, { token: await w.as(who) });
}

let typeSeq = 0;
/** A catalog entry made through the API by the house admin. */
async function createType(overrides: Record<string, unknown> = {}) {
  typeSeq++;
  const response = await api('H.admin', 'POST', '/api/agent-types', {
    code: `agent-${typeSeq}`,
    name: `Agent ${String(typeSeq).padStart(3, '0')}`,
    kind: 'assistant',
    unit: 'run',
    price: '0.25',
    ...overrides,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.agent_type as { id: string; code: string; name: string; price: string; status: string };
}

async function setLimit(orgId: string, limit: number) {
  await db()
    .updateTable('organization_billing_settings')
    .set({ activated_agent_limit: limit })
    .where('organization_id', '=', orgId)
    .execute();
}

const audits = (action: ActivityAction, targetId: string) =>
  db()
    .selectFrom('audit_log')
    .select(['details', 'actor_user_id'])
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .execute();

/**
 * An accepted usage event, written straight to the database (the ingestion engine is tested
 * on its own): charged credits come with their consumption entry, as the engine writes them.
 */
async function insertUsage(orgId: string, typeId: string, event: { id: string; units: string; charged: string; occurredAt: Date }) {
  let ledgerId: string | null = null;
  if (event.charged !== '0.00') {
    const entry = await db()
      .insertInto('credit_ledger_entries')
      .values({
        organization_id: orgId,
        amount: `-${event.charged}`,
        entry_type: 'consumption',
        transaction_group: crypto.randomUUID(),
        balance_after: '0.00',
        external_ref: event.id,
        agent_type_id: typeId,
        units: event.units,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ledgerId = entry.id;
  }
  await db()
    .insertInto('usage_events')
    .values({
      organization_id: orgId,
      client_event_id: event.id,
      source: 'key',
      agent_type_id: typeId,
      units: event.units,
      price: '0.2500',
      cost: event.charged,
      charged: event.charged,
      occurred_at: event.occurredAt,
      ledger_entry_id: ledgerId,
    })
    .execute();
}

describe('agent catalog', () => {
  it('lets house admins add a type with its first price, audited, and lists it with its current price', async () => {
    const type = await createType({ code: 'support-bot', name: 'Support Bot', description: 'Answers tickets', price: 0.5 });
    expect(type).toMatchObject({ code: 'support-bot', name: 'Support Bot', price: '0.5000', status: 'active', retired_at: null });
    const prices = await db().selectFrom('agent_prices').select(['price', 'created_by']).where('agent_type_id', '=', type.id).execute();
    expect(prices.map((p) => p.price)).toEqual(['0.5000']);
    const [audit] = await audits('agent_type.create', type.id);
    expect(audit!.details).toMatchObject({ code: 'support-bot', price: '0.5000' });

    const list = await api('T1.user', 'GET', '/api/agent-types');
    expect(list.status).toBe(200);
    expect(list.body.agent_types.find((t: { id: string }) => t.id === type.id)).toMatchObject({
      price: '0.5000',
      description: 'Answers tickets',
    });
    const names = list.body.agent_types.map((t: { name: string }) => t.name);
    expect(names).toEqual([...names].sort());
  });

  it('refuses a code already taken with 409 and a clear message, changing nothing', async () => {
    const before = await db().selectFrom('agent_types').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const response = await api('H.admin', 'POST', '/api/agent-types', {
      code: 'support-bot',
      name: 'Again',
      kind: 'other',
      unit: 'run',
      price: '1',
    });
    expect(response.status).toBe(409);
    expect(response.body.error.message).toBe(a.codeTaken('support-bot'));
    const after = await db().selectFrom('agent_types').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('answers two creations of one code sent together with one 201 and one 409', async () => {
    const body = { code: 'twin', name: 'Twin', kind: 'other', unit: 'run', price: '1' };
    const token = await w.as('H.admin');
    const answers = await Promise.all([1, 2].map(() => w.t.request('POST', '/api/agent-types', body, { token })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('refuses the catalog to everyone but house admins, and bad input with 400', async () => {
    for (const who of ['H.manager', 'SA1.admin', 'A1.admin', 'T1.admin']) {
      const response = await api(who, 'POST', '/api/agent-types', {
        code: `x-${who.toLowerCase().replace('.', '-')}`,
        name: 'X',
        kind: 'other',
        unit: 'run',
        price: '1',
      });
      expect(response.status, who).toBe(403);
    }
    for (const body of [
      { code: 'Bad Code', name: 'X', kind: 'other', unit: 'run', price: '1' },
      { code: 'ok-code', name: 'X', kind: 'robot', unit: 'run', price: '1' },
      { code: 'ok-code', name: 'X', kind: 'other', unit: 'run', price: '0.00001' },
      { code: 'ok-code', name: 'X', kind: 'other', unit: 'run', price: '-1' },
      { code: 'ok-code', name: '', kind: 'other', unit: 'run', price: '1' },
    ]) {
      expect((await api('H.admin', 'POST', '/api/agent-types', body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('edits a type; a new price is a new row in force from now and earlier prices stay', async () => {
    const type = await createType({ price: '0.10' });
    const renamed = await api('H.admin', 'PATCH', `/api/agent-types/${type.id}`, { name: 'Renamed Agent', unit: '1k tokens' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.agent_type).toMatchObject({ name: 'Renamed Agent', unit: '1k tokens', price: '0.1000' });
    // The same price again adds nothing.
    expect((await api('H.admin', 'PATCH', `/api/agent-types/${type.id}`, { price: '0.1' })).status).toBe(200);
    const repriced = await api('H.admin', 'PATCH', `/api/agent-types/${type.id}`, { price: '0.35' });
    expect(repriced.body.agent_type.price).toBe('0.3500');
    const prices = await db()
      .selectFrom('agent_prices')
      .select(['price', 'effective_from'])
      .where('agent_type_id', '=', type.id)
      .orderBy('effective_from')
      .execute();
    expect(prices.map((p) => p.price)).toEqual(['0.1000', '0.3500']);
    expect(Date.parse(prices[0]!.effective_from)).toBeLessThan(Date.parse(prices[1]!.effective_from));
    const updates = await audits('agent_type.update', type.id);
    expect(updates.map((u) => u.details)).toContainEqual({ before: { price: '0.1000' }, after: { price: '0.3500' } });
    expect((await api('H.admin', 'PATCH', `/api/agent-types/${type.id}`, {})).status).toBe(400);
    expect((await api('H.admin', 'PATCH', `/api/agent-types/${crypto.randomUUID()}`, { name: 'Nobody' })).status).toBe(404);
    expect((await api('SA1.admin', 'PATCH', `/api/agent-types/${type.id}`, { name: 'Nope' })).status).toBe(403);
  });

  it('retires a type: no new activations, the live ones keep running; retiring again changes nothing', async () => {
    const type = await createType();
    await setLimit(w.id('A2'), 5);
    const activated = await api('SA1.admin', 'POST', `/api/organizations/${w.id('A2')}/agents`, { agent_type_id: type.id });
    expect(activated.status).toBe(201);
    const retired = await api('H.admin', 'POST', `/api/agent-types/${type.id}/retire`);
    expect(retired.status).toBe(200);
    expect(retired.body.agent_type.status).toBe('retired');
    expect(retired.body.agent_type.retired_at).not.toBeNull();
    expect((await api('H.admin', 'POST', `/api/agent-types/${type.id}/retire`)).status).toBe(200);
    expect(await audits('agent_type.retire', type.id)).toHaveLength(1);

    const again = await api('A1.admin', 'POST', `/api/organizations/${w.id('T1')}/agents`, { agent_type_id: type.id });
    expect(again.status).toBe(422);
    expect(again.body.error.message).toBe(a.retired(type.name));
    const list = await api('SA1.admin', 'GET', `/api/organizations/${w.id('A2')}/agents`);
    expect(list.body.activations.map((x: { id: string }) => x.id)).toContain(activated.body.activation.id);
    expect(list.body.activations[0].agent_type.status).toBe('retired');
  });
});

describe('activations', () => {
  let first: { id: string; name: string };
  let second: { id: string; name: string };
  let third: { id: string; name: string };
  beforeAll(async () => {
    first = await createType({ name: 'Activation First' });
    second = await createType({ name: 'Activation Second' });
    third = await createType({ name: 'Activation Third' });
  });
  const activate = (who: string, org: Parameters<typeof w.id>[0], typeId: string) =>
    api(who, 'POST', `/api/organizations/${w.id(org)}/agents`, { agent_type_id: typeId });

  it('refuses at the limit with "used / limit", and activates within it for the own or the parent admins, audited', async () => {
    await setLimit(w.id('A1'), 0);
    const none = await activate('A1.admin', 'A1', first.id);
    expect(none.status).toBe(422);
    expect(none.body.error.message).toBe(a.limitReached(0, 0));
    await setLimit(w.id('A1'), 2);
    const own = await activate('A1.admin', 'A1', first.id);
    expect(own.status).toBe(201);
    expect(own.body.activation).toMatchObject({
      organization_id: w.id('A1'),
      agent_type: { id: first.id, name: 'Activation First', price: '0.2500', status: 'active' },
      status: 'inactive',
      health_score: null,
      last_active_at: null,
      usage_30d: { events: 0, units: '0.0000', credits: '0.00' },
    });
    const byParent = await activate('SA1.admin', 'A1', second.id);
    expect(byParent.status).toBe(201);
    const full = await activate('A1.admin', 'A1', third.id);
    expect(full.status).toBe(422);
    expect(full.body.error.message).toBe(a.limitReached(2, 2));
    expect(full.body.error.code).toBe('agent_limit_reached');
    const [audit] = await audits('agent.activate', own.body.activation.id);
    expect(audit!.details).toMatchObject({ agent_type_id: first.id, active: 1, limit: 2 });
  });

  it('refuses a second live activation of one type with 409', async () => {
    await setLimit(w.id('A1'), 3);
    const twice = await activate('A1.admin', 'A1', first.id);
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe(a.alreadyActive(first.name));
  });

  it('refuses the wrong people: a grandparent admin, managers and users, and another tree', async () => {
    const count = () => db().selectFrom('agent_activations').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const before = await count();
    expect((await activate('H.admin', 'A1', third.id)).status).toBe(403);
    expect((await activate('A1.manager', 'A1', third.id)).status).toBe(403);
    expect((await activate('A1.user', 'A1', third.id)).status).toBe(403);
    expect((await activate('T1.admin', 'A1', third.id)).status).toBe(404);
    expect((await activate('A1.admin', 'A3', third.id)).status).toBe(404);
    expect((await activate('A1.admin', 'H2', third.id)).status).toBe(404);
    expect((await activate('A1.admin', 'A1', crypto.randomUUID())).status).toBe(422);
    expect((await count()).n).toBe(before.n);
  });

  it("activates only for active organizations: suspended 422, deleted 404; a frozen organization's people 403", async () => {
    const tenant = await insertOrg(db(), { name: 'Frozen Tenant', type: 'tenant', parentId: w.id('A1') });
    await insertUser(db(), { email: 'admin@frozen.test', password: PASSWORD, role: 'tenant_admin', organizationId: tenant.id });
    await setLimit(tenant.id, 5);
    const token = await w.as('admin@frozen.test');
    await db().updateTable('organizations').set({ status: 'suspended' }).where('id', '=', tenant.id).execute();
    const suspended = await api('A1.admin', 'POST', `/api/organizations/${tenant.id}/agents`, { agent_type_id: first.id });
    expect(suspended.status).toBe(422);
    expect(suspended.body.error.message).toBe(a.organizationNotActive);
    const own = await w.t.request('POST', `/api/organizations/${tenant.id}/agents`, { agent_type_id: first.id }, { token });
    expect(own.status).toBe(403);
    expect(own.body.error.code).toBe('organization_suspended');
    await db().updateTable('organizations').set({ status: 'active', deleted_at: sql`now()` }).where('id', '=', tenant.id).execute();
    expect((await api('A1.admin', 'POST', `/api/organizations/${tenant.id}/agents`, { agent_type_id: first.id })).status).toBe(404);
  });

  it('deleting an organization ends its live activations and revokes its API keys in the same change', async () => {
    const tenant = await insertOrg(db(), { name: 'Closing Tenant', type: 'tenant', parentId: w.id('A1') });
    await setLimit(tenant.id, 2);
    expect((await api('A1.admin', 'POST', `/api/organizations/${tenant.id}/agents`, { agent_type_id: first.id })).status).toBe(201);
    const made = generateKey();
    const key = await db()
      .insertInto('api_keys')
      .values({ organization_id: tenant.id, name: 'runtime', prefix: made.prefix, secret_hash: made.hash, scopes: ['usage:write'] })
      .returning('id')
      .executeTakeFirstOrThrow();

    expect((await api('A1.admin', 'DELETE', `/api/organizations/${tenant.id}`)).status).toBe(204);
    const live = await db()
      .selectFrom('agent_activations')
      .select(['status'])
      .where('organization_id', '=', tenant.id)
      .where('deactivated_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
    const revoked = await db().selectFrom('api_keys').select(['revoked_at']).where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(revoked.revoked_at).not.toBeNull();
    const [audit] = await audits('organization.delete', tenant.id);
    expect(audit!.details).toMatchObject({ deactivated_agents: 1, revoked_api_keys: 1 });
  });

  it('lists the live activations to readers in scope with the count and the limit; 404 outside', async () => {
    const list = await api('T1.user', 'GET', `/api/organizations/${w.id('T1')}/agents`);
    expect(list.status).toBe(200);
    const a1 = await api('SA1.support', 'GET', `/api/organizations/${w.id('A1')}/agents`);
    expect(a1.status).toBe(200);
    expect(a1.body).toMatchObject({ organization_id: w.id('A1'), active_agent_count: 2, activated_agent_limit: 3 });
    expect(a1.body.activations.map((x: { agent_type: { name: string } }) => x.agent_type.name)).toEqual([
      'Activation First',
      'Activation Second',
    ]);
    expect((await api('T1.user', 'GET', `/api/organizations/${w.id('A1')}/agents`)).status).toBe(404);
    expect((await api('A1.admin', 'GET', `/api/organizations/${w.id('SA2')}/agents`)).status).toBe(404);
  });

  it('counts live activations in the organization detail and billing, and refuses a limit below them naming both numbers', async () => {
    const detail = await api('A1.admin', 'GET', `/api/organizations/${w.id('A1')}`);
    expect(detail.body.organization.active_agent_count).toBe(2);
    const billing = await api('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/billing`);
    expect(billing.body.active_agent_count).toBe(2);
    await setLimit(w.id('SA1'), 50);
    const below = await api('SA1.admin', 'PUT', `/api/organizations/${w.id('A1')}/agent-limit`, { activated_agent_limit: 1 });
    expect(below.status).toBe(422);
    expect(below.body.error).toMatchObject({ code: 'below_active_agents', message: MESSAGES.billing.belowActive(2, 1) });
    const limit = await db()
      .selectFrom('organization_billing_settings')
      .select('activated_agent_limit')
      .where('organization_id', '=', w.id('A1'))
      .executeTakeFirstOrThrow();
    expect(limit.activated_agent_limit).toBe(3);
    expect((await api('SA1.admin', 'PUT', `/api/organizations/${w.id('A1')}/agent-limit`, { activated_agent_limit: 2 })).status).toBe(200);
  });

  it("deactivates, audited; again changes nothing; another organization's activation is 404", async () => {
    const list = await api('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/agents`);
    const activation = list.body.activations[0];
    expect((await api('A1.admin', 'DELETE', `/api/organizations/${w.id('T1')}/agents/${activation.id}`)).status).toBe(404);
    expect((await api('A1.manager', 'DELETE', `/api/organizations/${w.id('A1')}/agents/${activation.id}`)).status).toBe(403);
    expect((await api('H.admin', 'DELETE', `/api/organizations/${w.id('A1')}/agents/${activation.id}`)).status).toBe(403);
    const gone = await api('A1.admin', 'DELETE', `/api/organizations/${w.id('A1')}/agents/${activation.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.activation).toMatchObject({ id: activation.id, status: 'inactive' });
    const row = await db()
      .selectFrom('agent_activations')
      .select(['deactivated_at', 'deactivated_by'])
      .where('id', '=', activation.id)
      .executeTakeFirstOrThrow();
    expect(row.deactivated_at).not.toBeNull();
    expect(row.deactivated_by).not.toBeNull();
    expect((await api('SA1.admin', 'DELETE', `/api/organizations/${w.id('A1')}/agents/${activation.id}`)).status).toBe(200);
    expect(await audits('agent.deactivate', activation.id)).toHaveLength(1);
    const after = await api('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/agents`);
    expect(after.body.active_agent_count).toBe(1);
    // The type may be activated again once the earlier activation is over.
    expect((await activate('A1.admin', 'A1', activation.agent_type.id)).status).toBe(201);
  });
});

describe('usage', () => {
  it('sums events, units and credits by agent and by UTC day over 7 or 30 days, and on each activation', async () => {
    const org = await insertOrg(db(), { name: 'Usage Tenant', type: 'tenant', parentId: w.id('A1') });
    await setLimit(org.id, 5);
    const alpha = await createType({ name: 'Usage Alpha' });
    const beta = await createType({ name: 'Usage Beta' });
    expect((await activate(org.id, alpha.id)).status).toBe(201);
    const day = 86_400_000;
    const now = Date.now();
    await insertUsage(org.id, alpha.id, { id: 'e1', units: '2.0000', charged: '0.50', occurredAt: new Date(now - 1_000) });
    await insertUsage(org.id, alpha.id, { id: 'e2', units: '1.5000', charged: '0.00', occurredAt: new Date(now - 3 * day) });
    await insertUsage(org.id, beta.id, { id: 'e3', units: '10.0000', charged: '2.50', occurredAt: new Date(now - 10 * day) });
    await insertUsage(org.id, beta.id, { id: 'e4', units: '4.0000', charged: '1.00', occurredAt: new Date(now - 40 * day) });

    const month = await api('A1.admin', 'GET', `/api/organizations/${org.id}/usage?days=30`);
    expect(month.status).toBe(200);
    expect(month.body.days).toBe(30);
    expect(month.body.by_agent).toEqual([
      { agent_type_id: beta.id, code: beta.code, name: 'Usage Beta', unit: 'run', events: 1, units: '10.0000', credits: '2.50' },
      { agent_type_id: alpha.id, code: alpha.code, name: 'Usage Alpha', unit: 'run', events: 2, units: '3.5000', credits: '0.50' },
    ]);
    expect(month.body.by_day).toHaveLength(30);
    expect(month.body.by_day.at(-1)).toEqual({ day: new Date(now).toISOString().slice(0, 10), events: 1, credits: '0.50' });
    expect(month.body.by_day.reduce((sum: number, d: { events: number }) => sum + d.events, 0)).toBe(3);

    const week = await api('T1.user', 'GET', `/api/organizations/${w.id('T1')}/usage?days=7`);
    expect(week.status).toBe(200);
    const weekOwn = await api('A1.user', 'GET', `/api/organizations/${org.id}/usage?days=7`);
    expect(weekOwn.body.by_agent).toEqual([
      { agent_type_id: alpha.id, code: alpha.code, name: 'Usage Alpha', unit: 'run', events: 2, units: '3.5000', credits: '0.50' },
    ]);
    expect(weekOwn.body.by_day).toHaveLength(7);
    expect((await api('A1.admin', 'GET', `/api/organizations/${org.id}/usage?days=14`)).status).toBe(400);
    expect((await api('T1.admin', 'GET', `/api/organizations/${org.id}/usage`)).status).toBe(404);

    const list = await api('A1.admin', 'GET', `/api/organizations/${org.id}/agents`);
    expect(list.body.activations[0].usage_30d).toEqual({ events: 2, units: '3.5000', credits: '0.50' });
  });

  async function activate(orgId: string, typeId: string) {
    return api('A1.admin', 'POST', `/api/organizations/${orgId}/agents`, { agent_type_id: typeId });
  }
});

describe('low-balance threshold', () => {
  it("is set by the organization's own admins, audited, and answered in the billing settings", async () => {
    const set = await api('A1.admin', 'PUT', `/api/organizations/${w.id('A1')}/low-balance-threshold`, { low_balance_threshold: '250.5' });
    expect(set.status).toBe(200);
    expect(set.body.billing_settings.low_balance_threshold).toBe('250.50');
    const [audit] = await audits('billing.low_balance_threshold', w.id('A1'));
    expect(audit!.details).toEqual({ before: '100.00', after: '250.50' });
    const before = await db()
      .selectFrom('organization_billing_settings')
      .select('low_balance_threshold')
      .where('organization_id', '=', w.id('T1'))
      .executeTakeFirstOrThrow();
    const byParent = await api('A1.admin', 'PUT', `/api/organizations/${w.id('T1')}/low-balance-threshold`, { low_balance_threshold: 5 });
    expect(byParent.status).toBe(403);
    expect(byParent.body.error.message).toBe(MESSAGES.billing.thresholdOnlyOwnAdmins);
    expect(
      (await api('A1.manager', 'PUT', `/api/organizations/${w.id('A1')}/low-balance-threshold`, { low_balance_threshold: 5 })).status,
    ).toBe(403);
    expect(
      (await api('A1.admin', 'PUT', `/api/organizations/${w.id('SA2')}/low-balance-threshold`, { low_balance_threshold: 5 })).status,
    ).toBe(404);
    for (const value of [-1, '1.234', 'abc', 1e15]) {
      expect(
        (await api('T1.admin', 'PUT', `/api/organizations/${w.id('T1')}/low-balance-threshold`, { low_balance_threshold: value })).status,
        String(value),
      ).toBe(400);
    }
    const after = await db()
      .selectFrom('organization_billing_settings')
      .select('low_balance_threshold')
      .where('organization_id', '=', w.id('T1'))
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});

describe('query plans', () => {
  // With sequential scans priced out, a plan still scanning a whole table means no index
  // can serve the query: every list and sum of an organization must have one.
  async function plan(compiled: { sql: string; parameters: readonly unknown[] }) {
    return db()
      .transaction()
      .execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        // A plain EXPLAIN takes no parameters: inline them as literals.
        const inlined = compiled.sql.replace(/\$(\d+)/g, (_m, n) => `'${String(compiled.parameters[Number(n) - 1]).replace(/'/g, "''")}'`);
        const result = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${inlined}`).execute(trx);
        return result.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
  }

  it.each([
    ['live activations with their usage', () => activationsQuery(w.id('A1')).compile(db()), ['agent_activations', 'usage_event_days']],
    ['usage by agent', () => usageByAgentQuery(w.id('A1'), 30).compile(db()), ['usage_event_days']],
    ['usage by day', () => usageByDayQuery(w.id('A1'), 7).compile(db()), ['usage_event_days']],
  ] as const)('%s is served by an index', async (_name, compile, tables) => {
    const rows = await plan(compile());
    for (const table of tables) {
      expect(rows).toMatch(new RegExp(`Index.* on ${table}`));
      expect(rows).not.toMatch(new RegExp(`Seq Scan on ${table}`));
    }
  });
});
