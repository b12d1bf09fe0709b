/**
 * A migration interrupted by SIGKILL, on the embedded database: `main.ts migrate` is started
 * on a data folder made at an older schema version and killed at random moments, again and
 * again. After each kill the folder must be at the previous version or the new one, never
 * between: the versions recorded in schema_migrations are the older folder's or every file's,
 * and the schema (tables, columns, constraints, indexes, functions, triggers, views, types,
 * row counts) is exactly what the older release left or what an undisturbed run makes. Then
 * an uninterrupted run completes it.
 *
 * It knows the command line, the migration files and the table schema_migrations (version,
 * name), not how the runner works inside. The older folder is made by applying the first files
 * here, each in its transaction with its row, as a release that had only those files left it.
 * The reference of the new version is what the runner makes of that folder in memory.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPGlite, fromPGlite, openDatabase, type Database } from '../apps/server/src/db/connection.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { REPO_ROOT, supervise, type Exit } from '../support/server-process.ts';
import { killServers, sleep, writeResults } from './harness.ts';

const MIGRATIONS_DIR = join(REPO_ROOT, 'apps/server/src/db/migrations');
/** The older folder lacks this many of the latest migrations. */
const PENDING = 8;
/** Kill at least this many times, and until MIN_OLD kills left the folder at the older version (at most MAX_RUNS runs). */
const MIN_KILLS = 4;
const MIN_OLD = 2;
const MAX_RUNS = 12;

const files = readdirSync(MIGRATIONS_DIR)
  .filter((file) => /^\d+_[a-z0-9_]+\.sql$/.test(file))
  .sort()
  .map((file) => ({
    version: Number.parseInt(file, 10),
    name: file.replace(/\.sql$/, ''),
    sql: readFileSync(join(MIGRATIONS_DIR, file), 'utf8'),
  }));
const BASE = Math.max(1, files.length - PENDING);

/** A description of everything the migrations make, one sorted line per object; schema_migrations left out. */
async function fingerprint(db: Kysely<any>): Promise<string[]> {
  const objects = await sql<{ item: string }>`
    with rels as (
      select c.oid, c.relname, c.relkind from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relname not like 'schema_migrations%'
    )
    select 'relation ' || relname || ' ' || relkind::text as item from rels
    union all
    select 'column ' || r.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || case when a.attnotnull then ' not null' else '' end || ' ' || a.attidentity::text || a.attgenerated::text
           || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
    from pg_attribute a join rels r on r.oid = a.attrelid
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attnum > 0 and not a.attisdropped
    union all
    select 'constraint ' || r.relname || ' ' || co.conname || ' ' || pg_get_constraintdef(co.oid)
    from pg_constraint co join rels r on r.oid = co.conrelid
    union all
    select 'index ' || pg_get_indexdef(i.indexrelid) from pg_index i join rels r on r.oid = i.indrelid
    union all
    select 'trigger ' || pg_get_triggerdef(t.oid) from pg_trigger t join rels r on r.oid = t.tgrelid where not t.tgisinternal
    union all
    select 'view ' || relname || ' ' || md5(pg_get_viewdef(oid)) from rels where relkind in ('v', 'm')
    union all
    select 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || p.prokind::text
           || case when p.prokind in ('f', 'p') then ' ' || md5(pg_get_functiondef(p.oid)) else '' end
    from pg_proc p where p.pronamespace = 'public'::regnamespace
    union all
    select 'type ' || t.typname || ' ' || t.typtype::text || coalesce(' ' || (select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid), '')
    from pg_type t where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd')
    union all
    select 'extension ' || extname from pg_extension`.execute(db);
  // Rows too, for migrations that insert or move data: one statement counting every table.
  const tables = await sql<{ relname: string }>`
    select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') and relname not like 'schema_migrations%'`.execute(
    db,
  );
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const counts = tables.rows.length
    ? (
        await sql
          .raw<{ item: string }>(
            tables.rows.map((t) => `select 'rows ${t.relname} ' || count(*) as item from public.${quoted(t.relname)}`).join(' union all '),
          )
          .execute(db)
      ).rows.map((r) => r.item)
    : [];
  return [...objects.rows.map((r) => r.item), ...counts].sort();
}

