/**
 * An endpoint whose attempts keep timing out is paused, for longer at each timeout in a row,
 * so it holds no sender while it is paused; an answer of any status ends the run. A real
 * receiver on 127.0.0.1 that accepts requests and answers only when told to.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { WEBHOOKS } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { until } from '../../../../../support/webhook-receiver.ts';

const TIMEOUT_MS = 300;
const w = useWorld({ webhooks: { pollMs: 30, timeoutMs: TIMEOUT_MS, retrySchedule: [0.05, 0.05, 0.05, 0.05, 0.05, 0.05] } });
const db = () => w.t.database.db;
const hooks = (org: string) => `/api/organizations/${org}/webhooks`;
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });

let answering = false;
let requests = 0;
const held: ServerResponse[] = [];
const receiver = createServer((request, response) => {
  request.resume();
  requests++;
  if (answering) return void response.end('ok');
  held.push(response);
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/slow`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('an endpoint that keeps timing out', () => {
  it('is paused, longer at each timeout in a row, and holds no attempt meanwhile; an answer ends the pause', async () => {
    const made = await as('A1.admin', 'POST', hooks(w.id('A1')), { url, event_types: ['api_key.created'] });
    expect(made.status).toBe(201);
    const endpoint = made.body.endpoint.id as string;
    const timedOut = async () =>
      (
        await sql<{ n: number }>`select count(*)::integer as n from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
          where d.endpoint_id = ${endpoint} and a.error like 'No answer within%'`.execute(db())
      ).rows[0]!.n;
    await sql`insert into webhook_events (type, organization_id, data)
      select 'api_key.created', ${w.id('A1')}::uuid, jsonb_build_object('api_key_id', gen_random_uuid(), 'name', 'k' || n, 'prefix', 'oc_' || n)
      from generate_series(1, 6) n`.execute(db());
    await until(async () => (await timedOut()) > 0, 'a timeout');
    const first = await timedOut();
    const sentBefore = requests;
    // Many times the timeout and the retry waits: without a pause, the six deliveries would be attempted again and again.
    await new Promise((resolve) => setTimeout(resolve, 10 * TIMEOUT_MS));
    expect(requests - sentBefore).toBeLessThanOrEqual(WEBHOOKS.inFlightPerEndpoint - first);
    const paused = async () =>
      (
        await sql<{ run: number; seconds: number }>`select timeouts_in_row as run,
          extract(epoch from paused_until - (select max(a.attempted_at) from webhook_attempts a
            join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ep.id))::float8 as seconds
          from webhook_endpoints ep where ep.id = ${endpoint}`.execute(db())
      ).rows[0]!;
    const pauseOf = (run: number) => WEBHOOKS.timeoutPauseSeconds[Math.min(run, WEBHOOKS.timeoutPauseSeconds.length) - 1]!;
    const once = await paused();
    expect(once.run).toBe(await timedOut());
    expect(once.seconds).toBeGreaterThan(pauseOf(once.run) - 1);
    expect(once.seconds).toBeLessThan(pauseOf(once.run) + 1);

    // The pause over, it times out again: the run is longer, and so is the pause.
    await sql`update webhook_endpoints set paused_until = now() where id = ${endpoint}`.execute(db());
    await until(async () => (await timedOut()) > once.run, 'more timeouts');
    await until(async () => (await paused()).run === (await timedOut()), 'the longer pause recorded');
    const twice = await paused();
    expect(twice.run).toBeGreaterThan(once.run);
    expect(pauseOf(twice.run)).toBeGreaterThan(pauseOf(once.run));
    expect(twice.seconds).toBeGreaterThan(pauseOf(twice.run) - 1);

    // A test event asks for a try now: it goes out at once, and its answer ends the run and the pause.
    answering = true;
    for (const response of held.splice(0)) response.end();
    expect((await as('A1.admin', 'POST', `${hooks(w.id('A1'))}/${endpoint}/test`)).status).toBe(202);
    await until(
      async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::integer as n from webhook_deliveries
        where endpoint_id = ${endpoint} and state <> 'delivered'`.execute(db());
        return rows[0]!.n === 0;
        // A generous deadline: on a loaded machine the retries of the six deliveries take their turns two at a time.
      },
      'every delivery delivered',
      30_000,
    );
    const row = await db()
      .selectFrom('webhook_endpoints')
      .select(['timeouts_in_row', 'paused_until'])
      .where('id', '=', endpoint)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ timeouts_in_row: 0, paused_until: null });
  });
});
