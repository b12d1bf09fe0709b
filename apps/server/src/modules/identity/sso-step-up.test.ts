import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ERROR_CODES, MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD } from '../../test/fixtures.ts';
import { signInAt, startOidcProvider, startOidcProviderProcess, type OidcProvider } from '../../test/oidc-provider.ts';
import { CALLBACK, ssoKit } from '../../test/sso-kit.ts';

/**
 * People who sign in through their organization's provider, against a real OpenID Connect
 * provider (oidc-provider) on this machine: the second-factor requirement does not block
 * them (the provider asks its own factors), and they step up by logging in at the provider
 * again, which renews exactly the session that asked.
 */
const w = useWorld();
const kit = ssoKit(w);
const db = () => w.t.database.db;
const SECRET = 'console-client-secret';
const client = (client_id: string) => ({ client_id, client_secret: SECRET, redirect_uris: [CALLBACK] });
/** A step-up-always action T1's admins may take: saving the sign-in rules as they are. */
const SETTINGS = { jit_role: null, enforce_sso: false, break_glass_user_id: null };
const saveSettings = (token: string) => w.t.request('PUT', `${kit.base(w.id('T1'))}/settings`, SETTINGS, { token });
const RETURN_TO = '/settings/identity?tab=sso#rules';

let idp: OidcProvider;

/** An SSO session of `email`: its access token (as the console boots with the cookie) and its id. */
async function ssoSession(email: string, kit0 = kit): Promise<{ token: string; sessionId: string }> {
  const landed = await kit0.signInThrough(email);
  expect(landed.location, 'signed in through the provider').toBe('/');
  const refreshed = await w.t.request('POST', '/api/auth/refresh', undefined, { cookie: landed.cookie! });
  expect(refreshed.status).toBe(200);
  const session = await db()
    .selectFrom('refresh_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.method'])
    .where('u.email', '=', email)
    .orderBy('s.created_at', 'desc')
    .executeTakeFirstOrThrow();
  expect(session.method).toBe('sso');
  return { token: refreshed.body.access_token, sessionId: session.id };
}

/** Makes a session's last proof an hour old: past the step-up window. */
const stale = (sessionId: string) =>
  db().updateTable('refresh_sessions').set({ stepped_up_at: sql`now() - interval '1 hour'` }).where('id', '=', sessionId).execute();

/** Whether a session's last proof is within the last minute. */
const freshNow = async (sessionId: string) =>
  (
    await db()
      .selectFrom('refresh_sessions')
      .select(sql<boolean>`coalesce(stepped_up_at > now() - interval '1 minute', false)`.as('fresh'))
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow()
  ).fresh;

const audits = (action: 'auth.step_up' | 'auth.step_up_failed') =>
  db().selectFrom('audit_log').select(['actor_user_id', 'organization_id', 'details']).where('action', '=', action).orderBy('id').execute();
const userId = async (email: string) =>
  (await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  idp = await startOidcProvider({
    clients: [client('console')],
    accounts: [
      { sub: 't1-admin', email: 'admin@t1.test', name: 'Ada Admin' },
      { sub: 't1-user', email: 'user@t1.test', name: 'Tina User' },
    ],
  });
  const saved = await kit.provide('T1.admin', w.id('T1'), { issuer: idp.issuer, client_id: 'console', client_secret: SECRET });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  await kit.inEffect(w.id('T1'), 't1.test');
});
afterAll(async () => {
  await idp?.close();
});

