/**
 * Sessions and secrets (issue 8, part 3), through HTTP on a real database.
 *
 * Already proven in modules/auth/auth.test.ts and not repeated here: a token signed with
 * another key, alg none or tampered is refused; one refresh rotation followed by a replay
 * revokes the session; sign-out with token and cookie, and with the cookie only; a reset
 * link works once and ends every access token, an expired or invented link is refused;
 * a password change ends the other sessions' access tokens; the sign-in cookie is
 * HttpOnly, SameSite=Strict, Path=/api/auth and not Secure on plain http.
 * In modules/invitations/invitations.test.ts: registration uses a token once; an
 * expired, revoked or unknown token is refused on accept; a resent link replaces the old.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { sql } from 'kysely';
import { MESSAGES, SESSION } from '@console/domain';
import { createTestApp, type ApiResponse, type TestApp } from '../test/harness.ts';
import { houseId, insertOrg, insertUser } from '../test/fixtures.ts';
import { hashToken } from '../lib/secrets.ts';

let t: TestApp;
let checks = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterEach(() => {
  checks += expect.getState().assertionCalls;
});
afterAll(async () => {
  console.log(`sessions.test.ts: ${checks} checks`);
  await t?.close();
});

const me = (token: string) => t.request('GET', '/api/users/me', undefined, { token });
const refresh = (cookie: string, app: TestApp = t) => app.request('POST', '/api/auth/refresh', undefined, { cookie });
const setCookie = (response: ApiResponse) => response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION.refreshCookie}=`)) ?? '';

function expectError(response: ApiResponse, status: number, code?: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error: expect.objectContaining({ code: code ?? expect.any(String), message: expect.any(String) }) });
}

/** A token signed with the app's own key: only the claims decide whether it passes. */
function forge(claims: Record<string, unknown>) {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(t.jwtSecret));
}

/** Dates a refresh cookie's rotation a minute back, past the grace period for concurrent refreshes. */
async function ageRotation(cookie: string) {
  const raw = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  await t.database.db
    .updateTable('refresh_tokens')
    .set({ used_at: sql<Date>`now() - interval '1 minute'` })
    .where('token_hash', '=', hashToken(raw))
    .execute();
}

let userCount = 0;
/** A fresh house user, so one test's revocations never touch another's sessions. */
async function newUser(password = 'user-password-1') {
  const email = `person${++userCount}@sessions.test`;
  await insertUser(t.database.db, { email, password, role: 'house_user', organizationId: await houseId(t.database.db) });
  return { email, password };
}

