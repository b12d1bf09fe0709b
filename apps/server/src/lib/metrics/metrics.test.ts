/**
 * GET /metrics: off unless configured, behind the bearer token on the API's port or open on a
 * port of its own; the figures move with the requests, usage batches, webhook attempts,
 * queues and ledger; and no label carries an organization id, or any other id.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, useWorld, type TestApp } from '../../test/harness.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { parseExposition, typesOf, valueOf, type Sample } from '../../test/prometheus-text.ts';
import { startReceiver, until, type Receiver } from '../../../../../support/webhook-receiver.ts';

const onPostgres = Boolean(inject('pgServerUrl'));
const TOKEN = 'metrics-token-for-the-test-0123456789abcdef';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const w = useWorld({ metrics: { kind: 'token', token: TOKEN }, webhooks: { pollMs: 30, retrySchedule: [], timeoutMs: 2_000 } });
const db = () => w.t.database.db;

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const answer = await fetch(`${w.t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toContain('text/plain');
  const text = await answer.text();
  return { text, samples: parseExposition(text) };
}

/** A figure's value, 0 when the series does not exist yet (a counter not incremented). */
const figure = (samples: Sample[], name: string, labels: Record<string, string> = {}) => valueOf(samples, name, labels) ?? 0;

let receiver: Receiver;
let key: string;

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.answer((request, response) => {
    response.statusCode = request.url === '/refusing' ? 500 : 200;
    response.end('answered');
  });
  const agent = await insertAgentType(db(), 'metered', '0.2500');
  await activate(db(), w.id('T1'), agent.id);
  await fund(db(), w.id('T1'), '1.00');
  key = (await insertApiKey(db(), w.id('A1'), { scopes: ['usage:write'] })).key;
});
afterAll(async () => {
  await receiver?.close();
});