describe("the organization's second-factor requirement", () => {
  it('does not block a session begun at the provider; a password session of the same person, without a factor, is', async () => {
    const sso = await ssoSession('admin@t1.test');
    const password = await w.t.signIn('admin@t1.test', PASSWORD);
    // T1 requires a factor of its own people, and the grace ended yesterday.
    await db()
      .insertInto('mfa_policies')
      .values({ organization_id: w.id('T1'), own_since: sql`now() - interval '30 days'`, grace_days: 0, updated_at: sql`now()` })
      .execute();
    try {
      const read = (token: string) => w.t.request('GET', kit.base(w.id('T1')), undefined, { token });
      const blocked = await read(password.token);
      expect(blocked.status).toBe(403);
      expect(blocked.body.error.code).toBe('mfa_enrollment_required');
      expect((await read(sso.token)).status).toBe(200);

      // The profile asks nothing of the SSO session (the console leads nobody to the Security page), and still does of the other.
      const me = (token: string) => w.t.request('GET', '/api/users/me', undefined, { token });
      expect((await me(sso.token)).body.mfa_enrollment).toBeNull();
      expect((await me(password.token)).body.mfa_enrollment).toMatchObject({ required: true });
      // So does the session's answer at each refresh.
      const landed = await kit.signInThrough('admin@t1.test');
      const refreshed = await w.t.request('POST', '/api/auth/refresh', undefined, { cookie: landed.cookie! });
      expect(refreshed.body.user.mfa_enrollment).toBeNull();
      // The Security page still offers factors to the SSO session.
      expect((await w.t.request('GET', '/api/account/factors', undefined, { token: sso.token })).status).toBe(200);
    } finally {
      await db().deleteFrom('mfa_policies').where('organization_id', '=', w.id('T1')).execute();
    }
  });
});

