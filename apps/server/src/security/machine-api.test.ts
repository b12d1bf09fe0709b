import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, USAGE_WINDOW, usageBatchSchema } from '@console/domain';
import { insertOrg, tablesDigest } from '../test/fixtures.ts';
import { useWorld } from '../test/harness.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../test/usage-rows.ts';
import { objectFor } from './hostile-values.ts';
import { MATRIX, isPublic, type Variant } from './matrix-table.ts';

/**
 * The machine API as an attacker meets it: API keys that are unknown, revoked, of the wrong
 * scope, of a deleted or frozen organization, or reaching beyond their tree; session tokens
 * on machine routes and keys on session routes; batches too large or malformed; and hostile
 * event fields sent with a real key. Every refusal changes nothing.
 */

const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.usage;

/** What a refused machine request must not change. */
const TABLES = [
  'usage_events',
  'usage_carry',
  'credit_ledger_entries',
  'organization_billing_settings',
  'agent_activations',
  'balance_alerts',
  'audit_log',
] as const;

type Key = Awaited<ReturnType<typeof insertApiKey>>;
const keys = {} as Record<
  'a1' | 'revoked' | 'usageOnly' | 'reportOnly' | 'readOnly' | 'deleted' | 'suspended' | 'inactive' | 'frozenAbove',
  Key
>;
let agent: { id: string; code: string };

const NIL = '00000000-0000-4000-8000-000000000000';
const now = () => new Date().toISOString();

/** One valid request of each machine route, for the tree of A1 (T1 runs the agent). */
function calls() {
  return [
    {
      method: 'POST',
      path: '/api/v1/usage-events',
      scope: 'usage:write',
      body: { events: [{ id: `probe-${Math.random()}`, organization_id: w.id('T1'), agent: 'probe', units: '1', occurred_at: now() }] },
    },
    {
      method: 'POST',
      path: '/api/v1/heartbeats',
      scope: 'agents:report',
      body: { organization_id: w.id('T1'), agent: 'probe', status: 'active' },
    },
    { method: 'GET', path: `/api/v1/entitlements?organization_id=${w.id('T1')}&agent=probe`, scope: 'entitlements:read', body: undefined },
    { method: 'GET', path: `/api/v1/usage-events?organization_id=${w.id('T1')}`, scope: 'usage:read', body: undefined },
  ] as const;
}
const send = (call: ReturnType<typeof calls>[number], authorization: string | null) =>
  w.t.request(call.method, call.path, call.body, { headers: authorization === null ? {} : { authorization } });

beforeAll(async () => {
  const d = db();
  agent = await insertAgentType(d, 'probe', '0.0100');
  await activate(d, w.id('T1'), agent.id);
  // Well above the low-balance threshold: a crossing would queue an alert that the background sender then marks sent, changing balance_alerts while a later case compares it.
  await fund(d, w.id('T1'), '1000.00');
  const gone = await insertOrg(d, { name: 'Gone Agency', type: 'agency', parentId: w.id('SA1') });
  const suspended = await insertOrg(d, { name: 'Suspended Agency', type: 'agency', parentId: w.id('SA1') });
  const inactive = await insertOrg(d, { name: 'Inactive Agency', type: 'agency', parentId: w.id('SA2') });
  const below = await insertOrg(d, { name: 'Tenant Below', type: 'tenant', parentId: suspended.id });
  keys.a1 = await insertApiKey(d, w.id('A1'));
  keys.revoked = await insertApiKey(d, w.id('A1'), { revoked: true });
  keys.usageOnly = await insertApiKey(d, w.id('A1'), { scopes: ['usage:write'] });
  keys.reportOnly = await insertApiKey(d, w.id('A1'), { scopes: ['agents:report'] });
  keys.readOnly = await insertApiKey(d, w.id('A1'), { scopes: ['entitlements:read'] });
  keys.deleted = await insertApiKey(d, gone.id);
  keys.suspended = await insertApiKey(d, suspended.id);
  keys.inactive = await insertApiKey(d, inactive.id);
  keys.frozenAbove = await insertApiKey(d, below.id);
  await sql`update organizations set deleted_at = now() where id = ${gone.id}`.execute(d);
  await sql`update organizations set status = 'suspended' where id = ${suspended.id}`.execute(d);
  await sql`update organizations set status = 'inactive' where id = ${inactive.id}`.execute(d);
});