describe('GET /metrics behind METRICS_TOKEN', () => {
  it('asks for the token: none, another or a malformed one is 401; the token is 200', async () => {
    const none = await fetch(`${w.t.baseUrl}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect(await none.text()).not.toContain('console_');
    for (const authorization of [`Bearer ${TOKEN.slice(0, -1)}x`, `Bearer ${TOKEN}x`, TOKEN, 'Bearer ']) {
      expect((await fetch(`${w.t.baseUrl}/metrics`, { headers: { authorization } })).status).toBe(401);
    }
    await scrape();
  });

  it('counts requests by route pattern, method and status class', async () => {
    const before = (await scrape()).samples;
    const admin = await w.as('A1.admin');
    for (let n = 0; n < 3; n++) expect((await w.t.request('GET', '/api/health')).status).toBe(200);
    expect((await w.t.request('GET', `/api/organizations/${w.id('T1')}`, undefined, { token: admin })).status).toBe(200);
    expect((await w.t.request('GET', `/api/organizations/${w.id('T2')}`, undefined, { token: admin })).status).toBe(200);
    expect((await w.t.request('GET', `/api/organizations/${w.id('H')}`, undefined, { token: admin })).status).toBe(404);
    expect((await w.t.request('GET', '/api/no-such-route')).status).toBe(404);
    const after = (await scrape()).samples;
    const count = 'console_http_request_duration_seconds_count';
    const delta = (labels: Record<string, string>) => figure(after, count, labels) - figure(before, count, labels);
    expect(delta({ route: '/api/health', method: 'GET', status_class: '2xx' })).toBe(3);
    expect(delta({ route: '/api/organizations/:id', method: 'GET', status_class: '2xx' })).toBe(2);
    expect(delta({ route: '/api/organizations/:id', method: 'GET', status_class: '4xx' })).toBe(1);
    expect(delta({ route: 'unmatched', method: 'GET', status_class: '4xx' })).toBe(1);
    // The histogram's buckets hold every observation: the +Inf bucket equals the count.
    const labels = { route: '/api/health', method: 'GET', status_class: '2xx' };
    expect(valueOf(after, 'console_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(figure(after, count, labels));
  });

  it('counts usage events by outcome and refusal reason, the statements that recorded them, and the ledger entries', async () => {
    const before = (await scrape()).samples;
    const T1 = w.id('T1');
    const at = new Date(Date.now() - 60_000).toISOString();
    const event = (id: string, agent: string, units: string) => ({ id, organization_id: T1, agent, units, occurred_at: at });
    const machine = (events: unknown[]) =>
      w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key}` } });
    const first = await machine([
      event('m1', 'metered', '1'),
      event('m2', 'metered', '1'),
      event('u1', 'nobody', '1'),
      event('b1', 'metered', '1000'),
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ accepted: 2, duplicates: 0, rejected: 2 });
    const again = await machine([event('m1', 'metered', '1')]);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 1, rejected: 0 });
    const after = (await scrape()).samples;
    const delta = (name: string, labels: Record<string, string> = {}) => figure(after, name, labels) - figure(before, name, labels);
    expect(delta('console_usage_events_total', { outcome: 'accepted' })).toBe(2);
    expect(delta('console_usage_events_total', { outcome: 'duplicate' })).toBe(1);
    expect(delta('console_usage_events_total', { outcome: 'rejected' })).toBe(2);
    expect(delta('console_usage_events_refused_total', { reason: 'unknown_agent' })).toBe(1);
    expect(delta('console_usage_events_refused_total', { reason: 'insufficient_credits' })).toBe(1);
    // Two batches, each a statement of its own (nothing else of the key was under way).
    expect(delta('console_usage_statement_batches_count')).toBe(2);
    expect(delta('console_usage_statement_batches_sum')).toBe(2);
    // The ledger's figures are the ledger's own counts.
    const { rows } = await sql<{ entry_type: string; n: number }>`
      select entry_type, count(*)::integer as n from credit_ledger_entries group by entry_type`.execute(db());
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(valueOf(after, 'console_ledger_entries', { entry_type: row.entry_type })).toBe(row.n);
    expect(delta('console_ledger_entries', { entry_type: 'consumption' })).toBe(1);
  });

  it("counts every batch of a key's concurrent small batches once, in statements of one or more", async () => {
    const before = (await scrape()).samples;
    const at = new Date(Date.now() - 60_000).toISOString();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        w.t.request(
          'POST',
          '/api/v1/usage-events',
          { events: [{ id: `c${n}`, organization_id: w.id('T1'), agent: 'metered', units: '0.01', occurred_at: at }] },
          { headers: { authorization: `Bearer ${key}` } },
        ),
      ),
    );
    expect(answers.map((a) => a.body.accepted)).toEqual(Array(8).fill(1));
    const after = (await scrape()).samples;
    const delta = (name: string) => figure(after, name) - figure(before, name);
    expect(delta('console_usage_statement_batches_sum')).toBe(8);
    const statements = delta('console_usage_statement_batches_count');
    expect(statements).toBeGreaterThanOrEqual(1);
    expect(statements).toBeLessThanOrEqual(8);
    expect(
      figure(after, 'console_usage_events_total', { outcome: 'accepted' }) -
        figure(before, 'console_usage_events_total', { outcome: 'accepted' }),
    ).toBe(8);
  });

  it('counts webhook attempts by outcome and reads the queues from the database', async () => {
    const before = (await scrape()).samples;
    const admin = await w.as('A1.admin');
    const hooks = `/api/organizations/${w.id('A1')}/webhooks`;
    for (const path of ['/answering', '/refusing']) {
      const made = await w.t.request('POST', hooks, { url: receiver.url(path), event_types: ['balance.low'] }, { token: admin });
      expect(made.status).toBe(201);
      expect((await w.t.request('POST', `${hooks}/${made.body.endpoint.id}/test`, undefined, { token: admin })).status).toBe(202);
    }
    await until(async () => {
      const pending = await db().selectFrom('webhook_deliveries').select('id').where('state', '=', 'pending').execute();
      return receiver.of('webhook.test').length >= 2 && pending.length === 0;
    }, 'both test events attempted and recorded');
    // Mail waiting a minute (nothing sends it: the tests' mail goes to the outbox).
    await sql`insert into mail_queue (to_address, subject, body_text, created_at) values ('ops@example.test', 'Waiting', 'text', now() - interval '60 seconds')`.execute(
      db(),
    );
    const { samples: after, text } = await scrape();
    expect(
      figure(after, 'console_webhook_attempts_total', { outcome: 'delivered' }) -
        figure(before, 'console_webhook_attempts_total', { outcome: 'delivered' }),
    ).toBe(1);
    expect(
      figure(after, 'console_webhook_attempts_total', { outcome: 'failed' }) -
        figure(before, 'console_webhook_attempts_total', { outcome: 'failed' }),
    ).toBe(1);
    expect(valueOf(after, 'console_queue_depth', { queue: 'webhook_deliveries' })).toBe(0);
    expect(valueOf(after, 'console_queue_oldest_age_seconds', { queue: 'webhook_deliveries' })).toBe(0);
    expect(valueOf(after, 'console_queue_depth', { queue: 'mail' })).toBe(1);
    expect(valueOf(after, 'console_queue_oldest_age_seconds', { queue: 'mail' })).toBeGreaterThanOrEqual(60);
    for (const queue of ['top_ups', 'balance_alerts']) expect(valueOf(after, 'console_queue_depth', { queue })).toBeGreaterThanOrEqual(0);
    expect(valueOf(after, 'console_database_up')).toBe(1);
    expect(typesOf(text)).toMatchObject({
      console_http_request_duration_seconds: 'histogram',
      console_usage_events_total: 'counter',
      console_webhook_attempts_total: 'counter',
      console_queue_depth: 'gauge',
      console_ledger_entries: 'gauge',
    });
  });

  it('has the pool figures on PostgreSQL (none on PGlite), and process memory and event-loop lag', async () => {
    const { samples } = await scrape();
    if (onPostgres) {
      expect(valueOf(samples, 'console_db_pool_max')).toBe(10);
      for (const name of ['console_db_pool_in_use', 'console_db_pool_idle', 'console_db_pool_waiting']) {
        expect(valueOf(samples, name)).toBeGreaterThanOrEqual(0);
      }
    } else expect(samples.some((s) => s.name.startsWith('console_db_pool_'))).toBe(false);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    // No replica configured: no replica series.
    expect(samples.some((s) => s.name.startsWith('console_db_replica_'))).toBe(false);
  });

  it('carries no organization id, nor any other id, in any label', async () => {
    const { samples, text } = await scrape();
    const ids = Object.values(w.world.orgs).map((org) => org.id);
    for (const sample of samples) {
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toMatch(UUID);
        expect(ids).not.toContain(value);
      }
    }
    for (const id of ids) expect(text).not.toContain(id);
    const routes = new Set(samples.flatMap((s) => (s.labels.route ? [s.labels.route] : [])));
    expect(routes).toContain('/api/organizations/:id');
  });
});

describe('GET /metrics on METRICS_PORT', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ metrics: { kind: 'port', port: 0 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the metrics on its own port without a token, and not on the API port', async () => {
    const port = t.app.metricsListener!.port();
    expect(port).toBeGreaterThan(0);
    expect((await t.request('GET', '/api/health')).status).toBe(200);
    const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(answer.status).toBe(200);
    const samples = parseExposition(await answer.text());
    expect(
      valueOf(samples, 'console_http_request_duration_seconds_count', { route: '/api/health', method: 'GET', status_class: '2xx' }),
    ).toBe(1);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/metrics`)).status).toBe(404);
  });
});

describe('without METRICS_TOKEN or METRICS_PORT', () => {
  it('serves no /metrics', async () => {
    const t = await createTestApp();
    try {
      expect((await fetch(`${t.baseUrl}/metrics`)).status).toBe(404);
      expect(t.app.metricsListener).toBeNull();
    } finally {
      await t.close();
    }
  });
});
