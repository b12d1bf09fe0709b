/**
 * The streaming replica's lag, read from the primary's pg_stat_replication every 200 ms while
 * the suite runs: the WAL the standby has not replayed yet (bytes, pg_wal_lsn_diff of the
 * primary's position and the standby's replay position) and PostgreSQL's own replay_lag (the
 * time from a commit's WAL flushed on the primary to its replay reported by the standby; null
 * once the standby has been idle, which counts as caught up). Each sample is filed under the
 * load running when it was taken.
 */
import pg from 'pg';
import { round } from './http.ts';
import type { Column, Row } from './types.ts';

const EVERY_MS = 200;

export const LAG_COLUMNS: Column[] = [
  { key: 'name', label: 'load', format: 'text' },
  { key: 'samples', label: 'samples', format: 'int' },
  { key: 'bytesP50', label: 'bytes behind p50', format: 'bytes' },
  { key: 'bytesP95', label: 'bytes behind p95', format: 'bytes' },
  { key: 'bytesMax', label: 'bytes behind max', format: 'bytes' },
  { key: 'replayLagP50Ms', label: 'replay lag p50', format: 'ms' },
  { key: 'replayLagMaxMs', label: 'replay lag max', format: 'ms' },
  { key: 'caughtUpMs', label: 'caught up after the load', format: 'ms' },
];

interface Sample {
  load: string;
  bytes: number;
  replayLagMs: number;
}

export interface LagWatch {
  /** Files the samples from now on under `load` (null: between loads, not kept). */
  during(load: string | null): void;
  /** Records how long after `load` ended the standby had replayed all the primary had written by then. */
  caughtUp(load: string, ms: number): void;
  /** One row per load, in the order the loads ran. */
  rows(): Row[];
  /** Why sampling ended early (the primary unreachable), or null. */
  failure(): string | null;
  stop(): Promise<void>;
}

const nearest = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;

/** Starts sampling the lag of the standby named `standby` (its cluster_name) on the primary at `primaryUrl`. */
export async function watchLag(primaryUrl: string, standby = 'standby'): Promise<LagWatch> {
  const client = new pg.Client({ connectionString: primaryUrl, application_name: 'bench-lag' });
  await client.connect();
  const samples: Sample[] = [];
  const caughtUp = new Map<string, number>();
  let load: string | null = null;
  let stopping = false;
  let failure: unknown = null;
  // The primary stopped under it (an interrupted run removing the cluster): noted, not thrown.
  client.on('error', (error) => (failure ??= error));
  const loop = (async () => {
    while (!stopping) {
      const { rows } = await client.query<{ bytes: string; lag_ms: number | null }>(
        `select pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint::text as bytes,
                (extract(epoch from replay_lag) * 1000)::float8 as lag_ms
         from pg_stat_replication where application_name = $1`,
        [standby],
      );
      if (load !== null && rows[0]) samples.push({ load, bytes: Number(rows[0].bytes), replayLagMs: rows[0].lag_ms ?? 0 });
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
  })().catch((error: unknown) => {
    // The primary gone (the failover kills it): the samples taken so far stand.
    failure = error;
  });
  return {
    during(name) {
      load = name;
    },
    caughtUp(name, ms) {
      // A load run in parts keeps its longest catch-up.
      caughtUp.set(name, Math.max(caughtUp.get(name) ?? 0, round(ms, 1)));
    },
    rows() {
      const loads = [...new Set(samples.map((s) => s.load))];
      return loads.map((name) => {
        const mine = samples.filter((s) => s.load === name);
        const bytes = mine.map((s) => s.bytes).sort((a, b) => a - b);
        const lag = mine.map((s) => s.replayLagMs).sort((a, b) => a - b);
        return {
          name,
          samples: mine.length,
          bytesP50: nearest(bytes, 0.5),
          bytesP95: nearest(bytes, 0.95),
          bytesMax: bytes.at(-1) ?? 0,
          replayLagP50Ms: round(nearest(lag, 0.5), 1),
          replayLagMaxMs: round(lag.at(-1) ?? 0, 1),
          caughtUpMs: caughtUp.get(name) ?? null,
        };
      });
    },
    failure: () => (failure === null ? null : String(failure)),
    async stop() {
      stopping = true;
      await loop;
      await client.end().catch(() => {});
    },
  };
}
