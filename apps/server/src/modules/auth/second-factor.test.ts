import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { generate, generateSecret } from 'otplib';
import { MESSAGES, MFA, type ActivityAction } from '@console/domain';
import { createTestApp, useWorld, type TestApp } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { secretSealer } from '../../lib/sealer.ts';
import { createSecondFactors } from '../../lib/second-factor.ts';
import { hashToken } from '../../lib/secrets.ts';

/**
 * Signing in with a second factor: a right password gives a challenge and no session; a code
 * from the authenticator app (never one step twice) or an unused recovery code answers it.
 * Wrong codes are bounded per challenge (five) and per person (seven here, across challenges).
 */
const PER_PERSON = 7;
const w = useWorld({ rateLimits: { secondFactorPerPerson: PER_PERSON } });
const db = () => w.t.database.db;

/** The app's code for the step `offset` steps from now, as the person's app shows it. */
const codeAt = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * MFA.totpStepSeconds });

let people = 0;
/** A new person of Tenant One with a confirmed authenticator app and ten recovery codes. */
async function personWithApp() {
  const email = `mfa-${++people}@t1.test`;
  const { id } = await insertUser(db(), { email, password: PASSWORD, role: 'tenant_user', organizationId: w.id('T1') });
  const sealer = secretSealer(w.t.jwtSecret, 'totp-secrets');
  const secret = generateSecret();
  await db()
    .insertInto('totp_factors')
    .values({ user_id: id, secret_sealed: sealer.seal(secret), confirmed_at: new Date() })
    .execute();
  const factors = createSecondFactors({ sealer, limits: { secondFactorPerPerson: PER_PERSON, windowSeconds: 900 } });
  const codes = await db()
    .transaction()
    .execute((trx) => factors.replaceRecoveryCodes(trx, id));
  return { id, email, secret, codes };
}

async function challengeFor(email: string) {
  const response = await w.t.request('POST', '/api/auth/sign-in', { email, password: PASSWORD });
  expect(response.status).toBe(200);
  return response;
}

const answer = (challenge_token: string, method: 'totp' | 'recovery_code', code: string) =>
  w.t.request('POST', '/api/auth/sign-in/second-factor', { challenge_token, method, code });

const sessionsOf = async (userId: string) =>
  (
    await db()
      .selectFrom('refresh_sessions')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
  ).n;

const auditOf = (userId: string, action: ActivityAction) =>
  db()
    .selectFrom('audit_log')
    .select(['actor_user_id', 'details'])
    .where('target_id', '=', userId)
    .where('action', '=', action)
    .orderBy('created_at')
    .execute();

