import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashPassword } from '../../apps/server/src/lib/secrets.ts';
import { cpuTicks, TICKS_PER_SECOND } from '../../support/proc.ts';
import { signatureHeader } from '../../apps/server/src/modules/webhooks/signing.ts';
import { call, round, signIn } from '../lib/http.ts';
import type { Kept, RoundStats } from '../lib/receiver-child.ts';
import { withReceivers, type Receivers } from '../lib/receivers.ts';
import { withServer, type BenchServer } from '../lib/server.ts';
import type { Column, Row, Suite } from '../lib/types.ts';

/** Endpoints (one per agency, each with its own receiver) and the events each gets in a burst. */
const ENDPOINTS = 10;
const PER_ENDPOINT = 1_000;
const BURST = ENDPOINTS * PER_ENDPOINT;
/** The warm-up burst before the rounds, not counted. */
const WARM_PER_ENDPOINT = 100;
/** Rounds of a burst through the dispatcher and the bare loop on the same bodies; each side's median round is reported. */
const ROUNDS = 3;
/** The dispatcher's default concurrency (attempts under way at once), which the bare loop keeps too. */
const IN_FLIGHT = 32;
/** The sender's keep-alive sockets per receiver (send.ts's default). */
const SOCKETS = 64;
const EVENT_TYPE = 'credits.adjusted';
const PASSWORD = 'bench webhooks correct horse';
/** A burst that has not arrived by then has failed. */
const TIMEOUT_MS = 180_000;

const ROUND_COLUMNS: Column[] = [
  { key: 'name', label: 'round', format: 'text' },
  { key: 'database', label: 'database', format: 'text' },
  { key: 'dispatcherSeconds', label: 'dispatcher', format: 'fixed2' },
  { key: 'insertMs', label: 'of it, the insert', format: 'ms' },
  { key: 'firstMs', label: 'first delivery after', format: 'ms' },
  { key: 'dispatcherPerSecond', label: 'dispatcher deliveries/s', format: 'fixed1' },
  { key: 'steadyPerSecond', label: 'first to last received, /s', format: 'fixed1' },
  { key: 'bareSeconds', label: 'bare loop', format: 'fixed2' },
  { key: 'barePerSecond', label: 'bare deliveries/s', format: 'fixed1' },
  { key: 'ratio', label: '÷ bare loop', format: 'fixed2' },
  { key: 'dispatcherBusyPercent', label: 'machine busy (dispatcher)', format: 'fixed1' },
  { key: 'bareBusyPercent', label: 'machine busy (bare)', format: 'fixed1' },
];

