import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { useWorld, type ApiResponse } from '../../test/harness.ts';

const w = useWorld({ rateLimits: { apiKeyChangesPerOrganization: 5, apiKeyChangesPerPerson: 3 } });
const db = () => w.t.database.db;
const k = MESSAGES.apiKeys;
const keysOf = (org: string) => `/api/organizations/${org}/api-keys`;

/** Keys, audit rows and webhook events: what a key change writes. */
const written = async () =>
  (
    await sql<{ keys: number; audit: number; events: number }>`
      select (select count(*)::int from api_keys) as keys, (select count(*)::int from audit_log) as audit,
        (select count(*)::int from webhook_events) as events`.execute(db())
  ).rows[0]!;

function expectRefused(answer: ApiResponse, message: (seconds: number) => string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  const wait = Number(answer.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(3600);
  expect(answer.body.error).toEqual({ code: 'rate_limited', message: message(wait) });
}

describe('API key changes', () => {
  it('are bounded per person: making, rolling and editing count; past the allowance 429 with Retry-After, and nothing is written; revoking still works', async () => {
    const token = await w.as('T1.admin');
    const org = w.id('T1');
    const made = await w.t.request('POST', keysOf(org), { name: 'Runtime', scopes: ['usage:write'] }, { token });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.api_key.id as string;
    expect((await w.t.request('POST', `${keysOf(org)}/${id}/roll`, { grace_seconds: 0 }, { token })).status).toBe(200);
    expect((await w.t.request('PATCH', `${keysOf(org)}/${id}`, { name: 'Renamed' }, { token })).status).toBe(200);

    const before = await written();
    // Making and rolling queued an event each.
    expect(before.events).toBeGreaterThanOrEqual(2);
    expectRefused(
      await w.t.request('POST', keysOf(org), { name: 'One too many', scopes: ['usage:write'] }, { token }),
      k.tooManyFromPerson,
    );
    expectRefused(await w.t.request('POST', `${keysOf(org)}/${id}/roll`, { grace_seconds: 0 }, { token }), k.tooManyFromPerson);
    expectRefused(await w.t.request('PATCH', `${keysOf(org)}/${id}`, { name: 'Renamed again' }, { token }), k.tooManyFromPerson);
    expect(await written()).toEqual(before);
    const key = await db().selectFrom('api_keys').select(['name', 'prefix']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(key.name).toBe('Renamed');

    // Stopping a key never waits.
    const revoked = await w.t.request('DELETE', `${keysOf(org)}/${id}`, undefined, { token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.api_key.state).toBe('revoked');
  });

  it('are bounded per organization across its admins; another organization keeps its own allowance, and a change refused by a rule uses none', async () => {
    const org = w.id('A1');
    await insertUser(db(), { email: 'second-admin@a1.test', password: PASSWORD, role: 'agency_admin', organizationId: org });
    const first = await w.as('A1.admin');
    const second = (await w.t.signIn('second-admin@a1.test', PASSWORD)).token;
    const make = (token: string, name = 'Runtime') => w.t.request('POST', keysOf(org), { name, scopes: ['usage:write'] }, { token });
    // A change refused by a rule (422) counts nothing.
    expect(
      (
        await w.t.request(
          'POST',
          keysOf(org),
          { name: 'Late', scopes: ['usage:write'], expires_at: '2000-01-01T00:00:00Z' },
          { token: first },
        )
      ).status,
    ).toBe(422);
    const statuses = [];
    for (const token of [first, first, first, second, second]) statuses.push((await make(token)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const before = await written();
    const refused = await make(second);
    expectRefused(refused, k.tooManyForOrganization);
    expect(await written()).toEqual(before);
    // The refusal used up nothing: the other organization's admin, and its allowance, go on.
    expect(
      (await w.t.request('POST', keysOf(w.id('SA1')), { name: 'Runtime', scopes: ['usage:write'] }, { token: await w.as('SA1.admin') }))
        .status,
    ).toBe(201);
  });
});
