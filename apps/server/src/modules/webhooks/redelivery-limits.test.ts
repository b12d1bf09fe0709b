import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';

const ALLOWANCE = 5;
const w = useWorld({ rateLimits: { webhookRedeliveriesPerOrganization: ALLOWANCE } });
const db = () => w.t.database.db;
const hooks = (org: string) => `/api/organizations/${org}/webhooks`;
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });

describe('redeliveries', () => {
  it("count the deliveries they queue against the organization's allowance: a bulk redelivery queues what is left of it, then 429", async () => {
    const made = await as('A1.admin', 'POST', hooks(w.id('A1')), {
      url: 'http://127.0.0.1:9/redeliveries',
      event_types: ['api_key.created'],
    });
    expect(made.status).toBe(201);
    const endpoint = made.body.endpoint.id as string;
    const path = `${hooks(w.id('A1'))}/${endpoint}`;
    // Eight deliveries that failed.
    await sql`insert into webhook_events (type, organization_id, data)
      select 'api_key.created', ${w.id('A1')}::uuid, jsonb_build_object('api_key_id', gen_random_uuid(), 'name', 'k' || n, 'prefix', 'oc_' || n)
      from generate_series(1, 8) n`.execute(db());
    await sql`update webhook_deliveries set state = 'failed', next_attempt_at = null where endpoint_id = ${endpoint}`.execute(db());
    const states = async () =>
      (
        await sql<{ failed: number; other: number }>`select count(*) filter (where state = 'failed')::integer as failed,
          count(*) filter (where state <> 'failed')::integer as other from webhook_deliveries where endpoint_id = ${endpoint}`.execute(db())
      ).rows[0]!;
    const since = new Date(Date.now() - 3_600_000).toISOString();

    const first = await as('A1.admin', 'POST', `${path}/redeliver`, { since });
    expect(first.status).toBe(202);
    expect(first.body.redelivered).toBe(ALLOWANCE);
    expect(await states()).toEqual({ failed: 8 - ALLOWANCE, other: ALLOWANCE });

    // The allowance is spent: a bulk redelivery, one delivery's, and a test event are refused, and change nothing.
    const again = await as('A1.admin', 'POST', `${path}/redeliver`, { since });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const failed = await db()
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', endpoint)
      .where('state', '=', 'failed')
      .executeTakeFirstOrThrow();
    expect((await as('A1.admin', 'POST', `${path}/deliveries/${failed.id}/redeliver`)).status).toBe(429);
    expect((await as('A1.admin', 'POST', `${path}/test`)).status).toBe(429);
    expect(await states()).toEqual({ failed: 8 - ALLOWANCE, other: ALLOWANCE });

    // Another organization has its own allowance.
    const other = await as('T1.admin', 'POST', hooks(w.id('T1')), { url: 'http://127.0.0.1:9/other', event_types: ['api_key.created'] });
    expect((await as('T1.admin', 'POST', `${hooks(w.id('T1'))}/${other.body.endpoint.id}/test`)).status).toBe(202);
  });
});
