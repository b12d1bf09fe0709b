/**
 * One failover under load, shared by the reliability test (reliability/failover.test.ts, which
 * asserts on what it returns) and the bench (bench/suites/scale-out.ts, which reports it): two
 * API server processes behind the balancer whose DATABASE_URL names the primary and the standby
 * with target_session_attrs=read-write; allocations (each with its Idempotency-Key) and usage
 * batches (each event with its id) run through them; the primary's postmaster is SIGKILLed, the
 * standby promoted, and the load goes on: a client whose request is refused or cut sends it
 * again, same key, same event ids, until it is answered. Then it reads what the promoted standby
 * holds and runs `main.ts reconcile` (npm run db:reconcile) on it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReplicaCluster } from '../apps/server/src/test/replica-cluster.ts';
import { startBalancer, type Balancer } from './balancer.ts';
import { amountOf, api, meteredHouse, must, round1, signIn, sleep, startServer, withClient, type ServerProcess } from './harness.ts';

const ALLOCATION_CLIENTS = 6;
const USAGE_CLIENTS = 3;
const USAGE_BATCH = 50;
const CHILDREN = 3;
/** Load before the kill, and after the promotion, at least this long. */
const LOAD_MS = 3000;
/** How long the primary stays dead before the standby is promoted (an operator or a failover manager noticing). */
const PROMOTE_AFTER_MS = 1000;
/** A client sends a refused request again after this pause. */
const RETRY_PAUSE_MS = 100;
/** A request still unanswered this long after the load stops counts as never answered. */
const GIVE_UP_MS = 30_000;

/** One request as a client sees it: every try until one is answered 2xx. */
export interface FailoverRequest {
  kind: 'allocation' | 'usage';
  key: string;
  cents: number;
  to: string;
  events: { id: string; organization_id: string; agent: string; units: string; occurred_at: string }[];
  /** When each refused or cut try ended (ms since the load began). */
  refusals: number[];
  acknowledgedAt?: number;
  transactionId?: string;
  /** What the acknowledged usage batch reported: newly accepted and already held. */
  accepted?: number;
  duplicates?: number;
}

/** What the promoted standby holds of the run's keys and events. */
export interface Held {
  keys: Map<string, { key: string; transaction_id: string; entries: number }>;
  allocationsPerKey: Map<string, number>;
  eventsPerId: Map<string, number>;
  /** For each child: what its balance fell by, and what its events charged (equal when nothing is charged twice). */
  books: { drop: string; charged: string }[];
}

export interface FailoverRun {
  /** The figures written to reliability/results/failover.json and reported by the bench. */
  figures: ReturnType<typeof figuresOf>;
  requests: FailoverRequest[];
  held: Held;
  lostAllocationKeys: string[];
  lostEventIds: string[];
  reconciled: { code: number | null; report: { ok?: boolean } };
  /** Allocations answered after the standby was promoted (writes came back). */
  allocationsAfterPromotion: number;
}

