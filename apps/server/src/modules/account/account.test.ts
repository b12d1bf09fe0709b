import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { generate } from 'otplib';
import { MESSAGES, MFA, type ActivityAction } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { secretSealer } from '../../lib/sealer.ts';

/**
 * A person's own second factors (set up, confirm, remove, renew the recovery codes) and
 * sessions (list, end one, end the others), and an admin ending a person's sessions.
 * Wrong codes count against the person's allowance (five here).
 */
const PER_PERSON = 5;
const w = useWorld({ rateLimits: { secondFactorPerPerson: PER_PERSON } });
const db = () => w.t.database.db;

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0';

const codeAt = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * MFA.totpStepSeconds });

let people = 0;
/** A new person of Agency One. */
async function newPerson(role = 'agency_user') {
  const email = `account-${++people}@a1.test`;
  const { id } = await insertUser(db(), { email, password: PASSWORD, role, organizationId: w.id('A1') });
  return { id, email };
}

/** Signs in with the password only (the person has no app yet), from a given browser. */
async function signIn(email: string, userAgent = CHROME_LINUX) {
  const response = await w.t.request('POST', '/api/auth/sign-in', { email, password: PASSWORD }, { headers: { 'user-agent': userAgent } });
  expect(response.status).toBe(200);
  return response.body.access_token as string;
}

const call = (token: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token });
const works = async (token: string) => (await call(token, 'GET', '/api/users/me')).status === 200;

/** Starts and confirms an app for the person signed in with `token`: its secret and recovery codes. */
async function enroll(token: string) {
  const started = await call(token, 'POST', '/api/account/factors/totp', { current_password: PASSWORD });
  expect(started.status).toBe(200);
  const confirmed = await call(token, 'POST', '/api/account/factors/totp/confirm', { code: await codeAt(started.body.secret) });
  expect(confirmed.status).toBe(200);
  return { secret: started.body.secret as string, codes: confirmed.body.recovery_codes as string[] };
}

const auditOf = (userId: string, action: ActivityAction) =>
  db().selectFrom('audit_log').select(['actor_user_id', 'details']).where('target_id', '=', userId).where('action', '=', action).execute();