describe('API keys on the machine routes', () => {
  it('refuses every bearer that is not a usable key with the scope, and changes nothing', async () => {
    // Signed in first: a sign-in is itself audited.
    const session = await w.as('H.admin');
    const before = await tablesDigest(db(), TABLES);
    const wrongSecret = `${keys.a1.prefix}_${'0'.repeat(64)}`;
    const unknownPrefix = `oc_00000000_${'a'.repeat(64)}`;
    let checked = 0;
    for (const call of calls()) {
      const cases: [string, string | null, number, string, string?][] = [
        ['no bearer', null, 401, 'api_key_required', m.keyRequired],
        ['a session token', `Bearer ${session}`, 401, 'api_key_required', m.keyRequired],
        ['a malformed key', `Bearer ${keys.a1.key.slice(0, -1)}!`, 401, 'api_key_required'],
        ['another scheme', `Basic ${keys.a1.key}`, 401, 'api_key_required'],
        ['a key with a second word after it', `Bearer ${keys.a1.key} extra`, 401, 'api_key_required'],
        ['a wrong secret', `Bearer ${wrongSecret}`, 401, 'invalid_api_key', m.invalidKey],
        ['an unknown prefix', `Bearer ${unknownPrefix}`, 401, 'invalid_api_key', m.invalidKey],
        ['a revoked key', `Bearer ${keys.revoked.key}`, 401, 'invalid_api_key', m.invalidKey],
        ["a deleted organization's key", `Bearer ${keys.deleted.key}`, 401, 'invalid_api_key', m.keyOrganizationDeleted],
        [
          "a suspended organization's key",
          `Bearer ${keys.suspended.key}`,
          403,
          'organization_suspended',
          m.keyOrganizationFrozen('suspended', 'own'),
        ],
        [
          "an inactive organization's key",
          `Bearer ${keys.inactive.key}`,
          403,
          'organization_inactive',
          m.keyOrganizationFrozen('inactive', 'own'),
        ],
        [
          'a key below a suspended organization',
          `Bearer ${keys.frozenAbove.key}`,
          403,
          'organization_suspended',
          m.keyOrganizationFrozen('suspended', 'ancestor'),
        ],
      ];
      for (const key of [keys.usageOnly, keys.reportOnly, keys.readOnly]) {
        if (
          !(key === keys.usageOnly && call.scope === 'usage:write') &&
          !(key === keys.reportOnly && call.scope === 'agents:report') &&
          !(key === keys.readOnly && call.scope === 'entitlements:read')
        ) {
          cases.push([`a key without ${call.scope}`, `Bearer ${key.key}`, 403, 'forbidden', m.missingScope(call.scope)]);
        }
      }
      for (const [label, authorization, status, code, message] of cases) {
        const response = await send(call, authorization);
        expect(response.status, `${call.path}: ${label}`).toBe(status);
        expect(response.body.error.code, `${call.path}: ${label}`).toBe(code);
        if (message) expect(response.body.error.message, `${call.path}: ${label}`).toBe(message);
        checked++;
      }
    }
    // Twelve bearers on each of the four routes, and each scoped key on every route it lacks the scope of.
    expect(checked).toBe(4 * 12 + 3 * 2 + 3);
    expect(await tablesDigest(db(), TABLES)).toBe(before);
  });

  it('answers a key of the right scope, and counts no refused use', async () => {
    for (const call of calls()) expect((await send(call, `Bearer ${keys.a1.key}`)).status, call.path).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const rows = await db().selectFrom('api_keys').select(['id', 'use_count']).execute();
    const uses = Object.fromEntries(rows.map((r) => [r.id, String(r.use_count)]));
    expect(uses[keys.a1.id]).toBe(String(calls().length));
    for (const name of ['revoked', 'deleted', 'suspended', 'inactive', 'frozenAbove', 'usageOnly', 'reportOnly', 'readOnly'] as const) {
      // The scoped keys were refused on the routes of the other scopes; refusals are not uses.
      expect(uses[keys[name].id], name).toBe('0');
    }
  });

  it('reaches only its own organization and those below it', async () => {
    await activate(db(), w.id('SA1'), agent.id);
    await activate(db(), w.id('A2'), agent.id);
    await activate(db(), w.id('SA3'), agent.id);
    const after = await tablesDigest(db(), ['usage_events', 'credit_ledger_entries']);
    const bearer = `Bearer ${keys.a1.key}`;
    const outside = [w.id('SA1'), w.id('A2'), w.id('H'), w.id('SA3'), w.id('H2'), NIL];
    const usage = await w.t.request(
      'POST',
      '/api/v1/usage-events',
      { events: outside.map((org, i) => ({ id: `reach-${i}`, organization_id: org, agent: 'probe', units: '1', occurred_at: now() })) },
      { headers: { authorization: bearer } },
    );
    expect(usage.body.results.map((r: any) => r.reason)).toEqual(outside.map(() => 'out_of_reach'));
    for (const org of outside) {
      const beat = await w.t.request(
        'POST',
        '/api/v1/heartbeats',
        { organization_id: org, agent: 'probe', status: 'error' },
        { headers: { authorization: bearer } },
      );
      expect(beat.status).toBe(404);
      const entitled = await w.t.request('GET', `/api/v1/entitlements?organization_id=${org}&agent=probe`, undefined, {
        headers: { authorization: bearer },
      });
      expect(entitled.body).toEqual({
        allowed: false,
        reason: 'out_of_reach',
        cap: null,
        balance: '0.00',
        spendable: '0.00',
        soonest_expiry: null,
        activation_status: null,
        price: null,
      });
    }
    expect(await tablesDigest(db(), ['usage_events', 'credit_ledger_entries'])).toBe(after);
    const states = await db()
      .selectFrom('agent_activations')
      .select('status')
      .where('organization_id', 'in', [w.id('SA1'), w.id('A2'), w.id('SA3')])
      .execute();
    expect(states.map((s) => s.status)).toEqual(['active', 'active', 'active']);
  });
});

