import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { newSigningKey, signInAt, startOidcProvider, startOidcProviderProcess, type OidcProvider } from '../../test/oidc-provider.ts';
import { CALLBACK, ssoKit } from '../../test/sso-kit.ts';

/**
 * Sign-in through an organization's provider, against real OpenID Connect providers
 * (oidc-provider) on this machine: the console discovers them, sends the browser to their
 * login page (driven here over HTTP), and openid-client validates what comes back.
 */
const w = useWorld();
const kit = ssoKit(w);
const db = () => w.t.database.db;
const SECRET = 'console-client-secret';
const client = (client_id: string) => ({ client_id, client_secret: SECRET, redirect_uris: [CALLBACK] });
const register = async (who: string, org: string, issuer: string, clientId: string, claims: Record<string, string> = {}) => {
  const saved = await kit.provide(who, org, { issuer, client_id: clientId, client_secret: SECRET, ...claims });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
};
const loginError = (reason: string) => `/login?sso_error=${reason}`;
const lastFailure = async () => (await kit.audits('auth.sso_sign_in_failed')).at(-1)!.details as Record<string, string>;

let idp: OidcProvider;

beforeAll(async () => {
  idp = await startOidcProvider({
    clients: [client('console')],
    accounts: [
      { sub: 't1-user', email: 'user@t1.test', name: 'Tina User' },
      { sub: 't1-new', email: 'new@t1.test', name: 'Nora  New Person' },
      { sub: 't1-outsider', email: 'ann@elsewhere.test', name: 'Ann Else' },
      { sub: 't1-moved', email: 'moved@t1.test', name: 'Moe Ved' },
      { sub: 't1-gone', email: 'gone@t1.test', name: 'Gone' },
    ],
  });
  await register('T1.admin', w.id('T1'), idp.issuer, 'console');
  await kit.inEffect(w.id('T1'), 't1.test');
  // A person of another organization whose address is in T1's domain, and an inactive one of T1.
  await insertUser(db(), { email: 'moved@t1.test', password: PASSWORD, role: 'agency_user', organizationId: w.id('A1') });
  await insertUser(db(), {
    email: 'gone@t1.test',
    password: PASSWORD,
    role: 'tenant_user',
    organizationId: w.id('T1'),
    status: 'inactive',
  });
});
afterAll(async () => {
  await idp?.close();
});

describe('the sign-in page asks where an e-mail signs in', () => {
  it('answers the password for a domain nobody has in effect, a claim still pending, or an organization without a provider', async () => {
    expect((await kit.discover('someone@unclaimed.test')).body).toEqual({ method: 'password' });
    await db()
      .insertInto('identity_domains')
      .values({ organization_id: w.id('T2'), domain: 'pending.test', verification_token: 'x' })
      .execute();
    expect((await kit.discover('someone@pending.test')).body).toEqual({ method: 'password' });
    await kit.inEffect(w.id('T2'), 't2.test');
    expect((await kit.discover('someone@t2.test')).body).toEqual({ method: 'password' });
  });

  it("answers the organization's provider: code flow with PKCE (S256), state, nonce and the e-mail as login hint", async () => {
    const found = await kit.discover('User@T1.test');
    expect(found.body).toMatchObject({ method: 'sso', organization_name: 'Tenant One' });
    const url = new URL(found.body.redirect_url);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'console',
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      login_hint: 'User@T1.test',
    });
    for (const param of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(param)).toMatch(/^[\w-]{43}$/);
    // Only the state's hash is kept, and the verifier is sealed.
    const pending = await db().selectFrom('sso_sign_ins').selectAll().where('email', '=', 'User@T1.test').executeTakeFirstOrThrow();
    expect(pending.state_hash).not.toBe(url.searchParams.get('state'));
    expect(pending.code_verifier_sealed).toMatch(/^v1\./);
    expect(pending).toMatchObject({ organization_id: w.id('T1'), nonce: url.searchParams.get('nonce'), tested_by: null, used_at: null });
  });
});

