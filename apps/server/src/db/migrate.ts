import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './connection.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Serializes migration runs of several processes starting at once on one server. */
const MIGRATION_LOCK_KEY = 734_112_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(dir + file, 'utf8'),
    }));
}

/** Applies each pending migration once, in its own transaction, and records it. */
export async function migrate(database: Database, migrations = listMigrations()): Promise<string[]> {
  await database.scriptTransaction((tx) =>
    tx.exec(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY});
    create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`),
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await database.scriptTransaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const rows = await tx.query('select 1 from schema_migrations where version = $1', [
        migration.version,
      ]);
      if (rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}
