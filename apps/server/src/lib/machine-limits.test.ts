import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pino from 'pino';
import { MESSAGES } from '@console/domain';
import type { Database } from '../db/connection.ts';
import { createTestApp, freshDatabase, type TestApp } from '../test/harness.ts';
import { buildWorld } from '../test/fixtures.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../test/usage-rows.ts';
import { createSharedCounter, machineLimitSettings, type Bucket, type MachineLimitSettings } from './machine-limits.ts';

const log = pino({ level: 'silent' });
const m = MESSAGES.usage;

describe('the shared counter of the machine rate limits', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => database?.close());

  const bucket = (name: string, limit: number): Bucket => ({ name, policy: 'key', limit });

  it('admits up to the limit in a window, refuses after without counting, and admits again in the next window', async () => {
    let now = Date.UTC(2026, 10, 27, 12, 0, 10);
    const counter = createSharedCounter(database.db, log, { windowSeconds: 60, now: () => now });
    const b = bucket('one', 3);
    expect([1, 2, 3].map(() => counter.take([b]).allowed)).toEqual([true, true, true]);
    const refused = counter.take([b]);
    expect(refused).toEqual({ allowed: false, resetSeconds: 50, remaining: [0] });
    expect(counter.wait(b)).toBe(50);
    await counter.flush();
    const stored = await sql<{ count: number }>`select count from rate_limits where key like 'machine:%:one'`.execute(database.db);
    expect(stored.rows.map((row) => row.count)).toEqual([3]);

    now += 50_000;
    expect(counter.take([b])).toEqual({ allowed: true, resetSeconds: 60, remaining: [2] });
    expect(counter.wait(b)).toBeNull();
    await counter.close();
  });

  it('reads a bucket only once this process has counted into it: asking about an address it never refused writes no row', async () => {
    const counter = createSharedCounter(database.db, log, { windowSeconds: 60 });
    expect(counter.wait(bucket('quiet', 1))).toBeNull();
    counter.add(bucket('noisy', 1));
    expect(counter.wait(bucket('noisy', 1))).not.toBeNull();
    await counter.flush();
    const stored = await sql<{
      key: string;
    }>`select key from rate_limits where key like 'machine:%:quiet' or key like 'machine:%:noisy'`.execute(database.db);
    expect(stored.rows.map((row) => row.key.split(':').pop())).toEqual(['noisy']);
  });

  it('holds slots against the limit while requests are under way: a kept slot counts, a released one is given back, and none writes a row by itself', async () => {
    const counter = createSharedCounter(database.db, log, { windowSeconds: 3600 });
    const b = bucket('held', 3);
    const slots = [1, 2, 3, 4].map(() => counter.reserve(b));
    expect(slots.map((slot) => slot !== null)).toEqual([true, true, true, false]);
    slots[0]!.release();
    slots[1]!.release();
    // Settling twice changes nothing.
    slots[1]!.keep();
    await counter.flush();
    const none = await sql<{ key: string }>`select key from rate_limits where key like 'machine:%:held'`.execute(database.db);
    expect(none.rows).toEqual([]);
    slots[2]!.keep();
    expect(counter.reserve(b)).not.toBeNull();
    expect(counter.reserve(b)).not.toBeNull();
    expect(counter.reserve(b)).toBeNull();
    await counter.flush();
    const kept = await sql<{ count: number }>`select count from rate_limits where key like 'machine:%:held'`.execute(database.db);
    expect(kept.rows.map((row) => row.count)).toEqual([1]);
  });

  it('counts a request against every bucket or none: one bucket at its limit refuses without spending the others', () => {
    const counter = createSharedCounter(database.db, log, { windowSeconds: 60 });
    const wide = bucket('wide', 10);
    const narrow = bucket('narrow', 1);
    expect(counter.take([wide, narrow]).allowed).toBe(true);
    expect(counter.take([wide, narrow])).toMatchObject({ allowed: false, remaining: [9, 0] });
    expect(counter.take([wide]).remaining).toEqual([8]);
  });

  it('shares counts between processes: each process alone never passes the limit, and together they pass it by at most what one admits between two syncs', async () => {
    const limit = 50;
    const b = bucket('shared', limit);
    const first = createSharedCounter(database.db, log, { windowSeconds: 3600 });
    const second = createSharedCounter(database.db, log, { windowSeconds: 3600 });
    let admitted = 0;
    // Requests alternate between the two processes; each shares its counts every 5 of its own.
    for (let i = 0; i < 200; i++) {
      const counter = i % 2 === 0 ? first : second;
      if (counter.take([b]).allowed) admitted++;
      if (i % 10 >= 8) await counter.flush();
    }
    await first.flush();
    await second.flush();
    expect(admitted).toBeGreaterThanOrEqual(limit);
    expect(admitted).toBeLessThanOrEqual(limit + 5);
    // Once both have shared, neither admits more in this window.
    expect(first.take([b]).allowed).toBe(false);
    expect(second.take([b]).allowed).toBe(false);
    const stored = await sql<{ count: number }>`select count from rate_limits where key like 'machine:%:shared'`.execute(database.db);
    expect(stored.rows[0]!.count).toBe(admitted);
  });
});

