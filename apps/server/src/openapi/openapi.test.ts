import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '@console/api-client';
import { entitlementSchema, heartbeatResultSchema, heartbeatSchema, usageBatchResultSchema, usageBatchSchema } from '@console/domain';
import { generateKey } from '../lib/api-key.ts';
import { insertOrg } from '../test/fixtures.ts';
import { useWorld } from '../test/harness.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../test/usage-rows.ts';
import { servedDocument } from './build.ts';
import { machineDocument } from './document.ts';
import { DOCUMENT_FILE, MACHINE_DOCUMENT_FILE, TYPES_FILE, documentText, typesText } from './generate.ts';
import { BATCH_EXAMPLE, BATCH_RESULT_EXAMPLES, ENTITLEMENT_EXAMPLES, HEARTBEAT_EXAMPLE, HEARTBEAT_RESULT_EXAMPLE } from './machine.ts';

/**
 * The committed API document and client types are what the app serves (a contract change
 * that is not regenerated fails here), and the generated client calls every machine route
 * of the real app, with a real API key, on a test database.
 */

const w = useWorld();
const db = () => w.t.database.db;
const REGENERATE = 'differs from what the app serves: run npm run api:generate and commit the result';
const committedDocument = () => JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Record<string, any>;

describe('the committed API document and client types', () => {
  it('are the document the app builds and the types generated from it', async () => {
    const document = await servedDocument();
    expect(readFileSync(DOCUMENT_FILE, 'utf8'), `packages/api-client/openapi.json ${REGENERATE}`).toBe(documentText(document));
    expect(readFileSync(TYPES_FILE, 'utf8'), `packages/api-client/src/schema.ts ${REGENERATE}`).toBe(await typesText(document));
    expect(readFileSync(MACHINE_DOCUMENT_FILE, 'utf8'), `packages/api-client/machine.json ${REGENERATE}`).toBe(
      documentText(machineDocument(document)),
    );
  });

  it('are what a running app serves at /api/docs/json, but for its own APP_URL', async () => {
    const served = await w.t.request('GET', '/api/docs/json');
    expect(served.status).toBe(200);
    expect(served.body.servers).toEqual([{ url: 'http://console.test', description: expect.any(String) }]);
    expect({ ...served.body, servers: null }).toEqual({ ...committedDocument(), servers: null });
  });

  it('serves the machine API alone at /api/docs/machine.json: its three routes, the API key scheme, the retry rules', async () => {
    const served = await w.t.request('GET', '/api/docs/machine.json');
    expect(served.status).toBe(200);
    const committed = JSON.parse(readFileSync(MACHINE_DOCUMENT_FILE, 'utf8'));
    expect({ ...served.body, servers: null }).toEqual({ ...committed, servers: null });
    expect(Object.keys(committed.paths)).toEqual(['/api/v1/usage-events', '/api/v1/heartbeats', '/api/v1/entitlements']);
    expect(Object.keys(committed.components.securitySchemes)).toEqual(['apiKey']);
    expect(committed.info.description).toContain('duplicate');
  });

  it('has machine examples the contract accepts', () => {
    usageBatchSchema.parse(BATCH_EXAMPLE);
    for (const example of Object.values(BATCH_RESULT_EXAMPLES)) usageBatchResultSchema.parse(example.value);
    heartbeatSchema.parse(HEARTBEAT_EXAMPLE);
    heartbeatResultSchema.parse(HEARTBEAT_RESULT_EXAMPLE);
    for (const example of Object.values(ENTITLEMENT_EXAMPLES)) entitlementSchema.parse(example.value);
  });
});