describe('sign-in with a second factor', () => {
  it('still gives a session at once to a person without an authenticator app', async () => {
    const response = await w.t.request('POST', '/api/auth/sign-in', { email: w.world.users['T1.user'], password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.access_token).toEqual(expect.any(String));
    expect(response.body).not.toHaveProperty('mfa_required');
    expect(response.refreshCookie).toMatch(/^refresh_token=/);
  });

  it('gives a person with an app a challenge, no session and no cookie; a code from the app starts the session', async () => {
    const person = await personWithApp();
    const challenge = await challengeFor(person.email);
    expect(challenge.body).toEqual({
      mfa_required: true,
      challenge_token: expect.any(String),
      expires_at: expect.any(Number),
      methods: ['totp', 'recovery_code'],
    });
    expect(challenge.body.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000));
    expect(challenge.body.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + MFA.challengeTtlSeconds + 1);
    expect(challenge.refreshCookie).toBeNull();
    expect(await sessionsOf(person.id)).toBe(0);
    // Only the token's hash is kept.
    const stored = await db().selectFrom('sign_in_challenges').select('token_hash').where('user_id', '=', person.id).execute();
    expect(stored).toEqual([{ token_hash: hashToken(challenge.body.challenge_token) }]);

    const signedIn = await answer(challenge.body.challenge_token, 'totp', await codeAt(person.secret));
    expect(signedIn.status).toBe(200);
    expect(signedIn.refreshCookie).toMatch(/^refresh_token=/);
    expect(signedIn.body.user.email).toBe(person.email);
    const me = await w.t.request('GET', '/api/users/me', undefined, { token: signedIn.body.access_token });
    expect(me.status).toBe(200);
    expect(await sessionsOf(person.id)).toBe(1);
    expect(await auditOf(person.id, 'auth.mfa_sign_in')).toEqual([{ actor_user_id: person.id, details: { method: 'totp' } }]);

    // The challenge answered once is spent: it starts no second session.
    const again = await answer(challenge.body.challenge_token, 'totp', await codeAt(person.secret, 1));
    expect(again.status).toBe(401);
    expect(again.body.error).toMatchObject({ code: 'challenge_expired', message: MESSAGES.auth.challengeExpired });
    expect(await sessionsOf(person.id)).toBe(1);
  });

  it('never accepts a code of the app twice, nor one of a step before the last accepted', async () => {
    const person = await personWithApp();
    const next = await codeAt(person.secret, 1);
    const first = await challengeFor(person.email);
    expect((await answer(first.body.challenge_token, 'totp', next)).status).toBe(200);

    const second = await challengeFor(person.email);
    const replayed = await answer(second.body.challenge_token, 'totp', next);
    expect(replayed.status).toBe(401);
    expect(replayed.body.error).toMatchObject({ code: 'code_wrong', message: MESSAGES.auth.codeWrong });
    // The current step is before the accepted one: refused too, though within the window.
    const earlier = await answer(second.body.challenge_token, 'totp', await codeAt(person.secret, 0));
    expect(earlier.status).toBe(401);
    expect(earlier.body.error.code).toBe('code_wrong');
    expect(await sessionsOf(person.id)).toBe(1);
  });

  it('refuses a code from two steps away', async () => {
    const person = await personWithApp();
    const challenge = await challengeFor(person.email);
    for (const offset of [-3, 3]) {
      const response = await answer(challenge.body.challenge_token, 'totp', await codeAt(person.secret, offset));
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('code_wrong');
    }
    expect(await sessionsOf(person.id)).toBe(0);
  });

  it('takes a recovery code once, in any case and with spaces or dashes, then refuses it', async () => {
    const person = await personWithApp();
    const code = person.codes[0]!;
    expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const typed = ` ${code.replace('-', ' ').toUpperCase()} `;
    const first = await challengeFor(person.email);
    const signedIn = await answer(first.body.challenge_token, 'recovery_code', typed);
    expect(signedIn.status).toBe(200);
    expect(signedIn.refreshCookie).toMatch(/^refresh_token=/);
    expect(await auditOf(person.id, 'auth.mfa_sign_in')).toEqual([{ actor_user_id: person.id, details: { method: 'recovery_code' } }]);
    const used = await db()
      .selectFrom('recovery_codes')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', person.id)
      .where('used_at', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(used.n).toBe(1);

    const second = await challengeFor(person.email);
    const reused = await answer(second.body.challenge_token, 'recovery_code', code);
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe('code_wrong');
    // Another unused code still works.
    expect((await answer(second.body.challenge_token, 'recovery_code', person.codes[1]!)).status).toBe(200);
  });

  it('voids a challenge at its fifth wrong code, audits each, and then refuses even the right code', async () => {
    const person = await personWithApp();
    const challenge = await challengeFor(person.email);
    const statuses: string[] = [];
    for (let i = 0; i < MFA.attemptsPerChallenge; i++) {
      const response = await answer(challenge.body.challenge_token, 'recovery_code', 'aaaaa-aaaaa');
      statuses.push(`${response.status} ${response.body.error.code}`);
    }
    expect(statuses).toEqual([...Array(MFA.attemptsPerChallenge - 1).fill('401 code_wrong'), '401 challenge_expired']);
    const right = await answer(challenge.body.challenge_token, 'totp', await codeAt(person.secret));
    expect(right.status).toBe(401);
    expect(right.body.error.code).toBe('challenge_expired');
    expect(await sessionsOf(person.id)).toBe(0);
    const audited = await auditOf(person.id, 'auth.mfa_challenge_failed');
    expect(audited.map((a) => a.details)).toEqual(
      Array.from({ length: MFA.attemptsPerChallenge }, (_, i) => ({ method: 'recovery_code', failures: i + 1 })),
    );
    // Nobody is named as the actor: whoever typed the codes is not known.
    expect(audited.every((a) => a.actor_user_id === null)).toBe(true);
  });

  it("bounds a person's wrong codes across challenges, in the shared counter: past the allowance even a right code gets 429", async () => {
    const person = await personWithApp();
    const first = await challengeFor(person.email);
    for (let i = 0; i < MFA.attemptsPerChallenge; i++) await answer(first.body.challenge_token, 'totp', '000000');
    const second = await challengeFor(person.email);
    for (let i = MFA.attemptsPerChallenge; i < PER_PERSON; i++) {
      expect((await answer(second.body.challenge_token, 'totp', '000000')).status).toBe(401);
    }
    const refused = await answer(second.body.challenge_token, 'totp', await codeAt(person.secret));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await sessionsOf(person.id)).toBe(0);
    // Counted in the database every server process shares, not in this process's memory.
    const counted = await db()
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', `second-factor:person:${person.id}`)
      .executeTakeFirstOrThrow();
    expect(counted.count).toBe(PER_PERSON);
    // The refused attempt changed nothing: the challenge still has its two wrong codes.
    const row = await db()
      .selectFrom('sign_in_challenges')
      .select(['failures', 'used_at'])
      .where('token_hash', '=', hashToken(second.body.challenge_token))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ failures: PER_PERSON - MFA.attemptsPerChallenge, used_at: null });
  });

  it('refuses an expired challenge and an unknown one alike', async () => {
    const person = await personWithApp();
    const challenge = await challengeFor(person.email);
    await db()
      .updateTable('sign_in_challenges')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('token_hash', '=', hashToken(challenge.body.challenge_token))
      .execute();
    const expired = await answer(challenge.body.challenge_token, 'totp', await codeAt(person.secret));
    expect(expired.status).toBe(401);
    expect(expired.body.error).toMatchObject({ code: 'challenge_expired', message: MESSAGES.auth.challengeExpired });
    const unknown = await answer('x'.repeat(43), 'totp', await codeAt(person.secret));
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('challenge_expired');
    expect(await sessionsOf(person.id)).toBe(0);
  });

  it('refuses the answer of a person deactivated since the password', async () => {
    const person = await personWithApp();
    const challenge = await challengeFor(person.email);
    await db().updateTable('users').set({ status: 'inactive' }).where('id', '=', person.id).execute();
    const response = await answer(challenge.body.challenge_token, 'totp', await codeAt(person.secret));
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('account_inactive');
    expect(await sessionsOf(person.id)).toBe(0);
  });

  it('answers a malformed answer with 400, never 500', async () => {
    for (const body of [{}, { challenge_token: 'x', method: 'sms', code: '1' }, { challenge_token: 'x', method: 'totp', code: '' }]) {
      expect((await w.t.request('POST', '/api/auth/sign-in/second-factor', body)).status).toBe(400);
    }
  });
});

describe('second-factor codes per client address', () => {
  let narrow: TestApp;
  beforeAll(async () => {
    narrow = await createTestApp({ rateLimits: { secondFactorPerAddress: 3 } });
  });
  afterAll(async () => {
    await narrow?.close();
  });

  it('are bounded whatever the challenge: past the allowance 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await narrow.request('POST', '/api/auth/sign-in/second-factor', {
        challenge_token: `token-${i}`,
        method: 'totp',
        code: '123456',
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});