/** `main.ts reconcile` as `npm run db:reconcile` runs it, on `databaseUrl`: its exit code and report. */
async function reconcileCommand(databaseUrl: string): Promise<FailoverRun['reconciled']> {
  const dataDir = mkdtempSync(join(tmpdir(), 'console-failover-'));
  try {
    const child = spawn(process.execPath, ['apps/server/src/main.ts', 'reconcile'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const json = output.slice(output.indexOf('{'));
    return { code, report: json ? JSON.parse(json) : {} };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs the failover on `cluster` (its standby running and synchronous) with the database
 * `database`, which the API servers migrate at start. The servers and the balancer are stopped
 * before it returns, also on failure; the cluster is the caller's.
 */
export async function runFailover(cluster: ReplicaCluster, database: string): Promise<FailoverRun> {
  const hostOf = (server: 'primary' | 'replica') => new URL(cluster.url(server, database)).host;
  const databaseUrl = `postgres://postgres@${hostOf('primary')},${hostOf('replica')}/${database}?target_session_attrs=read-write`;
  const servers: ServerProcess[] = [];
  let balancer: Balancer | undefined;
  try {
    servers.push(await startServer({ databaseUrl }), await startServer({ databaseUrl }));
    balancer = await startBalancer(servers.map((s) => ({ host: '127.0.0.1', port: Number(new URL(s.url).port) })));
    return await underLoad(cluster, database, databaseUrl, balancer);
  } finally {
    await balancer?.close();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

async function underLoad(cluster: ReplicaCluster, database: string, databaseUrl: string, balancer: Balancer): Promise<FailoverRun> {
  const url = balancer.url;
  const token = await signIn(url);
  const { houseId, children, key } = await meteredHouse(url, token, {
    suite: 'Failover',
    children: CHILDREN,
    childCents: 10_000_000,
    agent: 'failover-bot',
    price: '0.0137',
  });
  // What the allocations move: the house's own funds, apart from what it gave its children.
  await must(url, 'POST', '/api/credits/adjustments', {
    token,
    body: { direction: 'increase', amount: amountOf(100_000_000), reason: 'failover suite allocations' },
  });

  const began = Date.now();
  const now = () => Date.now() - began;
  const requests: FailoverRequest[] = [];
  let stopped = false;
  let stoppedAt = 0;
  let counter = 0;

  /** Sends one request until it is answered 2xx (or given up after the load stops). */
  async function deliver(request: FailoverRequest) {
    for (;;) {
      try {
        if (request.kind === 'allocation') {
          const result = await api<{ transaction_id: string }>(url, 'POST', '/api/credits/allocations', {
            token,
            body: { from_org_id: houseId, to_org_id: request.to, amount: amountOf(request.cents), notes: request.key },
            headers: { 'idempotency-key': request.key },
          });
          if (result.status === 200) {
            request.transactionId = result.body.transaction_id;
            request.acknowledgedAt = now();
            return;
          }
          if (result.status < 500) throw new Error(`allocation ${request.key} answered ${result.status}: ${JSON.stringify(result.body)}`);
        } else {
          const result = await api<{ accepted: number; duplicates: number; rejected: number }>(url, 'POST', '/api/v1/usage-events', {
            body: { events: request.events },
            headers: { authorization: `Bearer ${key}` },
          });
          if (result.status === 200) {
            request.accepted = result.body.accepted;
            request.duplicates = result.body.duplicates;
            request.acknowledgedAt = now();
            return;
          }
          if (result.status < 500) throw new Error(`usage batch ${request.key} answered ${result.status}: ${JSON.stringify(result.body)}`);
        }
      } catch (error) {
        // A cut connection (fetch failed) is retried; an answer below 500 is a defect.
        if ((error as Error).message.includes('answered')) throw error;
      }
      request.refusals.push(now());
      if (stopped && now() - stoppedAt > GIVE_UP_MS) return;
      await sleep(RETRY_PAUSE_MS);
    }
  }

  const client = async (kind: FailoverRequest['kind'], id: number) => {
    while (!stopped) {
      const n = counter++;
      const request: FailoverRequest = {
        kind,
        key: `failover-${kind}-${id}-${n}`,
        cents: 1 + Math.floor(Math.random() * 1000),
        to: children[n % children.length]!,
        events:
          kind === 'usage'
            ? Array.from({ length: USAGE_BATCH }, (_, i) => ({
                id: `failover-event-${n}-${i}`,
                organization_id: children[(n + i) % children.length]!,
                agent: 'failover-bot',
                units: `${Math.floor(Math.random() * 10)}.${String(1 + Math.floor(Math.random() * 9999)).padStart(4, '0')}`,
                occurred_at: new Date().toISOString(),
              }))
            : [],
        refusals: [],
      };
      requests.push(request);
      try {
        await deliver(request);
      } catch (error) {
        // A defect: the other clients stop too, and the run fails with it.
        stopped = true;
        throw error;
      }
    }
  };
  const clients = Promise.all([
    ...Array.from({ length: ALLOCATION_CLIENTS }, (_, id) => client('allocation', id)),
    ...Array.from({ length: USAGE_CLIENTS }, (_, id) => client('usage', id)),
  ]);
  // A defect stops the load: the waits below end with it rather than run on.
  clients.catch(() => {});
  const acknowledged = (kind: FailoverRequest['kind'], after = 0) =>
    requests.filter((r) => r.kind === kind && r.acknowledgedAt !== undefined && r.acknowledgedAt > after).length;

  while (!stopped && (now() < LOAD_MS || acknowledged('allocation') < 20 || acknowledged('usage') < 3)) await sleep(50);
  const killedAt = now();
  await cluster.killPrimary();
  await sleep(PROMOTE_AFTER_MS);
  const promoteAt = now();
  await cluster.promote();
  const promotedAt = now();
  while (
    !stopped &&
    (now() < promotedAt + LOAD_MS || acknowledged('allocation', promotedAt) < 20 || acknowledged('usage', promotedAt) < 3)
  ) {
    await sleep(50);
  }
  stopped = true;
  stoppedAt = now();
  await clients;

  const held = await holdings(cluster.url('replica', database), children);
  const reconciled = await reconcileCommand(databaseUrl);
  const lostAllocationKeys = requests
    .filter(
      (r) =>
        r.kind === 'allocation' &&
        r.acknowledgedAt !== undefined &&
        (held.keys.get(r.key)?.transaction_id !== r.transactionId || held.keys.get(r.key)?.entries !== 2),
    )
    .map((r) => r.key);
  const lostEventIds = requests
    .filter((r) => r.kind === 'usage' && r.acknowledgedAt !== undefined)
    .flatMap((r) => r.events.filter((e) => held.eventsPerId.get(e.id) !== 1).map((e) => e.id));
  const times = { killedAt, promoteAt, promotedAt };
  return {
    figures: figuresOf(requests, held, times, { lostAllocationKeys, lostEventIds, reconciled, connections: balancer.connections() }),
    requests,
    held,
    lostAllocationKeys,
    lostEventIds,
    reconciled,
    allocationsAfterPromotion: acknowledged('allocation', promotedAt),
  };
}

/** What the new primary (the promoted standby) holds of the run's keys, ledger entries and events. */
async function holdings(newPrimaryUrl: string, children: string[]): Promise<Held> {
  return withClient(newPrimaryUrl, async (db) => {
    const keys = await db.query<{ key: string; transaction_id: string; entries: number }>(`
      select k.key, k.response->>'transaction_id' as transaction_id,
             (select count(*)::int from credit_ledger_entries e where e.transaction_group = (k.response->>'transaction_id')::uuid) as entries
      from idempotency_keys k where k.key like 'failover-%'`);
    const sent = await db.query<{ notes: string; n: number }>(`
      select metadata->>'notes' as notes, count(*)::int as n from credit_ledger_entries
      where entry_type = 'allocation_sent' and metadata->>'notes' like 'failover-%' group by 1`);
    const events = await db.query<{ id: string; n: number }>(`
      select client_event_id as id, count(*)::int as n from usage_events where client_event_id like 'failover-event-%' group by 1`);
    // Each child's balance falls by exactly what its events charged, once each.
    const books = await db.query<{ drop: string; charged: string }>(
      `select ((select coalesce(sum(e.amount), 0) from credit_ledger_entries e
                 where e.organization_id = b.organization_id and e.entry_type <> 'consumption') - b.credit_balance)::text as drop,
              (select coalesce(sum(u.charged), 0) from usage_events u where u.organization_id = b.organization_id)::text as charged
       from organization_billing_settings b where b.organization_id = any($1::uuid[])`,
      [children],
    );
    return {
      keys: new Map(keys.rows.map((r) => [r.key, r])),
      allocationsPerKey: new Map(sent.rows.map((r) => [r.notes, r.n])),
      eventsPerId: new Map(events.rows.map((r) => [r.id, r.n])),
      books: books.rows,
    };
  });
}

function figuresOf(
  requests: FailoverRequest[],
  held: Held,
  times: { killedAt: number; promoteAt: number; promotedAt: number },
  found: { lostAllocationKeys: string[]; lostEventIds: string[]; reconciled: FailoverRun['reconciled']; connections: number[] },
) {
  const { killedAt, promoteAt, promotedAt } = times;
  const allocations = requests.filter((r) => r.kind === 'allocation');
  const batches = requests.filter((r) => r.kind === 'usage');
  const refusals = requests.flatMap((r) => r.refusals).sort((a, b) => a - b);
  // Writes are back when a request that had been refused is answered on a try of its own.
  const backAt = Math.min(...requests.filter((r) => r.refusals.length > 0).map((r) => r.acknowledgedAt ?? Number.POSITIVE_INFINITY));
  return {
    synchronousCommit: 'on',
    apiProcesses: found.connections.length,
    balancerConnectionsPerProcess: found.connections,
    allocationClients: ALLOCATION_CLIENTS,
    usageClients: USAGE_CLIENTS,
    eventsPerBatch: USAGE_BATCH,
    killedAtMs: killedAt,
    promoteAskedAtMs: promoteAt,
    promotedAtMs: promotedAt,
    allocationsSent: allocations.length,
    allocationsAnswered: allocations.filter((r) => r.acknowledgedAt !== undefined).length,
    batchesSent: batches.length,
    batchesAnswered: batches.filter((r) => r.acknowledgedAt !== undefined).length,
    requestsRetried: requests.filter((r) => r.refusals.length > 0).length,
    refusedTries: refusals.length,
    batchesFoundAlreadyHeldOnRetry: batches.filter((r) => (r.duplicates ?? 0) > 0).length,
    // From the first refusal until a refused request went through; and each against the kill and the promotion.
    writesRefusedSeconds: refusals.length ? round1((backAt - refusals[0]!) / 1000) : 0,
    firstRefusalAfterKillSeconds: refusals.length ? round1((refusals[0]! - killedAt) / 1000) : null,
    killToWritesBackSeconds: round1((backAt - killedAt) / 1000),
    promoteAskedToWritesBackSeconds: round1((backAt - promoteAt) / 1000),
    lastRefusalAfterKillSeconds: refusals.length ? round1((refusals.at(-1)! - killedAt) / 1000) : null,
    lostAllocations: found.lostAllocationKeys.length,
    lostEvents: found.lostEventIds.length,
    keysChargedTwice: [...held.allocationsPerKey.values()].filter((n) => n > 1).length,
    eventsChargedTwice: [...held.eventsPerId.values()].filter((n) => n > 1).length,
    reconcileOk: found.reconciled.report.ok === true && found.reconciled.code === 0,
  };
}