describe('the machine API through the generated client', () => {
  let client: ApiClient;
  let suspended: string;
  const occurred = (msAgo = 0) => new Date(Date.now() - msAgo).toISOString();

  beforeAll(async () => {
    const d = db();
    const bot = await insertAgentType(d, 'doc-bot', '0.2500');
    await insertAgentType(d, 'idle-bot', '1.0000');
    await activate(d, w.id('T1'), bot.id);
    await activate(d, w.id('T2'), bot.id);
    await fund(d, w.id('T1'), '100.00');
    await fund(d, w.id('T2'), '0.10');
    suspended = (await insertOrg(d, { name: 'Suspended Tenant', type: 'tenant', parentId: w.id('A1') })).id;
    await sql`update organizations set status = 'suspended' where id = ${suspended}`.execute(d);
    const { key } = await insertApiKey(d, w.id('A1'));
    client = createApiClient({ baseUrl: w.t.baseUrl, bearer: key });
  });

  it('records a batch: accepted with its charge, a replay as a duplicate charging nothing, each reason of rejection', async () => {
    const event = (id: string, organization_id: string, agent = 'doc-bot', occurred_at = occurred()) => ({
      id,
      organization_id,
      agent,
      units: 3,
      occurred_at,
    });
    const first = await client.POST('/api/v1/usage-events', { body: { events: [event('doc-1', w.id('T1'))] } });
    expect(first.response.status).toBe(200);
    expect(first.data).toEqual({
      results: [{ id: 'doc-1', status: 'accepted', credits_charged: '0.75', reason: null, message: null, cap: null }],
      accepted: 1,
      duplicates: 0,
      rejected: 0,
    });

    const { data, error } = await client.POST('/api/v1/usage-events', {
      body: {
        events: [
          event('doc-1', w.id('T1')),
          event('doc-2', w.id('A2')),
          event('doc-3', suspended),
          event('doc-4', w.id('T1'), 'no-such-bot'),
          event('doc-5', w.id('T1'), 'idle-bot'),
          event('doc-6', w.id('T2')),
          event('doc-7', w.id('T1'), 'doc-bot', occurred(40 * 86_400_000)),
        ],
      },
    });
    expect(error).toBeUndefined();
    expect(data!.results.map((r) => [r.id, r.status, r.credits_charged, r.reason])).toEqual([
      ['doc-1', 'duplicate', '0.75', null],
      ['doc-2', 'rejected', null, 'out_of_reach'],
      ['doc-3', 'rejected', null, 'organization_not_active'],
      ['doc-4', 'rejected', null, 'unknown_agent'],
      ['doc-5', 'rejected', null, 'agent_not_active'],
      ['doc-6', 'rejected', null, 'insufficient_credits'],
      ['doc-7', 'rejected', null, 'invalid'],
    ]);
    expect([data!.accepted, data!.duplicates, data!.rejected]).toEqual([0, 1, 6]);
    for (const result of data!.results.filter((r) => r.status === 'rejected')) expect(result.message).toEqual(expect.any(String));

    // The replay charged nothing: the balance fell by the first charge only.
    const entitlement = await client.GET('/api/v1/entitlements', { params: { query: { organization_id: w.id('T1'), agent: 'doc-bot' } } });
    expect(entitlement.data).toEqual({
      allowed: true,
      reason: null,
      cap: null,
      balance: '99.25',
      spendable: '99.25',
      soonest_expiry: null,
      activation_status: 'active',
      price: '0.2500',
    });
  });

  it('answers a batch over the maximum with 413 and the error shape', async () => {
    const events = Array.from({ length: 1001 }, (_, n) => ({
      id: `big-${n}`,
      organization_id: w.id('T1'),
      agent: 'doc-bot',
      units: 1,
      occurred_at: occurred(),
    }));
    const { error, response } = await client.POST('/api/v1/usage-events', { body: { events } });
    expect(response.status).toBe(413);
    expect(error).toEqual({ error: { code: 'batch_too_large', message: expect.any(String) } });
  });

  it('records a heartbeat, and answers 404 for an agent without a live activation', async () => {
    const beat = await client.POST('/api/v1/heartbeats', {
      body: { organization_id: w.id('T1'), agent: 'doc-bot', status: 'error', health_score: 42 },
    });
    expect(beat.response.status).toBe(200);
    expect(beat.data).toMatchObject({ status: 'error', health_score: 42, last_active_at: expect.any(String) });

    const missing = await client.POST('/api/v1/heartbeats', { body: { organization_id: w.id('T1'), agent: 'idle-bot', status: 'active' } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.code).toBe('not_found');
  });

  it('reads entitlements: allowed, or refused with the reason', async () => {
    const read = async (organization_id: string, agent: string) =>
      (await client.GET('/api/v1/entitlements', { params: { query: { organization_id, agent } } })).data;
    expect(await read(w.id('T2'), 'doc-bot')).toEqual({
      allowed: true,
      reason: null,
      cap: null,
      balance: '0.10',
      spendable: '0.10',
      soonest_expiry: null,
      activation_status: 'active',
      price: '0.2500',
    });
    expect(await read(w.id('T1'), 'idle-bot')).toMatchObject({ allowed: false, reason: 'agent_not_active', activation_status: null });
    expect(await read(w.id('H2'), 'doc-bot')).toMatchObject({ allowed: false, reason: 'out_of_reach' });
  });

  it('refuses a key it does not know with 401 in the error shape', async () => {
    const stranger = createApiClient({ baseUrl: w.t.baseUrl, bearer: generateKey().key });
    const { error, response } = await stranger.GET('/api/v1/entitlements', {
      params: { query: { organization_id: w.id('T1'), agent: 'doc-bot' } },
    });
    expect(response.status).toBe(401);
    expect(error?.error.code).toBe('invalid_api_key');
  });
});
