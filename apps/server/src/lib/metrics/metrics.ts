import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { UsageBatchResult } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { readDatabaseFigures, QUEUES } from './database-figures.ts';

/**
 * The server's Prometheus metrics. No label carries an organization, a user, a key or any
 * other value without a fixed bound: a route is its pattern (`/api/organizations/:id`),
 * never the URL asked for, and every other label takes a value from a closed list.
 */
export interface MetricsSources {
  db: Kysely<DB>;
  /** The primary's pool (PostgreSQL only); the embedded database has none, and no pool gauges. */
  pool?: pg.Pool;
  /** The read replica's lag behind the primary, when one is configured: read at each scrape. */
  replicaLag?: () => Promise<{ bytes: number; seconds: number | null }>;
}

/** Latency buckets of the HTTP histogram, in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Batches per usage statement: 1 is a batch recorded alone; more were coalesced. */
const COALESCE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128];

/** What an HTTP answer counts as, by its status: 2xx … 5xx. */
export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** What a webhook attempt gave, as the webhook sender answers it: the status (null: no answer), and whether time ran out. */
export interface AttemptResult {
  status: number | null;
  timedOut?: boolean;
}

type Post = (url: string, headers: Record<string, string>, body: string) => Promise<AttemptResult>;

/** A webhook attempt's outcome: delivered (2xx), failed (any other answer), timeout, or error (no answer: refused, unreachable). */
export function attemptOutcome(result: AttemptResult): 'delivered' | 'failed' | 'timeout' | 'error' {
  if (result.status !== null) return result.status >= 200 && result.status < 300 ? 'delivered' : 'failed';
  return result.timedOut ? 'timeout' : 'error';
}

