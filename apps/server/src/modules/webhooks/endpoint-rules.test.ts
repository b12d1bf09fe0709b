/**
 * Endpoint rules the delivery tests do not reach: an edit that changes nothing, and the
 * deliveries the outbox's fan-out makes (never for a disabled endpoint).
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';

// A sender that never looks on its own: these tests read the deliveries the fan-out writes, not what is sent.
const w = useWorld({ webhooks: { pollMs: 3_600_000 } });
const db = () => w.t.database.db;
const hooks = (org: string) => `/api/organizations/${org}/webhooks`;
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });

async function register(org: string, body: Record<string, unknown>) {
  const made = await as(`${org}.admin`, 'POST', hooks(w.id(org as 'A1')), { url: 'http://127.0.0.1:9/rules', ...body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.endpoint as { id: string; enabled: boolean };
}

const audited = async (id: string) =>
  (await db().selectFrom('audit_log').select('action').where('target_id', '=', id).execute()).map((row) => row.action);

describe('editing an endpoint', () => {
  it('answers the endpoint unchanged to an edit that changes nothing, counts nothing and audits nothing', async () => {
    const endpoint = await register('A1', { event_types: ['balance.low', 'api_key.created'], description: 'ops', include_subtree: true });
    const path = `${hooks(w.id('A1'))}/${endpoint.id}`;
    const listed = async () =>
      (await as('A1.admin', 'GET', hooks(w.id('A1')))).body.endpoints.find((e: { id: string }) => e.id === endpoint.id);
    const before = await listed();
    const counted = async () =>
      (await sql<{ count: number }>`select count from rate_limits where key = ${`webhooks:${w.id('A1')}`}`.execute(db())).rows[0]?.count;
    const countedBefore = await counted();
    for (const body of [
      {},
      { enabled: true },
      { description: 'ops' },
      { event_types: ['balance.low', 'api_key.created'] },
      { include_subtree: true, url: 'http://127.0.0.1:9/rules' },
    ]) {
      const answer = await as('A1.admin', 'PATCH', path, body);
      expect(answer.status, `${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body.endpoint).toEqual(before);
    }
    expect(await audited(endpoint.id)).toEqual(['webhook.create']);
    expect(await counted()).toBe(countedBefore);
    // Disabled, a second disabling changes nothing either; a real change is audited with what it changed.
    expect((await as('A1.admin', 'PATCH', path, { enabled: false })).status).toBe(200);
    const disabled = await as('A1.admin', 'PATCH', path, { enabled: false, description: 'ops' });
    expect(disabled.status).toBe(200);
    expect(disabled.body.endpoint).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    const details = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('target_id', '=', endpoint.id)
      .where('action', '=', 'webhook.update')
      .execute();
    expect(details.map((row) => (row.details as { changes: string[] }).changes)).toEqual([['enabled']]);
    await as('A1.admin', 'DELETE', path);
  });
});

describe('the fan-out of an event', () => {
  it('makes a delivery for each enabled subscribed endpoint, none for a disabled one', async () => {
    const own = await register('T1', { event_types: ['credits.adjusted'] });
    const parent = await register('A1', { event_types: ['credits.adjusted'], include_subtree: true });
    const off = await register('T1', { event_types: ['credits.adjusted'], enabled: false });
    const offParent = await register('A1', { event_types: ['credits.adjusted'], include_subtree: true });
    expect((await as('A1.admin', 'PATCH', `${hooks(w.id('A1'))}/${offParent.id}`, { enabled: false })).status).toBe(200);
    const other = await register('T1', { event_types: ['balance.low'] });
    const { rows } = await sql<{ id: string }>`insert into webhook_events (type, organization_id, data)
      values ('credits.adjusted', ${w.id('T1')}, '{"amount": "1.00", "balance_after": "1.00", "notes": null}') returning id`.execute(db());
    const deliveries = await db().selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', rows[0]!.id).execute();
    expect(deliveries.map((d) => d.endpoint_id).sort()).toEqual([own.id, parent.id].sort());
    for (const [org, id] of [
      ['T1', own.id],
      ['A1', parent.id],
      ['T1', off.id],
      ['A1', offParent.id],
      ['T1', other.id],
    ] as const)
      await as(`${org}.admin`, 'DELETE', `${hooks(w.id(org))}/${id}`);
  });
});
