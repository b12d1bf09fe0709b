/**
 * Guessing and enumeration through sign-in and recovery: rate limits per address, per
 * account from one address (sign-in) and per e-mail (recovery), the growing wait of one
 * account's wrong passwords across addresses, sign-in timing that does not tell accounts
 * apart, and rate-limit rows that do not pile up.
 *
 * Already proven in modules/auth/auth.test.ts: sign-in per e-mail answers 401, 401, 401,
 * then 429 with Retry-After and the error shape, and the used-up address refuses another
 * e-mail; recovery per e-mail answers 200, 200, then 429.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, signInAccountWaitSeconds } from '@console/domain';
import { createTestApp, type ApiResponse, type TestApp } from '../test/harness.ts';
import { houseId, insertUser } from '../test/fixtures.ts';
import { hashToken } from '../lib/secrets.ts';

const LIMITS = {
  signInPerAddress: 4,
  signInPerEmail: 3,
  recoverPerAddress: 4,
  recoverPerEmail: 2,
  windowSeconds: 600,
  signInAccountFailures: 8,
  signInAccountDelayIntervalSeconds: 30,
  signInAccountMaxDelayIntervalSeconds: 120,
  signInAccountWindowSeconds: 600,
};
/** Waits short enough for a test to sit them out. */
const SHORT_WAITS = { ...LIMITS, signInAccountDelayIntervalSeconds: 2, signInAccountMaxDelayIntervalSeconds: 8 };

let proxied: TestApp;
let shortWaits: TestApp;
let checks = 0;
beforeAll(async () => {
  // Behind a trusted proxy, X-Forwarded-For names the client: each test takes its own addresses.
  proxied = await createTestApp({ trustProxy: 1, rateLimits: LIMITS });
  shortWaits = await createTestApp({ trustProxy: 1, rateLimits: SHORT_WAITS });
});
afterEach(() => {
  checks += expect.getState().assertionCalls;
});
afterAll(async () => {
  console.log(`sign-in-abuse.test.ts: ${checks} checks`);
  await proxied?.close();
  await shortWaits?.close();
});

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const signIn = (address: string, email: string, password = 'wrong-password', app = proxied) =>
  app.request('POST', '/api/auth/sign-in', { email, password }, from(address));
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

