import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCK_KEYS } from '../lib/locks.ts';
import { AUDIT_ACTION_RULE, auditActionRuleText } from './audit-action-rule.ts';
import type { Database, ScriptTx } from './connection.ts';
import { LOCK_CLASS_RULE, lockClassRuleText } from './lock-class-rule.ts';

/**
 * The schema has two kinds of files:
 *
 * - `migrations/NNNN_name.sql`: tables, columns, indexes, constraints, types and data
 *   changes. Each is applied once, in number order, and its checksum is recorded; once it
 *   has landed it is never edited (the checksums are locked in `migrations/checksums.sha256`
 *   and a changed text is refused at start). A change is a new migration.
 * - `rules/`: the SQL rules, one per file: `rules/functions/<name>.sql` (a function),
 *   `rules/triggers/<function>.sql` (a trigger function and the triggers that run it),
 *   `rules/views/<name>.sql`. Each file replaces its object (`create or replace`) and is
 *   applied again whenever its text changes, after the migrations, in this order:
 *   functions, then triggers, then views, each folder by file name. Changing a rule is an
 *   edit of its one file. Two functions are rules without a file, their text written here
 *   from the list they answer for, so the list has one home: `audit_action_known` from the
 *   domain's audit actions and `lock_class` from the lock registry (`GENERATED_RULES`).
 *
 * A run is one transaction under an advisory lock: the pending migrations and the changed
 * rules are applied together or not at all, so a database is at the previous version or
 * the new one, never between, and processes starting at once on one server migrate once.
 * A migration runs before any rule of its release is applied: what it needs of a function
 * it defines itself or finds as the previous release left it.
 */
const DB_DIR = fileURLToPath(new URL('./', import.meta.url));
const MIGRATIONS_DIR = join(DB_DIR, 'migrations');
const RULES_DIR = join(DB_DIR, 'rules');
/** The rule folders, in the order they are applied. */
export const RULE_KINDS = ['functions', 'triggers', 'views'] as const;

const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;
const RULE_FILE = /^[a-z][a-z0-9_]*\.sql$/;

export interface Migration {
  version: number;
  /** The file name without `.sql`, as recorded in schema_migrations. */
  name: string;
  sql: string;
  checksum: string;
}

export interface Rule {
  /** `functions/usage_record`: its folder and file name without `.sql`. */
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationRun {
  /** Migrations applied by this run, by name. */
  migrations: string[];
  /** Rules (re)applied by this run. */
  rules: string[];
  /** Migrations applied before checksums were kept, whose checksum this run recorded. */
  adopted: string[];
}

/** Refused: the files and the database disagree about what has been applied. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** SHA-256 of a file's text, line endings normalized so a checkout's settings do not change it. */
export function checksumOf(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex');
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => MIGRATION_FILE.test(file))
    .sort()
    .map((file) => {
      const sql = readFileSync(join(dir, file), 'utf8');
      return { version: Number(file.slice(0, 4)), name: file.replace(/\.sql$/, ''), sql, checksum: checksumOf(sql) };
    });
}

/** The rules written from a list of TypeScript rather than read from a file, by name. */
export const GENERATED_RULES: Record<string, () => string> = {
  [AUDIT_ACTION_RULE]: () => auditActionRuleText(),
  [LOCK_CLASS_RULE]: () => lockClassRuleText(),
};

export function listRules(dir = RULES_DIR): Rule[] {
  return RULE_KINDS.flatMap((kind) => {
    let files: string[];
    try {
      files = readdirSync(join(dir, kind));
    } catch {
      files = [];
    }
    const read = files
      .filter((file) => RULE_FILE.test(file))
      .map((file) => ({ name: `${kind}/${file.replace(/\.sql$/, '')}`, sql: readFileSync(join(dir, kind, file), 'utf8') }));
    const written = Object.entries(GENERATED_RULES)
      .filter(([name]) => name.startsWith(`${kind}/`))
      .map(([name, text]) => {
        if (read.some((rule) => rule.name === name)) throw new MigrationError(`${name} is written from its list: remove its file.`);
        return { name, sql: text() };
      });
    // By name within the folder, files and written rules alike, as the folder was applied.
    return [...read, ...written]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((rule) => ({ ...rule, checksum: checksumOf(rule.sql) }));
  });
}