describe('a sign-in through the provider', () => {
  it('starts a session (the console boots with its cookie), remembers the subject and is audited; its answer replayed is refused', async () => {
    const landed = await kit.signInThrough('user@t1.test');
    expect(landed).toMatchObject({ status: 302, location: '/' });
    expect(await kit.whoIs(landed.cookie!)).toMatchObject({ email: 'user@t1.test', role: 'tenant_user' });
    const user = await db().selectFrom('users').select('id').where('email', '=', 'user@t1.test').executeTakeFirstOrThrow();
    const session = await db()
      .selectFrom('refresh_sessions')
      .select('method')
      .where('user_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(session.method).toBe('sso');
    expect(
      await db().selectFrom('sso_identities').select(['subject', 'user_id']).where('organization_id', '=', w.id('T1')).execute(),
    ).toContainEqual({
      subject: 't1-user',
      user_id: user.id,
    });
    expect((await kit.audits('auth.sso_sign_in')).at(-1)).toMatchObject({
      organization_id: w.id('T1'),
      actor_user_id: user.id,
      details: { email: 'user@t1.test', subject: 't1-user' },
    });

    // The same answer again (a replayed state, with its code): the pending sign-in was used up.
    // Nothing ties such a link to an organization, and anyone can send one: it writes nothing.
    const failures = (await kit.audits('auth.sso_sign_in_failed')).length;
    const replayed = await kit.land(landed.callbackUrl);
    expect(replayed).toMatchObject({ status: 302, location: loginError('expired'), cookie: null });
    expect(await kit.audits('auth.sso_sign_in_failed')).toHaveLength(failures);
  });

  it("signs in only the browser that asked: the provider's answer opened in another browser does nothing there", async () => {
    const callbackUrl = await signInAt(await kit.authorizationUrl('user@t1.test'), 'user@t1.test');
    // Someone who started a sign-in sends its answer to another person (login cross-site request forgery).
    const elsewhere = await ssoKit(w).land(callbackUrl);
    expect(elsewhere).toMatchObject({ location: loginError('expired'), cookie: null });
    const here = await kit.land(callbackUrl);
    expect(here.location).toBe('/');
  });

  it('reads the e-mail and name from the userinfo endpoint when the ID token leaves them out, and honours configured claims', async () => {
    const quiet = await startOidcProvider({
      clients: [client('console-a1')],
      accounts: [{ sub: 'a1-user', email: 'user@a1.test', name: 'Agnes User' }],
      claimsInIdToken: false,
    });
    try {
      await register('A1.admin', w.id('A1'), quiet.issuer, 'console-a1');
      await kit.inEffect(w.id('A1'), 'a1.test');
      const landed = await kit.signInThrough('user@a1.test');
      expect(landed.location).toBe('/');
      expect(await kit.whoIs(landed.cookie!)).toMatchObject({ email: 'user@a1.test' });
      // A claim the provider does not give: no e-mail, no session.
      await register('A1.admin', w.id('A1'), quiet.issuer, 'console-a1', { email_claim: 'upn' });
      expect((await kit.signInThrough('user@a1.test')).location).toBe(loginError('refused'));
      expect(await lastFailure()).toMatchObject({ reason: 'refused', why: 'no e-mail address in the claim upn' });
    } finally {
      await quiet.close();
    }
  });

  it("refuses an e-mail outside the organization's domains in effect", async () => {
    // The provider signs in another account than the one the e-mail named.
    const landed = await kit.signInThrough('user@t1.test', 'ann@elsewhere.test');
    expect(landed).toMatchObject({ location: loginError('wrong_domain'), cookie: null });
    expect(await lastFailure()).toMatchObject({ reason: 'wrong_domain', email: 'ann@elsewhere.test' });
  });

  it('refuses a person of another organization, an inactive one, and one not yet a member unless just-in-time members are on', async () => {
    expect((await kit.signInThrough('moved@t1.test')).location).toBe(loginError('refused'));
    expect(await lastFailure()).toMatchObject({ reason: 'refused', why: 'member of another organization' });
    expect((await kit.signInThrough('gone@t1.test')).location).toBe(loginError('inactive'));
    expect((await kit.signInThrough('new@t1.test')).location).toBe(loginError('not_member'));
    expect(await db().selectFrom('users').select('id').where('email', '=', 'new@t1.test').executeTakeFirst()).toBeUndefined();

    expect(
      (await kit.settings('T1.admin', w.id('T1'), { jit_role: 'tenant_user', enforce_sso: false, break_glass_user_id: null })).status,
    ).toBe(200);
    const joined = await kit.signInThrough('new@t1.test');
    expect(joined.location).toBe('/');
    expect(await kit.whoIs(joined.cookie!)).toMatchObject({ email: 'new@t1.test', role: 'tenant_user' });
    const created = await db()
      .selectFrom('users')
      .select(['id', 'organization_id', 'status', 'password_hash', 'first_name', 'last_name'])
      .where('email', '=', 'new@t1.test')
      .executeTakeFirstOrThrow();
    expect(created).toMatchObject({
      organization_id: w.id('T1'),
      status: 'active',
      password_hash: null,
      first_name: 'Nora',
      last_name: 'New Person',
    });
    expect((await kit.audits('identity.jit_member')).at(-1)).toMatchObject({
      organization_id: w.id('T1'),
      target_id: created.id,
      details: { email: 'new@t1.test', role: 'tenant_user' },
    });
    // The next sign-in finds the member by the subject; nobody is created twice.
    expect((await kit.signInThrough('new@t1.test')).location).toBe('/');
    expect((await kit.audits('identity.jit_member')).filter((a) => a.target_id === created.id)).toHaveLength(1);
    // Just-in-time or not, another organization's person and an inactive one stay refused.
    expect((await kit.signInThrough('moved@t1.test')).location).toBe(loginError('refused'));
    expect((await kit.signInThrough('gone@t1.test')).location).toBe(loginError('inactive'));
  });

  it("refuses the provider's own refusal, an answer without a state, and a sign-in that took too long", async () => {
    const state = new URL(await kit.authorizationUrl('user@t1.test')).searchParams.get('state')!;
    const denied = await kit.land(
      `${CALLBACK}?error=access_denied&error_description=denied&state=${state}&iss=${encodeURIComponent(idp.issuer)}`,
    );
    expect(denied.location).toBe(loginError('refused'));
    expect((await kit.land(`${CALLBACK}?code=abc`)).location).toBe(loginError('expired'));

    const url = await kit.authorizationUrl('user@t1.test');
    await db().updateTable('sso_sign_ins').set({ expires_at: sql`now() - interval '1 second'` }).where('used_at', 'is', null).execute();
    expect((await kit.land(await signInAt(url, 'user@t1.test'))).location).toBe(loginError('expired'));
  });
});

describe('what openid-client refuses in the answer', () => {
  it("a replayed nonce: an authorization request carrying an earlier sign-in's nonce, answered under a new state", async () => {
    const first = new URL(await kit.authorizationUrl('user@t1.test'));
    expect((await kit.land(await signInAt(first.toString(), 'user@t1.test'))).location).toBe('/');
    // The second sign-in's request is altered to carry the first one's nonce: the provider
    // signs an ID token with it, and the pending sign-in of this state expects its own.
    const second = new URL(await kit.authorizationUrl('user@t1.test'));
    second.searchParams.set('nonce', first.searchParams.get('nonce')!);
    const landed = await kit.land(await signInAt(second.toString(), 'user@t1.test'));
    expect(landed).toMatchObject({ location: loginError('refused'), cookie: null });
    expect((await lastFailure()).why).toMatch(/nonce/);
  });

  it("a wrong audience: a provider whose client registry answers the console's client id with another client's registration", async () => {
    // oidc-provider issues the ID token to the registration it found ("other-app"), while
    // the console registered (and authenticates as) "console-sa1".
    const mixed = await startOidcProvider({
      clients: [client('other-app')],
      accounts: [{ sub: 'sa1-user', email: 'user@sa1.test' }],
      answerAs: { 'console-sa1': 'other-app' },
    });
    try {
      await register('SA1.admin', w.id('SA1'), mixed.issuer, 'console-sa1');
      await kit.inEffect(w.id('SA1'), 'sa1.test');
      expect((await kit.signInThrough('user@sa1.test')).location).toBe(loginError('refused'));
      expect((await lastFailure()).why).toMatch(/"aud"/);
    } finally {
      await mixed.close();
    }
  });

  it('an expired ID token: a provider whose clock runs two hours behind issues tokens whose hour has passed', async () => {
    // A child process with its clock shifted, so the console's own clock is untouched; its
    // ID tokens live an hour, so each has expired two hours' minus one hour ago.
    const late = await startOidcProviderProcess({
      clients: [client('console-h')],
      accounts: [{ sub: 'h-user', email: 'user@h.test' }],
      clockOffsetSeconds: -2 * 60 * 60,
    });
    try {
      await register('H.admin', w.id('H'), late.issuer, 'console-h');
      await kit.inEffect(w.id('H'), 'h.test');
      expect((await kit.signInThrough('user@h.test')).location).toBe(loginError('refused'));
      expect((await lastFailure()).why).toMatch(/"exp"/);
    } finally {
      await late.close();
    }
  });

  it('a bad signature: the provider restarted on the same issuer with another key under the same kid', async () => {
    await insertUser(db(), { email: 'user@a2.test', password: PASSWORD, role: 'agency_user', organizationId: w.id('A2') });
    await insertUser(db(), { email: 'admin@a2.test', password: PASSWORD, role: 'agency_admin', organizationId: w.id('A2') });
    const options = { clients: [client('console-a2')], accounts: [{ sub: 'a2-user', email: 'user@a2.test' }] };
    const first = await startOidcProvider({ ...options, signingKey: await newSigningKey('signing-1') });
    await register('admin@a2.test', w.id('A2'), first.issuer, 'console-a2');
    await kit.inEffect(w.id('A2'), 'a2.test');
    // A sign-in while the first key signs: the console has its published keys.
    expect((await kit.signInThrough('user@a2.test')).location).toBe('/');
    await first.close();
    // The same issuer (same port), now signing with a key the console was never shown, under the kid it knows.
    const impostor = await startOidcProvider({ ...options, port: first.port, signingKey: await newSigningKey('signing-1') });
    try {
      expect(impostor.issuer).toBe(first.issuer);
      expect((await kit.signInThrough('user@a2.test')).location).toBe(loginError('refused'));
      expect((await lastFailure()).why).toMatch(/signature/i);
    } finally {
      await impostor.close();
    }
  });
});