export const webhooks: Suite = {
  name: 'webhooks',
  title: 'Webhook deliveries: a burst through the dispatcher against a bare sending loop',
  about:
    `A burst of ${BURST.toLocaleString('en-US')} \`${EVENT_TYPE}\` events, ${PER_ENDPOINT.toLocaleString('en-US')} for each of ` +
    `${ENDPOINTS} tenants, inserted into \`webhook_events\` in one statement (interleaved over the tenants): the fan-out trigger ` +
    `writes one delivery per event, for the endpoint of the tenant's agency (${ENDPOINTS} agencies, each with one endpoint ` +
    'registered through the API by its admin, subscribed to that type with `include_subtree`). The dispatcher runs in the server ' +
    'process as in production, with its defaults (a look every second when idle, batches of 100, ' +
    `${IN_FLIGHT} attempts in flight, keep-alive sockets), and posts to ${ENDPOINTS} local receivers (one port each, in a process ` +
    'of their own, each verifying every signature with the `standardwebhooks` package and answering 200 at once). **seconds** runs ' +
    'from the insert until no delivery is pending any more (every one recorded `delivered`): the insert with its trigger and the ' +
    "dispatcher's wait for its next look are in it. Beside it, against the same receivers, the **bare loop**: the bench process " +
    'posts the very bodies the dispatcher sent (kept by the receivers), each signed again with `signatureHeader` as the dispatcher ' +
    `signs, ${IN_FLIGHT} in flight over a keep-alive \`http.Agent\` (${SOCKETS} sockets), with no database at all: the ceiling. ` +
    "**÷ bare loop** is the dispatcher's deliveries/s over the bare loop's (aim 0.5). After a warm-up burst of " +
    `${(ENDPOINTS * WARM_PER_ENDPOINT).toLocaleString('en-US')} through each, ${ROUNDS} rounds run (a burst through the dispatcher, ` +
    "then the bare loop on its bodies); each side's row is its median round, and every round is listed below. **CPU/delivery**: " +
    "the CPU time per delivery of the sending process (the server, or the bench process for the bare loop), of PostgreSQL's " +
    "backends for the bench database (read from /proc; on PGlite the database's work is the server process's), and of the " +
    "receivers' process; **busy** is the share of the whole machine's CPU (every core) in use meanwhile, whoever used it.",
  columns: [
    { key: 'name', label: 'sender', format: 'text' },
    { key: 'database', label: 'database', format: 'text' },
    { key: 'deliveries', label: 'deliveries', format: 'int' },
    { key: 'inFlight', label: 'in flight', format: 'int' },
    { key: 'seconds', label: 'seconds', format: 'fixed2' },
    { key: 'deliveriesPerSecond', label: 'deliveries/s', format: 'fixed1' },
    { key: 'ratio', label: '÷ bare loop', format: 'fixed2' },
    { key: 'senderCpuMsPerDelivery', label: 'sender CPU/delivery', format: 'ms' },
    { key: 'databaseCpuMsPerDelivery', label: 'database CPU/delivery', format: 'ms' },
    { key: 'receiverCpuMsPerDelivery', label: 'receivers CPU/delivery', format: 'ms' },
    { key: 'busyPercent', label: 'busy %', format: 'fixed1' },
    { key: 'verified', label: 'verified', format: 'int' },
    { key: 'duplicates', label: 'duplicates', format: 'int' },
    { key: 'loadAverage', label: 'load', format: 'fixed1' },
  ],
  async run(context) {
    const rows: Row[] = [];
    const rounds: Row[] = [];
    const notes: string[] = [];
    const details: Record<string, unknown> = {};
    for (const kind of context.databases) {
      context.log(`${kind}: ${ENDPOINTS} receivers, and the server with WEBHOOK_ALLOWED_HOSTS=127.0.0.1`);
      const outcome = await withReceivers(ENDPOINTS, (receivers) =>
        withServer(kind, context, (server) => measure(server, receivers, context.log), { webhooks: { allowedHosts: ['127.0.0.1'] } }),
      );
      rows.push(...outcome.rows);
      rounds.push(...outcome.rounds);
      notes.push(outcome.note);
      details[kind] = outcome.details;
    }
    return {
      status: 'ok',
      rows,
      tables: [{ title: 'Every round (seconds; the rows above are the median rounds)', columns: ROUND_COLUMNS, rows: rounds }],
      notes,
      details,
    };
  },
};

const median = <T>(list: T[], by: (item: T) => number): T => [...list].sort((a, b) => by(a) - by(b))[Math.floor(list.length / 2)]!;