describe('access token expiry', () => {
  it('a token past its exp is refused, with the same key and a live session', async () => {
    const { token } = await t.signIn(t.admin.email, t.admin.password);
    const claims = decodeJwt(token);
    const now = Math.floor(Date.now() / 1000);
    // The same claims with a future exp pass: the key and session are right, only exp differs.
    expect((await me(await forge({ ...claims, exp: now + 60 }))).status).toBe(200);
    expectError(await me(await forge({ ...claims, iat: now - 901, exp: now - 1 })), 401, 'token_expired');
  });

  it('a token with malformed claims is refused with 401, never a 500', async () => {
    const { token } = await t.signIn(t.admin.email, t.admin.password);
    const { sub, sid, ...rest } = decodeJwt(token);
    const exp = Math.floor(Date.now() / 1000) + 600;
    const variants: Record<string, unknown>[] = [
      { ...rest, exp, sid },
      { ...rest, exp, sub },
      { ...rest, exp, sub: 42, sid },
      { ...rest, exp, sub, sid: 'not-a-uuid' },
      { ...rest, exp, sub: 'not-a-uuid', sid },
      { ...rest, exp, sub, sid: ['x'] },
      { ...rest, exp, sub: { id: sub }, sid },
      { ...rest, exp, sub, sid: `${String(sid)}' or '1'='1` },
      { ...rest, exp, sub, sid: '' },
    ];
    for (const claims of variants) expectError(await me(await forge(claims)), 401);
    // The same claims, well formed, pass: only the malformed one was refused.
    expect((await me(await forge({ ...rest, exp, sub, sid }))).status).toBe(200);
  });

  it('takes exactly "Bearer <token>": a second word after a valid token is refused, and the scheme in any case is read', async () => {
    const { token } = await t.signIn(t.admin.email, t.admin.password);
    const call = (authorization: string) => t.request('GET', '/api/users/me', undefined, { headers: { authorization } });
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    expect((await call(`bearer ${token}`)).status).toBe(200);
    for (const authorization of [`Bearer ${token} extra`, `Bearer ${token} ${token}`, `Bearer  ${token}`, `Bearer\t${token}`]) {
      expect((await call(authorization)).status, authorization.slice(0, 12)).toBe(401);
    }
  });

  it('a token without exp is refused even with the right key', async () => {
    const { token } = await t.signIn(t.admin.email, t.admin.password);
    const { exp: _exp, ...claims } = decodeJwt(token);
    expectError(await me(await forge(claims)), 401);
  });

  it('a real token works for 15 minutes, then the refresh cookie gets a new one', async () => {
    const { token, cookie } = await t.signIn(t.admin.email, t.admin.password);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(start + (SESSION.accessTokenTtlSeconds - 60) * 1000);
      expect((await me(token)).status).toBe(200);
      vi.setSystemTime(start + (SESSION.accessTokenTtlSeconds + 1) * 1000);
      expectError(await me(token), 401, 'token_expired');
      const renewed = await refresh(cookie);
      expect(renewed.status).toBe(200);
      expect((await me(renewed.body.access_token)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('refresh rotation', () => {
  it('every refresh gives a new cookie; replaying an older one kills the newest token and cookie, not other sessions', async () => {
    const user = await newUser();
    const other = await t.signIn(user.email, user.password);
    const first = await t.signIn(user.email, user.password);
    const cookies = [first.cookie];
    let access = first.token;
    for (let i = 0; i < 3; i++) {
      const rotated = await refresh(cookies.at(-1)!);
      expect(rotated.status).toBe(200);
      expect(cookies).not.toContain(rotated.refreshCookie);
      cookies.push(rotated.refreshCookie!);
      access = rotated.body.access_token;
      expect((await me(access)).status).toBe(200);
    }

    // A cookie two rotations old comes back, rotated longer ago than the grace period: the
    // session is taken to be stolen.
    await ageRotation(cookies[1]!);
    expectError(await refresh(cookies[1]!), 401, 'invalid_refresh_token');
    expectError(await refresh(cookies.at(-1)!), 401);
    expectError(await me(access), 401, 'session_revoked');
    expectError(await me(first.token), 401, 'session_revoked');
    const revoked = await t.database.db
      .selectFrom('refresh_sessions')
      .select('revoked_reason')
      .where('user_id', '=', first.body.user.id)
      .where('revoked_at', 'is not', null)
      .execute();
    expect(revoked.map((r) => r.revoked_reason)).toEqual(['refresh token reused']);
    // The user's other session (another browser) carries on.
    expect((await me(other.token)).status).toBe(200);
    expect((await refresh(other.cookie)).status).toBe(200);
  });

  it('concurrent refreshes with one cookie all get a session (the grace period), and the session lives on', async () => {
    const user = await newUser();
    const { cookie, body } = await t.signIn(user.email, user.password);
    // Eight tabs restore the session from the same cookie at once. On PostgreSQL they race
    // for the token's row lock; PGlite serves them one after another, so there this checks
    // the grace rule only, not the race.
    const answers = await Promise.all(Array.from({ length: 8 }, () => refresh(cookie)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    for (const answer of answers) {
      expect((await me(answer.body.access_token)).status).toBe(200);
      expect(answer.refreshCookie).not.toBe(cookie);
    }
    const session = await t.database.db
      .selectFrom('refresh_sessions')
      .select(['revoked_at'])
      .where('user_id', '=', body.user.id)
      .executeTakeFirstOrThrow();
    expect(session.revoked_at).toBeNull();
    // Each tab carries on with its own new cookie.
    for (const answer of answers) expect((await refresh(answer.refreshCookie!)).status).toBe(200);
    // The cookie they shared, presented after the grace period, ends the session after all.
    await ageRotation(cookie);
    expectError(await refresh(cookie), 401, 'invalid_refresh_token');
    expectError(await me(answers[0]!.body.access_token), 401, 'session_revoked');
  });

  it('a refused refresh clears the cookie', async () => {
    const response = await refresh(`${SESSION.refreshCookie}=not-a-token`);
    expectError(response, 401, 'invalid_refresh_token');
    expect(setCookie(response)).toMatch(/^refresh_token=;.*Path=\/api\/auth/);
  });

  it('a session past its expiry cannot be refreshed', async () => {
    const user = await newUser();
    const { cookie, body } = await t.signIn(user.email, user.password);
    await t.database.db
      .updateTable('refresh_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', body.user.id)
      .execute();
    expectError(await refresh(cookie), 401, 'invalid_refresh_token');
  });
});

describe('sign-out', () => {
  it('with the access token only, ends that session and its refresh cookie, and no other', async () => {
    const user = await newUser();
    const kept = await t.signIn(user.email, user.password);
    const ended = await t.signIn(user.email, user.password);
    const out = await t.request('POST', '/api/auth/sign-out', undefined, { token: ended.token });
    expect(out.status).toBe(200);
    expect(setCookie(out)).toMatch(/^refresh_token=;.*Path=\/api\/auth/);
    expectError(await me(ended.token), 401, 'session_revoked');
    expectError(await refresh(ended.cookie), 401);
    expect((await me(kept.token)).status).toBe(200);
  });

  it('answers 200 with neither token nor cookie, and with a cookie already signed out', async () => {
    const user = await newUser();
    const { cookie } = await t.signIn(user.email, user.password);
    expect((await t.request('POST', '/api/auth/sign-out')).status).toBe(200);
    expect((await t.request('POST', '/api/auth/sign-out', undefined, { cookie })).status).toBe(200);
    expect((await t.request('POST', '/api/auth/sign-out', undefined, { cookie })).status).toBe(200);
    expectError(await refresh(cookie), 401);
  });
});

describe('password change and reset end sessions', () => {
  it("a change ends the other sessions' refresh cookies too; the current session refreshes on", async () => {
    const user = await newUser();
    const current = await t.signIn(user.email, user.password);
    const other = await t.signIn(user.email, user.password);
    expect(
      (
        await t.request(
          'POST',
          '/api/auth/password',
          { password: 'changed-password-1', current_password: user.password },
          { token: current.token },
        )
      ).status,
    ).toBe(200);
    expectError(await refresh(other.cookie), 401);
    const renewed = await refresh(current.cookie);
    expect(renewed.status).toBe(200);
    expect((await me(renewed.body.access_token)).status).toBe(200);
    expectError(await t.request('POST', '/api/auth/sign-in', user), 401, 'invalid_credentials');
  });

  it("a reset ends every session's refresh cookie", async () => {
    const user = await newUser();
    const sessions = [await t.signIn(user.email, user.password), await t.signIn(user.email, user.password)];
    const token = await resetToken(user.email);
    expect((await t.request('POST', '/api/auth/password', { token, password: 'reset-password-1' })).status).toBe(200);
    for (const session of sessions) expectError(await refresh(session.cookie), 401);
  });
});

/**
 * Asks for a reset link and reads the token from the outbox, as the person would. The mail
 * is sent after the answer, so this waits for it.
 */
async function resetToken(email: string): Promise<string> {
  const mails = () =>
    t.database.db
      .selectFrom('outbox')
      .select('id')
      .where('to_address', '=', email)
      .execute()
      .then((rows) => rows.length);
  const before = await mails();
  expect((await t.request('POST', '/api/auth/recover', { email })).status).toBe(200);
  await expect.poll(mails, { timeout: 10_000 }).toBe(before + 1);
  const { link } = await t.database.db
    .selectFrom('outbox')
    .select('link')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return new URL(link!).hash.match(/access_token=([^&]+)/)![1]!;
}

async function invitationToken(email: string, role = 'house_user'): Promise<string> {
  const { token } = await t.signIn(t.admin.email, t.admin.password);
  const created = await t.request('POST', '/api/invitations', { email, first_name: 'Ivy', last_name: 'Invitee', role }, { token });
  expect(created.status).toBe(201);
  const { link } = await t.database.db
    .selectFrom('outbox')
    .select('link')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return new URL(link!).searchParams.get('token')!;
}

describe('reset and invitation tokens', () => {
  it('carry at least 128 random bits', async () => {
    const user = await newUser();
    const tokens = [await resetToken(user.email), await invitationToken('bits@sessions.test')];
    for (const token of tokens) expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('a reset token works once even when two requests race with it', async () => {
    const user = await newUser();
    const token = await resetToken(user.email);
    const answers = await Promise.all(
      ['raced-password-1', 'raced-password-2'].map((password) => t.request('POST', '/api/auth/password', { token, password })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const lost = answers.find((a) => a.status === 400)!;
    expect(lost.body.error.message).toBe(MESSAGES.auth.invalidResetLink);
    const signIns = await Promise.all(
      ['raced-password-1', 'raced-password-2'].map((password) => t.request('POST', '/api/auth/sign-in', { email: user.email, password })),
    );
    expect(signIns.map((s) => s.status).sort()).toEqual([200, 401]);
  });

  it('an invitation registers one account even when two requests race with it', async () => {
    const email = 'racer@sessions.test';
    const token = await invitationToken(email);
    const answers = await Promise.all(
      [1, 2].map(() => t.request('POST', '/api/invitations/register', { token, password: 'a-good-password' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
    expect(answers.find((a) => a.status === 410)!.body.error.code).toBe('invitation_used');
    expect(await t.database.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });

  it('each kind is refused where the other is expected', async () => {
    const user = await newUser();
    const reset = await resetToken(user.email);
    const invitation = await invitationToken('crossed@sessions.test');
    const asReset = await t.request('POST', '/api/auth/password', { token: invitation, password: 'crossed-password' });
    expectError(asReset, 400);
    expect(asReset.body.error.message).toBe(MESSAGES.auth.invalidResetLink);
    expectError(await t.request('POST', '/api/invitations/accept', { token: reset }), 404);
    expectError(await t.request('POST', '/api/invitations/register', { token: reset, password: 'crossed-password' }), 404);
    // Both are still good for their own use.
    expect((await t.request('POST', '/api/auth/password', { token: reset, password: 'reset-password-2' })).status).toBe(200);
    expect((await t.request('POST', '/api/invitations/accept', { token: invitation })).body.result).toBe('requires_registration');
  });

  it('an unknown token is refused on registration, creating nothing', async () => {
    const response = await t.request('POST', '/api/invitations/register', { token: 'made-up-token', password: 'a-good-password' });
    expectError(response, 404);
    expect(response.body.error.message).toBe(MESSAGES.invitations.invalidLink);
  });

  describe('joining with an existing account', () => {
    /** An invitation for an account that already exists, into a super agency below the account's house. */
    async function pendingFor(email: string, expiresAt: Date) {
      const token = `pending-${email}`;
      const target = await insertOrg(t.database.db, {
        name: `Joined by ${email}`,
        type: 'super_agency',
        parentId: await houseId(t.database.db),
      });
      await t.database.db
        .insertInto('invitations')
        .values({
          token_hash: hashToken(token),
          email,
          first_name: 'Ivy',
          last_name: 'Invitee',
          role: 'super_agency_manager',
          organization_id: target.id,
          expires_at: expiresAt,
        })
        .execute();
      return token;
    }
    const role = async (email: string) =>
      (await t.database.db.selectFrom('users').select('role').where('email', '=', email).executeTakeFirstOrThrow()).role;

    it('accepts once: the same token a second time is used', async () => {
      const user = await newUser();
      const token = await pendingFor(user.email, new Date(Date.now() + 86_400_000));
      const { token: bearer } = await t.signIn(user.email, user.password);
      // Moving to another organization takes the invitee's explicit confirmation.
      expect((await t.request('POST', '/api/invitations/accept', { token }, { token: bearer })).body.result).toBe('requires_confirmation');
      expect((await t.request('POST', '/api/invitations/accept', { token, confirm: true }, { token: bearer })).body.result).toBe(
        'accepted',
      );
      expectError(await t.request('POST', '/api/invitations/accept', { token, confirm: true }, { token: bearer }), 410, 'invitation_used');
      expect(await role(user.email)).toBe('super_agency_manager');
    });

    it('an expired invitation changes nothing for a signed-in invitee', async () => {
      const user = await newUser();
      const token = await pendingFor(user.email, new Date(Date.now() - 1000));
      const { token: bearer } = await t.signIn(user.email, user.password);
      expectError(
        await t.request('POST', '/api/invitations/accept', { token, confirm: true }, { token: bearer }),
        410,
        'invitation_expired',
      );
      expect(await role(user.email)).toBe('house_user');
    });
  });
});

describe('refresh cookie attributes', () => {
  const attributes = (cookie: string) => ({
    httpOnly: /;\s*HttpOnly/i.test(cookie),
    sameSiteStrict: /;\s*SameSite=Strict/i.test(cookie),
    path: /;\s*Path=([^;]*)/i.exec(cookie)?.[1],
    secure: /;\s*Secure/i.test(cookie),
  });

  async function cookiesOf(app: TestApp, headers: Record<string, string> = {}) {
    const signIn = await app.request('POST', '/api/auth/sign-in', app.admin, { headers });
    expect(signIn.status).toBe(200);
    const rotated = await app.request('POST', '/api/auth/refresh', undefined, { cookie: signIn.refreshCookie!, headers });
    expect(rotated.status).toBe(200);
    return [setCookie(signIn), setCookie(rotated)];
  }

  const cases: [string, { appUrl?: string; trustProxy?: number }, Record<string, string>, boolean][] = [
    ['plain http', {}, {}, false],
    ['X-Forwarded-Proto: https without TRUST_PROXY (anyone can send it)', {}, { 'x-forwarded-proto': 'https' }, false],
    ['APP_URL on https', { appUrl: 'https://console.test' }, {}, true],
    ['TRUST_PROXY with X-Forwarded-Proto: https', { trustProxy: 1 }, { 'x-forwarded-proto': 'https' }, true],
    ['TRUST_PROXY with X-Forwarded-Proto: http', { trustProxy: 1 }, { 'x-forwarded-proto': 'http' }, false],
  ];
  for (const [name, options, headers, secure] of cases) {
    it(`${name}: HttpOnly, SameSite=Strict, Path=/api/auth, ${secure ? '' : 'not '}Secure`, async () => {
      const app = Object.keys(options).length ? await createTestApp(options) : t;
      try {
        for (const cookie of await cookiesOf(app, headers)) {
          expect(attributes(cookie), cookie).toEqual({ httpOnly: true, sameSiteStrict: true, path: '/api/auth', secure });
        }
      } finally {
        if (app !== t) await app.close();
      }
    });
  }

  it('registration through an invitation sets the same cookie, Secure behind an https proxy', async () => {
    const proxied = await createTestApp({ trustProxy: 1 });
    try {
      const { token } = await proxied.signIn(proxied.admin.email, proxied.admin.password);
      await proxied.request(
        'POST',
        '/api/invitations',
        { email: 'proxied@sessions.test', first_name: 'Ivy', last_name: 'Invitee', role: 'house_user' },
        { token },
      );
      const { link } = await proxied.database.db
        .selectFrom('outbox')
        .select('link')
        .where('to_address', '=', 'proxied@sessions.test')
        .executeTakeFirstOrThrow();
      const registered = await proxied.request(
        'POST',
        '/api/invitations/register',
        { token: new URL(link!).searchParams.get('token'), password: 'a-good-password' },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
      expect(registered.status).toBe(200);
      expect(attributes(setCookie(registered))).toEqual({ httpOnly: true, sameSiteStrict: true, path: '/api/auth', secure: true });
    } finally {
      await proxied.close();
    }
  });
});

describe('a session route authenticates before it reads a body', () => {
  const writes: [string, string][] = [
    ['POST', '/api/organizations'],
    ['PATCH', '/api/users/me'],
    ['POST', '/api/credits/allocations'],
    ['POST', '/api/invitations'],
  ];

  it('answers an anonymous client 401 whatever the body: invalid, malformed or over the size limit, and tells nothing of the schema', async () => {
    for (const [method, path] of writes) {
      for (const body of [
        { raw: '{"name": 5, "amount": "x"}' },
        { raw: '{not json' },
        { raw: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }) },
      ]) {
        const answer = await t.request(method, path, undefined, { ...body, headers: { 'content-type': 'application/json' } });
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.body.error.fields, `${method} ${path}`).toBeUndefined();
      }
    }
  });

  it('answers a signed-in person without the permission 403 before validating the body', async () => {
    const { email, password } = await newUser();
    const { token } = await t.signIn(email, password);
    const answer = await t.request('POST', '/api/credits/allocations', undefined, {
      token,
      raw: '{"amount": 5}',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error.fields).toBeUndefined();
  });
});
