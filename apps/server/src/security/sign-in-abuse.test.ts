/**
 * Guessing and enumeration through sign-in and recovery: rate limits per address, per
 * account from one address (sign-in) and per e-mail (recovery), sign-in timing that does
 * not tell accounts apart, and rate-limit rows that do not pile up.
 *
 * Already proven in modules/auth/auth.test.ts: sign-in per e-mail answers 401, 401, 401,
 * then 429 with Retry-After and the error shape, and the used-up address refuses another
 * e-mail; recovery per e-mail answers 200, 200, then 429.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { createTestApp, type ApiResponse, type TestApp } from '../test/harness.ts';
import { houseId, insertUser } from '../test/fixtures.ts';

const LIMITS = { signInPerAddress: 4, signInPerEmail: 3, recoverPerAddress: 4, recoverPerEmail: 2, windowSeconds: 600 };

let proxied: TestApp;
let checks = 0;
beforeAll(async () => {
  // Behind a trusted proxy, X-Forwarded-For names the client: each test takes its own addresses.
  proxied = await createTestApp({ trustProxy: 1, rateLimits: LIMITS });
});
afterEach(() => {
  checks += expect.getState().assertionCalls;
});
afterAll(async () => {
  console.log(`sign-in-abuse.test.ts: ${checks} checks`);
  await proxied?.close();
});

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const signIn = (address: string, email: string, password = 'wrong-password') =>
  proxied.request('POST', '/api/auth/sign-in', { email, password }, from(address));
const recover = (address: string, email: string) => proxied.request('POST', '/api/auth/recover', { email }, from(address));

function expectLimited(response: ApiResponse) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(LIMITS.windowSeconds);
  expect(response.body).toEqual({ error: { code: 'rate_limited', message: MESSAGES.auth.tooManyAttempts } });
}

describe('sign-in limits', () => {
  it('per address: a fifth attempt from one address is refused whatever the e-mail; other addresses go on', async () => {
    for (let i = 0; i < LIMITS.signInPerAddress; i++) expect((await signIn('10.1.0.1', `spray${i}@abuse.test`)).status).toBe(401);
    expectLimited(await signIn('10.1.0.1', 'spray-next@abuse.test'));
    expect((await signIn('10.1.0.2', 'spray-next@abuse.test')).status).toBe(401);
  });

  it('per account and address: spellings count together, and that address then waits even with the right password', async () => {
    const email = 'target@abuse.test';
    await insertUser(proxied.database.db, {
      email,
      password: 'right-password',
      role: 'house_user',
      organizationId: await houseId(proxied.database.db),
    });
    const spellings = [email, email.toUpperCase(), `  ${email} `];
    for (const spelling of spellings) expect((await signIn('10.2.0.1', spelling)).status).toBe(401);
    expectLimited(await signIn('10.2.0.1', email, 'right-password'));
    expectLimited(await signIn('10.2.0.1', email.toUpperCase()));
  });

  it("an attacker's failures from one address do not lock the owner, signing in from another, out", async () => {
    const email = 'owner@abuse.test';
    await insertUser(proxied.database.db, {
      email,
      password: 'owners-password',
      role: 'house_user',
      organizationId: await houseId(proxied.database.db),
    });
    for (let i = 0; i < LIMITS.signInPerEmail; i++) expect((await signIn('10.7.0.66', email)).status).toBe(401);
    // The attacker is still limited, on this account and then on any other from that address.
    expectLimited(await signIn('10.7.0.66', email));
    expectLimited(await signIn('10.7.0.66', 'someone-else@abuse.test'));
    // The owner, elsewhere, signs in at once, and can again later.
    expect((await signIn('10.7.0.1', email, 'owners-password')).status).toBe(200);
    expect((await signIn('10.7.0.1', email, 'owners-password')).status).toBe(200);
  });

  it('an attacker moving between addresses gets the per-account allowance at each address, no more', async () => {
    const email = 'spread@abuse.test';
    for (const address of ['10.7.1.1', '10.7.1.2']) {
      const statuses = [];
      for (let i = 0; i <= LIMITS.signInPerEmail; i++) statuses.push((await signIn(address, email)).status);
      expect(statuses).toEqual([...Array(LIMITS.signInPerEmail).fill(401), 429]);
    }
  });

  it('without TRUST_PROXY, X-Forwarded-For does not spread one client over many addresses', async () => {
    const direct = await createTestApp({ rateLimits: LIMITS });
    try {
      const statuses = [];
      for (let i = 0; i <= LIMITS.signInPerAddress; i++) {
        statuses.push(
          (
            await direct.request(
              'POST',
              '/api/auth/sign-in',
              { email: `forged${i}@abuse.test`, password: 'wrong-password' },
              from(`10.3.0.${i}`),
            )
          ).status,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await direct.close();
    }
  });
});

describe('recovery limits', () => {
  it('per address: 429 with Retry-After once passed; other addresses go on', async () => {
    for (let i = 0; i < LIMITS.recoverPerAddress; i++) expect((await recover('10.4.0.1', `lost${i}@abuse.test`)).status).toBe(200);
    expectLimited(await recover('10.4.0.1', 'lost-next@abuse.test'));
    expect((await recover('10.4.0.2', 'lost-next@abuse.test')).status).toBe(200);
  });

  it('per e-mail, across addresses and spellings: 429 with Retry-After once passed', async () => {
    expect((await recover('10.5.0.1', 'mailbox@abuse.test')).status).toBe(200);
    expect((await recover('10.5.0.2', 'MAILBOX@abuse.test')).status).toBe(200);
    expectLimited(await recover('10.5.0.3', ' mailbox@abuse.test'));
  });

  it('password reset with a token shares the per-address recovery count, which bounds token guessing', async () => {
    const reset = () =>
      proxied.request('POST', '/api/auth/password', { token: 'guessed-token', password: 'guessed-password' }, from('10.6.0.1'));
    expect((await recover('10.6.0.1', 'shared1@abuse.test')).status).toBe(200);
    expect((await recover('10.6.0.1', 'shared2@abuse.test')).status).toBe(200);
    expect((await reset()).status).toBe(400);
    expect((await reset()).status).toBe(400);
    expectLimited(await reset());
    expectLimited(await recover('10.6.0.1', 'shared3@abuse.test'));
  });
});

describe('sign-in timing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };

  it('an unknown e-mail and a wrong password take the same time within noise', async () => {
    const attempts = { unknown: [] as number[], wrong: [] as number[] };
    const attempt = async (kind: keyof typeof attempts, record: boolean) => {
      const email = kind === 'unknown' ? 'nobody@abuse.test' : t.admin.email;
      const started = performance.now();
      const response = await t.request('POST', '/api/auth/sign-in', { email, password: 'not-the-password' });
      const elapsed = performance.now() - started;
      expect(response.status).toBe(401);
      if (record) attempts[kind].push(elapsed);
    };
    // Warm up both paths (the unknown path hashes its dummy password once, on first use).
    for (let i = 0; i < 3; i++) {
      await attempt('unknown', false);
      await attempt('wrong', false);
    }
    for (let i = 0; i < 30; i++) {
      await attempt('unknown', true);
      await attempt('wrong', true);
    }
    const unknown = median(attempts.unknown);
    const wrong = median(attempts.wrong);
    console.log(
      `sign-in timing over 30 attempts each: unknown e-mail median ${unknown.toFixed(1)} ms, wrong password median ${wrong.toFixed(1)} ms, ratio ${(unknown / wrong).toFixed(2)}`,
    );
    // Generous bounds for a busy 2-core machine; skipping the hash would answer several times faster.
    expect(unknown / wrong).toBeGreaterThan(0.5);
    expect(unknown / wrong).toBeLessThan(2);
  });
});

describe('rate-limit rows', () => {
  const counts = async (db: TestApp['database']['db']) => {
    const { rows } = await sql<{ total: number; expired: number }>`
      select count(*)::int as total, (count(*) filter (where reset_at < now()))::int as expired from rate_limits`.execute(db);
    return rows[0]!;
  };

  it('expired rows are swept while counting goes on, however many were left behind', async () => {
    const app = await createTestApp();
    try {
      const db = app.database.db;
      // Rows whose window ended long ago, as earlier windows or other processes leave them.
      await sql`insert into rate_limits (key, count, reset_at)
        select 'stale:' || n, 1, now() - interval '1 hour' from generate_series(1, 500) n`.execute(db);
      expect((await counts(db)).expired).toBe(500);
      let requests = 0;
      while ((await counts(db)).expired > 0 && requests < 50) {
        expect(
          (await app.request('POST', '/api/auth/sign-in', { email: `sweep${requests}@abuse.test`, password: 'wrong-password' })).status,
        ).toBe(401);
        requests++;
      }
      expect((await counts(db)).expired).toBe(0);
      // Each sign-in counts two keys, and each count sweeps up to 20 expired rows.
      expect(requests).toBeLessThanOrEqual(Math.ceil(500 / 40) + 1);
    } finally {
      await app.close();
    }
  });

  it('with windows passing, the table holds about one window of keys, not every key ever counted', async () => {
    const app = await createTestApp({ rateLimits: { windowSeconds: 1 } });
    try {
      const db = app.database.db;
      const perRound = 10;
      const totals = [];
      for (let round = 0; round < 4; round++) {
        for (let i = 0; i < perRound; i++) {
          await app.request('POST', '/api/auth/sign-in', { email: `round${round}-${i}@abuse.test`, password: 'wrong-password' });
        }
        totals.push((await counts(db)).total);
        await new Promise((resolve) => setTimeout(resolve, 1_100));
      }
      // One address key and one key per account and address a round; the last round's stay.
      for (const total of totals) expect(total).toBeLessThanOrEqual(perRound + 1 + 1);
    } finally {
      await app.close();
    }
  });
});
