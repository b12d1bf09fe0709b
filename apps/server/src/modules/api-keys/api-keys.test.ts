import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { API_KEY_LIFECYCLE, MESSAGES } from '@console/domain';
import { PASSWORD, insertOrg, insertUser } from '../../test/fixtures.ts';
import { useWorld } from '../../test/harness.ts';
import { keyListQuery } from './queries.ts';

const w = useWorld();
const db = () => w.t.database.db;
const k = MESSAGES.apiKeys;

const keysOf = (org: string) => `/api/organizations/${org}/api-keys`;
const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

async function call(who: string | null, method: string, path: string, body?: unknown) {
  return w.t.request(method, path, body, who ? { token: await w.as(who) } : {});
}

async function make(who: string, org: string, body: Record<string, unknown> = {}) {
  const made = await call(who, 'POST', keysOf(org), { name: 'Runtime', scopes: ['entitlements:read'], ...body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { id: made.body.api_key.id as string, secret: made.body.secret as string, key: made.body.api_key };
}

/** A machine request with the secret: 401 with its code when refused, otherwise whatever the route answers. */
async function machine(secret: string) {
  const answer = await w.t.request('GET', `/api/v1/entitlements?organization_id=${w.id('A1')}&agent=probe`, undefined, { token: secret });
  return { status: answer.status, code: answer.body?.error?.code as string | undefined };
}

const refusals = (keyId: string) =>
  db()
    .selectFrom('audit_log')
    .select(['details', 'actor_user_id'])
    .where('action', '=', 'api_key.refused')
    .where('target_id', '=', keyId)
    .execute();

describe('query plans', () => {
  // With sequential scans priced out, a plan still scanning a whole table means no index
  // can serve the query: each part of an organization's key list must have one.
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

  it('every part of the key list, with a cursor or not, is served by the list index', async () => {
    const after = crypto.randomUUID();
    for (const [part, options] of [
      ['live', { limit: 51 }],
      ['live', { limit: 51, filter: 'expiring', after }],
      ['dead', { limit: 51, after }],
    ] as const) {
      const rows = await plan(keyListQuery(db(), w.id('A1'), part, options).compile());
      expect(rows, part).toMatch(/Index.* using api_keys_org_list_idx on api_keys/);
      expect(rows, part).not.toMatch(/Seq Scan on api_keys/);
    }
  });
});

describe('who manages keys', () => {
  it("lets the organization's own admins list, make, edit, roll and revoke; refuses everyone else", async () => {
    const own = await make('A1.admin', w.id('A1'));
    const child = await make('T1.admin', w.id('T1'));
    const cases: [string | null, string, number][] = [
      [null, w.id('A1'), 401],
      ['A1.manager', w.id('A1'), 403],
      ['A1.user', w.id('A1'), 403],
      ['SA1.admin', w.id('A1'), 403],
      ['H.admin', w.id('A1'), 403],
      ['A1.admin', w.id('T1'), 403],
      ['T1.admin', w.id('A1'), 404],
      ['A1.admin', w.id('SA3'), 404],
    ];
    for (const [who, org, status] of cases) {
      const keyId = org === w.id('T1') ? child.id : own.id;
      expect((await call(who, 'GET', keysOf(org))).status, `${who} list ${org}`).toBe(status);
      expect((await call(who, 'POST', keysOf(org), { name: 'x', scopes: ['usage:write'] })).status, `${who} create`).toBe(status);
      expect((await call(who, 'PATCH', `${keysOf(org)}/${keyId}`, { name: 'Renamed' })).status, `${who} edit`).toBe(status);
      expect((await call(who, 'POST', `${keysOf(org)}/${keyId}/roll`, { grace_seconds: 0 })).status, `${who} roll`).toBe(status);
      expect((await call(who, 'DELETE', `${keysOf(org)}/${keyId}`)).status, `${who} revoke`).toBe(status);
    }
    // The key is untouched by all of that.
    expect((await machine(own.secret)).status).not.toBe(401);
    const row = await db()
      .selectFrom('api_keys')
      .select(['name', 'prefix', 'revoked_at'])
      .where('id', '=', own.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Runtime', prefix: own.key.prefix, revoked_at: null });
  });

  it("answers 404 for a key of another organization named under the own organization's path", async () => {
    const other = await make('T1.admin', w.id('T1'));
    const path = `${keysOf(w.id('A1'))}/${other.id}`;
    expect((await call('A1.admin', 'PATCH', path, { name: 'Mine now' })).status).toBe(404);
    expect((await call('A1.admin', 'POST', `${path}/roll`, { grace_seconds: 0 })).status).toBe(404);
    expect((await call('A1.admin', 'DELETE', path)).status).toBe(404);
    expect((await machine(other.secret)).status).not.toBe(401);
  });

  it("answers 404 for a deleted organization's keys, and a suspended one's admins only read theirs", async () => {
    const gone = await insertOrg(db(), { name: 'Gone Tenant', type: 'tenant', parentId: w.id('A1') });
    await sql`update organizations set status = 'inactive', deleted_at = now() where id = ${gone.id}`.execute(db());
    expect((await call('A1.admin', 'GET', keysOf(gone.id))).status).toBe(404);
    expect((await call('H.admin', 'POST', keysOf(gone.id), { name: 'x', scopes: ['usage:write'] })).status).toBe(404);

    const key = await make('T1.admin', w.id('T1'));
    await sql`update organizations set status = 'suspended' where id = ${w.id('T1')}`.execute(db());
    try {
      expect((await call('T1.admin', 'GET', keysOf(w.id('T1')))).status).toBe(200);
      for (const [method, path, body] of [
        ['POST', keysOf(w.id('T1')), { name: 'x', scopes: ['usage:write'] }],
        ['PATCH', `${keysOf(w.id('T1'))}/${key.id}`, { name: 'Frozen' }],
        ['POST', `${keysOf(w.id('T1'))}/${key.id}/roll`, { grace_seconds: 0 }],
        ['DELETE', `${keysOf(w.id('T1'))}/${key.id}`, undefined],
      ] as const) {
        const refused = await call('T1.admin', method, path, body);
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(refused.body.error.code).toBe('organization_suspended');
      }
    } finally {
      await sql`update organizations set status = 'active' where id = ${w.id('T1')}`.execute(db());
    }
  });
});

describe('end date and rate limit', () => {
  it('takes an end date in the future and at most two years ahead', async () => {
    const made = await make('A1.admin', w.id('A1'), { expires_at: inDays(30) });
    expect(made.key).toMatchObject({ state: 'live', expires_at: expect.any(String) });
    const soon = await make('A1.admin', w.id('A1'), { expires_at: inDays(2) });
    expect(soon.key.state).toBe('expiring');
    for (const [expires_at, message] of [
      [new Date(Date.now() - 1000).toISOString(), k.expiryNotFuture],
      [inDays(API_KEY_LIFECYCLE.maxLifetimeDays + 1), k.expiryTooFar(API_KEY_LIFECYCLE.maxLifetimeDays)],
    ]) {
      const refused = await call('A1.admin', 'POST', keysOf(w.id('A1')), { name: 'x', scopes: ['usage:write'], expires_at });
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toBe(message);
    }
    expect(
      (await call('A1.admin', 'POST', keysOf(w.id('A1')), { name: 'x', scopes: ['usage:write'], expires_at: 'tomorrow' })).status,
    ).toBe(400);
  });

  it("refuses a rate limit above the house's ceiling, which only house admins change", async () => {
    const settings = await call('A1.admin', 'GET', '/api/settings');
    expect(settings.body.api_key_rate_limit_ceiling).toBe(API_KEY_LIFECYCLE.defaultRateLimitCeiling);
    const above = await call('A1.admin', 'POST', keysOf(w.id('A1')), { name: 'x', scopes: ['usage:write'], rate_limit_per_minute: 6001 });
    expect(above.status).toBe(422);
    expect(above.body.error.message).toBe(k.aboveCeiling(6000));
    const at = await make('A1.admin', w.id('A1'), { rate_limit_per_minute: 6000 });
    expect(at.key.rate_limit_per_minute).toBe(6000);

    const links = { documentation_url: null, billing_portal_url: null, community_channels: [] };
    expect((await call('A1.admin', 'PUT', '/api/settings', { ...links, api_key_rate_limit_ceiling: 100 })).status).toBe(403);
    expect((await call('H.manager', 'PUT', '/api/settings', { ...links, api_key_rate_limit_ceiling: 100 })).status).toBe(403);
    expect((await call('H.admin', 'PUT', '/api/settings', { ...links, api_key_rate_limit_ceiling: 0 })).status).toBe(400);
    const lowered = await call('H.admin', 'PUT', '/api/settings', { ...links, api_key_rate_limit_ceiling: 100 });
    expect(lowered.status).toBe(200);
    expect(lowered.body.api_key_rate_limit_ceiling).toBe(100);
    try {
      // A PUT that leaves the ceiling out keeps it.
      expect((await call('H.admin', 'PUT', '/api/settings', links)).body.api_key_rate_limit_ceiling).toBe(100);
      expect(
        (await call('A1.admin', 'POST', keysOf(w.id('A1')), { name: 'x', scopes: ['usage:write'], rate_limit_per_minute: 101 })).status,
      ).toBe(422);
      const edit = await call('A1.admin', 'PATCH', `${keysOf(w.id('A1'))}/${at.id}`, { rate_limit_per_minute: 500 });
      expect(edit.status).toBe(422);
      expect(edit.body.error.message).toBe(k.aboveCeiling(100));
      expect(
        (await call('A1.admin', 'PATCH', `${keysOf(w.id('A1'))}/${at.id}`, { rate_limit_per_minute: 100 })).body.api_key
          .rate_limit_per_minute,
      ).toBe(100);
    } finally {
      await call('H.admin', 'PUT', '/api/settings', { ...links, api_key_rate_limit_ceiling: 6000 });
    }
  });

  it('edits a live key (name, end date set and cleared, rate limit) and audits what changed', async () => {
    const made = await make('A1.admin', w.id('A1'));
    const path = `${keysOf(w.id('A1'))}/${made.id}`;
    const until = inDays(10);
    const edited = await call('A1.admin', 'PATCH', path, { name: 'Renamed', expires_at: until, rate_limit_per_minute: 120 });
    expect(edited.status).toBe(200);
    expect(edited.body.api_key).toMatchObject({ name: 'Renamed', expires_at: until, rate_limit_per_minute: 120, state: 'live' });
    const cleared = await call('A1.admin', 'PATCH', path, { expires_at: null, rate_limit_per_minute: null });
    expect(cleared.body.api_key).toMatchObject({ name: 'Renamed', expires_at: null, rate_limit_per_minute: null });
    // Nothing changed: nothing audited.
    expect((await call('A1.admin', 'PATCH', path, { name: 'Renamed' })).status).toBe(200);
    const audits = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'api_key.update')
      .where('target_id', '=', made.id)
      .orderBy('id')
      .execute();
    expect(audits.map((a) => a.details)).toEqual([
      {
        prefix: made.key.prefix,
        before: { name: 'Runtime', expires_at: null, rate_limit_per_minute: null },
        after: { name: 'Renamed', expires_at: until, rate_limit_per_minute: 120 },
      },
      {
        prefix: made.key.prefix,
        before: { expires_at: until, rate_limit_per_minute: 120 },
        after: { expires_at: null, rate_limit_per_minute: null },
      },
    ]);
    expect((await call('A1.admin', 'PATCH', path, { expires_at: new Date(Date.now() - DAY).toISOString() })).status).toBe(422);
    expect((await call('A1.admin', 'PATCH', path, { rate_limit_per_minute: 0 })).status).toBe(400);
    await call('A1.admin', 'DELETE', path);
    const revoked = await call('A1.admin', 'PATCH', path, { name: 'Again' });
    expect(revoked.status).toBe(422);
    expect(revoked.body.error.message).toBe(k.notLive('revoked'));
  });
});

describe('refused keys', () => {
  it('an expired key answers 401 api_key_expired, and many refusals write one audit row an hour', async () => {
    const made = await make('A1.admin', w.id('A1'), { expires_at: inDays(1) });
    expect((await machine(made.secret)).status).not.toBe(401);
    await sql`update api_keys set expires_at = now() - interval '1 second' where id = ${made.id}`.execute(db());
    const answers = await Promise.all(Array.from({ length: 12 }, () => machine(made.secret)));
    for (let i = 0; i < 8; i++) answers.push(await machine(made.secret));
    expect(new Set(answers.map((a) => `${a.status} ${a.code}`))).toEqual(new Set(['401 api_key_expired']));
    const rows = await refusals(made.id);
    expect(rows).toEqual([{ actor_user_id: null, details: { key_name: 'Runtime', prefix: made.key.prefix, reason: 'expired' } }]);
    // An hour on, the next refusal is written again.
    await sql`update api_keys set refusal_audited_at = now() - interval '61 minutes' where id = ${made.id}`.execute(db());
    await machine(made.secret);
    await machine(made.secret);
    expect(await refusals(made.id)).toHaveLength(2);
    // The list shows it among the revoked and expired keys, and it cannot be rolled.
    const rolled = await call('A1.admin', 'POST', `${keysOf(w.id('A1'))}/${made.id}/roll`, { grace_seconds: 0 });
    expect(rolled.status).toBe(422);
    expect(rolled.body.error.message).toBe(k.notLive('expired'));
    const activity = await call('A1.admin', 'GET', `/api/activity?organization_id=${w.id('A1')}&action=api_key.refused`);
    expect(activity.body.events[0]).toMatchObject({
      actor: { kind: 'api_key', name: 'Runtime' },
      sentence: 'The API key Runtime was refused: it has expired',
    });
  });

  it('a revoked key answers 401 invalid_api_key, and neither it (its revocation is audited) nor an unknown key writes a row', async () => {
    const made = await make('A1.admin', w.id('A1'));
    await call('A1.admin', 'DELETE', `${keysOf(w.id('A1'))}/${made.id}`);
    const before = await db().selectFrom('audit_log').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    for (let i = 0; i < 5; i++) expect(await machine(made.secret)).toEqual({ status: 401, code: 'invalid_api_key' });
    const wrong = `${made.key.prefix}_${'0'.repeat(64)}`;
    expect(await machine(wrong)).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(await machine(`oc_00000000_${'0'.repeat(64)}`)).toEqual({ status: 401, code: 'invalid_api_key' });
    const after = await db().selectFrom('audit_log').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

describe('roll', () => {
  it('answers a new secret once; the old one works during the grace period and answers 401 api_key_rolled after', async () => {
    const made = await make('A1.admin', w.id('A1'));
    const rolled = await call('A1.admin', 'POST', `${keysOf(w.id('A1'))}/${made.id}/roll`, { grace_seconds: 60 });
    expect(rolled.status).toBe(200);
    const secret = rolled.body.secret as string;
    expect(secret).toMatch(/^oc_[0-9a-f]{8}_[0-9a-f]{64}$/);
    expect(secret).not.toBe(made.secret);
    expect(rolled.body.api_key).toMatchObject({
      id: made.id,
      prefix: secret.slice(0, 11),
      previous_prefix: made.key.prefix,
      previous_expires_at: expect.any(String),
      rolled_at: expect.any(String),
      state: 'expiring',
    });
    const graceEnd = Date.parse(rolled.body.api_key.previous_expires_at);
    expect(graceEnd - Date.now()).toBeGreaterThan(50_000);
    expect(graceEnd - Date.now()).toBeLessThanOrEqual(61_000);
    expect((await machine(made.secret)).status).not.toBe(401);
    expect((await machine(secret)).status).not.toBe(401);
    const audit = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'api_key.rolled')
      .where('target_id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toEqual({ prefix: secret.slice(0, 11), previous_prefix: made.key.prefix, grace_seconds: 60 });
    expect(JSON.stringify(audit.details)).not.toContain(secret.slice(12));

    // The grace period ends.
    await sql`update api_keys set previous_expires_at = now() - interval '1 second' where id = ${made.id}`.execute(db());
    expect(await machine(made.secret)).toEqual({ status: 401, code: 'api_key_rolled' });
    expect((await machine(secret)).status).not.toBe(401);
    expect((await refusals(made.id)).map((r) => r.details)).toEqual([
      { key_name: 'Runtime', prefix: secret.slice(0, 11), reason: 'rolled' },
    ]);
    // The list no longer shows the old prefix.
    const listed = await call('A1.admin', 'GET', `${keysOf(w.id('A1'))}?state=live&limit=100`);
    expect(listed.body.api_keys.find((key: { id: string }) => key.id === made.id)).toMatchObject({ previous_prefix: null, state: 'live' });
  });

  it('a roll without grace ends the old secret at once; a roll in the grace period ends the older secret', async () => {
    const made = await make('A1.admin', w.id('A1'));
    const path = `${keysOf(w.id('A1'))}/${made.id}/roll`;
    const first = (await call('A1.admin', 'POST', path, { grace_seconds: 0 })).body.secret as string;
    expect(await machine(made.secret)).toEqual({ status: 401, code: 'api_key_rolled' });
    expect((await machine(first)).status).not.toBe(401);

    const second = (await call('A1.admin', 'POST', path, { grace_seconds: 3600 })).body.secret as string;
    const third = await call('A1.admin', 'POST', path, { grace_seconds: 3600 });
    expect(third.body.api_key.previous_prefix).toBe(second.slice(0, 11));
    // Only one previous secret: the one two rolls back is no key at all any more.
    expect(await machine(first)).toEqual({ status: 401, code: 'invalid_api_key' });
    expect((await machine(second)).status).not.toBe(401);
    expect((await machine(third.body.secret)).status).not.toBe(401);

    // Revoking ends both secrets.
    await call('A1.admin', 'DELETE', `${keysOf(w.id('A1'))}/${made.id}`);
    expect(await machine(second)).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(await machine(third.body.secret)).toEqual({ status: 401, code: 'invalid_api_key' });
    const again = await call('A1.admin', 'POST', path, { grace_seconds: 0 });
    expect(again.status).toBe(422);
    expect(again.body.error.message).toBe(k.notLive('revoked'));
  });

  it('takes a grace period from 0 to 7 days only', async () => {
    const made = await make('A1.admin', w.id('A1'));
    const path = `${keysOf(w.id('A1'))}/${made.id}/roll`;
    for (const grace_seconds of [-1, API_KEY_LIFECYCLE.maxGraceSeconds + 1, 1.5, '60']) {
      expect((await call('A1.admin', 'POST', path, { grace_seconds })).status, String(grace_seconds)).toBe(400);
    }
    expect((await call('A1.admin', 'POST', path, {})).status).toBe(400);
    const longest = await call('A1.admin', 'POST', path, { grace_seconds: API_KEY_LIFECYCLE.maxGraceSeconds });
    expect(longest.status).toBe(200);
  });
});

describe('the list', () => {
  it('pages every key once by cursor, live keys first and each part newest first; filters by state', async () => {
    const org = w.id('T2');
    // T2 has no people: its keys are made directly, as the service would store them.
    const ids: Record<string, string[]> = { live: [], expiring: [], expired: [], revoked: [] };
    for (let i = 0; i < 13; i++) {
      const kind = (['live', 'revoked', 'live', 'expired', 'expiring'] as const)[i % 5]!;
      const row = await db()
        .insertInto('api_keys')
        .values({
          organization_id: org,
          name: `Key ${i}`,
          prefix: `oc_${(0x10000000 + i).toString(16)}`,
          secret_hash: `${i}`.padStart(64, '0'),
          scopes: ['usage:write'],
          // Some share a creation time: the id breaks the tie.
          created_at: new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 2))),
          ...(kind === 'revoked' && { revoked_at: new Date() }),
          ...(kind === 'expired' && { expires_at: new Date(Date.now() - DAY) }),
          ...(kind === 'expiring' && { expires_at: new Date(Date.now() + 2 * DAY) }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[kind]!.push(row.id);
    }
    // A live key with an old secret in its grace period is expiring too.
    await sql`update api_keys set previous_prefix = 'oc_1fffffff', previous_secret_hash = 'ff', previous_expires_at = now() + interval '1 hour'
      where id = ${ids.live![0]!}`.execute(db());

    // Only the organization's own admins list its keys: T2 gets one.
    const email = 'admin@t2.test';
    await insertUser(db(), { email, password: PASSWORD, role: 'tenant_admin', organizationId: org });
    const token = await w.as(email);
    type Listed = { id: string; state: string; created_at: string; previous_prefix: string | null };
    async function all(query: string) {
      const seen: Listed[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const path: string = `${keysOf(org)}?limit=3${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const answer = await w.t.request<{ api_keys: Listed[]; next_cursor: string | null }>('GET', path, undefined, { token });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body.api_keys.length).toBeLessThanOrEqual(3);
        seen.push(...answer.body.api_keys);
        cursor = answer.body.next_cursor;
        pages++;
      } while (cursor && pages < 20);
      return seen;
    }

    const everything = await all('');
    expect(everything).toHaveLength(13);
    expect(new Set(everything.map((key) => key.id)).size).toBe(13);
    const liveCount = ids.live!.length + ids.expiring!.length;
    expect(everything.slice(0, liveCount).every((key) => key.state === 'live' || key.state === 'expiring')).toBe(true);
    expect(everything.slice(liveCount).every((key) => key.state === 'revoked' || key.state === 'expired')).toBe(true);
    for (const part of [everything.slice(0, liveCount), everything.slice(liveCount)]) {
      const order = part.map((key) => `${key.created_at}|${key.id}`);
      expect(order).toEqual([...order].sort().reverse());
    }
    const sorted = (list: string[]) => [...list].sort();
    expect(sorted((await all('&state=live')).map((key) => key.id))).toEqual(sorted([...ids.live!, ...ids.expiring!]));
    expect(sorted((await all('&state=expiring')).map((key) => key.id))).toEqual(sorted([...ids.expiring!, ids.live![0]!]));
    expect(sorted((await all('&state=revoked')).map((key) => key.id))).toEqual(sorted([...ids.revoked!, ...ids.expired!]));
    const expiring = await all('&state=expiring');
    expect(expiring.find((key) => key.id === ids.live![0])).toMatchObject({ previous_prefix: 'oc_1fffffff' });

    for (const cursor of ['nonsense', `x:${ids.live![0]}`, `d:${ids.live![0]}&state=live`, `l:${ids.live![0]}&state=revoked`]) {
      const answer = await w.t.request('GET', `${keysOf(org)}?cursor=${cursor}`, undefined, { token });
      expect(answer.status, cursor).toBe(400);
    }
  });
});