describe('guesses at one account from many addresses', () => {
  let next = 0;
  /** A client address no other attempt in this file used. */
  const fresh = () => `10.20.${Math.floor(next / 250)}.${(next++ % 250) + 1}`;
  const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
  const owner = async (app: TestApp, email: string) =>
    insertUser(app.database.db, { email, password: 'owners-password', role: 'house_user', organizationId: await houseId(app.database.db) });

  /** Five wrong passwords from each of ten addresses, one after another: each answer's status, and the waits. */
  async function tenAddressesFiveGuesses(email: string) {
    const statuses: number[] = [];
    const waits: number[] = [];
    for (let a = 0; a < 10; a++) {
      const address = fresh();
      for (let i = 0; i < 5; i++) {
        const response = await signIn(address, email);
        statuses.push(response.status);
        if (response.status === 429) {
          expectLimited(response);
          waits.push(Number(response.headers.get('retry-after')));
        }
      }
    }
    return { statuses, waits };
  }

  it('ten addresses, five wrong passwords each: the account allowance is answered, then every address waits; an unknown e-mail alike', {
    timeout: 90_000,
  }, async () => {
    await owner(proxied, 'many@abuse.test');
    const known = await tenAddressesFiveGuesses('many@abuse.test');
    const unknown = await tenAddressesFiveGuesses('nobody-many@abuse.test');
    expect(known.statuses.filter((status) => status === 401)).toHaveLength(LIMITS.signInAccountFailures);
    // Past the account's allowance no password is checked, whichever address the attempt comes from.
    expect(known.statuses.slice(known.statuses.lastIndexOf(401) + 1).every((status) => status === 429)).toBe(true);
    // The same answers, in the same order, whether or not the e-mail has an account, and the same waits.
    expect(unknown.statuses).toEqual(known.statuses);
    for (const { waits } of [known, unknown]) {
      expect(waits).toContain(LIMITS.signInAccountDelayIntervalSeconds);
      const accountWaits = waits.filter((wait) => wait <= LIMITS.signInAccountDelayIntervalSeconds);
      // Every address after the allowance was told to wait for the account (the rest by the per-address limit).
      expect(accountWaits.length).toBeGreaterThanOrEqual(10 - Math.ceil(LIMITS.signInAccountFailures / LIMITS.signInPerEmail));
    }
  });

  it('concurrent guesses from ten addresses get the allowance and no more', async () => {
    const email = 'concurrent@abuse.test';
    await owner(proxied, email);
    const addresses = Array.from({ length: 10 }, fresh);
    const responses = await Promise.all(addresses.flatMap((address) => [0, 1, 2].map(() => signIn(address, email))));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMITS.signInAccountFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - LIMITS.signInAccountFailures);
  });

  it('the wait doubles with each further failure, up to its ceiling, counted across addresses', { timeout: 90_000 }, async () => {
    const email = 'doubling@abuse.test';
    await owner(shortWaits, email);
    const guess = (password?: string) => signIn(fresh(), email, password, shortWaits);
    for (let i = 0; i < SHORT_WAITS.signInAccountFailures; i++) expect((await guess()).status).toBe(401);
    const waits = [];
    for (let failures = SHORT_WAITS.signInAccountFailures; failures < SHORT_WAITS.signInAccountFailures + 4; failures++) {
      const refused = await guess();
      expectLimited(refused);
      const wait = Number(refused.headers.get('retry-after'));
      expect(wait).toBe(signInAccountWaitSeconds(failures, SHORT_WAITS));
      waits.push(wait);
      await sleep(wait);
      expect((await guess()).status).toBe(401);
    }
    expect(waits).toEqual([2, 4, 8, 8]);
    // Once the wait is over, the right password signs in from anywhere.
    const refused = await guess('owners-password');
    expectLimited(refused);
    await sleep(Number(refused.headers.get('retry-after')));
    expect((await guess('owners-password')).status).toBe(200);
  });

  it('the owner is not locked out: an address it signed in from still works, and a password reset opens every address', {
    timeout: 90_000,
  }, async () => {
    const email = 'locked@abuse.test';
    const home = fresh();
    await owner(proxied, email);
    expect((await signIn(home, email, 'owners-password')).status).toBe(200);
    for (let i = 0; i < LIMITS.signInAccountFailures; i++) expect((await signIn(fresh(), email)).status).toBe(401);
    expectLimited(await signIn(fresh(), email));
    // Elsewhere even the right password waits: no password is checked while the account waits.
    expectLimited(await signIn(fresh(), email, 'owners-password'));
    // From home, the right password signs in, and ends the run of failures.
    expect((await signIn(home, email, 'owners-password')).status).toBe(200);
    expect((await signIn(fresh(), email)).status).toBe(401);

    // A password reset ends the run too: the owner signs in at once from an address never seen.
    for (let i = 1; i < LIMITS.signInAccountFailures; i++) expect((await signIn(fresh(), email)).status).toBe(401);
    expectLimited(await signIn(fresh(), email, 'owners-password'));
    const user = await proxied.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const token = 'reset-token-for-the-owner-of-locked-abuse-test';
    await proxied.database.db
      .insertInto('one_time_tokens')
      .values({ token_hash: hashToken(token), purpose: 'password_reset', user_id: user.id, expires_at: new Date(Date.now() + 3_600_000) })
      .execute();
    expect((await proxied.request('POST', '/api/auth/password', { token, password: 'a-new-password' }, from(fresh()))).status).toBe(200);
    expect((await signIn(fresh(), email, 'a-new-password')).status).toBe(200);
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
    const app = await createTestApp({ rateLimits: { windowSeconds: 1, signInAccountWindowSeconds: 1 } });
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
      // One address key, and per e-mail one key with the address and one of its run of failures,
      // a round; the last round's stay.
      for (const total of totals) expect(total).toBeLessThanOrEqual(2 * perRound + 1 + 1);
    } finally {
      await app.close();
    }
  });
});
