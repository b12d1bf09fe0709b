import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import type { DB } from './schema.ts';

/** A raw handle inside one transaction, for what Kysely cannot run (multi-statement scripts). */
export interface ScriptTx {
  exec(script: string): Promise<void>;
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database {
  kind: 'pglite' | 'pg';
  db: Kysely<DB>;
  /** Runs `fn` in one transaction on a raw connection (migrations). */
  scriptTransaction<T>(fn: (tx: ScriptTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** int8 stays a string as with pg (counts are cast to int in SQL); numeric stays exact. */
const PGLITE_PARSERS = { 20: (v: string) => v, 1700: (v: string) => v };

export function fromPGlite(pglite: PGlite, onClose: () => void = () => {}): Database {
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return {
    kind: 'pglite',
    db,
    scriptTransaction: (fn) =>
      pglite.transaction((tx) =>
        fn({
          exec: async (script) => {
            await tx.exec(script);
          },
          query: async <R>(text: string, params?: unknown[]) =>
            (await tx.query<R>(text, params)).rows,
        }),
      ),
    close: async () => {
      await db.destroy();
      onClose();
    },
  };
}

export async function createPGlite(options: { dataDir?: string; loadDataDir?: Blob } = {}) {
  return PGlite.create({ ...options, parsers: PGLITE_PARSERS });
}

export function fromPgPool(pool: pg.Pool): Database {
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'pg',
    db,
    scriptTransaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn({
          exec: async (script) => {
            await client.query(script);
          },
          query: async <R>(text: string, params?: unknown[]) =>
            (await client.query(text, params)).rows as R[],
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

/** PostgreSQL when a URL is given, otherwise the embedded PGlite in DATA_DIR/pgdata. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      connectionTimeoutMillis: 5000,
    });
    return fromPgPool(pool);
  }
  const release = lockDataDir(options.dataDir, options.purpose);
  try {
    const dir = join(options.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    const pglite = await createPGlite({ dataDir: dir });
    return fromPGlite(pglite, release);
  } catch (error) {
    release();
    throw error;
  }
}
