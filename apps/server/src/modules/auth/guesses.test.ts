/**
 * The growing wait of one account's wrong passwords (guesses.ts): which e-mail a run belongs
 * to, and how long an address the account signed in from stays known. Each test fails when
 * its rule is broken: the run keyed by the e-mail as typed, the known address without its
 * window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { houseId, insertUser } from '../../test/fixtures.ts';

/** Four wrong passwords start the wait, and the wait (10 minutes and more) cannot pass during a test. */
const LIMITS = {
  signInAccountFailures: 4,
  signInAccountDelayIntervalSeconds: 600,
  signInAccountMaxDelayIntervalSeconds: 1200,
  signInAccountWindowSeconds: 3600,
};

let t: TestApp;
let next = 0;
/** A client address no other attempt in this file used, so only the account's own run can refuse it. */
const fresh = () => `10.40.${Math.floor(next / 250)}.${(next++ % 250) + 1}`;
const signIn = (address: string, email: string, password = 'wrong-password') =>
  t.request('POST', '/api/auth/sign-in', { email, password }, { headers: { 'x-forwarded-for': address } });
const owner = async (email: string) =>
  insertUser(t.database.db, { email, password: 'owners-password', role: 'house_user', organizationId: await houseId(t.database.db) });

beforeAll(async () => {
  t = await createTestApp({ trustProxy: 1, rateLimits: LIMITS });
});
afterAll(async () => t?.close());

describe("an account's run of wrong passwords", () => {
  it('belongs to the e-mail whatever its letter case and surrounding spaces: another spelling gets no fresh guesses', async () => {
    const email = 'spelled@guesses.test';
    await owner(email);
    const spellings = [email, email.toUpperCase(), 'Spelled@Guesses.Test', `  ${email} `];
    // One wrong password under each spelling: four in all, the allowance.
    for (const spelling of spellings) expect((await signIn(fresh(), spelling)).status).toBe(401);
    // Every spelling, and one not used yet, now waits for the account, the right password too.
    for (const spelling of [...spellings, 'sPELLED@guesses.TEST']) {
      const refused = await signIn(fresh(), spelling);
      expect(refused.status, spelling).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(LIMITS.signInAccountDelayIntervalSeconds - 60);
    }
    expect((await signIn(fresh(), 'SPELLED@guesses.test', 'owners-password')).status).toBe(429);
  });
});

describe('an address the account signed in from', () => {
  it('is known for 90 days: signed in from there 89 days ago it still signs in while the account waits; 91 days ago, it waits', async () => {
    const email = 'known@guesses.test';
    const user = await owner(email);
    const [recent, old] = [fresh(), fresh()];
    for (const address of [recent, old]) expect((await signIn(address, email, 'owners-password')).status).toBe(200);
    const backdate = (address: string, days: number) =>
      sql`update refresh_sessions set created_at = now() - make_interval(days => ${days})
          where user_id = ${user.id} and ip = ${address}`.execute(t.database.db);
    await backdate(recent, 89);
    await backdate(old, 91);

    for (let i = 0; i < LIMITS.signInAccountFailures; i++) expect((await signIn(fresh(), email)).status).toBe(401);
    expect((await signIn(fresh(), email, 'owners-password')).status).toBe(429);
    // The session of 91 days ago no longer makes its address known: it waits like any other.
    expect((await signIn(old, email, 'owners-password')).status).toBe(429);
    // The one of 89 days ago does: the owner signs in there.
    expect((await signIn(recent, email, 'owners-password')).status).toBe(200);
  });
});
