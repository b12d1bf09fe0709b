import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@console/domain';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { PASSWORD, insertUser } from '../test/fixtures.ts';
import { machineLimitSettings } from '../lib/machine-limits.ts';

/**
 * A person's requests that change something are bounded per minute: a script holding a
 * session cannot write audit rows, mail or webhook events without end. Reads are not counted;
 * another person keeps their own allowance. The count is the machine API's shared counter,
 * whose sharing across processes machine-limits.test.ts shows. Its windows are fixed (a new
 * one starts every whole minute in production), so the test counts in hour-long windows: a
 * run that straddled a minute's end would start afresh halfway and see its sixth change pass.
 */
const LIMIT = 5;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    rateLimits: { sessionWritesPerPerson: LIMIT },
    machineLimits: { ...machineLimitSettings(1000), windowSeconds: 3600 },
    machineLimitSyncMs: 20,
  });
  const house = await t.database.db.selectFrom('organizations').select('id').where('org_type', '=', 'house').executeTakeFirstOrThrow();
  await insertUser(t.database.db, { email: 'second@writes.test', password: PASSWORD, role: 'house_admin', organizationId: house.id });
});
afterAll(async () => {
  await t?.close();
});

const rename = (app: TestApp, token: string, first_name: unknown) => app.request('PATCH', '/api/users/me', { first_name }, { token });

describe("a person's changes", () => {
  it('past the allowance answer 429 with Retry-After before the body is read, and change nothing; reads and other people go on', async () => {
    const { token } = await t.signIn(t.admin.email, t.admin.password);
    for (let i = 1; i <= LIMIT; i++) expect((await rename(t, token, `Name ${i}`)).status).toBe(200);
    const refused = await rename(t, token, 'Too many');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.error.message).toBe(MESSAGES.auth.tooManyChanges(LIMIT, Number(refused.headers.get('retry-after'))));
    // An invalid body is not even read: still 429, not 400.
    expect((await rename(t, token, 42)).status).toBe(429);
    const me = await t.request('GET', '/api/users/me', undefined, { token });
    expect(me.status).toBe(200);
    expect(me.body.first_name).toBe(`Name ${LIMIT}`);
    const second = await t.signIn('second@writes.test', PASSWORD);
    expect((await rename(t, second.token, 'Someone else')).status).toBe(200);
  });
});
