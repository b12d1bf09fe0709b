/**
 * The machine API's allowance of refused keys per client address: a flood of bad keys from an
 * address costs no lookup once the allowance is used up, while a valid key from that same
 * address (a NAT, a shared runtime, a balancer without TRUST_PROXY) is served, held only by
 * its own limits; and a burst of bad keys is looked up no more than the allowance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { MESSAGES } from '@console/domain';
import type { DB } from '../db/schema.ts';
import { createTestApp, freshDatabase, type TestApp } from '../test/harness.ts';
import { PASSWORD, buildWorld } from '../test/fixtures.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../test/usage-rows.ts';
import { machineLimitSettings, type MachineLimitSettings } from './machine-limits.ts';

const m = MESSAGES.usage;

/**
 * The database handle with a count of key lookups (the statement that reads a key by its
 * prefix), which can be held back until the test lets them go: every other use passes
 * through untouched.
 */
function countingLookups(db: Kysely<DB>) {
  let lookups = 0;
  let gate: Promise<void> | null = null;
  let onLookup = () => {};
  const counted = new Proxy(db, {
    get(target, property) {
      if (property === 'executeQuery') {
        return async (query: { sql?: string }, ...rest: unknown[]) => {
          if (typeof query.sql === 'string' && query.sql.includes('"k"."previous_prefix" = ')) {
            lookups++;
            onLookup();
            await gate;
          }
          return (target.executeQuery as (...args: unknown[]) => unknown)(query, ...rest);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    db: counted,
    lookups: () => lookups,
    /** Holds every lookup from now on until `release` is called; `seen` is told of each one. */
    hold(seen: () => void) {
      let release = () => {};
      gate = new Promise((resolve) => (release = resolve));
      onLookup = seen;
      return () => {
        gate = null;
        onLookup = () => {};
        release();
      };
    },
  };
}

const madeUp = () => `oc_${randomBytes(4).toString('hex')}_${randomBytes(32).toString('hex')}`;

describe('refused keys from one address', () => {
  const limits: MachineLimitSettings = { ...machineLimitSettings(), refusedPerAddressPerMinute: 30 };
  let t: TestApp;
  let counted: ReturnType<typeof countingLookups>;
  let world: Awaited<ReturnType<typeof buildWorld>>;
  let T1: string;

  const send = (bearer: string, address: string) =>
    t.request('GET', `/api/v1/entitlements?organization_id=${T1}&agent=bot`, undefined, {
      headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': address },
    });
  const report = (bearer: string, address: string, id: string) =>
    t.request(
      'POST',
      '/api/v1/usage-events',
      { events: [{ id, organization_id: T1, agent: 'bot', units: 1, occurred_at: new Date().toISOString() }] },
      { headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': address } },
    );

  beforeAll(async () => {
    const database = await freshDatabase();
    counted = countingLookups(database.db);
    // One trusted proxy hop, so each test speaks from its own client address.
    t = await createTestApp({ machineLimits: limits, trustProxy: 1, database: { ...database, db: counted.db } });
    world = await buildWorld(database.db);
    T1 = world.orgs.T1.id;
    const bot = await insertAgentType(database.db, 'bot', '0.2500');
    await activate(database.db, T1, bot.id);
    await fund(database.db, T1, '10.00');
  });
  afterAll(async () => t?.close());

  it('past the allowance, bad keys are 429 and cost no lookup, while a valid key and its usage report from the same address are served', async () => {
    const address = '198.51.100.20';
    const valid = await insertApiKey(t.database.db, T1);
    // A valid key takes nothing from the address's allowance, however often it comes.
    for (let i = 0; i < limits.refusedPerAddressPerMinute + 5; i++) expect((await send(valid.key, address)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < limits.refusedPerAddressPerMinute + 2; i++) statuses.push((await send(madeUp(), address)).status);
    expect(statuses).toEqual([...Array(limits.refusedPerAddressPerMinute).fill(401), 429, 429]);

    const before = counted.lookups();
    // Made-up keys, a wrong secret under a real key's prefix, and no key at all: 429, none looked up.
    for (const bearer of [madeUp(), madeUp(), `${valid.prefix}_${'0'.repeat(64)}`, 'not-a-key']) {
      const refused = await send(bearer, address);
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toBe(m.tooManyRefusedKeys(Number(refused.headers.get('retry-after'))));
    }
    expect(counted.lookups()).toBe(before);

    // The valid key is held only by its own limits and its subtrees'.
    const served = await send(valid.key, address);
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    const reported = await report(valid.key, address, 'from-a-flooded-address');
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    expect(reported.body.results[0]).toMatchObject({ id: 'from-a-flooded-address', status: 'accepted' });
    // And the flood goes on being refused unseen.
    const after = counted.lookups();
    expect((await send(madeUp(), address)).status).toBe(429);
    expect(counted.lookups()).toBe(after);
  });

  it('40 bad keys sent together against an allowance of 30: at most 30 are looked up, the rest are 429', async () => {
    const before = counted.lookups();
    // No lookup ends before each of the 40 is either being looked up or answered: the burst is truly together.
    let answered = 0;
    const settle = () => {
      if (counted.lookups() - before + answered >= 40) release();
    };
    const release = counted.hold(settle);
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          send(madeUp(), '198.51.100.21').then((answer) => {
            answered++;
            settle();
            return answer;
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(counted.lookups() - before).toBeLessThanOrEqual(limits.refusedPerAddressPerMinute);
      expect(statuses.filter((status) => status === 401)).toHaveLength(counted.lookups() - before);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(40 - limits.refusedPerAddressPerMinute);
    } finally {
      release();
    }
  });
});

describe('refused keys across server processes', () => {
  // Live keys read again on every miss, so a test need not wait out the reload interval.
  const limits: MachineLimitSettings = { ...machineLimitSettings(), refusedPerAddressPerMinute: 5, liveKeysReloadSeconds: 0 };
  let first: TestApp;
  let second: TestApp;
  let counted: ReturnType<typeof countingLookups>;
  let world: Awaited<ReturnType<typeof buildWorld>>;
  const address = '198.51.100.30';
  const send = (bearer: string) =>
    first.request('GET', `/api/v1/entitlements?organization_id=${world.orgs.T1.id}&agent=bot`, undefined, {
      headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': address },
    });

  beforeAll(async () => {
    const database = await freshDatabase();
    counted = countingLookups(database.db);
    first = await createTestApp({ machineLimits: limits, trustProxy: 1, database: { ...database, db: counted.db } });
    // A second app (its own counters and live keys) on the same database.
    second = await createTestApp({ machineLimits: limits, database: { ...database, close: async () => {} } });
    world = await buildWorld(database.db);
    const bot = await insertAgentType(database.db, 'bot', '0.2500');
    await activate(database.db, world.orgs.T1.id, bot.id);
    await fund(database.db, world.orgs.T1.id, '10.00');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a key made in another process is served from a flooded address; revoked there, it is refused at once, then without a lookup', async () => {
    for (let i = 0; i < limits.refusedPerAddressPerMinute; i++) expect((await send(madeUp())).status).toBe(401);
    expect((await send(madeUp())).status).toBe(429);

    // Made through the other process, after this one read its live keys.
    const token = (await second.signIn(world.users['T1.admin']!, PASSWORD)).token;
    const keys = `/api/organizations/${world.orgs.T1.id}/api-keys`;
    const made = await second.request('POST', keys, { name: 'Runtime', scopes: ['entitlements:read'] }, { token });
    expect(made.status).toBe(201);
    const served = await send(made.body.secret);
    expect(served.status, JSON.stringify(served.body)).toBe(200);

    // Revoked through the other process: refused at its next request, though this process had it as live.
    expect((await second.request('DELETE', `${keys}/${made.body.api_key.id}`, undefined, { token })).status).toBe(200);
    const refused = await send(made.body.secret);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_api_key');
    // Found revoked, it is no longer live here: sent again, it is refused unseen, like any bad key.
    const before = counted.lookups();
    expect((await send(made.body.secret)).status).toBe(429);
    expect(counted.lookups()).toBe(before);
  });
});