async function measure(server: BenchServer, receivers: Receivers, log: (message: string) => void) {
  const setup = await registerEndpoints(server, receivers);
  log(`  ${ENDPOINTS} agencies with a tenant each, and their endpoints registered through the API by their admins`);
  log(`  warm-up: ${ENDPOINTS * WARM_PER_ENDPOINT} deliveries through the dispatcher, then the bare loop`);
  const warm = await dispatch(server, receivers, setup, WARM_PER_ENDPOINT, 'warm-up');
  await bareLoop(receivers, setup.secrets, warm.kept);

  const measured: { burst: Burst; bare: Bare }[] = [];
  for (let n = 1; n <= ROUNDS; n++) {
    const burst = await dispatch(server, receivers, setup, PER_ENDPOINT, `round ${n}`);
    log(
      `  round ${n}, dispatcher: ${burst.seconds} s (insert ${burst.insertMs} ms, first delivery after ${burst.firstMs} ms, last ` +
        `after ${burst.lastMs} ms), ${burst.perSecond} deliveries/s; CPU/delivery: server ${burst.cpuMsPerDelivery} ms, database ` +
        `${burst.databaseCpuMsPerDelivery ?? '(in the server)'} ms, receivers ${burst.receiverCpuMsPerDelivery} ms; machine ` +
        `${burst.busyPercent} % busy`,
    );
    const bare = await bareLoop(receivers, setup.secrets, burst.kept);
    log(
      `  round ${n}, bare loop: ${bare.seconds} s, ${bare.perSecond} deliveries/s; CPU/delivery: loop ${bare.cpuMsPerDelivery} ms, ` +
        `receivers ${bare.receiverCpuMsPerDelivery} ms; machine ${bare.busyPercent} % busy`,
    );
    measured.push({ burst, bare });
  }

  const [check] = await server.sql<{ delivered: number; other: number; attempts: number }>(
    `select count(*) filter (where state = 'delivered')::int as delivered, count(*) filter (where state <> 'delivered')::int as other,
            (select count(*) from webhook_attempts)::int as attempts
     from webhook_deliveries`,
  );
  const expected = ENDPOINTS * WARM_PER_ENDPOINT + ROUNDS * BURST;
  if (check!.delivered !== expected || check!.other !== 0)
    throw new Error(`expected ${expected} deliveries delivered; found ${check!.delivered} delivered and ${check!.other} not`);

  const burst = median(measured, (m) => m.burst.perSecond).burst;
  const bare = median(measured, (m) => m.bare.perSecond).bare;
  const ratio = round(burst.perSecond / bare.perSecond, 2);
  const rows: Row[] = [
    {
      name: `dispatcher in the server: ${BURST.toLocaleString('en-US')} events to ${ENDPOINTS} endpoints (median of ${ROUNDS})`,
      database: server.database,
      deliveries: BURST,
      inFlight: IN_FLIGHT,
      seconds: burst.seconds,
      deliveriesPerSecond: burst.perSecond,
      ratio,
      senderCpuMsPerDelivery: burst.cpuMsPerDelivery,
      databaseCpuMsPerDelivery: burst.databaseCpuMsPerDelivery,
      receiverCpuMsPerDelivery: burst.receiverCpuMsPerDelivery,
      busyPercent: burst.busyPercent,
      verified: burst.stats.verified,
      duplicates: burst.stats.duplicates,
      loadAverage: burst.loadAverage,
    },
    {
      name: `bare loop: the same bodies signed and posted, no database (ceiling; median of ${ROUNDS})`,
      database: null,
      deliveries: BURST,
      inFlight: IN_FLIGHT,
      seconds: bare.seconds,
      deliveriesPerSecond: bare.perSecond,
      ratio: 1,
      senderCpuMsPerDelivery: bare.cpuMsPerDelivery,
      databaseCpuMsPerDelivery: null,
      receiverCpuMsPerDelivery: bare.receiverCpuMsPerDelivery,
      busyPercent: bare.busyPercent,
      verified: bare.stats.verified,
      duplicates: bare.stats.duplicates,
      loadAverage: bare.loadAverage,
    },
  ];
  const rounds: Row[] = measured.map((m, i) => ({
    name: `round ${i + 1}`,
    database: server.database,
    dispatcherSeconds: m.burst.seconds,
    insertMs: m.burst.insertMs,
    firstMs: m.burst.firstMs,
    dispatcherPerSecond: m.burst.perSecond,
    steadyPerSecond: m.burst.steadyPerSecond,
    bareSeconds: m.bare.seconds,
    barePerSecond: m.bare.perSecond,
    ratio: round(m.burst.perSecond / m.bare.perSecond, 2),
    dispatcherBusyPercent: m.burst.busyPercent,
    bareBusyPercent: m.bare.busyPercent,
  }));
  const duplicates = measured.reduce((sum, m) => sum + m.burst.stats.duplicates, 0);
  const note =
    `${server.database}: the dispatcher's median round delivered ${BURST.toLocaleString('en-US')} in ${burst.seconds} s, ` +
    `${burst.perSecond} deliveries/s, against the bare loop's median ${bare.perSecond}: ratio ${ratio} (aim 0.5). In that round ` +
    `the insert (with the fan-out trigger) took ${burst.insertMs} ms, the first delivery arrived ${burst.firstMs} ms after the ` +
    `insert began (the dispatcher looks every second when idle), and from the first delivery received to the last the rate was ` +
    `${burst.steadyPerSecond} a second (÷ bare loop ${round(burst.steadyPerSecond / bare.perSecond, 2)}). Every delivery of the run ` +
    `was recorded delivered: ${check!.attempts.toLocaleString('en-US')} attempts for ${check!.delivered.toLocaleString('en-US')} ` +
    `deliveries (warm-up included); the receivers verified every signature and saw ${duplicates} duplicates over the rounds.`;
  return {
    rows,
    rounds,
    note,
    details: {
      endpoints: ENDPOINTS,
      perEndpoint: PER_ENDPOINT,
      rounds: measured.map((m) => ({ burst: { ...m.burst, kept: undefined }, bare: m.bare })),
      attempts: check!.attempts,
      delivered: check!.delivered,
    },
  };
}

interface Setup {
  tenants: string[];
  secrets: string[];
}