describe('the machine API under its rate limits', () => {
  let t: TestApp;
  let world: Awaited<ReturnType<typeof buildWorld>>;
  const limits: MachineLimitSettings = {
    ...machineLimitSettings(),
    keyPerMinute: 3,
    subtreePerMinute: { super_agency: 1000, agency: 5, tenant: 1000 },
    refusedPerAddressPerMinute: 4,
  };
  const entitlement = (key: string, organization: string, address?: string) =>
    t.request('GET', `/api/v1/entitlements?organization_id=${organization}&agent=bot`, undefined, {
      headers: { authorization: `Bearer ${key}`, ...(address && { 'x-forwarded-for': address }) },
    });

  beforeAll(async () => {
    // One trusted proxy hop, so each test can speak from its own client address.
    t = await createTestApp({ machineLimits: limits, trustProxy: 1 });
    world = await buildWorld(t.database.db);
    const bot = await insertAgentType(t.database.db, 'bot', '0.2500');
    for (const org of ['T1', 'T2'] as const) {
      await activate(t.database.db, world.orgs[org].id, bot.id);
      await fund(t.database.db, world.orgs[org].id, '10.00');
    }
  });
  afterAll(async () => t?.close());

  it('admits a key up to its limit with the draft RateLimit headers, then answers 429 with Retry-After and does nothing', async () => {
    const T1 = world.orgs.T1.id;
    const key = await insertApiKey(t.database.db, T1);
    for (const remaining of [2, 1, 0]) {
      const answer = await entitlement(key.key, T1, '203.0.113.1');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-policy')).toBe(
        '"key";q=3;w=60, "super_agency";q=1000;w=60, "agency";q=5;w=60, "tenant";q=1000;w=60',
      );
      expect(answer.headers.get('ratelimit')).toMatch(new RegExp(`^"key";r=${remaining};t=\\d+, `));
    }
    const usageBefore = await sql<{ n: number }>`select count(*)::int as n from usage_events`.execute(t.database.db);
    const refused = await t.request(
      'POST',
      '/api/v1/usage-events',
      { events: [{ id: 'over', organization_id: T1, agent: 'bot', units: 1, occurred_at: new Date().toISOString() }] },
      { headers: { authorization: `Bearer ${key.key}`, 'x-forwarded-for': '203.0.113.1' } },
    );
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toMatch(/^"key";r=0;t=\d+/);
    expect(refused.body.error).toEqual({ code: 'rate_limited', message: m.rateLimited('key', 3, wait) });
    const usageAfter = await sql<{ n: number }>`select count(*)::int as n from usage_events`.execute(t.database.db);
    expect(usageAfter.rows[0]!.n).toBe(usageBefore.rows[0]!.n);
  });

  it("holds the keys of an agency's tenants together to the agency's subtree limit", async () => {
    const [T1, T2] = [world.orgs.T1.id, world.orgs.T2.id];
    const one = await insertApiKey(t.database.db, T1);
    const two = await insertApiKey(t.database.db, T2);
    const agencyBefore = (await entitlement(one.key, T1, '203.0.113.2')).headers.get('ratelimit')!;
    const used = 5 - Number(/"agency";r=(\d+)/.exec(agencyBefore)![1]);
    const statuses: number[] = [];
    for (let i = used; i < 5; i++) statuses.push((await entitlement(i % 2 ? one.key : two.key, i % 2 ? T1 : T2, '203.0.113.2')).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await entitlement(two.key, T2, '203.0.113.2');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(m.rateLimited('agency', 5, Number(refused.headers.get('retry-after'))));
  });

  it("holds a key to its own limit, set by its organization's admins, and that limit to the house's ceiling as it stands now", async () => {
    const A2 = world.orgs.A2.id;
    const own = await insertApiKey(t.database.db, A2);
    await sql`update api_keys set rate_limit_per_minute = 2 where id = ${own.id}`.execute(t.database.db);
    expect([(await entitlement(own.key, A2, '203.0.113.3')).status, (await entitlement(own.key, A2, '203.0.113.3')).status]).toEqual([
      200, 200,
    ]);
    const third = await entitlement(own.key, A2, '203.0.113.3');
    expect(third.status).toBe(429);
    expect(third.body.error.message).toBe(m.rateLimited('key', 2, Number(third.headers.get('retry-after'))));

    const capped = await insertApiKey(t.database.db, A2);
    await sql`update api_keys set rate_limit_per_minute = 100 where id = ${capped.id}`.execute(t.database.db);
    await sql`update global_settings set api_key_rate_limit_ceiling = 1`.execute(t.database.db);
    try {
      const first = await entitlement(capped.key, A2, '203.0.113.3');
      expect(first.headers.get('ratelimit-policy')).toMatch(/^"key";q=1;w=60/);
      expect((await entitlement(capped.key, A2, '203.0.113.3')).status).toBe(429);
      // A key without a limit of its own keeps the default, whatever the ceiling.
      const plain = await insertApiKey(t.database.db, A2);
      expect((await entitlement(plain.key, A2, '203.0.113.3')).headers.get('ratelimit-policy')).toMatch(/^"key";q=3;w=60/);
    } finally {
      await sql`update global_settings set api_key_rate_limit_ceiling = 6000`.execute(t.database.db);
    }
  });

  it('refuses an address that sent too many invalid keys before looking its next bad key up, serves its valid keys, and leaves other addresses alone', async () => {
    const T1 = world.orgs.T1.id;
    const A3 = world.orgs.A3.id;
    // Made before the flood: a key made since the live keys were last read waits for the next read.
    const valid = await insertApiKey(t.database.db, A3);
    const unknown = `oc_0123abcd_${'a'.repeat(64)}`;
    for (const bearer of [unknown, 'not-a-key', unknown, unknown]) {
      expect((await entitlement(bearer, T1, '198.51.100.7')).status).toBe(401);
    }
    // Looked up, this key would be 401: the 429 shows it was refused before any lookup.
    const blocked = await entitlement(unknown, T1, '198.51.100.7');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.message).toBe(m.tooManyRefusedKeys(Number(blocked.headers.get('retry-after'))));
    // A valid key from that address is held only by its own limits.
    expect((await entitlement(valid.key, A3, '198.51.100.7')).status).toBe(200);
    expect((await entitlement(unknown, A3, '198.51.100.7')).status).toBe(429);
    expect((await entitlement(unknown, A3, '198.51.100.8')).status).toBe(401);
  });
});
