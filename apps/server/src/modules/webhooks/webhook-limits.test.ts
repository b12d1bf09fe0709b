import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';

const w = useWorld({ rateLimits: { webhookActionsPerOrganization: 3 } });
const hooks = (org: string) => `/api/organizations/${org}/webhooks`;

describe('webhook actions', () => {
  it('are bounded per organization across its admins: past the allowance 429 with Retry-After, and nothing is written', async () => {
    const token = await w.as('A1.admin');
    const body = { url: 'http://127.0.0.1:9/limits', event_types: ['balance.low'] };
    const made = await w.t.request('POST', hooks(w.id('A1')), body, { token });
    expect(made.status).toBe(201);
    const id = made.body.endpoint.id;
    expect((await w.t.request('POST', `${hooks(w.id('A1'))}/${id}/test`, undefined, { token })).status).toBe(202);
    expect((await w.t.request('POST', `${hooks(w.id('A1'))}/${id}/rotate`, { grace_hours: 0 }, { token })).status).toBe(200);
    const count = async () =>
      (
        await sql<{ n: number }>`select (select count(*) from webhook_endpoints) + (select count(*) from webhook_events) as n`.execute(
          w.t.database.db,
        )
      ).rows[0]!.n;
    const before = await count();
    const refused = await w.t.request('POST', `${hooks(w.id('A1'))}/${id}/test`, undefined, { token });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await w.t.request('POST', hooks(w.id('A1')), body, { token })).status).toBe(429);
    expect(await count()).toBe(before);
    // Another organization has its own allowance.
    expect((await w.t.request('POST', hooks(w.id('T1')), body, { token: await w.as('T1.admin') })).status).toBe(201);
  });
});
