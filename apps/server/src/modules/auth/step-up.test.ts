import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { generate, generateSecret } from 'otplib';
import { API, ERROR_CODES, MESSAGES, MFA, type Endpoint } from '@console/domain';
import { ADMIN, createTestApp, useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { balanceOf, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { secretSealer } from '../../lib/sealer.ts';
import { createSecondFactors } from '../../lib/second-factor.ts';

/**
 * Step-up before money and secrets: each listed action asks a session whose last proof (a
 * sign-in, or `POST /auth/step-up`) is older than the window for a new one, with 401
 * `step_up_required` and nothing changed; after a step-up the same request goes through.
 */
const w = useWorld();
const db = () => w.t.database.db;

/** The caller's sessions proved it last an hour ago: past the window. */
async function stale(who: string) {
  // A fixture person is signed in first (once per file), so their session exists to age.
  if (w.world.users[who]) await w.as(who);
  await db()
    .updateTable('refresh_sessions')
    .set({ stepped_up_at: sql`now() - interval '1 hour'` })
    .where(
      'user_id',
      'in',
      db()
        .selectFrom('users')
        .select('id')
        .where('email', '=', w.world.users[who] ?? who),
    )
    .execute();
}

const call = async (who: string, method: string, path: string, body?: unknown) =>
  w.t.request(method, path, body, { token: await w.as(who) });
const stepUp = async (who: string, body: unknown = { method: 'password', password: PASSWORD }) =>
  call(who, 'POST', '/api/auth/step-up', body);

/** Rows of the audit log other than sign-ins and step-ups: every change writes one. */
const changes = async () =>
  (
    await db()
      .selectFrom('audit_log')
      .select(sql<number>`count(*)::int`.as('n'))
      .where(sql<boolean>`action not like 'auth.%'`)
      .executeTakeFirstOrThrow()
  ).n;

/** The action asks a stale session (401 step_up_required, nothing audited as changed), and goes through after a step-up. */
async function expectAsked(who: string, send: () => Promise<{ status: number; body: any }>, okStatus = 200) {
  await stale(who);
  const before = await changes();
  const refused = await send();
  expect(refused.status).toBe(401);
  expect(refused.body.error).toMatchObject({ code: ERROR_CODES.stepUpRequired, message: MESSAGES.auth.stepUpRequired });
  expect(await changes()).toBe(before);
  const proved = await stepUp(who);
  expect(proved.status).toBe(200);
  expect(proved.body.fresh_until).toBeGreaterThan(Math.floor(Date.now() / 1000) + MFA.stepUpFreshSeconds - 60);
  const done = await send();
  expect(done.status, JSON.stringify(done.body)).toBe(okStatus);
  expect(await changes()).toBeGreaterThan(before);
  return done;
}

const allocate = (who: string, from: string, to: string, amount: string) =>
  call(who, 'POST', '/api/credits/allocations', { from_org_id: w.id(from as never), to_org_id: w.id(to as never), amount });
const adjust = (amount: string) =>
  call('H.admin', 'POST', '/api/credits/adjustments', { direction: 'increase', amount, reason: 'step-up test' });

beforeAll(async () => {
  await fund(db(), w.id('H'), '100000.00');
  await fund(db(), w.id('SA1'), '100000.00');
});

describe('step-up before money and secrets', () => {
  it('a fresh sign-in counts as a step-up: an allocation above the threshold goes through at once', async () => {
    expect((await allocate('H.admin', 'H', 'SA1', '5000.00')).status).toBe(200);
  });

  it('an allocation above the threshold asks a stale session; the balances stay until the step-up', async () => {
    const before = await balanceOf(db(), w.id('SA1'));
    await stale('H.admin');
    expect((await allocate('H.admin', 'H', 'SA1', '1000.01')).status).toBe(401);
    expect(await balanceOf(db(), w.id('SA1'))).toBe(before);
    await expectAsked('H.admin', () => allocate('H.admin', 'H', 'SA1', '1500.00'));
  });

  it('at or below the threshold nothing is asked; the house moves the threshold', async () => {
    await stale('SA1.admin');
    expect((await allocate('SA1.admin', 'SA1', 'A1', '1000.00')).status).toBe(200);
    expect((await allocate('SA1.admin', 'SA1', 'A1', '999.99')).status).toBe(200);
    expect((await allocate('SA1.admin', 'SA1', 'A1', '1000.01')).body.error.code).toBe(ERROR_CODES.stepUpRequired);
    const settings = (await call('H.admin', 'GET', '/api/settings')).body;
    expect(settings.step_up_threshold).toBe('1000.00');
    const rest = {
      documentation_url: settings.documentation_url,
      billing_portal_url: settings.billing_portal_url,
      community_channels: settings.community_channels,
    };
    const saved = await call('H.admin', 'PUT', '/api/settings', { ...rest, step_up_threshold: '5000.50' });
    expect(saved.status).toBe(200);
    expect(saved.body.step_up_threshold).toBe('5000.50');
    expect((await allocate('SA1.admin', 'SA1', 'A1', '5000.50')).status).toBe(200);
    expect((await allocate('SA1.admin', 'SA1', 'A1', '5000.51')).body.error.code).toBe(ERROR_CODES.stepUpRequired);
    await call('H.admin', 'PUT', '/api/settings', { ...rest, step_up_threshold: '1000.00' });
  });

  it('an adjustment above the threshold asks; at it, not; another role is refused (403) before being asked', async () => {
    await stale('H.admin');
    expect((await adjust('1000.00')).status).toBe(200);
    await expectAsked('H.admin', () => adjust('1000.01'));
    await stale('SA1.admin');
    const refused = await call('SA1.admin', 'POST', '/api/credits/adjustments', {
      direction: 'increase',
      amount: '5000.00',
      reason: 'nope',
    });
    expect(refused.status).toBe(403);
  });

  it('a child created with credits above the threshold asks; the child is not created until the step-up', async () => {
    const body = { name: 'Stepped Agency', org_type: 'agency', initial_balance: '2000.00' };
    await stale('SA1.admin');
    const count = async () => (await db().selectFrom('organizations').select('id').where('name', '=', 'Stepped Agency').execute()).length;
    await expectAsked('SA1.admin', () => call('SA1.admin', 'POST', '/api/organizations', body), 201);
    expect(await count()).toBe(1);
  });

  it('a reversal asks, whatever its amount', async () => {
    const made = await allocate('SA1.admin', 'SA1', 'A1', '10.00');
    expect(made.status).toBe(200);
    await expectAsked('SA1.admin', () =>
      call('SA1.admin', 'POST', `/api/credits/allocations/${made.body.transaction_id}/reversal`, { reason: 'given back' }),
    );
  });

  it("a price book change asks: an organization's own book, and the catalog price (the house's book)", async () => {
    const bot = await insertAgentType(db(), 'stepbot');
    await expectAsked('SA1.admin', () =>
      call('SA1.admin', 'PUT', `/api/organizations/${w.id('SA1')}/prices/${bot.id}`, { price: '2.0000' }),
    );
    await expectAsked('H.admin', () => call('H.admin', 'PATCH', `/api/agent-types/${bot.id}`, { price: '1.5000' }));
    // Its name alone is no price: nothing is asked.
    await stale('H.admin');
    expect((await call('H.admin', 'PATCH', `/api/agent-types/${bot.id}`, { name: 'Step bot' })).status).toBe(200);
  });

  it("a child's spend controls and automatic top-up ask", async () => {
    await expectAsked('H.admin', () =>
      call('H.admin', 'PUT', `/api/organizations/${w.id('SA1')}/spend-controls`, { spend_cap: '500.00', top_up: null }),
    );
  });

  it('creating and rolling an API key ask; a tenant user is refused (403) before being asked', async () => {
    const created = await expectAsked(
      'T1.admin',
      () => call('T1.admin', 'POST', `/api/organizations/${w.id('T1')}/api-keys`, { name: 'stepped', scopes: ['usage:write'] }),
      201,
    );
    await expectAsked('T1.admin', () =>
      call('T1.admin', 'POST', `/api/organizations/${w.id('T1')}/api-keys/${created.body.api_key.id}/roll`, { grace_seconds: 0 }),
    );
    await stale('T1.user');
    const refused = await call('T1.user', 'POST', `/api/organizations/${w.id('T1')}/api-keys`, { name: 'x', scopes: ['usage:write'] });
    expect(refused.status).toBe(403);
  });

  it('registering a webhook endpoint and rotating its secret ask', async () => {
    const created = await expectAsked(
      'T1.admin',
      () =>
        call('T1.admin', 'POST', `/api/organizations/${w.id('T1')}/webhooks`, {
          url: 'http://127.0.0.1:9/hook',
          event_types: ['balance.low'],
        }),
      201,
    );
    await expectAsked('T1.admin', () =>
      call('T1.admin', 'POST', `/api/organizations/${w.id('T1')}/webhooks/${created.body.endpoint.id}/rotate`, { grace_hours: 0 }),
    );
  });

  it('a role change asks; a manager is refused (403) before being asked', async () => {
    const target = await insertUser(db(), {
      email: 'role-step@t1.test',
      password: PASSWORD,
      role: 'tenant_user',
      organizationId: w.id('T1'),
    });
    await stale('T1.manager');
    expect((await call('T1.manager', 'PUT', `/api/users/${target.id}/role`, { role: 'tenant_manager' })).status).toBe(403);
    await expectAsked('T1.admin', () => call('T1.admin', 'PUT', `/api/users/${target.id}/role`, { role: 'tenant_manager' }));
  });

  it('the machine API is never asked: no key route takes a step-up, and a key reports usage with no session at all', async () => {
    const keyRoutes = Object.values(API)
      .flatMap((group) => Object.values(group as Record<string, Endpoint>))
      .filter((e) => e.auth === 'key');
    expect(keyRoutes.length).toBeGreaterThan(0);
    expect(keyRoutes.filter((e) => e.stepUp)).toEqual([]);
    const key = await insertApiKey(db(), w.id('T1'));
    await insertAgentType(db(), 'machbot');
    const answer = await w.t.request('GET', `/api/v1/entitlements?organization_id=${w.id('T1')}&agent=machbot`, undefined, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(answer.status).toBe(200);
  });
});

describe('POST /auth/step-up', () => {
  it('a person without a factor steps up with the password; a wrong one is refused and audited, and changes nothing', async () => {
    await stale('A1.admin');
    expect((await call('A1.admin', 'GET', '/api/auth/step-up')).body).toEqual({ methods: ['password'], fresh_until: null });
    const wrong = await stepUp('A1.admin', { method: 'password', password: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ password: MESSAGES.auth.stepUpPasswordWrong });
    expect((await call('A1.admin', 'GET', '/api/auth/step-up')).body.fresh_until).toBeNull();
    const failures = await db().selectFrom('audit_log').select('details').where('action', '=', 'auth.step_up_failed').execute();
    expect(failures).toContainEqual({ details: { method: 'password' } });
    expect((await stepUp('A1.admin', { method: 'totp', code: '123456' })).body.error.message).toBe(MESSAGES.auth.stepUpUsePassword);
    const right = await stepUp('A1.admin');
    expect(right.status).toBe(200);
    expect((await call('A1.admin', 'GET', '/api/auth/step-up')).body.fresh_until).toBe(right.body.fresh_until);
  });

  it('a person with an authenticator app steps up with a code (never the same step twice) or a recovery code, never the password', async () => {
    const email = 'step-app@t1.test';
    const { id } = await insertUser(db(), { email, password: PASSWORD, role: 'tenant_admin', organizationId: w.id('T1') });
    const sealer = secretSealer(w.t.jwtSecret, 'totp-secrets');
    const secret = generateSecret();
    await db()
      .insertInto('totp_factors')
      .values({ user_id: id, secret_sealed: sealer.seal(secret), confirmed_at: new Date() })
      .execute();
    const codes = await db()
      .transaction()
      .execute((trx) =>
        createSecondFactors({ sealer, limits: { secondFactorPerPerson: 100, windowSeconds: 900 } }).replaceRecoveryCodes(trx, id),
      );
    // Signed in with the app: a session like any other (its sign-in was a step-up too).
    const challenge = await w.t.request('POST', '/api/auth/sign-in', { email, password: PASSWORD });
    const signedIn = await w.t.request('POST', '/api/auth/sign-in/second-factor', {
      challenge_token: challenge.body.challenge_token,
      method: 'recovery_code',
      code: codes[0],
    });
    expect(signedIn.status).toBe(200);
    const token = signedIn.body.access_token as string;
    const post = (body: unknown) => w.t.request('POST', '/api/auth/step-up', body, { token });
    await stale(email);
    expect((await w.t.request('GET', '/api/auth/step-up', undefined, { token })).body).toEqual({
      methods: ['totp', 'recovery_code'],
      fresh_until: null,
    });
    const password = await post({ method: 'password', password: PASSWORD });
    expect(password.status).toBe(400);
    expect(password.body.error.message).toBe(MESSAGES.auth.stepUpUseFactor);
    const code = await generate({ secret });
    expect((await post({ method: 'totp', code })).status).toBe(200);
    await stale(email);
    const again = await post({ method: 'totp', code });
    expect(again.status).toBe(400);
    expect(again.body.error.fields).toEqual({ code: MESSAGES.auth.codeWrong });
    expect((await post({ method: 'recovery_code', code: codes[1] })).status).toBe(200);
    const audited = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'auth.step_up')
      .where('actor_user_id', '=', id)
      // In the order they were written: a table read without an order answers in any order.
      .orderBy('created_at')
      .execute();
    expect(audited.map((row) => row.details)).toEqual([{ method: 'totp' }, { method: 'recovery_code' }]);
  });
});

describe('POST /auth/step-up is bounded', () => {
  it('per person: past the allowance, 429 with Retry-After, even for the right password', async () => {
    const limited = await createTestApp({ rateLimits: { signInPerEmail: 3 } });
    try {
      const { token } = await limited.signIn(ADMIN.email, ADMIN.password);
      const attempt = (password: string) => limited.request('POST', '/api/auth/step-up', { method: 'password', password }, { token });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await attempt('wrong password')).status);
      const blocked = await attempt(ADMIN.password);
      expect([...statuses, blocked.status]).toEqual([400, 400, 400, 429]);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
