import { sql, type Kysely } from 'kysely';
import type { Readiness } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { listMigrations, listRules, type Migration, type Rule } from '../../db/migrate.ts';

interface Applied {
  migrations: { version: number; name: string; checksum: string | null }[];
  rules: { name: string; checksum: string }[];
}

/** PostgreSQL's "relation does not exist": a database no migration has touched yet. */
const UNDEFINED_TABLE = '42P01';

/**
 * At head: the applied migrations are exactly the release's files (same numbers, names and
 * texts, none missing, none extra) and every SQL rule is applied at its file's text.
 */
export function atHead(applied: Applied, migrations: Migration[], rules: Rule[]): boolean {
  const sameMigrations =
    applied.migrations.length === migrations.length &&
    applied.migrations.every((row, n) => {
      const file = migrations[n]!;
      return row.version === file.version && row.name === file.name && row.checksum === file.checksum;
    });
  const appliedRules = new Map(applied.rules.map((row) => [row.name, row.checksum]));
  return sameMigrations && appliedRules.size === rules.length && rules.every((rule) => appliedRules.get(rule.name) === rule.checksum);
}

async function readApplied(db: Kysely<DB>): Promise<Applied | null> {
  try {
    const { rows } = await sql<Applied>`
      select
        (select coalesce(json_agg(json_build_object('version', version, 'name', name, 'checksum', checksum) order by version), '[]')
         from schema_migrations) as migrations,
        (select coalesce(json_agg(json_build_object('name', name, 'checksum', checksum)), '[]') from schema_rules) as rules`.execute(db);
    return rows[0]!;
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return null;
    throw error;
  }
}

async function reachable(db: Kysely<DB>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/**
 * Readiness: ready when the database answers with its migrations at head, the read replica
 * (when configured) answers, and the app is not closing. The release's files are read once,
 * at the first check: they are what this process ships.
 */
export function createReadiness({
  db,
  replica,
  lifecycle,
}: {
  db: Kysely<DB>;
  replica: Kysely<DB> | null;
  lifecycle: { closing: boolean };
}) {
  let files: { migrations: Migration[]; rules: Rule[] } | null = null;
  return async function check(): Promise<Readiness> {
    files ??= { migrations: listMigrations(), rules: listRules() };
    const expected = files.migrations.at(-1)?.version ?? 0;
    let database: Readiness['database'] = 'ok';
    let applied: Applied | null = null;
    try {
      applied = await readApplied(db);
    } catch {
      database = 'unreachable';
    }
    const replicaState = replica ? ((await reachable(replica)) ? 'ok' : 'unreachable') : null;
    const migrations = {
      at_head: applied !== null && atHead(applied, files.migrations, files.rules),
      applied: database === 'ok' ? (applied?.migrations.at(-1)?.version ?? 0) : null,
      expected,
    };
    const ready = database === 'ok' && migrations.at_head && replicaState !== 'unreachable' && !lifecycle.closing;
    return { status: ready ? 'ready' : 'not_ready', database, replica: replicaState, migrations, closing: lifecycle.closing };
  };
}