describe('keys on session routes', () => {
  it('every route that takes a session refuses an API key with 401, given a body it would accept', async () => {
    const house = { role: 'house_admin' as const, orgType: 'house' as const, orgId: w.id('H'), childId: w.id('SA1') };
    const sessionRoutes = Object.entries(MATRIX).filter(([, entry]) => !isPublic(entry));
    expect(sessionRoutes.length).toBeGreaterThan(40);
    const before = await tablesDigest(db(), TABLES);
    let n = 0;
    for (const [key, entry] of sessionRoutes) {
      const [method, url] = key.split(' ') as [string, string];
      const variant = (entry as { variants: Variant[] }).variants[0]!;
      const target = variant.target ? { id: w.id('SA1'), orgType: 'super_agency' as const } : null;
      const call = variant.call({ url: target ? url.replace(':id', target.id) : url, target, caller: house, unique: `key-${++n}` });
      const response = await w.t.request(method, call.path.replace(/:\w+/g, NIL), call.body, {
        headers: { ...call.headers, authorization: `Bearer ${keys.a1.key}` },
      });
      expect(response.status, `${key}: ${JSON.stringify(response.body).slice(0, 200)}`).toBe(401);
      expect(response.body.error.code, key).toBe('invalid_token');
    }
    expect(await tablesDigest(db(), TABLES)).toBe(before);
  });
});

