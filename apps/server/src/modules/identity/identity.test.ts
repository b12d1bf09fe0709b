import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { softAuthenticator } from '../../test/authenticator.ts';
import { hashToken } from '../../lib/secrets.ts';
import { signInAt, startOidcProvider, type OidcProvider } from '../../test/oidc-provider.ts';
import { CALLBACK, ssoKit } from '../../test/sso-kit.ts';

/**
 * Setting up single sign-on (the provider, just-in-time members, enforcement, the
 * break-glass admin) and what enforcing it does to passwords, against a real provider.
 */
const w = useWorld();
const kit = ssoKit(w);
const db = () => w.t.database.db;
const m = MESSAGES.identity;
const SECRET = 'tenant-one-secret';
const off = { jit_role: null, enforce_sso: false, break_glass_user_id: null };
const userId = async (who: string) =>
  (
    await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', w.world.users[who] ?? who)
      .executeTakeFirstOrThrow()
  ).id;
const get = async (who: string, org: string) => w.t.request('GET', kit.base(org), undefined, { token: await w.as(who) });

let idp: OidcProvider;
let provider: { issuer: string; client_id: string; client_secret: string };

beforeAll(async () => {
  idp = await startOidcProvider({
    clients: [{ client_id: 'console-t1', client_secret: SECRET, redirect_uris: [CALLBACK] }],
    accounts: [
      { sub: 't1-user', email: 'user@t1.test', name: 'Tina User' },
      { sub: 't1-admin', email: 'admin@t1.test', name: 'Tom Admin' },
    ],
  });
  provider = { issuer: idp.issuer, client_id: 'console-t1', client_secret: SECRET };
});
afterAll(async () => {
  await idp?.close();
});

describe("an organization's identity: who may read and set it", () => {
  it("is its own admins' alone: others in it 403, a parent's admin 403, out of scope 404", async () => {
    expect((await get('T1.admin', w.id('T1'))).status).toBe(200);
    for (const who of ['T1.manager', 'T1.user', 'A1.admin', 'H.admin']) {
      const read = await get(who, w.id('T1'));
      expect(read.status, who).toBe(403);
      expect((await kit.provide(who, w.id('T1'), provider)).status, who).toBe(403);
      expect((await kit.settings(who, w.id('T1'), off)).status, who).toBe(403);
      expect((await w.t.request('POST', `${kit.base(w.id('T1'))}/test`, undefined, { token: await w.as(who) })).status, who).toBe(403);
    }
    expect((await get('A1.admin', w.id('T1'))).body.error.message).toBe(m.onlyOwnAdmins);
    expect((await get('T1.admin', w.id('A1'))).status).toBe(404);
    expect((await kit.provide('T1.admin', w.id('T2'), provider)).status).toBe(404);
    expect((await get('H.admin', w.id('H2'))).status).toBe(404);
    expect(await db().selectFrom('identity_providers').selectAll().execute()).toEqual([]);
  });

  it('reads as nothing set up: the redirect URI to register, the roles a just-in-time member may get, the admins', async () => {
    const view = (await get('T1.admin', w.id('T1'))).body;
    expect(view).toMatchObject({
      organization_id: w.id('T1'),
      provider: null,
      redirect_uri: CALLBACK,
      jit_role: null,
      jit_roles: ['tenant_manager', 'tenant_user'],
      enforce_sso: false,
      break_glass: null,
      admins: [{ id: await userId('T1.admin'), email: 'admin@t1.test', name: 'Test User' }],
      domains: [],
    });
  });
});

