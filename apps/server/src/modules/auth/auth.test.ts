import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { MESSAGES, decodeJwtPart, normalizeClaims } from '@console/domain';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { houseId, insertOrg, insertUser } from '../../test/fixtures.ts';
import { hashToken } from '../../lib/secrets.ts';
import { CONSOLE_VERSION } from '../../lib/version.ts';
import { listMigrations } from '../../db/migrate.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const expectErrorShape = (body: any, code?: string) => {
  expect(body).toEqual({ error: expect.objectContaining({ code: code ?? expect.any(String), message: expect.any(String) }) });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
};

async function countRows(table: 'refresh_sessions' | 'one_time_tokens' | 'audit_log' | 'users') {
  const row = await t.database.db.selectFrom(table).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}

async function mailCount(email: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('outbox')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('to_address', '=', email)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Asks for a reset link; the mail is sent after the answer, so this waits for it to arrive. */
async function recover(email: string) {
  const before = await mailCount(email);
  const response = await t.request('POST', '/api/auth/recover', { email });
  expect(response.status).toBe(200);
  await expect.poll(() => mailCount(email), { timeout: 10_000 }).toBe(before + 1);
  return response;
}

/** The token of the newest reset link mailed to an address, read from the outbox as its owner would. */
async function latestResetToken(email: string): Promise<string> {
  const message = await t.database.db
    .selectFrom('outbox')
    .select('link')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  expect(message?.link, `a reset message to ${email}`).toBeTruthy();
  const token = new URL(message!.link!).hash.match(/access_token=([^&]+)/)![1]!;
  expect(message!.link).toContain('#access_token=');
  expect(message!.link).toContain('type=recovery');
  return token;
}

describe('sign-in', () => {
  it('returns a session whose token carries the server-owned claims, and an httpOnly refresh cookie', async () => {
    const response = await t.request('POST', '/api/auth/sign-in', t.admin);
    expect(response.status).toBe(200);
    expect(response.body.token_type).toBe('bearer');
    expect(response.body.expires_in).toBe(900);
    expect(response.body.user).toMatchObject({ email: t.admin.email, role: 'house_admin', avatar_url: null });
    expect(response.body.user.last_login_at).not.toBeNull();
    const payload = decodeJwtPart(response.body.access_token, 1)!;
    expect(payload.app_metadata).toEqual({
      role: 'house_admin',
      org_id: response.body.user.organization_id,
      org_type: 'house',
      org_name: 'House',
    });
    expect((payload.exp as number) - (payload.iat as number)).toBe(900);
    expect(normalizeClaims(payload).claims).toMatchObject({ role: 'house_admin', isHouseRole: true });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('refresh_token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const response = await t.request('POST', '/api/auth/sign-in', {
      email: `  ${t.admin.email.toUpperCase()} `,
      password: t.admin.password,
    });
    expect(response.status).toBe(200);
  });

  it('gives the same answer for an unknown e-mail and a wrong password, and writes no session', async () => {
    const before = await countRows('refresh_sessions');
    const unknown = await t.request('POST', '/api/auth/sign-in', { email: 'nobody@example.test', password: 'whatever1' });
    const wrong = await t.request('POST', '/api/auth/sign-in', { email: t.admin.email, password: 'wrong password' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.error.message).toBe(MESSAGES.auth.invalidCredentials);
    expect(await countRows('refresh_sessions')).toBe(before);
  });

  it('refuses missing fields, malformed JSON and an over-long e-mail with a clear 400', async () => {
    const missing = await t.request('POST', '/api/auth/sign-in', {});
    expect(missing.status).toBe(400);
    expectErrorShape(missing.body, 'validation_failed');
    expect(missing.body.error.fields).toMatchObject({ email: expect.any(String), password: expect.any(String) });

    const malformed = await t.request('POST', '/api/auth/sign-in', undefined, { raw: '{"email": "a@b.c",' });
    expect(malformed.status).toBe(400);
    expectErrorShape(malformed.body, 'bad_request');

    const long = await t.request('POST', '/api/auth/sign-in', { email: `${'a'.repeat(250)}@example.test`, password: 'x' });
    expect(long.status).toBe(400);
    expect(long.body.error.fields.email).toBe(MESSAGES.auth.invalidEmail);

    const wrongType = await t.request('POST', '/api/auth/sign-in', { email: 42, password: ['x'] });
    expect(wrongType.status).toBe(400);
    expectErrorShape(wrongType.body, 'validation_failed');
  });

  it('refuses a deactivated user, and ends what that user already holds', async () => {
    const org = await insertOrg(t.database.db, { name: 'Sub One', type: 'super_agency', parentId: await houseId(t.database.db) });
    const user = await insertUser(t.database.db, {
      email: 'leaver@example.test',
      password: 'password-1',
      role: 'super_agency_user',
      organizationId: org.id,
    });
    const session = await t.signIn('leaver@example.test', 'password-1');
    await t.database.db.updateTable('users').set({ status: 'inactive' }).where('id', '=', user.id).execute();

    const again = await t.request('POST', '/api/auth/sign-in', { email: 'leaver@example.test', password: 'password-1' });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('account_inactive');
    expect((await t.request('GET', '/api/users/me', undefined, { token: session.token })).status).toBe(401);
    expect((await t.request('POST', '/api/auth/refresh', undefined, { cookie: session.cookie })).status).toBe(401);
  });
});

describe('access tokens', () => {
  it('read the caller from the database', async () => {
    const { token } = await t.signIn(t.admin.email, t.admin.password);
    const me = await t.request('GET', '/api/users/me', undefined, { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: t.admin.email, organization: { org_type: 'house', name: 'House' } });
  });

  it('refuses no token, garbage, another key, alg none and an expired token', async () => {
    const { token, body } = await t.signIn(t.admin.email, t.admin.password);
    const payload = decodeJwtPart(token, 1)!;
    const otherKey = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(40)));
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${token.split('.')[1]}.`;
    const expiredPayload = { ...payload, iat: 1, exp: 2 };
    const tampered = `${token.split('.')[0]}.${Buffer.from(JSON.stringify({ ...payload, sub: body.user.id, app_metadata: {}, exp: 9999999999 })).toString('base64url')}.${token.split('.')[2]}`;
    const expired = await new SignJWT(expiredPayload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('y'.repeat(40)));
    for (const candidate of [undefined, 'garbage', otherKey, none, tampered, expired]) {
      const response = await t.request('GET', '/api/users/me', undefined, { token: candidate });
      expect(response.status, String(candidate)).toBe(401);
      expectErrorShape(response.body);
    }
  });
});

describe('refresh', () => {
  it('rotates the token; replaying a used one after the grace period revokes the whole session', async () => {
    const first = await t.signIn(t.admin.email, t.admin.password);
    const rotated = await t.request('POST', '/api/auth/refresh', undefined, { cookie: first.cookie });
    expect(rotated.status).toBe(200);
    expect(rotated.refreshCookie).not.toBe(first.cookie);
    expect(rotated.body.access_token).toEqual(expect.any(String));

    // The first cookie was rotated longer ago than two tabs refreshing at once would explain.
    await t.database.db
      .updateTable('refresh_tokens')
      .set({ used_at: sql<Date>`now() - interval '1 minute'` })
      .where('token_hash', '=', hashToken(decodeURIComponent(first.cookie.split('=')[1]!)))
      .execute();
    const replay = await t.request('POST', '/api/auth/refresh', undefined, { cookie: first.cookie });
    expect(replay.status).toBe(401);
    // The thief's replay also killed the legitimate holder's newer token and access token.
    expect((await t.request('POST', '/api/auth/refresh', undefined, { cookie: rotated.refreshCookie! })).status).toBe(401);
    expect((await t.request('GET', '/api/users/me', undefined, { token: rotated.body.access_token })).status).toBe(401);
  });

  it('keeps only hashes of refresh tokens', async () => {
    const { cookie } = await t.signIn(t.admin.email, t.admin.password);
    const raw = decodeURIComponent(cookie.split('=')[1]!);
    const stored = await t.database.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).toContain(hashToken(raw));
    expect(stored.map((r) => r.token_hash)).not.toContain(raw);
  });

  it('answers 401 without a cookie', async () => {
    const response = await t.request('POST', '/api/auth/refresh');
    expect(response.status).toBe(401);
    expectErrorShape(response.body);
  });
});

describe('sign-out', () => {
  it('revokes the session: its access token and refresh token stop working', async () => {
    const { token, cookie } = await t.signIn(t.admin.email, t.admin.password);
    const out = await t.request('POST', '/api/auth/sign-out', undefined, { token, cookie });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join()).toMatch(/refresh_token=;/);
    expect((await t.request('GET', '/api/users/me', undefined, { token })).status).toBe(401);
    expect((await t.request('POST', '/api/auth/refresh', undefined, { cookie })).status).toBe(401);
  });

  it('works with only the cookie (an expired access token must not block it)', async () => {
    const { token, cookie } = await t.signIn(t.admin.email, t.admin.password);
    expect((await t.request('POST', '/api/auth/sign-out', undefined, { cookie })).status).toBe(200);
    expect((await t.request('GET', '/api/users/me', undefined, { token })).status).toBe(401);
  });
});

describe('password recovery', () => {
  const email = 'forgetful@example.test';
  beforeAll(async () => {
    await insertUser(t.database.db, { email, password: 'old-password', role: 'house_user', organizationId: await houseId(t.database.db) });
  });

  it('answers the same for unknown and known e-mails, and mails a link only to the known one', async () => {
    const tokensBefore = await countRows('one_time_tokens');
    const unknown = await t.request('POST', '/api/auth/recover', { email: 'ghost@example.test' });
    const known = await recover(email);
    expect(await countRows('one_time_tokens')).toBe(tokensBefore + 1);
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(known.body.message).toBe(MESSAGES.auth.resetSent);
    const token = await latestResetToken(email);
    const stored = await t.database.db.selectFrom('one_time_tokens').select(['token_hash', 'expires_at', 'created_at']).execute();
    expect(stored.some((r) => r.token_hash === hashToken(token))).toBe(true);
    const row = stored.find((r) => r.token_hash === hashToken(token))!;
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBeGreaterThan(59 * 60_000);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBeLessThanOrEqual(60 * 60_000 + 1000);
  });

  it('sets the new password once, ends every session, and refuses the link a second time', async () => {
    const session = await t.signIn(email, 'old-password');
    await recover(email);
    const token = await latestResetToken(email);

    const short = await t.request('POST', '/api/auth/password', { token, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error.fields.password).toBe(MESSAGES.auth.passwordTooShort);

    const reset = await t.request('POST', '/api/auth/password', { token, password: 'new-password-1' });
    expect(reset.status).toBe(200);
    expect((await t.request('GET', '/api/users/me', undefined, { token: session.token })).status).toBe(401);
    expect((await t.request('POST', '/api/auth/sign-in', { email, password: 'old-password' })).status).toBe(401);
    expect((await t.request('POST', '/api/auth/sign-in', { email, password: 'new-password-1' })).status).toBe(200);

    const reused = await t.request('POST', '/api/auth/password', { token, password: 'another-password' });
    expect(reused.status).toBe(400);
    expect(reused.body.error.message).toBe(MESSAGES.auth.invalidResetLink);
    expect((await t.request('POST', '/api/auth/sign-in', { email, password: 'new-password-1' })).status).toBe(200);
  });

  it('refuses an expired link and an invented one, changing nothing', async () => {
    await recover(email);
    const token = await latestResetToken(email);
    await t.database.db
      .updateTable('one_time_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashToken(token))
      .execute();
    for (const candidate of [token, 'invented-token']) {
      const response = await t.request('POST', '/api/auth/password', { token: candidate, password: 'hijacked-password' });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe(MESSAGES.auth.invalidResetLink);
    }
    expect((await t.request('POST', '/api/auth/sign-in', { email, password: 'hijacked-password' })).status).toBe(401);
  });

  it('lets a signed-in user change the password, ending their other sessions only', async () => {
    const current = await t.signIn(email, 'new-password-1');
    const other = await t.signIn(email, 'new-password-1');
    const changed = await t.request(
      'POST',
      '/api/auth/password',
      { password: 'changed-password', current_password: 'new-password-1' },
      { token: current.token },
    );
    expect(changed.status).toBe(200);
    expect((await t.request('GET', '/api/users/me', undefined, { token: current.token })).status).toBe(200);
    expect((await t.request('GET', '/api/users/me', undefined, { token: other.token })).status).toBe(401);
    expect(
      (await t.request('POST', '/api/auth/password', { password: 'no-bearer-here', current_password: 'changed-password' })).status,
    ).toBe(401);
  });
});

describe('debug outbox', () => {
  it('is for house admins only', async () => {
    const org = await insertOrg(t.database.db, { name: 'Sub Two', type: 'super_agency', parentId: await houseId(t.database.db) });
    await insertUser(t.database.db, {
      email: 'sa-admin@example.test',
      password: 'password-1',
      role: 'super_agency_admin',
      organizationId: org.id,
    });
    await insertUser(t.database.db, {
      email: 'house-user@example.test',
      password: 'password-1',
      role: 'house_user',
      organizationId: await houseId(t.database.db),
    });
    for (const email of ['sa-admin@example.test', 'house-user@example.test']) {
      const { token } = await t.signIn(email, 'password-1');
      const response = await t.request('GET', '/api/debug/outbox', undefined, { token });
      expect(response.status, email).toBe(403);
      expectErrorShape(response.body, 'forbidden');
    }
    expect((await t.request('GET', '/api/debug/outbox')).status).toBe(401);
  });
});

describe('the HTTP surface', () => {
  it('answers unknown /api paths with a JSON 404 in the error shape', async () => {
    const response = await t.request('GET', '/api/nothing-here');
    expect(response.status).toBe(404);
    expectErrorShape(response.body, 'not_found');
  });

  it('sends security headers on every response', async () => {
    for (const path of ['/api/health', '/api/nothing-here']) {
      const response = await t.request('GET', path);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('reports the database state', async () => {
    const response = await t.request('GET', '/api/health');
    expect(response.body).toEqual({
      status: 'ok',
      database: 'ok',
      version: CONSOLE_VERSION,
      schema_version: listMigrations().at(-1)!.version,
    });
  });

  it('publishes the OpenAPI document', async () => {
    const response = await t.request('GET', '/api/docs/json');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/api/auth/sign-in', '/api/users/me']));
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ rateLimits: { signInPerEmail: 3, signInPerAddress: 5, recoverPerEmail: 2, recoverPerAddress: 100 } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('limits sign-in per e-mail and per address with 429 and Retry-After', async () => {
    const attempt = (email: string) => limited.request('POST', '/api/auth/sign-in', { email, password: 'wrong-password' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt('target@example.test')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await attempt('target@example.test');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expectErrorShape(blocked.body, 'rate_limited');
    // Five attempts used up the address's allowance: another e-mail from it is refused too.
    expect((await attempt('other@example.test')).status).toBe(429);
  });

  it('limits recovery per e-mail', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await limited.request('POST', '/api/auth/recover', { email: 'x@example.test' })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