describe('setting up an authenticator app', () => {
  it('asks for the password again, and shows the secret, its otpauth URI and QR code; the secret is sealed at rest', async () => {
    const person = await newPerson();
    const token = await signIn(person.email);
    const wrong = await call(token, 'POST', '/api/account/factors/totp', { current_password: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ current_password: MESSAGES.auth.currentPasswordWrong });
    expect(await db().selectFrom('totp_factors').select('user_id').where('user_id', '=', person.id).execute()).toEqual([]);

    const started = await call(token, 'POST', '/api/account/factors/totp', { current_password: PASSWORD });
    expect(started.status).toBe(200);
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(started.body.otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(decodeURIComponent(uri.pathname)).toBe(`/${MFA.issuer}:${person.email}`);
    expect(uri.searchParams.get('secret')).toBe(started.body.secret);
    expect(uri.searchParams.get('issuer')).toBe(MFA.issuer);
    expect(started.body.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const expiresIn = new Date(started.body.expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan((MFA.enrollmentTtlSeconds - 60) * 1000);
    expect(expiresIn).toBeLessThanOrEqual(MFA.enrollmentTtlSeconds * 1000);

    const row = await db().selectFrom('totp_factors').selectAll().where('user_id', '=', person.id).executeTakeFirstOrThrow();
    expect(row.confirmed_at).toBeNull();
    expect(row.secret_sealed).not.toContain(started.body.secret);
    expect(secretSealer(w.t.jwtSecret, 'totp-secrets').open(row.secret_sealed)).toBe(started.body.secret);
    // Sealed under its own key: the webhook secrets' key does not open it.
    expect(secretSealer(w.t.jwtSecret).open(row.secret_sealed)).toBeNull();
    // Pending: a sign-in still gives a session at once.
    expect(await signIn(person.email)).toEqual(expect.any(String));
  });

  it('is confirmed by a code from the app: ten recovery codes once, the other sessions end, and sign-in asks for the factor', async () => {
    const person = await newPerson();
    const other = await signIn(person.email, FIREFOX_MAC);
    const token = await signIn(person.email);
    const started = await call(token, 'POST', '/api/account/factors/totp', { current_password: PASSWORD });
    const wrong = await call(token, 'POST', '/api/account/factors/totp/confirm', { code: '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toMatchObject({ code: 'code_wrong', message: MESSAGES.auth.codeWrong });
    expect(await works(other)).toBe(true);

    const confirmed = await call(token, 'POST', '/api/account/factors/totp/confirm', { code: await codeAt(started.body.secret) });
    expect(confirmed.status).toBe(200);
    const codes: string[] = confirmed.body.recovery_codes;
    expect(codes).toHaveLength(MFA.recoveryCodeCount);
    expect(new Set(codes).size).toBe(MFA.recoveryCodeCount);
    // Only hashes are kept.
    const stored = await db().selectFrom('recovery_codes').select('code_hash').where('user_id', '=', person.id).execute();
    expect(stored).toHaveLength(MFA.recoveryCodeCount);
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.slice(0, 5));
    expect(await works(other)).toBe(false);
    expect(await works(token)).toBe(true);
    expect(await auditOf(person.id, 'auth.mfa_enrolled')).toEqual([{ actor_user_id: person.id, details: {} }]);

    const factors = await call(token, 'GET', '/api/account/factors');
    expect(factors.body).toEqual({
      totp: { enrolled: true, enrolled_at: expect.any(String) },
      recovery_codes: { left: MFA.recoveryCodeCount, created_at: expect.any(String) },
      passkeys: { count: 0 },
    });
    const signInNow = await w.t.request('POST', '/api/auth/sign-in', { email: person.email, password: PASSWORD });
    expect(signInNow.body).toMatchObject({ mfa_required: true });

    // A confirmed app is neither started again nor confirmed again.
    const restart = await call(token, 'POST', '/api/account/factors/totp', { current_password: PASSWORD });
    expect(restart.status).toBe(409);
    expect(restart.body.error.message).toBe(MESSAGES.auth.totpAlreadyEnrolled);
    const reconfirm = await call(token, 'POST', '/api/account/factors/totp/confirm', { code: await codeAt(started.body.secret, 1) });
    expect(reconfirm.status).toBe(409);
    expect(reconfirm.body.error.message).toBe(MESSAGES.auth.totpAlreadyEnrolled);
  });

  it('cannot be confirmed when not started, or started too long ago', async () => {
    const person = await newPerson();
    const token = await signIn(person.email);
    const none = await call(token, 'POST', '/api/account/factors/totp/confirm', { code: '123456' });
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe(MESSAGES.auth.totpNotStarted);
    const started = await call(token, 'POST', '/api/account/factors/totp', { current_password: PASSWORD });
    await db()
      .updateTable('totp_factors')
      .set({ created_at: sql`now() - ${MFA.enrollmentTtlSeconds + 1} * interval '1 second'` })
      .where('user_id', '=', person.id)
      .execute();
    const late = await call(token, 'POST', '/api/account/factors/totp/confirm', { code: await codeAt(started.body.secret) });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe(MESSAGES.auth.totpNotStarted);
    expect((await call(token, 'GET', '/api/account/factors')).body.totp.enrolled).toBe(false);
  });

  it("counts wrong codes against the person's allowance: past it even the right code gets 429", async () => {
    const person = await newPerson();
    const token = await signIn(person.email);
    const started = await call(token, 'POST', '/api/account/factors/totp', { current_password: PASSWORD });
    for (let i = 0; i < PER_PERSON; i++) {
      expect((await call(token, 'POST', '/api/account/factors/totp/confirm', { code: '000000' })).status).toBe(422);
    }
    const right = await call(token, 'POST', '/api/account/factors/totp/confirm', { code: await codeAt(started.body.secret) });
    expect(right.status).toBe(429);
    expect((await call(token, 'GET', '/api/account/factors')).body.totp.enrolled).toBe(false);
  });
});

describe('removing the app and renewing the recovery codes', () => {
  it('renews the codes with a current code: the old ones stop working, the new ones answer a sign-in', async () => {
    const person = await newPerson();
    const token = await signIn(person.email);
    const { secret, codes } = await enroll(token);
    const wrong = await call(token, 'POST', '/api/account/factors/recovery-codes', { code: '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe('code_wrong');
    const renewed = await call(token, 'POST', '/api/account/factors/recovery-codes', { code: await codeAt(secret, 1) });
    expect(renewed.status).toBe(200);
    const fresh: string[] = renewed.body.recovery_codes;
    expect(fresh).toHaveLength(MFA.recoveryCodeCount);
    expect(fresh.some((code) => codes.includes(code))).toBe(false);
    expect(await auditOf(person.id, 'auth.recovery_codes_regenerated')).toEqual([
      { actor_user_id: person.id, details: { method: 'totp' } },
    ]);

    const challenge = (await w.t.request('POST', '/api/auth/sign-in', { email: person.email, password: PASSWORD })).body;
    const old = await w.t.request('POST', '/api/auth/sign-in/second-factor', {
      challenge_token: challenge.challenge_token,
      method: 'recovery_code',
      code: codes[0],
    });
    expect(old.status).toBe(401);
    const now = await w.t.request('POST', '/api/auth/sign-in/second-factor', {
      challenge_token: challenge.challenge_token,
      method: 'recovery_code',
      code: fresh[0],
    });
    expect(now.status).toBe(200);
  });

  it('removes the app and its codes with a recovery code; other sessions end; the password alone signs in again', async () => {
    const person = await newPerson();
    const token = await signIn(person.email);
    const { codes } = await enroll(token);
    const challenge = (await w.t.request('POST', '/api/auth/sign-in', { email: person.email, password: PASSWORD })).body;
    const other = await w.t.request('POST', '/api/auth/sign-in/second-factor', {
      challenge_token: challenge.challenge_token,
      method: 'recovery_code',
      code: codes[0],
    });
    expect(await works(other.body.access_token)).toBe(true);

    const wrong = await call(token, 'POST', '/api/account/factors/totp/remove', { code: 'zzzzz-zzzzz' });
    expect(wrong.status).toBe(422);
    const removed = await call(token, 'POST', '/api/account/factors/totp/remove', { code: codes[1]!.toUpperCase() });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true });
    expect(await db().selectFrom('totp_factors').select('user_id').where('user_id', '=', person.id).execute()).toEqual([]);
    expect(await db().selectFrom('recovery_codes').select('id').where('user_id', '=', person.id).execute()).toEqual([]);
    expect(await works(other.body.access_token)).toBe(false);
    expect(await works(token)).toBe(true);
    expect(await auditOf(person.id, 'auth.mfa_removed')).toEqual([{ actor_user_id: person.id, details: { method: 'recovery_code' } }]);
    expect((await call(token, 'GET', '/api/account/factors')).body).toEqual({
      totp: { enrolled: false, enrolled_at: null },
      recovery_codes: { left: 0, created_at: null },
      passkeys: { count: 0 },
    });
    expect(await signIn(person.email)).toEqual(expect.any(String));

    for (const path of ['/api/account/factors/totp/remove', '/api/account/factors/recovery-codes']) {
      const without = await call(token, 'POST', path, { code: '123456' });
      expect(without.status).toBe(409);
      expect(without.body.error.message).toBe(MESSAGES.auth.totpNotEnrolled);
    }
  });
});

describe("a person's own sessions", () => {
  it('lists the live ones with their device, marks the current one, and ends one or all the others', async () => {
    const person = await newPerson();
    const firefox = await signIn(person.email, FIREFOX_MAC);
    const spare = await signIn(person.email, FIREFOX_MAC);
    const token = await signIn(person.email, CHROME_LINUX);
    const listed = await call(token, 'GET', '/api/account/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(3);
    const current = listed.body.items.filter((s: any) => s.current);
    expect(current).toEqual([
      {
        id: expect.any(String),
        device: 'Chrome on Linux',
        ip: '127.0.0.1',
        started_at: expect.any(String),
        last_active_at: expect.any(String),
        current: true,
      },
    ]);
    const others = listed.body.items.filter((s: any) => !s.current);
    expect(others.map((s: any) => s.device)).toEqual(['Firefox on macOS', 'Firefox on macOS']);

    // Ending one: its access token stops at once.
    const [first] = await db().selectFrom('refresh_sessions').select('id').where('user_id', '=', person.id).orderBy('created_at').execute();
    const ended = await call(token, 'DELETE', `/api/account/sessions/${first!.id}`);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ended: 1 });
    expect(await works(firefox)).toBe(false);
    expect(await works(spare)).toBe(true);
    const twice = await call(token, 'DELETE', `/api/account/sessions/${first!.id}`);
    expect(twice.status).toBe(404);
    expect(twice.body.error.message).toBe(MESSAGES.auth.sessionNotFound);

    // Another person's session is not found either, and stays.
    const stranger = await newPerson();
    const theirs = await signIn(stranger.email);
    const theirId = (await db().selectFrom('refresh_sessions').select('id').where('user_id', '=', stranger.id).executeTakeFirstOrThrow())
      .id;
    expect((await call(token, 'DELETE', `/api/account/sessions/${theirId}`)).status).toBe(404);
    expect(await works(theirs)).toBe(true);

    const rest = await call(token, 'POST', '/api/account/sessions/end-others');
    expect(rest.body).toEqual({ ended: 1 });
    expect(await works(spare)).toBe(false);
    expect(await works(token)).toBe(true);
    expect((await call(token, 'GET', '/api/account/sessions')).body.items.map((s: any) => s.current)).toEqual([true]);
    expect((await auditOf(person.id, 'auth.sessions_ended')).map((a) => a.details)).toEqual([
      { count: 1, by: 'self' },
      { count: 1, by: 'self' },
    ]);
  });

  it('end when the password changes, all but the one that changed it', async () => {
    const person = await newPerson();
    const other = await signIn(person.email);
    const token = await signIn(person.email);
    const changed = await call(token, 'POST', '/api/auth/password', { current_password: PASSWORD, password: 'a new password 123' });
    expect(changed.status).toBe(200);
    expect(await works(other)).toBe(false);
    expect((await call(token, 'GET', '/api/account/sessions')).body.items).toHaveLength(1);
  });
});

describe("an admin ends a person's sessions", () => {
  it('for a person of their organization or a child: every session ends at once, audited', async () => {
    const person = await w.t.signIn(w.world.users['T1.user']!, PASSWORD);
    const again = await w.t.signIn(w.world.users['T1.user']!, PASSWORD);
    const targetId = (await db().selectFrom('users').select('id').where('email', '=', w.world.users['T1.user']!).executeTakeFirstOrThrow())
      .id;
    const admin = await w.t.signIn(w.world.users['A1.admin']!, PASSWORD);
    const ended = await call(admin.token, 'POST', `/api/users/${targetId}/sessions/end`);
    expect(ended.status).toBe(200);
    expect(ended.body.ended).toBeGreaterThanOrEqual(2);
    expect(await works(person.token)).toBe(false);
    expect(await works(again.token)).toBe(false);
    expect(await works(admin.token)).toBe(true);
    const audited = await db()
      .selectFrom('audit_log')
      .select(['actor_user_id', 'details'])
      .where('target_id', '=', targetId)
      .where('action', '=', 'auth.sessions_ended')
      .execute();
    const adminId = (await db().selectFrom('users').select('id').where('email', '=', w.world.users['A1.admin']!).executeTakeFirstOrThrow())
      .id;
    expect(audited).toEqual([{ actor_user_id: adminId, details: { count: ended.body.ended, by: 'admin' } }]);
  });

  it('is refused outside their reach, for themselves, and without the permission', async () => {
    const admin = await w.t.signIn(w.world.users['A1.admin']!, PASSWORD);
    const idOf = async (key: string) =>
      (await db().selectFrom('users').select('id').where('email', '=', w.world.users[key]!).executeTakeFirstOrThrow()).id;
    const other = await insertUser(db(), {
      email: 'outsider@sa3.test',
      password: PASSWORD,
      role: 'super_agency_user',
      organizationId: w.id('SA3'),
    });
    const outsider = await w.t.signIn('outsider@sa3.test', PASSWORD);
    expect((await call(admin.token, 'POST', `/api/users/${other.id}/sessions/end`)).status).toBe(404);
    expect((await call(admin.token, 'POST', `/api/users/${await idOf('SA1.user')}/sessions/end`)).status).toBe(404);
    expect(await works(outsider.token)).toBe(true);
    expect((await call(admin.token, 'POST', `/api/users/${await idOf('A1.admin')}/sessions/end`)).status).toBe(403);
    expect(await works(admin.token)).toBe(true);
    const manager = await w.t.signIn(w.world.users['A1.manager']!, PASSWORD);
    const target = await w.t.signIn(w.world.users['A1.user']!, PASSWORD);
    expect((await call(manager.token, 'POST', `/api/users/${await idOf('A1.user')}/sessions/end`)).status).toBe(403);
    expect(await works(target.token)).toBe(true);
  });
});