export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  // Process memory, CPU, handles, garbage collection and event-loop lag, under Node's usual names.
  collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'console_http_request_duration_seconds',
    help: 'Time from a request to its answer, by route pattern, method and status class (2xx, 4xx, 5xx)',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const usageEvents = new Counter({
    name: 'console_usage_events_total',
    help: 'Usage events reported through the machine API, by outcome: accepted, duplicate or rejected',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const usageRefused = new Counter({
    name: 'console_usage_events_refused_total',
    help: 'Usage events rejected through the machine API, by reason (insufficient_credits, spend_cap_reached, ...)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const coalesced = new Histogram({
    name: 'console_usage_statement_batches',
    help: "Usage batches recorded by one statement: a key's small batches that waited for its statement under way go together",
    buckets: COALESCE_BUCKETS,
    registers: [registry],
  });
  const attempts = new Counter({
    name: 'console_webhook_attempts_total',
    help: 'Webhook delivery attempts made by this process, by outcome: delivered, failed, timeout, error',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const queueDepth = new Gauge({
    name: 'console_queue_depth',
    help: 'Items waiting in a background queue, read from the database at the scrape',
    labelNames: ['queue'] as const,
    aggregator: 'max',
    registers: [registry],
  });
  const queueAge = new Gauge({
    name: 'console_queue_oldest_age_seconds',
    help: 'Age of the oldest item waiting in a background queue (0 when empty), read from the database at the scrape',
    labelNames: ['queue'] as const,
    aggregator: 'max',
    registers: [registry],
  });
  const ledgerEntries = new Gauge({
    name: 'console_ledger_entries',
    help: 'Credit ledger entries written, by entry type (the ledger is append-only: the figure only grows), read from the database at the scrape',
    labelNames: ['entry_type'] as const,
    aggregator: 'max',
    registers: [registry],
  });
  const databaseUp = new Gauge({
    name: 'console_database_up',
    help: "1 when the scrape's read of the database succeeded, 0 when it failed (the database figures are then left out)",
    aggregator: 'min',
    registers: [registry],
  });
  const pool = sources.pool;
  if (pool) {
    const gauge = (name: string, help: string, read: (p: pg.Pool) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(pool));
        },
      });
    gauge(
      'console_db_pool_in_use',
      'Connections of the PostgreSQL pool checked out by a query or transaction',
      (p) => p.totalCount - p.idleCount,
    );
    gauge('console_db_pool_idle', 'Connections of the PostgreSQL pool open and free', (p) => p.idleCount);
    gauge('console_db_pool_waiting', 'Queries waiting for a free connection of the PostgreSQL pool', (p) => p.waitingCount);
    gauge('console_db_pool_max', 'Connections the PostgreSQL pool may open at most', (p) => p.options.max ?? 10);
  }
  const replicaLag = sources.replicaLag
    ? {
        seconds: new Gauge({
          name: 'console_db_replica_lag_seconds',
          help: "Time since the read replica replayed the primary's last transaction it has (absent when it cannot be read)",
          aggregator: 'max',
          registers: [registry],
        }),
        bytes: new Gauge({
          name: 'console_db_replica_lag_bytes',
          help: "Bytes of the primary's WAL the read replica has not replayed yet (absent when it cannot be read)",
          aggregator: 'max',
          registers: [registry],
        }),
      }
    : null;

  /** Reads the database's figures into their gauges; a failure leaves them out and says so. */
  async function refresh() {
    queueDepth.reset();
    queueAge.reset();
    ledgerEntries.reset();
    replicaLag?.seconds.reset();
    replicaLag?.bytes.reset();
    try {
      const figures = await readDatabaseFigures(sources.db);
      for (const queue of QUEUES) {
        queueDepth.set({ queue }, figures.queues[queue]?.depth ?? 0);
        queueAge.set({ queue }, figures.queues[queue]?.oldestSeconds ?? 0);
      }
      for (const [entryType, entries] of Object.entries(figures.ledger)) ledgerEntries.set({ entry_type: entryType }, entries);
      databaseUp.set(1);
    } catch {
      databaseUp.set(0);
    }
    if (replicaLag && sources.replicaLag) {
      try {
        const lag = await sources.replicaLag();
        replicaLag.bytes.set(lag.bytes);
        if (lag.seconds !== null) replicaLag.seconds.set(Math.max(0, lag.seconds));
      } catch {
        // unreachable: the series are left out, and readiness says so
      }
    }
  }

  return {
    registry,
    /** The text a scrape answers: the database's figures read now, and every other metric as it stands. */
    async scrape(): Promise<string> {
      await refresh();
      return registry.metrics();
    },
    /**
     * The same as JSON, for the primary of several processes to add up (metrics/cluster.ts).
     * The database's figures carry the aggregator that keeps one reading of them: every
     * process reads the same database.
     */
    async figures() {
      await refresh();
      return registry.getMetricsAsJSON();
    },
    contentType: registry.contentType,
    /** One HTTP answer, by its route's pattern (null: no route matched). */
    request(route: string | null, method: string, status: number, seconds: number) {
      http.observe({ route: route ?? 'unmatched', method, status_class: statusClass(status) }, seconds);
    },
    /** One usage batch's outcomes as answered. */
    usageBatch(result: UsageBatchResult) {
      usageEvents.inc({ outcome: 'accepted' }, result.accepted);
      usageEvents.inc({ outcome: 'duplicate' }, result.duplicates);
      usageEvents.inc({ outcome: 'rejected' }, result.rejected);
      for (const event of result.results) if (event.reason) usageRefused.inc({ reason: event.reason });
    },
    /** One statement recording `batches` usage batches. */
    usageStatement(batches: number) {
      coalesced.observe(batches);
    },
    /** One webhook attempt's result. */
    webhookAttempt(result: AttemptResult) {
      attempts.inc({ outcome: attemptOutcome(result) });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The webhook sender, each attempt's outcome counted (as is, without metrics). */
export function countingSender<S extends { post: Post }>(sender: S, metrics: Metrics | null): S {
  if (!metrics) return sender;
  const post = sender.post;
  const counted: Post = async (url, headers, body) => {
    const result = await post(url, headers, body);
    metrics.webhookAttempt(result);
    return result;
  };
  return { ...sender, post: counted };
}