/**
 * A super agency under the house with ENDPOINTS agencies below it, each with one tenant and
 * one admin (inserted on the server's database); each admin signs in and registers its
 * agency's endpoint, pointing at its own receiver, through the API.
 */
async function registerEndpoints(server: BenchServer, receivers: Receivers): Promise<Setup> {
  const [house] = await server.sql<{ id: string }>(`select id from organizations where org_type = 'house' limit 1`);
  const superAgency = randomUUID();
  const agencies = Array.from({ length: ENDPOINTS }, () => randomUUID());
  const tenants = Array.from({ length: ENDPOINTS }, () => randomUUID());
  await server.sql(
    `insert into organizations (id, name, org_type, parent_org_id, parent_org_type) values ($1, 'Webhook Super Agency', 'super_agency', $2, 'house')`,
    [superAgency, house!.id],
  );
  await server.sql(
    `insert into organizations (id, name, org_type, parent_org_id, parent_org_type)
     select a, 'Webhook Agency ' || n, 'agency', $2::uuid, 'super_agency' from unnest($1::uuid[]) with ordinality x(a, n)`,
    [agencies, superAgency],
  );
  await server.sql(
    `insert into organizations (id, name, org_type, parent_org_id, parent_org_type)
     select t, 'Webhook Tenant ' || n, 'tenant', ($2::uuid[])[n], 'agency' from unnest($1::uuid[]) with ordinality x(t, n)`,
    [tenants, agencies],
  );
  await server.sql(`insert into organization_billing_settings (organization_id) select unnest($1::uuid[])`, [
    [superAgency, ...agencies, ...tenants],
  ]);
  const passwordHash = await hashPassword(PASSWORD);
  const emails = agencies.map((_, n) => `webhooks-${n}@example.test`);
  await server.sql(
    `insert into users (email, password_hash, first_name, last_name, role, organization_id)
     select e, $2, 'Bench', 'Admin', 'agency_admin', ($3::uuid[])[n] from unnest($1::text[]) with ordinality x(e, n)`,
    [emails, passwordHash, agencies],
  );
  const secrets: string[] = [];
  for (const [n, agency] of agencies.entries()) {
    const token = await signIn(server, { email: emails[n]!, password: PASSWORD });
    const made = await call<{ secret: string }>(server, 'POST', `/api/organizations/${agency}/webhooks`, token, {
      url: receivers.urls[n],
      description: `bench receiver ${n}`,
      event_types: [EVENT_TYPE],
      include_subtree: true,
    });
    secrets.push(made.secret);
  }
  return { tenants, secrets };
}

/** The machine's CPU time so far, busy and in all, in milliseconds (every core). */
function machineCpu() {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    busy += all - times.idle;
    total += all;
  }
  return { busy, total };
}

/** The share of the machine's CPU (every core) busy since `before`, in percent. */
function busySince(before: { busy: number; total: number }): number {
  const now = machineCpu();
  return round((100 * (now.busy - before.busy)) / Math.max(1, now.total - before.total), 1);
}

/**
 * CPU time each backend of the bench database has used so far, in milliseconds, by pid
 * (PostgreSQL on this machine, from /proc/<pid>/stat); null on PGlite, whose work is the
 * server process's. Backends that exit meanwhile are not counted.
 */
