import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { lockDataDir, makeDataDirPrivate } from './data-dir-lock.ts';
import { discardOnReadOnly, multiHostClient, parseHostList } from './multi-host.ts';
import type { DB } from './schema.ts';

/** A raw handle inside one transaction, for what Kysely cannot run (multi-statement scripts). */
export interface ScriptTx {
  exec(script: string): Promise<void>;
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database {
  kind: 'pglite' | 'pg';
  db: Kysely<DB>;
  /** The embedded instance (kind 'pglite' only), for the data-folder backup. */
  pglite?: PGlite;
  /** The connection pool (kind 'pg' only), which the read routing sends the primary's reads to. */
  pool?: pg.Pool;
  /** Runs `fn` in one transaction on a raw connection (migrations). */
  scriptTransaction<T>(fn: (tx: ScriptTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;
const parseDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;

/**
 * A timestamp as PostgreSQL writes it (`2026-11-27 01:46:59.123456+00`) read as the text
 * `Date.prototype.toISOString()` gives for it (`2026-11-27T01:46:59.123Z`): UTC, digits beyond
 * the millisecond cut off as a Date cuts them. Answers send timestamps on as text, so no Date is
 * built per value. A session in UTC (the servers' and PGlite's default) takes the direct path;
 * another offset, a timestamp without one (local time, as pg reads it), a year past 9999 or BC
 * goes through pg's own Date. Infinities stay their text.
 */
export function isoTimestamp(text: string): string {
  const match = UTC_TIMESTAMP.exec(text);
  if (match) return `${match[1]}T${match[2]}.${(match[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  const date = parseDate(text);
  return date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : text;
}

/** int8 stays a string as with pg (counts are cast to int in SQL); numeric stays exact; timestamps as ISO text. */
const PGLITE_PARSERS = { 20: (v: string) => v, 1700: (v: string) => v, [TIMESTAMPTZ]: isoTimestamp, [TIMESTAMP]: isoTimestamp };

export function fromPGlite(pglite: PGlite, onClose: () => void = () => {}): Database {
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return {
    kind: 'pglite',
    db,
    pglite,
    scriptTransaction: (fn) =>
      pglite.transaction((tx) =>
        fn({
          exec: async (script) => {
            await tx.exec(script);
          },
          query: async <R>(text: string, params?: unknown[]) => (await tx.query<R>(text, params)).rows,
        }),
      ),
    close: async () => {
      // PGlite runs PostgreSQL's interval timer as a Node timer that close() leaves armed,
      // so a process that is done (db:migrate) would wait for it: cleared once closed.
      const mod = (pglite as unknown as { mod?: { _clear_setitimer?: () => void } }).mod;
      await db.destroy();
      try {
        mod?._clear_setitimer?.();
      } catch {
        // the runtime is gone, and its timer with it
      }
      onClose();
    },
  };
}

export async function createPGlite(options: { dataDir?: string; loadDataDir?: Blob } = {}) {
  // Single-user PostgreSQL never disables its startup-progress timeout, which would wake
  // the process every 10 s for good (and keep it alive after close) to log nothing.
  const startParams = [...PGlite.defaultStartParams, '-c', 'log_startup_progress_interval=0'];
  return PGlite.create({ ...options, parsers: PGLITE_PARSERS, startParams });
}

/** SQL text → statement name, for the statements registered with preparedStatement(). */
const PREPARED = new Map<string, string>();

/**
 * Marks a statement that many requests run (the caller's lookup, the common reads): on
 * PostgreSQL it is then sent as a named prepared statement, so each connection parses it once
 * (and plans it once where a generic plan costs no more than the values' own) and every later
 * run sends only its values, not the text. The text must be exactly what Kysely compiles.
 * No effect on PGlite.
 */
export function preparedStatement(text: string): void {
  if (!PREPARED.has(text)) PREPARED.set(text, `console_${PREPARED.size + 1}`);
}

type QueryFn = (...args: unknown[]) => unknown;

export function fromPgPool(pool: pg.Pool): Database {
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  pool.on('connect', (client) => {
    // A client whose connection drops while checked out (between the queries of a
    // transaction) emits 'error', and pg-pool listens only while it is idle: unheard, that
    // would crash the process. The query under way already fails with the error, and the
    // pool discards the broken client when it is released.
    client.on('error', () => {});
    // Set on each client rather than through the pool's `types` option, so every pool given here reads them alike.
    client.setTypeParser(TIMESTAMPTZ, isoTimestamp);
    client.setTypeParser(TIMESTAMP, isoTimestamp);
    const query = client.query.bind(client) as QueryFn;
    client.query = ((...args: unknown[]) => {
      const name = typeof args[0] === 'string' && args.length === 2 ? PREPARED.get(args[0]) : undefined;
      const result = name ? query({ name, text: args[0], values: args[1] }) : query(...args);
      discardOnReadOnly(client, result);
      return result;
    }) as typeof client.query;
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'pg',
    db,
    pool,
    scriptTransaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn({
          exec: async (script) => {
            await client.query(script);
          },
          query: async <R>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as R[],
        });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => db.destroy(),
  };
}

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Who holds the embedded database's lock, for the message a second process sees. */
  purpose: string;
  poolSize?: number;
}

/**
 * PostgreSQL when a URL is given, otherwise the embedded PGlite in DATA_DIR/pgdata, in a
 * folder only its owner can read (checked and tightened before and after PGlite writes:
 * a new database is unpacked with files open to everyone).
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    // Several hosts (libpq's host1:port1,host2:port2 with target_session_attrs), which pg cannot read itself.
    const hosts = parseHostList(options.databaseUrl);
    const pool = new pg.Pool({
      ...(hosts ? { connectionString: hosts.url, Client: multiHostClient(hosts) } : { connectionString: options.databaseUrl }),
      max: options.poolSize ?? 20,
      // Bounds both opening a connection and waiting for a free one: when the database
      // does not answer, a request fails within this (503) instead of hanging.
      connectionTimeoutMillis: 3000,
      // TCP keepalive, so a connection to a host that vanished without closing it is
      // eventually dropped rather than kept (and waited on) forever.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    return fromPgPool(pool);
  }
  makeDataDirPrivate(options.dataDir);
  const release = lockDataDir(options.dataDir, options.purpose);
  try {
    const dir = join(options.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const pglite = await createPGlite({ dataDir: dir });
    makeDataDirPrivate(options.dataDir);
    return fromPGlite(pglite, release);
  } catch (error) {
    release();
    throw error;
  }
}
