import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { fromPgPool, type Database } from './connection.ts';
import type { DB } from './schema.ts';

/** What one request's reads are sent to: decided once, at the request's first read. */
export interface ReadScope {
  /** Where the primary's WAL stood right after this person's last write (their cookie), or null. */
  afterLsn: string | null;
  /** Where the request's reads go: set at its first read, or from the start (the primary) for a request that writes. */
  target?: Promise<ReadTarget>;
}

export type ReadTarget = 'replica' | 'primary';

export interface ReadRouting {
  /**
   * The handle the heavy reads use: the replica, except for a request whose person wrote at
   * an LSN the replica has not replayed within the wait bound (then the primary). The primary
   * itself when no replica is configured.
   */
  readDb: Kysely<DB>;
  /** The replica's own pool, or null when DATABASE_READ_URL is unset. */
  replica: Database | null;
  /** Each request's scope (its person's last write), set by the read-your-writes hooks. */
  scopes: AsyncLocalStorage<ReadScope>;
  /** The primary's WAL position now: taken after a write has committed, it is at or past that write. */
  primaryLsn(): Promise<string>;
  /** How far the replica's replay is behind the primary, in bytes of WAL and in seconds since its last replayed commit. */
  lag(): Promise<{ bytes: number; seconds: number | null }>;
  close(): Promise<void>;
}

/** How long a read after the person's own write waits for the replica before reading the primary. */
export const READ_WAIT_MS = 1000;
/** How often the replica's replay position is asked during that wait. */
const POLL_MS = 10;
/** After the replica refused a connection, its reads go to the primary for this long. */
const REPLICA_DOWN_MS = 5000;

export interface ReadRoutingOptions {
  waitMs?: number;
  poolSize?: number;
}

/** Reads routed to a streaming replica (DATABASE_READ_URL), or the primary alone when there is none. */
export function createReadRouting(primary: Database, readUrl: string | null, options: ReadRoutingOptions = {}): ReadRouting {
  const scopes = new AsyncLocalStorage<ReadScope>();
  const primaryLsn = async () => (await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary.db)).rows[0]!.lsn;
  const primaryPool = primary.pool;
  if (!readUrl || !primaryPool) {
    return { readDb: primary.db, replica: null, scopes, primaryLsn, lag: async () => ({ bytes: 0, seconds: null }), close: async () => {} };
  }
  const replica = fromPgPool(
    new pg.Pool({
      connectionString: readUrl,
      max: options.poolSize ?? 20,
      // Named, so each server's pg_stat_activity tells the console's replica reads apart.
      application_name: 'console-read',
      connectionTimeoutMillis: 3000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    }),
  );
  const waitMs = options.waitMs ?? READ_WAIT_MS;
  let downUntil = 0;

  async function replayedPast(lsn: string): Promise<boolean> {
    // Null (not in recovery: promoted, or not a standby at all) counts as not replayed.
    const { rows } = await sql<{ ok: boolean | null }>`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as ok`.execute(replica.db);
    return rows[0]?.ok === true;
  }

  /** The replica once it has replayed past `lsn`, the primary when it has not within the bound or cannot say. */
  async function targetAfter(lsn: string): Promise<ReadTarget> {
    const deadline = Date.now() + waitMs;
    try {
      for (;;) {
        if (await replayedPast(lsn)) return 'replica';
        if (Date.now() >= deadline) return 'primary';
        await sleep(POLL_MS);
      }
    } catch {
      return 'primary';
    }
  }

  const routed = {
    async connect() {
      const scope = scopes.getStore();
      if (scope?.afterLsn) scope.target ??= targetAfter(scope.afterLsn);
      if (scope?.target && (await scope.target) === 'primary') return primaryPool.connect();
      if (Date.now() < downUntil) return primaryPool.connect();
      try {
        return await replica.pool!.connect();
      } catch {
        // An unreachable replica costs its reads the connection timeout once, not on every read.
        downUntil = Date.now() + REPLICA_DOWN_MS;
        return primaryPool.connect();
      }
    },
    // Each pool is ended by its owner.
    async end() {},
    // What Kysely opens a control connection with to cancel a query (an aborted read): most reads are the replica's.
    options: replica.pool!.options,
  };
  const readDb = new Kysely<DB>({ dialect: new PostgresDialect({ pool: routed }) });

  return {
    readDb,
    replica,
    scopes,
    primaryLsn,
    async lag() {
      const { rows } = await sql<{ lsn: string | null; seconds: number | null }>`
        select pg_last_wal_replay_lsn()::text as lsn,
               extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as seconds`.execute(replica.db);
      const replayed = rows[0]?.lsn ?? null;
      if (replayed === null) return { bytes: 0, seconds: null };
      const diff = await sql<{
        bytes: number;
      }>`select greatest(pg_wal_lsn_diff(pg_current_wal_lsn(), ${replayed}::pg_lsn), 0)::float8 as bytes`.execute(primary.db);
      return { bytes: diff.rows[0]!.bytes, seconds: rows[0]!.seconds };
    },
    async close() {
      await readDb.destroy();
      await replica.close();
    },
  };
}