interface Applied {
  version: number;
  name: string;
  checksum: string | null;
}

/**
 * Refuses a database whose applied migrations are not exactly the files' first ones with
 * the same text: a migration edited after it was applied, renamed, or applied by a newer
 * version of the console that this one does not have.
 */
function verify(applied: Applied[], migrations: Migration[]) {
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  for (const row of applied) {
    const file = byVersion.get(row.version);
    if (!file) {
      throw new MigrationError(
        `This database has migration ${row.name} applied, which this version of the console does not have: it was migrated by a newer version. Run that version, or restore a backup made before it.`,
      );
    }
    if (file.name !== row.name) {
      throw new MigrationError(
        `Migration ${row.version} was applied as ${row.name}.sql but the file is now ${file.name}.sql: an applied migration is never renamed.`,
      );
    }
    if (row.checksum !== null && row.checksum !== file.checksum) {
      throw new MigrationError(
        `Migration ${file.name}.sql was changed after it was applied to this database (applied sha256 ${row.checksum.slice(0, 12)}…, file ${file.checksum.slice(0, 12)}…). ` +
          'An applied migration is never edited: restore its text and put the change in a new migration (a function, trigger or view in its file under db/rules/).',
      );
    }
  }
}

async function bookkeeping(tx: ScriptTx) {
  await tx.exec(`
    create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    );
    alter table schema_migrations add column if not exists checksum text;
    create table if not exists schema_rules (
      name text primary key,
      checksum text not null,
      applied_at timestamptz not null default now()
    );`);
}

/**
 * Applies the pending migrations and the changed rules in one transaction (see above).
 * Migrations recorded before checksums were kept get the file's checksum now: what text
 * they were applied from is unknown, and the migrations that repair earlier texts bring
 * such databases to the files' schema.
 */
/** How many months ahead of this one usage events have their partitions made. */
export const USAGE_MONTHS_AHEAD = 3;

export async function migrate(database: Database, files: { migrations?: Migration[]; rules?: Rule[] } = {}): Promise<MigrationRun> {
  const migrations = files.migrations ?? listMigrations();
  const rules = files.rules ?? listRules();
  return database.scriptTransaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEYS.migration]);
    await bookkeeping(tx);
    const applied = await tx.query<Applied>('select version, name, checksum from schema_migrations order by version');
    verify(applied, migrations);
    const run: MigrationRun = { migrations: [], rules: [], adopted: [] };
    const done = new Set(applied.map((row) => row.version));
    for (const row of applied.filter((r) => r.checksum === null)) {
      const file = migrations.find((m) => m.version === row.version)!;
      await tx.query('update schema_migrations set checksum = $2 where version = $1', [row.version, file.checksum]);
      run.adopted.push(file.name);
    }
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name, checksum) values ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      run.migrations.push(migration.name);
    }
    const current = new Map(
      (await tx.query<{ name: string; checksum: string }>('select name, checksum from schema_rules')).map((r) => [r.name, r.checksum]),
    );
    for (const rule of rules) {
      if (current.get(rule.name) === rule.checksum) continue;
      await tx.exec(rule.sql);
      await tx.query(
        `insert into schema_rules (name, checksum) values ($1, $2)
         on conflict (name) do update set checksum = excluded.checksum, applied_at = now()`,
        [rule.name, rule.checksum],
      );
      run.rules.push(rule.name);
    }
    // A rule whose file is gone was dropped by a migration; forget it.
    const names = rules.map((rule) => rule.name);
    await tx.query('delete from schema_rules where not (name = any($1::text[]))', [names]);
    // Usage events go to a partition per month: each start makes the months ahead.
    const [partitions] = await tx.query<{ ok: boolean }>(`select to_regproc('usage_events_add_months') is not null as ok`);
    if (partitions?.ok) await tx.query(`select usage_events_add_months(${USAGE_MONTHS_AHEAD})`);
    return run;
  });
}
