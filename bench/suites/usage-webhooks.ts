import { WEBHOOK_EVENT_TYPES } from '@console/domain';
import { generateKey } from '../../apps/server/src/lib/api-key.ts';
import { hashPassword } from '../../apps/server/src/lib/secrets.ts';
import { withClient } from '../../support/postgres.ts';
import { HTTP_COLUMNS, call, round, signIn } from '../lib/http.ts';
import { withReceivers, type Receivers } from '../lib/receivers.ts';
import { BENCH_ADMIN, withServer, type BenchServer } from '../lib/server.ts';
import { generateTree, ids, insertUser, prepareSession, step } from '../lib/sql.ts';
import type { Row, Suite } from '../lib/types.ts';
import { BATCH, BATCH_CONNECTIONS, PRICE, TREE, measureBatches, meter } from './usage.ts';

/**
 * Without (A) and with (B) webhooks in this order (Thue-Morse: a drift of the database or the
 * machine over the runs, linear or curved, weighs on both alike), each run a quarter of the duration.
 */
const ORDER = ['A', 'B', 'B', 'A', 'B', 'A', 'A', 'B'] as const;
/** The usage suite's two spreads of a batch: every metered tenant, and ten of them. */
const SPREADS = [1_000, 10] as const;
const AGENCY_ADMIN = { email: 'bench-agency@example.test', password: 'bench agency correct horse' };

export const usageWebhooks: Suite = {
  name: 'usage-webhooks',
  title: 'Usage ingestion with webhooks subscribed',
  about:
    "The usage suite's batched ingestion (PostgreSQL only) run twice on the same data: without any webhook endpoint, and with " +
    'two endpoints subscribed to every event type with `include_subtree`, one at the house (so every organization is in its ' +
    'subtree) and one at an agency, each pointing at a local receiver answering 200. The machine API with an API key of the house, ' +
    `over ${TREE.tenants.toLocaleString('en-US')} tenants that each run one agent at ${PRICE} credits a unit; \`POST ` +
    `/api/v1/usage-events\` with batches of ${BATCH.toLocaleString('en-US')} events of 1 unit at ${BATCH_CONNECTIONS} connections, ` +
    `in the usage suite's two spreads (one event for each of the ${TREE.tenants.toLocaleString('en-US')} tenants, and 100 for each ` +
    'of 10). After a warm-up run (not counted: the first run on a fresh spread is faster than the ones after it), the two take ' +
    'turns in eight runs of a quarter of the duration each (30 s by default), without, with, with, without, with, without, ' +
    'without, with (the endpoints registered through the API before a run with them and deleted before a run without), the ' +
    'database vacuumed before each run (the balance rows every batch updates bloat fast); each row adds its four runs (p50 and ' +
    "p99 the worst run's). **÷ without webhooks** is the events/s with the endpoints over those without (aim 0.9: " +
    'no more than 10 % lower). **webhook events** counts the outbox rows written during the two halves with the endpoints.',
  columns: [
    ...HTTP_COLUMNS,
    { key: 'eventsPerSecond', label: 'events/s', format: 'fixed1' },
    { key: 'ratioWebhooks', label: '÷ without webhooks', format: 'fixed2' },
    { key: 'webhookEvents', label: 'webhook events', format: 'int' },
  ],
  async run(context) {
    if (!context.databaseUrl) {
      return { status: 'skipped', reason: 'needs PostgreSQL (set DATABASE_URL), as the usage suite' };
    }
    return withReceivers(2, (receivers) =>
      withServer('postgresql', context, (server) => compare(server, receivers, context.durationSeconds ?? 30, context.log), {
        webhooks: { allowedHosts: ['127.0.0.1'] },
      }),
    );
  },
};