/** Applies `migrations` each in its own transaction with its schema_migrations row, as a release with only those files did. */
async function applyFiles(database: Database, migrations: typeof files): Promise<void> {
  // The columns the runner has always recorded; the checks read only version and name.
  await database.scriptTransaction((tx) =>
    tx.exec(
      'create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())',
    ),
  );
  for (const migration of migrations) {
    await database.scriptTransaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
    });
  }
}

/** What a folder holds: how many migration files it is at (-1 when the versions are not the first k files), and its schema. */
async function stateOf(dataDir: string): Promise<{ applied: number; versions: number[]; fingerprint: string[] }> {
  const database = await openDatabase({ databaseUrl: null, dataDir, purpose: 'migration crash check' });
  try {
    const { rows } = await sql<{ version: number }>`select version from schema_migrations order by version`.execute(database.db);
    const versions = rows.map((r) => r.version);
    const prefix = versions.every((v, n) => files[n]?.version === v);
    return { applied: prefix ? versions.length : -1, versions, fingerprint: await fingerprint(database.db) };
  } finally {
    await database.close();
  }
}

interface Run {
  pid: number;
  exited: Promise<Exit>;
  kill(): void;
  /** Resolves when the process has locked the data folder (it is opening the database), false if it exited first. */
  locked: Promise<boolean>;
  output(): string;
}

/** `main.ts migrate` on the embedded database in `dataDir`, whatever DATABASE_URL this process has. */
function migrateOn(dataDir: string): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'migrate'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const { exited } = supervise(child);
  let done = false;
  void exited.then(() => (done = true));
  const lockPath = join(dataDir, 'console.lock');
  const holder = () => {
    try {
      return JSON.parse(readFileSync(lockPath, 'utf8')).pid as number;
    } catch {
      return undefined;
    }
  };
  const locked = (async () => {
    while (!done) {
      if (existsSync(lockPath) && holder() === child.pid) return true;
      await sleep(5);
    }
    return false;
  })();
  return { pid: child.pid!, exited, kill: () => child.kill('SIGKILL'), locked, output: () => output };
}

const scratch: string[] = [];
const fresh = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};
/** The schema of the older folder (BASE files) and of the new version (every file, as the runner makes it). */
const reference: string[][] = [];
let baseDir: string;

beforeAll(async () => {
  const memory = fromPGlite(await createPGlite());
  try {
    await applyFiles(memory, files.slice(0, BASE));
    reference[BASE] = await fingerprint(memory.db);
    await migrate(memory);
    reference[files.length] = await fingerprint(memory.db);
  } finally {
    await memory.close();
  }
  baseDir = fresh('crash-migration-base-');
  const base = await openDatabase({ databaseUrl: null, dataDir: baseDir, purpose: 'migration crash base' });
  try {
    await applyFiles(base, files.slice(0, BASE));
  } finally {
    await base.close();
  }
}, 120_000);

