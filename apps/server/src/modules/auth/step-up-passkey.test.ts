import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ERROR_CODES, MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { softAuthenticator, type SoftAuthenticator } from '../../test/authenticator.ts';
import { fund } from '../../test/usage-rows.ts';

/**
 * A passkey as the step-up proof: a person whose second factor is a passkey confirms it is them
 * with the passkey's answer to the re-check options (`POST /account/passkeys/check-options`),
 * never with the password; the answer is verified for real (a software authenticator), spent
 * once, and bound to the person. The console's address in these tests is http://console.test.
 */
const w = useWorld({ rateLimits: { secondFactorPerPerson: 20 } });
const db = () => w.t.database.db;
const RP = { rpId: 'console.test', origin: 'http://console.test' };

let people = 0;
async function newAdmin() {
  const email = `step-passkey-${++people}@sa1.test`;
  const { id } = await insertUser(db(), { email, password: PASSWORD, role: 'super_agency_admin', organizationId: w.id('SA1') });
  const signedIn = await w.t.request('POST', '/api/auth/sign-in', { email, password: PASSWORD });
  expect(signedIn.status).toBe(200);
  return { id, email, token: signedIn.body.access_token as string };
}

const call = (token: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token });

async function addPasskey(token: string, key: SoftAuthenticator) {
  const options = await call(token, 'POST', '/api/account/passkeys/registration-options', { current_password: PASSWORD });
  expect(options.status).toBe(200);
  const added = await call(token, 'POST', '/api/account/passkeys', { name: 'Laptop', response: key.register(options.body) });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
}

/** The person's sessions proved it last an hour ago: past the window. */
const stale = (userId: string) =>
  db().updateTable('refresh_sessions').set({ stepped_up_at: sql`now() - interval '1 hour'` }).where('user_id', '=', userId).execute();

const checkOptions = async (token: string) => {
  const options = await call(token, 'POST', '/api/account/passkeys/check-options');
  expect(options.status).toBe(200);
  return options.body;
};

describe('step-up with a passkey', () => {
  it('a passkey-only person confirms with the passkey (never the password), and the asked action then goes through', async () => {
    await fund(db(), w.id('SA1'), '100000.00');
    const person = await newAdmin();
    const key = softAuthenticator(RP);
    await addPasskey(person.token, key);
    await stale(person.id);
    expect((await call(person.token, 'GET', '/api/auth/step-up')).body).toEqual({
      methods: ['passkey', 'recovery_code'],
      fresh_until: null,
    });

    const allocate = () =>
      call(person.token, 'POST', '/api/credits/allocations', { from_org_id: w.id('SA1'), to_org_id: w.id('A1'), amount: '5000.00' });
    const asked = await allocate();
    expect(asked.status).toBe(401);
    expect(asked.body.error.code).toBe(ERROR_CODES.stepUpRequired);

    const password = await call(person.token, 'POST', '/api/auth/step-up', { method: 'password', password: PASSWORD });
    expect(password.status).toBe(400);
    expect(password.body.error.message).toBe(MESSAGES.auth.stepUpUseFactor);
    const app = await call(person.token, 'POST', '/api/auth/step-up', { method: 'totp', code: '123456' });
    expect(app.status).toBe(400);
    expect(app.body.error.message).toBe(MESSAGES.auth.stepUpUseFactor);

    const response = key.authenticate(await checkOptions(person.token));
    const proved = await call(person.token, 'POST', '/api/auth/step-up', { method: 'passkey', response });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    expect((await call(person.token, 'GET', '/api/auth/step-up')).body.fresh_until).toBe(proved.body.fresh_until);
    expect((await allocate()).status).toBe(200);

    // The same answer again: its challenge is spent.
    await stale(person.id);
    const replay = await call(person.token, 'POST', '/api/auth/step-up', { method: 'passkey', response });
    expect(replay.status).toBe(422);
    expect(replay.body.error).toMatchObject({ code: 'passkey_refused', message: MESSAGES.auth.passkeyRefused });
    expect((await call(person.token, 'GET', '/api/auth/step-up')).body.fresh_until).toBeNull();

    const audited = await db()
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('actor_user_id', '=', person.id)
      .where('action', 'in', ['auth.step_up', 'auth.step_up_failed'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(audited).toEqual([
      { action: 'auth.step_up', details: { method: 'passkey' } },
      { action: 'auth.step_up_failed', details: { method: 'passkey' } },
    ]);
  });

  it('another person’s passkey, or another relying party’s answer, does not confirm; each wrong answer counts', async () => {
    const person = await newAdmin();
    const other = await newAdmin();
    const mine = softAuthenticator(RP);
    const theirs = softAuthenticator(RP);
    await addPasskey(person.token, mine);
    await addPasskey(other.token, theirs);
    await stale(person.id);

    const foreign = await call(person.token, 'POST', '/api/auth/step-up', {
      method: 'passkey',
      response: theirs.authenticate(await checkOptions(person.token)),
    });
    expect(foreign.status).toBe(422);
    const phished = await call(person.token, 'POST', '/api/auth/step-up', {
      method: 'passkey',
      response: mine.authenticate(await checkOptions(person.token), { rpId: 'evil.test' }),
    });
    expect(phished.status).toBe(422);
    expect((await call(person.token, 'GET', '/api/auth/step-up')).body.fresh_until).toBeNull();
    const failures = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('actor_user_id', '=', person.id)
      .where('action', '=', 'auth.step_up_failed')
      .execute();
    expect(failures).toEqual([{ details: { method: 'passkey' } }, { details: { method: 'passkey' } }]);

    const right = await call(person.token, 'POST', '/api/auth/step-up', {
      method: 'passkey',
      response: mine.authenticate(await checkOptions(person.token)),
    });
    expect(right.status).toBe(200);
  });

  it('a person without a passkey is told to use what they have', async () => {
    const person = await newAdmin();
    const refused = await call(person.token, 'POST', '/api/auth/step-up', {
      method: 'passkey',
      response: softAuthenticator(RP).authenticate({ challenge: 'AAAA', rpId: RP.rpId, allowCredentials: [] } as never),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(MESSAGES.auth.stepUpUsePassword);
  });
});