describe('a step-up through the provider', () => {
  it('is offered to a session begun at the provider, never to a password session, which cannot start one', async () => {
    const sso = await ssoSession('admin@t1.test');
    const status = await w.t.request('GET', '/api/auth/step-up', undefined, { token: sso.token });
    expect(status.body.methods).toEqual(['sso']);
    // Nothing here to give: no password is taken from this session.
    const password = await w.t.request('POST', '/api/auth/step-up', { method: 'password', password: PASSWORD }, { token: sso.token });
    expect(password.status).toBe(400);
    expect(password.body.error.message).toBe(MESSAGES.identity.stepUpUseProvider);

    const token = await w.as('T1.admin');
    expect((await w.t.request('GET', '/api/auth/step-up', undefined, { token })).body.methods).toEqual(['password']);
    const refused = await kit.startStepUp(token, '/credits');
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe(MESSAGES.identity.stepUpNotSso);
  });

  it('renews exactly the session that asked, once the same person logged in at the provider again; its answer replayed renews nothing', async () => {
    const sso = await ssoSession('admin@t1.test');
    const other = await ssoSession('admin@t1.test');
    await stale(sso.sessionId);
    await stale(other.sessionId);
    const asked = await saveSettings(sso.token);
    expect(asked.status).toBe(401);
    expect(asked.body.error.code).toBe(ERROR_CODES.stepUpRequired);

    const started = await kit.startStepUp(sso.token, RETURN_TO);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const url = new URL(started.body.redirect_url);
    expect(url.origin).toBe(idp.issuer);
    // The provider must ask again, whatever session it holds; the person is named.
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      prompt: 'login',
      max_age: '0',
      login_hint: 'admin@t1.test',
      code_challenge_method: 'S256',
    });
    const pending = await db()
      .selectFrom('sso_sign_ins')
      .select(['step_up_session_id', 'return_to', 'tested_by'])
      .where('nonce', '=', url.searchParams.get('nonce')!)
      .executeTakeFirstOrThrow();
    expect(pending).toEqual({ step_up_session_id: sso.sessionId, return_to: RETURN_TO, tested_by: null });

    const callbackUrl = await signInAt(url.toString(), 'admin@t1.test');
    const landed = await kit.land(callbackUrl);
    // Back to the page, its query and fragment kept; no new session.
    expect(landed).toMatchObject({ status: 302, location: '/settings/identity?tab=sso&step_up=ok#rules', cookie: null });
    expect(await freshNow(sso.sessionId)).toBe(true);
    expect(await freshNow(other.sessionId)).toBe(false);
    expect((await audits('auth.step_up')).at(-1)).toEqual({
      actor_user_id: await userId('admin@t1.test'),
      organization_id: w.id('T1'),
      details: { method: 'sso' },
    });
    expect((await w.t.request('GET', '/api/auth/step-up', undefined, { token: sso.token })).body.fresh_until).toEqual(expect.any(Number));
    expect((await saveSettings(sso.token)).status).toBe(200);
    expect((await saveSettings(other.token)).status).toBe(401);

    // The same answer again: the pending step-up was used up. Back to the page, saying so; nothing renewed.
    await stale(sso.sessionId);
    const replayed = await kit.land(callbackUrl);
    expect(replayed).toMatchObject({ status: 302, location: '/settings/identity?tab=sso&step_up_error=expired#rules', cookie: null });
    expect(await freshNow(sso.sessionId)).toBe(false);
    expect((await audits('auth.step_up_failed')).at(-1)).toMatchObject({
      actor_user_id: await userId('admin@t1.test'),
      details: { method: 'sso', reason: 'expired' },
    });
    // Opened in another browser, the answer finds nothing of its own: the sign-in page, as any unknown answer.
    expect((await ssoKit(w).land(callbackUrl)).location).toBe('/login?sso_error=expired');
  });

  it('refuses another person logging in at the provider during the step-up, and renews nothing', async () => {
    // That person is a member signed in through the provider before: a real identity, just not this session's.
    await ssoSession('user@t1.test');
    const sso = await ssoSession('admin@t1.test');
    await stale(sso.sessionId);
    const started = await kit.startStepUp(sso.token, '/credits');
    const landed = await kit.land(await signInAt(started.body.redirect_url, 'user@t1.test'));
    expect(landed).toMatchObject({ status: 302, location: '/credits?step_up_error=wrong_person', cookie: null });
    expect(await freshNow(sso.sessionId)).toBe(false);
    expect((await saveSettings(sso.token)).status).toBe(401);
    expect((await audits('auth.step_up_failed')).at(-1)).toMatchObject({
      actor_user_id: await userId('admin@t1.test'),
      organization_id: w.id('T1'),
      details: { method: 'sso', reason: 'wrong_person' },
    });
  });

  it('refuses a session that ended while the person was at the provider', async () => {
    const sso = await ssoSession('admin@t1.test');
    await stale(sso.sessionId);
    const started = await kit.startStepUp(sso.token, '/credits');
    const callbackUrl = await signInAt(started.body.redirect_url, 'admin@t1.test');
    await db().updateTable('refresh_sessions').set({ revoked_at: sql`now()` }).where('id', '=', sso.sessionId).execute();
    expect((await kit.land(callbackUrl)).location).toBe('/credits?step_up_error=session_ended');
    expect(await freshNow(sso.sessionId)).toBe(false);
  });

  it.each(['//evil.test', 'https://evil.test', '/\\evil.test', 'credits', ''])(
    'refuses to come back anywhere but a path of the console (%j): 400, nothing started',
    async (returnTo) => {
      const sso = await ssoSession('admin@t1.test');
      const count = async () =>
        (await db().selectFrom('sso_sign_ins').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
      const before = await count();
      const refused = await kit.startStepUp(sso.token, returnTo);
      expect(refused.status).toBe(400);
      expect(refused.body.error.fields).toMatchObject({ return_to: MESSAGES.identity.returnToInvalid });
      expect(await count()).toBe(before);
    },
  );

  it('refuses an ID token whose login is not fresh: a provider whose clock runs ten minutes behind dates every login that long ago', async () => {
    // A child process with its clock shifted; its ID tokens live an hour, so they have not expired.
    const late = await startOidcProviderProcess({
      clients: [client('console-a1')],
      accounts: [{ sub: 'a1-admin', email: 'admin@a1.test' }],
      clockOffsetSeconds: -10 * 60,
    });
    try {
      const saved = await kit.provide('A1.admin', w.id('A1'), { issuer: late.issuer, client_id: 'console-a1', client_secret: SECRET });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      await kit.inEffect(w.id('A1'), 'a1.test');
      const sso = await ssoSession('admin@a1.test');
      await stale(sso.sessionId);
      const started = await kit.startStepUp(sso.token, '/credits');
      expect((await kit.land(await signInAt(started.body.redirect_url, 'admin@a1.test'))).location).toBe(
        '/credits?step_up_error=not_fresh',
      );
      expect(await freshNow(sso.sessionId)).toBe(false);
      expect(((await audits('auth.step_up_failed')).at(-1)!.details as Record<string, string>).why).toMatch(
        /auth_time|End-User authentication|timestamp/,
      );
    } finally {
      await late.close();
    }
  });
});
