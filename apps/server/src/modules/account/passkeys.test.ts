import { describe, expect, it } from 'vitest';
import { MESSAGES, type ActivityAction } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { softAuthenticator, type SoftAuthenticator } from '../../test/authenticator.ts';

/**
 * Passkeys, with a software authenticator whose answers the server verifies for real: adding
 * (password again, then the browser's answer and a name), renaming, removing; a passkey as the
 * second factor of a sign-in; and passwordless sign-in. The console's address is
 * http://console.test in these tests, so that is the relying party.
 */
const w = useWorld({ rateLimits: { secondFactorPerPerson: 20 } });
const db = () => w.t.database.db;
const RP = { rpId: 'console.test', origin: 'http://console.test' };

let people = 0;
async function newPerson() {
  const email = `passkey-${++people}@a1.test`;
  const { id } = await insertUser(db(), { email, password: PASSWORD, role: 'agency_user', organizationId: w.id('A1') });
  return { id, email };
}

const call = (token: string | undefined, method: string, path: string, body?: unknown) =>
  w.t.request(method, path, body, token ? { token } : {});

async function signIn(email: string) {
  const response = await call(undefined, 'POST', '/api/auth/sign-in', { email, password: PASSWORD });
  expect(response.status).toBe(200);
  return response.body;
}

/** Adds a passkey made by `key` for the person signed in with `token`. */
async function addPasskey(token: string, key: SoftAuthenticator, name = 'Laptop') {
  const options = await call(token, 'POST', '/api/account/passkeys/registration-options', { current_password: PASSWORD });
  expect(options.status).toBe(200);
  return call(token, 'POST', '/api/account/passkeys', { name, response: key.register(options.body) });
}

const auditOf = (userId: string, action: ActivityAction) =>
  db().selectFrom('audit_log').select(['actor_user_id', 'details']).where('target_id', '=', userId).where('action', '=', action).execute();