describe('batch sizes and malformed events', () => {
  const post = (body: unknown, raw?: string) =>
    w.t.request('POST', '/api/v1/usage-events', body, {
      headers: { authorization: `Bearer ${keys.a1.key}` },
      ...(raw !== undefined && { raw }),
    });
  const valid = (i: number) => ({ id: `size-${i}`, organization_id: w.id('T1'), agent: 'probe', units: '1', occurred_at: now() });

  it('answers 413 to more than 1,000 events and to a body over 2 MB, 400 naming the field and its index, and writes nothing', async () => {
    const before = await tablesDigest(db(), TABLES);
    const tooMany = await post({ events: Array.from({ length: USAGE_WINDOW.batchMax + 1 }, (_, i) => valid(i)) });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error).toMatchObject({ code: 'batch_too_large', message: m.batchTooLarge(USAGE_WINDOW.batchMax) });
    expect(m.batchTooLarge(USAGE_WINDOW.batchMax)).toBe('A batch holds at most 1,000 events.');
    const huge = await post(undefined, JSON.stringify({ events: [{ ...valid(0), metadata: { note: 'x'.repeat(2 * 1024 * 1024) } }] }));
    expect(huge.status).toBe(413);
    // A key that is refused is refused before its body is read: 401, not 413.
    const unread = await w.t.request(
      'POST',
      '/api/v1/usage-events',
      { events: Array.from({ length: 1001 }, (_, i) => valid(i)) },
      { headers: { authorization: 'Bearer nope' } },
    );
    expect(unread.status).toBe(401);

    const events = [valid(0), valid(1), valid(2), { ...valid(3), units: '1.00001' }];
    const malformed = await post({ events });
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body.error.fields)).toEqual(['events.3.units']);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid(0), units: 0 }, 'events.0.units'],
      [{ ...valid(0), units: -1 }, 'events.0.units'],
      [{ ...valid(0), occurred_at: 'yesterday' }, 'events.0.occurred_at'],
      [{ ...valid(0), occurred_at: '0000-01-01T00:00:00Z' }, 'events.0.occurred_at'],
      [{ ...valid(0), occurred_at: '2026-02-30T00:00:00Z' }, 'events.0.occurred_at'],
      [{ ...valid(0), organization_id: 'T1' }, 'events.0.organization_id'],
      [{ ...valid(0), id: '' }, 'events.0.id'],
      [{ ...valid(0), id: 'a\u0000b' }, 'events.0.id'],
      [{ ...valid(0), agent: 'a\u0000b' }, 'events.0.agent'],
      [{ ...valid(0), metadata: { k: 'v'.repeat(501) } }, 'events.0.metadata.k'],
      [{ ...valid(0), metadata: { nested: { deeper: 1 } } }, 'events.0.metadata.nested'],
      [
        { ...valid(0), metadata: Object.fromEntries(Array.from({ length: USAGE_WINDOW.metadataKeysMax + 1 }, (_, i) => [`k${i}`, i])) },
        'events.0.metadata',
      ],
    ];
    // The most keys metadata may hold is accepted.
    const full = Object.fromEntries(Array.from({ length: USAGE_WINDOW.metadataKeysMax }, (_, i) => [`k${i}`, i]));
    expect(usageBatchSchema.safeParse({ events: [{ ...valid(0), metadata: full }] }).success).toBe(true);
    for (const [event, field] of cases) {
      const response = await post({ events: [event] });
      expect(response.status, field).toBe(400);
      expect(Object.keys(response.body.error.fields), JSON.stringify(event).slice(0, 80)).toEqual([field]);
    }
    expect((await post({ events: [] })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect(await tablesDigest(db(), TABLES)).toBe(before);
  });

  it('units sent as a JSON number are judged by the number as written: beyond four decimal places is 400, even when a float would round it to fewer', async () => {
    const before = await tablesDigest(db(), TABLES);
    const event = (units: string) =>
      `{"events":[{"id":"exact-${Math.random()}","organization_id":"${w.id('T1')}","agent":"probe","units":${units},"occurred_at":"${now()}"}]}`;
    // 1.00000000000000001 reads as 1 and 0.10000000000000001 as 0.1: they were taken as 1.0000 and 0.1000.
    for (const units of [
      '1.00000000000000001',
      '0.10000000000000001',
      '2.000000000000000000001e0',
      '0.00001',
      '1.23456',
      '1e-7',
      '12.34565',
    ]) {
      const response = await post(undefined, event(units));
      expect(response.status, units).toBe(400);
      expect(response.body.error.fields, units).toEqual({
        'events.0.units': 'Units must be a number above 0 with at most 4 decimal places.',
      });
      // The same text in a string gets the same answer.
      expect((await post(undefined, event(`"${units}"`))).body.error?.fields, units).toEqual(response.body.error.fields);
    }
    expect(await tablesDigest(db(), TABLES)).toBe(before);
    // Four places at most, however written, still pass.
    for (const units of ['0.0001', '1e-4', '1.5e3', '12.50000', '1E2', '999999999999.9999']) {
      expect((await post(undefined, event(units))).status, units).toBe(200);
    }
  });

  it('hostile event fields sent with a real key: never a 5xx, and the books still reconcile', { timeout: 120_000 }, async () => {
    const uuids = [w.id('T1'), w.id('A1'), w.id('SA1'), w.id('H2'), NIL];
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        objectFor(usageBatchSchema, uuids, 'plausible'),
        objectFor(usageBatchSchema, uuids, 'hostile'),
        async (plausible, hostile) => {
          for (const body of [plausible, hostile]) {
            const response = await post(body);
            sent++;
            expect(response.status, JSON.stringify(body).slice(0, 300)).toBeLessThan(500);
            if (response.status >= 400) expect(typeof response.body.error.message).toBe('string');
          }
        },
      ),
      { seed: 20_251_126, numRuns: 60 },
    );
    expect(sent).toBe(120);
    expect((await reconcile(db())).ok).toBe(true);
  });
});