afterAll(async () => {
  await killServers();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

test(`main.ts migrate SIGKILLed at random moments leaves the embedded database at the previous version or the new one, never between, and the next run completes it`, {
  timeout: 300_000,
}, async () => {
  const started = Date.now();
  expect(reference[BASE]).not.toEqual(reference[files.length]);

  /** Whether a folder's state is the first k files exactly; a sentence when not. */
  const mismatch = (state: Awaited<ReturnType<typeof stateOf>>, label: string) => {
    if (state.applied !== BASE && state.applied !== files.length) {
      return `${label}: versions ${state.versions.join(',')} are neither the older folder's nor every file's: the folder is between versions`;
    }
    if (JSON.stringify(state.fingerprint) === JSON.stringify(reference[state.applied])) return null;
    const want = new Set(reference[state.applied]);
    const have = new Set(state.fingerprint);
    return (
      `${label}: at version ${files[state.applied - 1]!.version} the schema differs: ` +
      `extra ${JSON.stringify(state.fingerprint.filter((l) => !want.has(l)).slice(0, 5))}, ` +
      `missing ${JSON.stringify(reference[state.applied]!.filter((l) => !have.has(l)).slice(0, 5))}`
    );
  };

  // One run undisturbed: it completes the older folder, and times the window the kills aim
  // at (from the moment it locks the folder to its exit).
  const whole = fresh('crash-migration-whole-');
  cpSync(baseDir, whole, { recursive: true });
  const first = migrateOn(whole);
  expect(await first.locked, first.output()).toBe(true);
  const lockedAt = Date.now();
  expect((await first.exited).code, first.output()).toBe(0);
  const undisturbedMs = Date.now() - lockedAt;
  let windowMs = undisturbedMs;
  const completed = await stateOf(whole);
  expect(completed.applied).toBe(files.length);
  expect(mismatch(completed, 'undisturbed run')).toBeNull();

  let dir = fresh('crash-migration-');
  cpSync(baseDir, dir, { recursive: true });
  let previous = BASE;
  const runs: { killAfterMs: number; killed: boolean; from: number; to: number }[] = [];
  const problems: string[] = [];
  const killed = () => runs.filter((r) => r.killed);
  const leftOld = () => killed().filter((r) => r.to === BASE).length;
  while (runs.length < MAX_RUNS && (killed().length < MIN_KILLS || leftOld() < MIN_OLD)) {
    const run = migrateOn(dir);
    const killAfterMs = Math.round(Math.random() * windowMs);
    const wasLocked = await run.locked;
    const lockedAt = Date.now();
    if (wasLocked) await sleep(killAfterMs);
    run.kill();
    const exit = await run.exited;
    const wasKilled = exit.signal === 'SIGKILL';
    if (!wasKilled) {
      if (exit.code !== 0) problems.push(`run ${runs.length + 1} exited ${exit.code}: ${run.output()}`);
      // Done sooner than the window: aim the next kills within what a whole run takes now.
      else if (wasLocked) windowMs = Math.min(windowMs, Date.now() - lockedAt);
    }
    // A copy is checked, so that the next run recovers the folder the dead one left.
    const copy = fresh('crash-migration-copy-');
    cpSync(dir, copy, { recursive: true });
    const state = await stateOf(copy);
    rmSync(copy, { recursive: true, force: true });
    const wrong = mismatch(state, `run ${runs.length + 1}`);
    if (wrong) problems.push(wrong);
    if (state.applied < previous) problems.push(`run ${runs.length + 1}: went back from ${previous} to ${state.applied} files`);
    runs.push({ killAfterMs, killed: wasKilled, from: previous, to: state.applied });
    previous = state.applied;
    if (state.applied === files.length) {
      // Completed: start again from the older folder, so that later kills meet migrations.
      dir = fresh('crash-migration-');
      cpSync(baseDir, dir, { recursive: true });
      previous = BASE;
    }
  }

  // The next run, undisturbed, completes whatever the last kill left (and exits by itself).
  const last = migrateOn(dir);
  const lastExit = await last.exited;
  const final = await stateOf(dir);

  const figures = {
    database: 'embedded (PGlite)',
    migrationFiles: files.length,
    olderFolderAt: files[BASE - 1]!.version,
    pending: files.length - BASE,
    undisturbedRunMs: undisturbedMs,
    runs: runs.length,
    kills: killed().length,
    completedBeforeTheKill: runs.length - killed().length,
    killsLeavingOldVersion: leftOld(),
    killsLeavingBetween: killed().filter((r) => r.to !== BASE && r.to !== files.length).length,
    killsLeavingNewVersion: killed().filter((r) => r.to === files.length).length,
    statesMatchingAVersion: runs.length - problems.filter((p) => p.includes('schema differs') || p.includes('are not')).length,
    completedByNextRun: lastExit.code === 0 && final.applied === files.length,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
    each: runs,
  };
  console.log('crash migration figures', JSON.stringify({ ...figures, each: undefined }, null, 2));
  writeResults('crash-migration', figures);

  expect(problems).toEqual([]);
  expect(lastExit.code, last.output()).toBe(0);
  expect(final.applied).toBe(files.length);
  expect(mismatch(final, 'the completing run')).toBeNull();
  expect(leftOld(), JSON.stringify(runs)).toBeGreaterThan(0);
});
