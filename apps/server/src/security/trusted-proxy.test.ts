/**
 * TRUST_PROXY names how many proxies stand in front of the server (or their addresses),
 * never "every hop": the client address is the one the nearest trusted proxy saw, so a
 * client that writes its own X-Forwarded-For chooses neither its rate-limit key nor the
 * address of the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

const LIMITS = { signInPerAddress: 4, signInPerEmail: 100, recoverPerAddress: 100, recoverPerEmail: 100, windowSeconds: 600 };
/** The address the one trusted proxy saw: it appends it to whatever the client sent. */
const CLIENT = '203.0.113.7';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ trustProxy: 1, rateLimits: LIMITS });
});
afterAll(async () => {
  await t?.close();
});

/** A chain as it arrives behind one proxy: the client's forged entries, then what the proxy saw. */
const forged = (i: number, client = CLIENT) => ({ headers: { 'x-forwarded-for': `198.51.100.${i}, 10.9.${i}.1, ${client}` } });

describe('TRUST_PROXY=1', () => {
  it('a forged X-Forwarded-For chain does not give a fresh rate-limit key: the fifth sign-in is 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.signInPerAddress; i++) {
      const response = await t.request(
        'POST',
        '/api/auth/sign-in',
        { email: `spoof${i}@proxy.test`, password: 'wrong-password' },
        forged(i, '203.0.113.99'),
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });

  it('the session and the audit log record the address the trusted proxy saw, not the forged one', async () => {
    const signIn = await t.request('POST', '/api/auth/sign-in', t.admin, forged(42));
    expect(signIn.status).toBe(200);
    const token = signIn.body.access_token;
    const created = await t.request(
      'POST',
      '/api/organizations',
      { name: 'Proxied Super', org_type: 'super_agency' },
      { token, ...forged(43) },
    );
    expect(created.status).toBe(201);
    expect(await addresses()).toEqual({ session: CLIENT, audit: CLIENT });
  });

  it('a request that came through no proxy keeps its own address', async () => {
    const { token } = await t.signIn(t.admin.email, t.admin.password);
    expect((await t.request('POST', '/api/organizations', { name: 'Direct Super', org_type: 'super_agency' }, { token })).status).toBe(201);
    expect(await addresses()).toEqual({ session: '127.0.0.1', audit: '127.0.0.1' });
  });
});

/** The address of the newest session and of the newest organization.create audit row. */
async function addresses(app: TestApp = t) {
  const session = await app.database.db.selectFrom('refresh_sessions').select('ip').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
  const audit = await app.database.db
    .selectFrom('audit_log')
    .select('ip')
    .where('action', '=', 'organization.create')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return { session: session.ip, audit: audit.ip };
}

describe('TRUST_PROXY as a list of addresses', () => {
  it('believes X-Forwarded-For only from a listed proxy', async () => {
    const listed = await createTestApp({ trustProxy: ['127.0.0.1'], rateLimits: LIMITS });
    const unlisted = await createTestApp({ trustProxy: ['10.0.0.0/8'], rateLimits: LIMITS });
    try {
      for (const [app, expected] of [
        [listed, CLIENT],
        [unlisted, '127.0.0.1'],
      ] as const) {
        const signIn = await app.request('POST', '/api/auth/sign-in', app.admin, forged(1));
        expect(signIn.status).toBe(200);
        const created = await app.request(
          'POST',
          '/api/organizations',
          { name: 'Listed Super', org_type: 'super_agency' },
          { token: signIn.body.access_token, ...forged(2) },
        );
        expect(created.status).toBe(201);
        expect(await addresses(app)).toEqual({ session: expected, audit: expected });
      }
    } finally {
      await listed.close();
      await unlisted.close();
    }
  });
});
