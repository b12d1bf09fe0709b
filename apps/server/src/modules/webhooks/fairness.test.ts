/**
 * One organization's endpoints that never answer hold the sender's attempts in flight for the
 * whole timeout each: they must not delay another organization's deliveries. Real receivers
 * on 127.0.0.1: one that accepts every request and never answers, and a healthy one.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { WEBHOOKS } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { startReceiver, until, type Receiver } from '../../../../../support/webhook-receiver.ts';
import { allowedHosts } from './address.ts';
import { createWebhookDispatcher, type WebhookDispatcher } from './dispatcher.ts';
import { createSender } from './send.ts';
import { secretSealer } from '../../lib/sealer.ts';

/** A stuck attempt hangs this long: the healthy delivery must come well before any of them ends. */
const TIMEOUT_MS = 30_000;
const w = useWorld({ webhooks: { timeoutMs: TIMEOUT_MS } });
const db = () => w.t.database.db;
const hooks = (org: string) => `/api/organizations/${org}/webhooks`;
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });

/** Requests the stuck receiver holds unanswered (each an attempt in flight), by path. */
const open = new Map<string, ServerResponse>();
let openedEver = 0;
const stuck = createServer((request: IncomingMessage, response: ServerResponse) => {
  request.resume();
  openedEver++;
  const key = `${request.url} ${openedEver}`;
  open.set(key, response);
  response.on('close', () => open.delete(key));
});
let stuckUrl = '';
let healthy: Receiver;
/** Another server process's sender on the same database: the rooms hold across both. */
let second: WebhookDispatcher;

beforeAll(async () => {
  await new Promise<void>((resolve) => stuck.listen(0, '127.0.0.1', resolve));
  stuckUrl = `http://127.0.0.1:${(stuck.address() as AddressInfo).port}`;
  healthy = await startReceiver();
  second = createWebhookDispatcher({
    db: db(),
    logger: w.t.app.log,
    mailer: { kind: 'outbox', send: async () => {} },
    sender: createSender({ allowed: allowedHosts(['127.0.0.1']), timeoutMs: TIMEOUT_MS }),
    sealer: secretSealer(w.t.jwtSecret),
    pollMs: 50,
  });
});
afterAll(async () => {
  await second.close();
  stuck.closeAllConnections();
  await new Promise<void>((resolve) => stuck.close(() => resolve()));
  await healthy.close();
});

describe('fair delivery', () => {
  it("delivers a healthy organization's event within seconds while another's ten endpoints never answer", async () => {
    const stuckEndpoints: string[] = [];
    for (let n = 0; n < 10; n++) {
      const made = await as('A1.admin', 'POST', hooks(w.id('A1')), { url: `${stuckUrl}/stuck-${n}`, event_types: ['api_key.created'] });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      stuckEndpoints.push(made.body.endpoint.id);
    }
    const fine = await as('T1.admin', 'POST', hooks(w.id('T1')), { url: healthy.url('/fine'), event_types: ['api_key.created'] });
    expect(fine.status).toBe(201);
    // Thirty keys made at A1, as their audit rows write the events (three hundred deliveries to the stuck endpoints), then one at T1.
    await sql`insert into webhook_events (type, organization_id, data)
      select 'api_key.created', ${w.id('A1')}::uuid, jsonb_build_object('api_key_id', gen_random_uuid(), 'name', 'key ' || n, 'prefix', 'oc_' || n)
      from generate_series(1, 30) n`.execute(db());
    expect(
      (
        await sql<{
          n: number;
        }>`select count(*)::integer as n from webhook_deliveries where endpoint_id = any(${stuckEndpoints}::uuid[])`.execute(db())
      ).rows[0]!.n,
    ).toBe(300);
    await sql`insert into webhook_events (type, organization_id, data)
      values ('api_key.created', ${w.id('T1')}, jsonb_build_object('api_key_id', gen_random_uuid(), 'name', 'healthy', 'prefix', 'oc_fine'))`.execute(
      db(),
    );
    // A deadline far inside the stuck attempts' timeout: when it arrives, none of them has ended.
    await until(() => healthy.of('api_key.created').length > 0, "the healthy organization's delivery", TIMEOUT_MS / 2);
    const ended = await sql<{ n: number }>`select count(*)::integer as n from webhook_attempts a
      join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = any(${stuckEndpoints}::uuid[])`.execute(db());
    expect(ended.rows[0]!.n).toBe(0);
    // The stuck organization holds at most its room, whichever of the two senders attempts, once both have looked
    // again (each looks at least every second): a few in all, at most two at one endpoint.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(open.size).toBeGreaterThan(0);
    expect(open.size).toBeLessThanOrEqual(WEBHOOKS.inFlightPerOrganization);
    const perPath = new Map<string, number>();
    for (const key of open.keys()) perPath.set(key.split(' ')[0]!, (perPath.get(key.split(' ')[0]!) ?? 0) + 1);
    expect(Math.max(...perPath.values())).toBeLessThanOrEqual(WEBHOOKS.inFlightPerEndpoint);
  });
});