async function databaseCpu(server: BenchServer): Promise<Map<number, number> | null> {
  if (!server.databaseUrl) return null;
  const rows = await server.sql<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database()`);
  const ms = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      ms.set(pid, (cpuTicks(pid) * 1000) / TICKS_PER_SECOND);
    } catch {
      // gone already, or the database is on another machine: not counted
    }
  }
  return ms;
}

function databaseCpuSince(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(TIMEOUT_MS, undefined, { ref: false }).then(() => Promise.reject(new Error(`${what}: not done within ${TIMEOUT_MS / 1000} s`))),
  ]);
}

type Burst = Awaited<ReturnType<typeof dispatch>>;
type Bare = Awaited<ReturnType<typeof bareLoop>>;

/**
 * Inserts `perEndpoint` events for each tenant in one statement and waits until the receivers
 * have them all and no delivery is pending any more (the last outcomes recorded).
 */
async function dispatch(server: BenchServer, receivers: Receivers, setup: Setup, perEndpoint: number, label: string) {
  const total = ENDPOINTS * perEndpoint;
  const { done } = await receivers.expect(setup.secrets, total, true);
  const serverBefore = await server.cpuMicros();
  const receiversBefore = await receivers.cpuMicros();
  const databaseBefore = await databaseCpu(server);
  const machineBefore = machineCpu();
  const started = performance.now();
  const startedAt = Date.now();
  await server.sql(
    `insert into webhook_events (type, organization_id, data)
     select $1, t.id, jsonb_build_object('amount', '-1.00', 'balance_after', (10000 - k)::numeric(16, 2)::text, 'notes', $2 || ' ' || k)
     from generate_series(1, $4::int) k cross join unnest($3::uuid[]) with ordinality t(id, n)
     order by k, t.n`,
    [EVENT_TYPE, `bench ${label}`, setup.tenants, perEndpoint],
  );
  const insertMs = Math.round(performance.now() - started);
  const { kept } = await within(done, `${label}: ${total} deliveries received`);
  // The receivers have every delivery: the last outcomes are being recorded.
  for (;;) {
    const [pending] = await server.sql<{ n: number }>(`select count(*)::int as n from webhook_deliveries where state = 'pending'`);
    if (pending!.n === 0) break;
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`${label}: ${pending!.n} deliveries still pending`);
    await sleep(5);
  }
  const seconds = (performance.now() - started) / 1000;
  const busyPercent = busySince(machineBefore);
  const serverMicros = (await server.cpuMicros()) - serverBefore;
  const receiverMicros = (await receivers.cpuMicros()) - receiversBefore;
  const databaseMs = databaseCpuSince(databaseBefore, await databaseCpu(server));
  // Counted now, not when the last arrived: a delivery sent twice may come after.
  const stats = await receivers.stats();
  return {
    seconds: round(seconds, 2),
    perSecond: round(total / seconds, 1),
    insertMs,
    firstMs: stats.firstAt - startedAt,
    lastMs: stats.lastAt - startedAt,
    steadyPerSecond: round(total / Math.max(0.001, (stats.lastAt - stats.firstAt) / 1000), 1),
    cpuMsPerDelivery: round(serverMicros / 1000 / total, 3),
    databaseCpuMsPerDelivery: databaseMs === null ? null : round(databaseMs / total, 3),
    receiverCpuMsPerDelivery: round(receiverMicros / 1000 / total, 3),
    busyPercent,
    loadAverage: round(loadavg()[0]!, 1),
    stats,
    kept,
  };
}

/**
 * The ceiling: the bench process posts `kept` (the bodies as the dispatcher sent them) to the
 * same receivers, each signed again as the dispatcher signs, IN_FLIGHT at once over one
 * keep-alive agent, and counts the time until the last answer.
 */
async function bareLoop(receivers: Receivers, secrets: string[], kept: Kept[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS });
  const targets = receivers.urls.map((url) => new URL(url));
  const { done } = await receivers.expect(secrets, kept.length);
  const receiversBefore = await receivers.cpuMicros();
  const machineBefore = machineCpu();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const startedAt = Date.now();
  let next = 0;
  let failed = 0;
  const post = (delivery: Kept) =>
    new Promise<number>((resolve) => {
      const timestamp = Math.floor(Date.now() / 1000);
      const request = http.request(
        targets[delivery.receiver]!,
        {
          method: 'POST',
          agent,
          headers: {
            'webhook-id': delivery.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader([secrets[delivery.receiver]!], delivery.id, timestamp, delivery.body),
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(delivery.body).toString(),
            'user-agent': 'org-console-webhooks/1',
          },
        },
        (response) => {
          // Read as the sender reads an answer.
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            Buffer.concat(chunks).toString('utf8');
            resolve(response.statusCode ?? 0);
          });
        },
      );
      request.on('error', () => resolve(0));
      request.end(delivery.body);
    });
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < kept.length) {
        const status = await post(kept[next++]!);
        if (status !== 200) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const busyPercent = busySince(machineBefore);
  agent.destroy();
  const stats: RoundStats = await within(done, 'bare loop: deliveries received');
  const receiverMicros = (await receivers.cpuMicros()) - receiversBefore;
  if (failed) throw new Error(`bare loop: ${failed} posts not answered 200`);
  return {
    seconds: round(seconds, 2),
    perSecond: round(kept.length / seconds, 1),
    firstMs: stats.firstAt - startedAt,
    cpuMsPerDelivery: round((cpu.user + cpu.system) / 1000 / kept.length, 3),
    receiverCpuMsPerDelivery: round(receiverMicros / 1000 / kept.length, 3),
    busyPercent,
    loadAverage: round(loadavg()[0]!, 1),
    stats: { ...stats, kept: [] },
  };
}