describe('registering a provider', () => {
  it('refuses an issuer that is not https (but on an allowed host), on a private address, or that does not answer discovery', async () => {
    const refused = async (issuer: string) => {
      const saved = await kit.provide('T1.admin', w.id('T1'), { ...provider, issuer });
      expect(saved.status, issuer).toBe(422);
      return saved.body.error.message as string;
    };
    expect((await kit.provide('T1.admin', w.id('T1'), { ...provider, issuer: 'http://idp.example' })).status).toBe(400);
    expect(await refused('https://10.1.2.3')).toBe(m.issuerUnreachable('10.1.2.3 is a private or loopback address'));
    expect(await refused('https://[fd00::1]/tenant')).toBe(m.issuerUnreachable('fd00::1 is a private or loopback address'));
    // Nothing listens there, and a provider answering for another issuer is not that issuer.
    expect(await refused('http://127.0.0.1:9')).toMatch(/^The provider could not be reached at that issuer: /);
    expect(await refused(`${idp.issuer}/other`)).toMatch(/^The provider could not be reached at that issuer: /);
    expect(await db().selectFrom('identity_providers').selectAll().execute()).toEqual([]);
  });

  it('needs the secret the first time, seals it, keeps it when a change leaves it out, and audits without it', async () => {
    const { client_secret: _, ...withoutSecret } = provider;
    const first = await kit.provide('T1.admin', w.id('T1'), withoutSecret);
    expect(first.status).toBe(422);
    expect(first.body.error.message).toBe(m.clientSecretRequired);

    const saved = await kit.provide('T1.admin', w.id('T1'), provider);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.provider).toMatchObject({
      issuer: idp.issuer,
      client_id: 'console-t1',
      email_claim: 'email',
      name_claim: 'name',
      tested_at: null,
    });
    expect(JSON.stringify(saved.body)).not.toContain(SECRET);
    const row = await db().selectFrom('identity_providers').selectAll().where('organization_id', '=', w.id('T1')).executeTakeFirstOrThrow();
    expect(row.client_secret_sealed).toMatch(/^v1\./);
    expect(row.client_secret_sealed).not.toContain(SECRET);

    const changed = await kit.provide('T1.admin', w.id('T1'), { ...withoutSecret, name_claim: 'given_name' });
    expect(changed.status).toBe(200);
    expect(changed.body.provider.name_claim).toBe('given_name');
    const kept = await db()
      .selectFrom('identity_providers')
      .select('client_secret_sealed')
      .where('organization_id', '=', w.id('T1'))
      .executeTakeFirstOrThrow();
    expect(kept.client_secret_sealed).toBe(row.client_secret_sealed);
    // A wrong secret is not known until a sign-in: discovery does not use it.
    const audits = await kit.audits('identity.provider_set');
    expect(audits.map((a) => a.details)).toMatchObject([
      { issuer: idp.issuer, client_id: 'console-t1', secret_changed: true },
      { issuer: idp.issuer, client_id: 'console-t1', name_claim: 'given_name', secret_changed: false },
    ]);
    expect(JSON.stringify(audits)).not.toContain(SECRET);
    expect((await kit.provide('T1.admin', w.id('T1'), provider)).status).toBe(200);
  });

  it('a test sign-in comes back to the Identity page with the result, and starts no session', async () => {
    const started = await kit.startTest('T1.admin', w.id('T1'));
    expect(started.status).toBe(200);
    const sessions = async () =>
      Number((await db().selectFrom('refresh_sessions').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
    const before = await sessions();
    // No domain in effect is needed to test, and any account of the provider may prove it.
    const landed = await kit.land(await signInAt(started.body.redirect_url, 'user@t1.test'));
    expect(landed).toMatchObject({ status: 302, location: '/settings/identity?test=ok&email=user%40t1.test', cookie: null });
    expect(await sessions()).toBe(before);
    expect((await get('T1.admin', w.id('T1'))).body.provider.tested_at).not.toBeNull();
    const pending = await db().selectFrom('sso_sign_ins').select('tested_by').where('tested_by', 'is not', null).executeTakeFirstOrThrow();
    expect(pending.tested_by).toBe(await userId('T1.admin'));
  });
});

describe('just-in-time members, enforcement and the break-glass admin', () => {
  it("refuses an admin role (or another level's) for just-in-time members, a break-glass who is not an active admin here, and enforcing without its conditions", async () => {
    const refused = async (body: Record<string, unknown>, message: string) => {
      const saved = await kit.settings('T1.admin', w.id('T1'), { ...off, ...body });
      expect(saved.status, JSON.stringify(body)).toBe(422);
      expect(saved.body.error.message).toBe(message);
    };
    await refused({ jit_role: 'tenant_admin' }, m.jitRoleNotAllowed);
    await refused({ jit_role: 'agency_user' }, m.jitRoleNotAllowed);
    await refused({ break_glass_user_id: await userId('T1.user') }, m.breakGlassNotAdmin);
    await refused({ break_glass_user_id: await userId('A1.admin') }, m.breakGlassNotAdmin);
    await refused({ enforce_sso: true }, m.breakGlassRequired);
    await refused({ enforce_sso: true, break_glass_user_id: await userId('T1.admin') }, m.enforceNeedsDomain);
    // An organization without a provider has nothing to set.
    const none = await kit.settings('A1.admin', w.id('A1'), off);
    expect(none.status).toBe(422);
    expect(none.body.error.message).toBe(m.noProvider);
  });

  it("enforcing ends the password sessions (but the break-glass admin's), refuses passwords and stops resets; the break-glass admin keeps the password", async () => {
    await kit.inEffect(w.id('T1'), 't1.test');
    // Sessions begun before: a password one of the user, and a provider one of the same user.
    const passwordSession = await w.t.signIn('user@t1.test', PASSWORD);
    const ssoSession = await kit.signInThrough('user@t1.test');
    expect(ssoSession.location).toBe('/');
    const managerToken = await w.as('T1.manager');
    // A person with a passkey, whose passwordless sign-ins start 'passkey' sessions.
    const key = softAuthenticator({ rpId: 'console.test', origin: 'http://console.test' });
    const passkeyPerson = await insertUser(db(), {
      email: 'keyholder@t1.test',
      password: PASSWORD,
      role: 'tenant_user',
      organizationId: w.id('T1'),
    });
    const holderToken = (await w.t.signIn('keyholder@t1.test', PASSWORD)).token;
    const registration = await w.t.request(
      'POST',
      '/api/account/passkeys/registration-options',
      { current_password: PASSWORD },
      { token: holderToken },
    );
    expect(
      (
        await w.t.request(
          'POST',
          '/api/account/passkeys',
          { name: 'Laptop', response: key.register(registration.body) },
          { token: holderToken },
        )
      ).status,
    ).toBe(200);
    const passkeySignIn = async () => {
      const options = await w.t.request('POST', '/api/auth/passkey/options', {});
      return w.t.request('POST', '/api/auth/passkey/sign-in', { response: key.authenticate(options.body) });
    };
    const byPasskey = await passkeySignIn();
    expect(byPasskey.status).toBe(200);
    expect(
      await db()
        .selectFrom('refresh_sessions')
        .select('method')
        .where('user_id', '=', passkeyPerson.id)
        .where('revoked_at', 'is', null)
        .execute(),
    ).toContainEqual({ method: 'passkey' });
    const resetToken = 'reset-token-from-before';
    await db()
      .insertInto('one_time_tokens')
      .values({
        token_hash: hashToken(resetToken),
        purpose: 'password_reset',
        user_id: await userId('T1.user'),
        expires_at: sql`now() + interval '1 hour'`,
      })
      .execute();

    const breakGlass = await userId('T1.admin');
    const saved = await kit.settings('T1.admin', w.id('T1'), {
      jit_role: 'tenant_user',
      enforce_sso: true,
      break_glass_user_id: breakGlass,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      jit_role: 'tenant_user',
      enforce_sso: true,
      break_glass: { id: breakGlass, email: 'admin@t1.test' },
    });
    const [audit] = (await kit.audits('identity.settings_changed')).slice(-1);
    expect(audit!.details).toMatchObject({
      before: { jit_role: null, enforce_sso: false, break_glass_user_id: null },
      after: { jit_role: 'tenant_user', enforce_sso: true, break_glass_user_id: breakGlass },
    });

    // Password sessions ended; the provider's session and the break-glass admin's stay.
    expect((await w.t.request('GET', '/api/users/me', undefined, { token: passwordSession.token })).status).toBe(401);
    expect((await w.t.request('POST', '/api/auth/refresh', undefined, { cookie: passwordSession.cookie })).status).toBe(401);
    expect((await w.t.request('GET', '/api/users/me', undefined, { token: managerToken })).status).toBe(401);
    expect((await kit.whoIs(ssoSession.cookie!)).email).toBe('user@t1.test');
    expect((await w.t.request('GET', '/api/users/me', undefined, { token: await w.as('T1.admin') })).status).toBe(200);

    // The password is refused, right or wrong alike for a wrong one; the break-glass admin's works.
    const refused = await w.t.request('POST', '/api/auth/sign-in', { email: 'user@t1.test', password: PASSWORD });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'sso_required', message: m.passwordDisabled });
    expect((await w.t.request('POST', '/api/auth/sign-in', { email: 'user@t1.test', password: 'wrong' })).body.error.code).toBe(
      'invalid_credentials',
    );
    expect((await w.t.request('POST', '/api/auth/sign-in', { email: 'admin@t1.test', password: PASSWORD })).status).toBe(200);
    // A passkey alone is no provider sign-in either, and its session ended too.
    expect((await passkeySignIn()).body.error).toMatchObject({ code: 'sso_required', message: m.passwordDisabled });
    expect((await w.t.request('GET', '/api/users/me', undefined, { token: byPasskey.body.access_token })).status).toBe(401);

    // A reset link from before sets no password; asking for one mails nothing (and answers as always).
    const reset = await w.t.request('POST', '/api/auth/password', { token: resetToken, password: 'a-new-password-1' });
    expect(reset.status).toBe(400);
    expect(reset.body.error.message).toBe(m.resetDisabled);
    const mails = async (to: string) =>
      Number(
        (await db().selectFrom('outbox').select(sql<number>`count(*)::int`.as('n')).where('to_address', '=', to).executeTakeFirstOrThrow())
          .n,
      );
    expect((await w.t.request('POST', '/api/auth/recover', { email: 'user@t1.test' })).body.message).toBe(MESSAGES.auth.resetSent);
    expect((await w.t.request('POST', '/api/auth/recover', { email: 'admin@t1.test' })).status).toBe(200);
    // The break-glass admin's link arrives; the other request, made first, has long finished by then.
    await expect.poll(() => mails('admin@t1.test'), { timeout: 10_000 }).toBe(1);
    expect(await mails('user@t1.test')).toBe(0);

    // A new provider sign-in still works, and nothing of the enforcement touched A1.
    expect((await kit.signInThrough('user@t1.test')).location).toBe('/');
    expect((await w.t.request('POST', '/api/auth/sign-in', { email: 'admin@a1.test', password: PASSWORD })).status).toBe(200);
  });

  it('removing the provider ends enforcement: passwords work again', async () => {
    const removed = await w.t.request('DELETE', `${kit.base(w.id('T1'))}/provider`, undefined, { token: await w.as('T1.admin') });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ provider: null, enforce_sso: false, jit_role: null, break_glass: null });
    expect((await kit.audits('identity.provider_removed')).at(-1)!.details).toMatchObject({
      issuer: idp.issuer,
      client_id: 'console-t1',
      was_enforced: true,
    });
    expect((await w.t.request('POST', '/api/auth/sign-in', { email: 'user@t1.test', password: PASSWORD })).status).toBe(200);
    expect((await kit.discover('user@t1.test')).body).toEqual({ method: 'password' });
    const again = await w.t.request('DELETE', `${kit.base(w.id('T1'))}/provider`, undefined, { token: await w.as('T1.admin') });
    expect(again.status).toBe(422);
    expect(again.body.error.message).toBe(m.providerNotFound);
  });
});