async function compare(server: BenchServer, receivers: Receivers, durationSeconds: number, log: (message: string) => void) {
  const url = server.databaseUrl!;
  const times: Record<string, number> = {};
  const key = generateKey();
  const passwordHash = await hashPassword(AGENCY_ADMIN.password);
  const setup = await withClient(url, async (client) => {
    await prepareSession(client);
    const house = await generateTree(client, TREE, times, log);
    await step(times, 'agent, 1,000 activations, funding and an API key', log, () => meter(client, house.id, key));
    const { rows } = await client.query<{ id: string }>(`select organization_id as id from bench_usage_orgs order by n`);
    const { rows: agency } = await client.query<{ id: string }>(`select ${ids.agency('0')} as id`);
    await insertUser(client, { email: AGENCY_ADMIN.email, passwordHash, role: 'agency_admin', organizationId: agency[0]!.id });
    await client.query('vacuum analyze');
    return { house: house.id, agency: agency[0]!.id, orgs: rows.map((r) => r.id) };
  });
  const bearer = { authorization: `Bearer ${key.key}` };
  const runId = Date.now().toString(36);
  const part = Math.max(1, Math.round(durationSeconds / (ORDER.length / 2)));

  const batches = async (name: string, tag: string, orgs: string[]) => {
    // Each half starts from a vacuumed database: the balance rows every batch updates bloat fast,
    // and the halves after would otherwise be slower only for coming later.
    await withClient(url, (client) => client.query('vacuum analyze'));
    return measureBatches(server, { name, bearer, idPrefix: `hooked-${runId}-${tag}`, orgs, seconds: part });
  };

  /** The two endpoints, registered through the API by the house's and the agency's admins. */
  const register = async () => {
    const made: { org: string; token: string; id: string; secret: string }[] = [];
    // Registering an endpoint asks for a step-up given within 10 minutes: a fresh sign-in is one,
    // and a long run may register again well after the first sign-ins.
    const fresh = { house: await signIn(server, BENCH_ADMIN), agency: await signIn(server, AGENCY_ADMIN) };
    for (const [n, [org, token]] of [
      [setup.house, fresh.house],
      [setup.agency, fresh.agency],
    ].entries()) {
      const answer = await call<{ endpoint: { id: string }; secret: string }>(
        server,
        'POST',
        `/api/organizations/${org}/webhooks`,
        token!,
        {
          url: receivers.urls[n],
          description: 'bench: every event type',
          event_types: [...WEBHOOK_EVENT_TYPES],
          include_subtree: true,
        },
      );
      made.push({ org: org!, token: token!, id: answer.endpoint.id, secret: answer.secret });
    }
    await receivers.expect(
      made.map((m) => m.secret),
      0,
    );
    return made;
  };
  const remove = async (made: Awaited<ReturnType<typeof register>>) => {
    for (const m of made) {
      const response = await fetch(`${server.url}/api/organizations/${m.org}/webhooks/${m.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${m.token}` },
      });
      if (!response.ok) throw new Error(`deleting endpoint ${m.id} answered ${response.status}: ${await response.text()}`);
    }
  };
  const outbox = () =>
    withClient(url, async (client) => {
      const { rows } = await client.query<{ events: number; deliveries: number }>(
        `select (select count(*) from webhook_events)::int as events, (select count(*) from webhook_deliveries)::int as deliveries`,
      );
      return rows[0]!;
    });

  const rows: Row[] = [];
  const compared: { orgs: number; without: Row; hooked: Row; events: number; deliveries: number; order: string }[] = [];
  for (const orgs of SPREADS) {
    const spread = setup.orgs.slice(0, orgs);
    const name = `usage batches of ${BATCH.toLocaleString('en-US')} events over ${orgs.toLocaleString('en-US')} tenants`;
    log(`batched ingestion over ${orgs} tenants: a warm-up, then ${ORDER.join(' ')} (without, with webhooks) in runs of ${part} s`);
    // Not counted: the first run on a fresh spread is faster than the ones after it.
    await batches(`${name}, warm-up`, `${orgs}-warm`, spread);
    const parts: { hooked: boolean; row: Row }[] = [];
    let made: Awaited<ReturnType<typeof register>> | null = null;
    let events = 0;
    let deliveries = 0;
    for (const [n, turn] of ORDER.entries()) {
      const hooked = turn === 'B';
      if (hooked && !made) made = await register();
      if (!hooked && made) {
        await remove(made);
        made = null;
      }
      const before = await outbox();
      const row = await batches(
        hooked ? `${name}, endpoints for every event type at the house and an agency` : `${name}, no webhook endpoint`,
        `${orgs}-${n}`,
        spread,
      );
      const after = await outbox();
      if (hooked) {
        events += after.events - before.events;
        deliveries += after.deliveries - before.deliveries;
      }
      parts.push({ hooked, row });
    }
    if (made) await remove(made);
    const without = combine(parts.filter((p) => !p.hooked).map((p) => p.row));
    const hooked = combine(parts.filter((p) => p.hooked).map((p) => p.row));
    hooked.ratioWebhooks = round(Number(hooked.eventsPerSecond) / Number(without.eventsPerSecond), 2);
    without.ratioWebhooks = 1;
    hooked.webhookEvents = events;
    without.webhookEvents = null;
    log(
      `  ${hooked.eventsPerSecond} events/s with the endpoints, ${without.eventsPerSecond} without: ${hooked.ratioWebhooks}; ` +
        `${events} webhook events and ${deliveries} deliveries written meanwhile`,
    );
    rows.push(without, hooked);
    compared.push({
      orgs,
      without,
      hooked,
      events,
      deliveries,
      order: parts.map((p) => `${p.hooked ? 'with' : 'without'} ${p.row.requests}`).join(', '),
    });
  }
  const received = await receivers.stats();
  return {
    status: 'ok' as const,
    rows,
    notes: [
      ...compared.map(
        (c) =>
          `Over ${c.orgs.toLocaleString('en-US')} tenants: ${c.hooked.eventsPerSecond} events/s with the endpoints against ` +
          `${c.without.eventsPerSecond} without (runs taken in turn, requests in each: ${c.order}): ` +
          `ratio ${c.hooked.ratioWebhooks} (aim 0.9; load ` +
          `${c.without.loadAverage} and ${c.hooked.loadAverage}). Accepted usage writes no webhook event (no refusal, no balance ` +
          `crossing its threshold with 1,000,000.00 credits each): ${c.events} events and ${c.deliveries} deliveries were written ` +
          "while the endpoints were registered. The outbox's triggers are installed in both runs (they are part of the schema); " +
          'what the endpoints could add is the fan-out and the sending, which only an event sets off.',
      ),
      `The receivers got ${received.received} deliveries over the run.`,
      `Setup: ${Object.entries(times)
        .map(([k, v]) => `${k} ${v} s`)
        .join(', ')}.`,
    ],
    details: {
      tree: TREE,
      batch: BATCH,
      setupSeconds: times,
      compared: compared.map((c) => ({ orgs: c.orgs, events: c.events, deliveries: c.deliveries, halves: c.order })),
    },
  };
}

/**
 * One row from several runs of the same load: counts added, rates over the whole time, CPU per
 * request weighted by requests, the load their mean, and the latencies the worst run's
 * (percentiles do not add up).
 */
function combine(runs: Row[]): Row {
  const sum = (key: string) => runs.reduce((total, row) => total + Number(row[key]), 0);
  const most = (key: string) => Math.max(...runs.map((row) => Number(row[key])));
  const requests = sum('requests');
  const seconds = sum('durationSeconds');
  return {
    ...runs[0]!,
    durationSeconds: seconds,
    requests,
    rps: round(requests / seconds, 2),
    p50Ms: most('p50Ms'),
    p99Ms: most('p99Ms'),
    maxMs: most('maxMs'),
    errors: sum('errors'),
    non2xx: sum('non2xx'),
    cpuMsPerRequest: round(
      runs.reduce((total, row) => total + Number(row.cpuMsPerRequest) * Number(row.requests), 0) / Math.max(1, requests),
      2,
    ),
    loadAverage: round(sum('loadAverage') / runs.length, 1),
    eventsPerSecond: round((requests / seconds) * BATCH, 1),
    runs: runs.map((row) => `${row.requests}`).join(' + '),
  };
}