describe('adding a passkey', () => {
  it('asks for the password, verifies the answer for the console only, gives recovery codes with a first factor and ends other sessions', async () => {
    const person = await newPerson();
    const token = (await signIn(person.email)).access_token;
    const other = (await signIn(person.email)).access_token;
    const key = softAuthenticator(RP);

    const wrong = await call(token, 'POST', '/api/account/passkeys/registration-options', { current_password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ current_password: MESSAGES.auth.currentPasswordWrong });

    const options = await call(token, 'POST', '/api/account/passkeys/registration-options', { current_password: PASSWORD });
    expect(options.status).toBe(200);
    expect(options.body.rp).toEqual({ name: expect.any(String), id: 'console.test' });
    expect(options.body.authenticatorSelection.residentKey).toBe('required');
    // The challenge is kept hashed only.
    const stored = await db().selectFrom('webauthn_challenges').select('challenge_hash').execute();
    expect(stored.map((r) => r.challenge_hash)).not.toContain(options.body.challenge);

    // Another origin's answer is refused, and spends the challenge.
    const elsewhere = await call(token, 'POST', '/api/account/passkeys', {
      name: 'Phish',
      response: key.register(options.body, { origin: 'http://evil.test' }),
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.code).toBe('passkey_refused');
    const replay = await call(token, 'POST', '/api/account/passkeys', { name: 'Laptop', response: key.register(options.body) });
    expect(replay.status).toBe(422);

    const added = await addPasskey(token, key, '  Work laptop ');
    expect(added.status).toBe(200);
    expect(added.body.passkey).toMatchObject({ name: 'Work laptop', last_used_at: null });
    expect(added.body.recovery_codes).toHaveLength(10);
    expect((await call(other, 'GET', '/api/users/me')).status).toBe(401);
    expect((await call(token, 'GET', '/api/users/me')).status).toBe(200);

    const list = await call(token, 'GET', '/api/account/passkeys');
    expect(list.body.items).toEqual([added.body.passkey]);
    expect((await call(token, 'GET', '/api/account/factors')).body.passkeys).toEqual({ count: 1 });
    const row = await db().selectFrom('passkeys').selectAll().where('user_id', '=', person.id).executeTakeFirstOrThrow();
    expect(row.credential_id).toBe(key.credentialId);
    expect(await auditOf(person.id, 'auth.mfa_passkey_added')).toEqual([
      { actor_user_id: person.id, details: expect.objectContaining({ method: 'passkey', name: 'Work laptop' }) },
    ]);

    // A second passkey: no new recovery codes; the same credential is never added twice.
    const second = await addPasskey(token, softAuthenticator(RP), 'Phone');
    expect(second.status).toBe(200);
    expect(second.body.recovery_codes).toEqual([]);
    const again = await addPasskey(token, key, 'Again');
    expect(again.status).toBe(422);
  });

  it("renames only the person's own passkey", async () => {
    const person = await newPerson();
    const token = (await signIn(person.email)).access_token;
    const added = await addPasskey(token, softAuthenticator(RP));
    const id = added.body.passkey.id;
    const renamed = await call(token, 'PATCH', `/api/account/passkeys/${id}`, { name: 'Desk key' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Desk key');
    expect((await call(token, 'PATCH', `/api/account/passkeys/${id}`, { name: ' ' })).status).toBe(400);

    const stranger = await newPerson();
    const theirs = (await signIn(stranger.email)).access_token;
    expect((await call(theirs, 'PATCH', `/api/account/passkeys/${id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await call(theirs, 'POST', `/api/account/passkeys/${id}/remove`, { code: 'abcde-fghjk' })).status).toBe(404);
  });
});

describe('a passkey as the second factor', () => {
  it('is offered by the challenge, answers it once, and moves the counter forward', async () => {
    const person = await newPerson();
    const key = softAuthenticator(RP);
    await addPasskey((await signIn(person.email)).access_token, key);

    const challenge = await signIn(person.email);
    expect(challenge).toMatchObject({ mfa_required: true, methods: ['recovery_code', 'passkey'] });
    const options = await call(undefined, 'POST', '/api/auth/passkey/options', { challenge_token: challenge.challenge_token });
    expect(options.status).toBe(200);
    expect(options.body.allowCredentials).toEqual([expect.objectContaining({ id: key.credentialId })]);
    const answer = key.authenticate(options.body);
    const signedIn = await call(undefined, 'POST', '/api/auth/sign-in/second-factor', {
      challenge_token: challenge.challenge_token,
      method: 'passkey',
      response: answer,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.email).toBe(person.email);
    const row = await db()
      .selectFrom('passkeys')
      .select(['counter', 'last_used_at'])
      .where('user_id', '=', person.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(1);
    expect(row.last_used_at).not.toBeNull();
    expect(await auditOf(person.id, 'auth.mfa_sign_in')).toEqual([{ actor_user_id: person.id, details: { method: 'passkey' } }]);

    // The same answer again, on a new challenge: its passkey challenge is spent.
    const next = await signIn(person.email);
    const replayed = await call(undefined, 'POST', '/api/auth/sign-in/second-factor', {
      challenge_token: next.challenge_token,
      method: 'passkey',
      response: answer,
    });
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.code).toBe('passkey_refused');
  });

  it("refuses options asked for another challenge, a counter that goes back, and another person's passkey", async () => {
    const person = await newPerson();
    const key = softAuthenticator(RP);
    await addPasskey((await signIn(person.email)).access_token, key);
    const stranger = await newPerson();
    const strangerKey = softAuthenticator(RP);
    await addPasskey((await signIn(stranger.email)).access_token, strangerKey);

    // Options asked for the stranger's challenge do not answer the person's.
    const mine = await signIn(person.email);
    const theirs = await signIn(stranger.email);
    const theirOptions = await call(undefined, 'POST', '/api/auth/passkey/options', { challenge_token: theirs.challenge_token });
    const crossed = await call(undefined, 'POST', '/api/auth/sign-in/second-factor', {
      challenge_token: mine.challenge_token,
      method: 'passkey',
      response: key.authenticate(theirOptions.body),
    });
    expect(crossed.status).toBe(401);

    // The stranger's passkey signing the person's own options: refused.
    const myOptions = await call(undefined, 'POST', '/api/auth/passkey/options', { challenge_token: mine.challenge_token });
    const foreign = await call(undefined, 'POST', '/api/auth/sign-in/second-factor', {
      challenge_token: mine.challenge_token,
      method: 'passkey',
      response: strangerKey.authenticate(myOptions.body),
    });
    expect(foreign.status).toBe(401);
    expect(await auditOf(person.id, 'auth.mfa_challenge_failed')).toEqual([
      { actor_user_id: null, details: { method: 'passkey', failures: 1 } },
      { actor_user_id: null, details: { method: 'passkey', failures: 2 } },
    ]);

    // A cloned authenticator repeating a count already seen: refused.
    const fresh = await call(undefined, 'POST', '/api/auth/passkey/options', { challenge_token: mine.challenge_token });
    const ok = await call(undefined, 'POST', '/api/auth/sign-in/second-factor', {
      challenge_token: mine.challenge_token,
      method: 'passkey',
      response: key.authenticate(fresh.body, { counter: 5 }),
    });
    expect(ok.status).toBe(200);
    const again = await signIn(person.email);
    const cloneOptions = await call(undefined, 'POST', '/api/auth/passkey/options', { challenge_token: again.challenge_token });
    const cloned = await call(undefined, 'POST', '/api/auth/sign-in/second-factor', {
      challenge_token: again.challenge_token,
      method: 'passkey',
      response: key.authenticate(cloneOptions.body, { counter: 3 }),
    });
    expect(cloned.status).toBe(401);

    // A person without a passkey gets no passkey options for their challenge.
    expect((await call(undefined, 'POST', '/api/auth/passkey/options', { challenge_token: 'not-a-challenge' })).status).toBe(401);
  });
});

describe('passwordless sign-in', () => {
  it("starts a session of the passkey's person with the person verified, once per challenge", async () => {
    const person = await newPerson();
    const key = softAuthenticator(RP);
    await addPasskey((await signIn(person.email)).access_token, key);

    const options = await call(undefined, 'POST', '/api/auth/passkey/options', {});
    expect(options.status).toBe(200);
    expect(options.body.userVerification).toBe('required');
    expect(options.body.allowCredentials ?? []).toEqual([]);

    // Without the person verified on the device, no session.
    const unverified = await call(undefined, 'POST', '/api/auth/passkey/sign-in', {
      response: key.authenticate(options.body, { userVerified: false }),
    });
    expect(unverified.status).toBe(401);

    const options2 = await call(undefined, 'POST', '/api/auth/passkey/options', {});
    const answer = key.authenticate(options2.body);
    const signedIn = await call(undefined, 'POST', '/api/auth/passkey/sign-in', { response: answer });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.email).toBe(person.email);
    expect(signedIn.body.access_token).toEqual(expect.any(String));
    expect((await call(undefined, 'POST', '/api/auth/passkey/sign-in', { response: answer })).status).toBe(401);

    // Options for a second factor do not sign in without a password.
    const challenge = await signIn(person.email);
    const bound = await call(undefined, 'POST', '/api/auth/passkey/options', { challenge_token: challenge.challenge_token });
    expect((await call(undefined, 'POST', '/api/auth/passkey/sign-in', { response: key.authenticate(bound.body) })).status).toBe(401);

    // Another relying party's signature is refused.
    const options3 = await call(undefined, 'POST', '/api/auth/passkey/options', {});
    expect(
      (await call(undefined, 'POST', '/api/auth/passkey/sign-in', { response: key.authenticate(options3.body, { rpId: 'evil.test' }) }))
        .status,
    ).toBe(401);
    expect(await auditOf(person.id, 'auth.mfa_sign_in')).toEqual([
      { actor_user_id: person.id, details: expect.objectContaining({ method: 'passkey', passwordless: true }) },
    ]);
  });

  it('refuses an unknown passkey', async () => {
    const options = await call(undefined, 'POST', '/api/auth/passkey/options', {});
    const stranger = softAuthenticator(RP);
    const refused = await call(undefined, 'POST', '/api/auth/passkey/sign-in', { response: stranger.authenticate(options.body) });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe(MESSAGES.auth.passkeyRefused);
  });
});

describe('removing a passkey', () => {
  it('takes a current code or a passkey; the last factor gone, the recovery codes go and sign-in needs the password only', async () => {
    const person = await newPerson();
    const token = (await signIn(person.email)).access_token;
    const key = softAuthenticator(RP);
    const first = await addPasskey(token, key, 'One');
    const codes: string[] = first.body.recovery_codes;
    const second = await addPasskey(token, softAuthenticator(RP), 'Two');

    const wrong = await call(token, 'POST', `/api/account/passkeys/${second.body.passkey.id}/remove`, { code: 'zzzzz-zzzzz' });
    expect(wrong.status).toBe(422);
    const byCode = await call(token, 'POST', `/api/account/passkeys/${second.body.passkey.id}/remove`, { code: codes[0] });
    expect(byCode.status).toBe(200);
    // Recovery codes stay while a factor is left.
    expect((await call(token, 'GET', '/api/account/factors')).body.recovery_codes.left).toBe(9);

    const check = await call(token, 'POST', '/api/account/passkeys/check-options');
    expect(check.status).toBe(200);
    const byPasskey = await call(token, 'POST', `/api/account/passkeys/${first.body.passkey.id}/remove`, {
      response: key.authenticate(check.body),
    });
    expect(byPasskey.status).toBe(200);
    expect(await auditOf(person.id, 'auth.mfa_passkey_removed')).toEqual([
      { actor_user_id: person.id, details: expect.objectContaining({ method: 'recovery_code', name: 'Two' }) },
      { actor_user_id: person.id, details: expect.objectContaining({ method: 'passkey', name: 'One' }) },
    ]);
    const factors = (await call(token, 'GET', '/api/account/factors')).body;
    expect(factors.passkeys).toEqual({ count: 0 });
    expect(factors.recovery_codes.left).toBe(0);
    expect((await signIn(person.email)).access_token).toEqual(expect.any(String));
  });
});
