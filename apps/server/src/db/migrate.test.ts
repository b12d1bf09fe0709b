import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase } from '../../../../support/postgres.ts';
import { REPO_ROOT } from '../../../../support/server-process.ts';
import { freshDatabase } from '../test/harness.ts';
import type { Database } from './connection.ts';
import { checksumOf, listMigrations, listRules, migrate, MigrationError, type Migration, type Rule } from './migrate.ts';

const opened: Database[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((database) => database.close()));
});
async function migrated() {
  const database = await freshDatabase();
  opened.push(database);
  return database;
}

const migration = (version: number, slug: string, text: string): Migration => ({
  version,
  name: `${String(version).padStart(4, '0')}_${slug}`,
  sql: text,
  checksum: checksumOf(text),
});
const withText = <T extends Migration | Rule>(item: T, text: string): T => ({ ...item, sql: text, checksum: checksumOf(text) });

async function versions(database: Database) {
  const { rows } = await sql<{
    version: number;
    name: string;
    checksum: string;
  }>`select version, name, checksum from schema_migrations order by version`.execute(database.db);
  return rows;
}
const tableExists = async (database: Database, table: string) =>
  (await sql<{ found: boolean }>`select to_regclass(${table}) is not null as found`.execute(database.db)).rows[0]!.found;

describe('the migration runner', () => {
  it('records each migration with its checksum, and a second run applies nothing', async () => {
    const database = await migrated();
    const files = listMigrations();
    expect(await versions(database)).toEqual(files.map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })));
    expect(await migrate(database)).toEqual({ migrations: [], rules: [], adopted: [] });
  });

  it('refuses, naming the file, a migration whose text changed after it was applied, and changes nothing', async () => {
    const database = await migrated();
    const files = listMigrations().map((m) => (m.name === '0011_usage' ? withText(m, `${m.sql}\n-- edited\n`) : m));
    const next = migration(files.length + 1, 'next', 'create table next_change (x int)');
    await expect(migrate(database, { migrations: [...files, next] })).rejects.toThrow(MigrationError);
    await expect(migrate(database, { migrations: [...files, next] })).rejects.toThrow(
      /Migration 0011_usage\.sql was changed after it was applied/,
    );
    expect(await tableExists(database, 'next_change')).toBe(false);
  });

  it('refuses a database migrated by a newer version, and one whose applied migration was renamed', async () => {
    const database = await migrated();
    const files = listMigrations();
    const future = migration(9000, 'from_the_future', 'create table from_the_future (x int)');
    await migrate(database, { migrations: [...files, future] });
    await expect(migrate(database)).rejects.toThrow(/9000_from_the_future applied, which this version of the console does not have/);
    const renamed = { ...future, name: '9000_renamed' };
    await expect(migrate(database, { migrations: [...files, renamed] })).rejects.toThrow(
      /applied as 9000_from_the_future\.sql but the file is now 9000_renamed\.sql/,
    );
  });

  it('applies pending migrations and changed rules all together or not at all', async () => {
    const database = await migrated();
    const files = listMigrations();
    const rules = listRules().map((r) =>
      r.name === 'functions/credit_balance_max' ? withText(r, r.sql.replace('stable', 'immutable')) : r,
    );
    const good = migration(9001, 'good', 'create table good_change (x int)');
    const bad = migration(9002, 'bad', 'select 1 / 0');
    await expect(migrate(database, { migrations: [...files, good, bad], rules })).rejects.toThrow(/division by zero/);
    expect(await tableExists(database, 'good_change')).toBe(false);
    expect((await versions(database)).at(-1)!.version).toBe(files.at(-1)!.version);
    const volatility = async () =>
      (await sql<{ provolatile: string }>`select provolatile from pg_proc where proname = 'credit_balance_max'`.execute(database.db))
        .rows[0]!.provolatile;
    expect(await volatility()).toBe('s');

    expect(await migrate(database, { migrations: [...files, good], rules })).toEqual({
      migrations: ['9001_good'],
      rules: ['functions/credit_balance_max'],
      adopted: [],
    });
    expect(await volatility()).toBe('i');
    // Its file back as it was: applied again, as any change of a rule is.
    expect((await migrate(database, { migrations: [...files, good] })).rules).toEqual(['functions/credit_balance_max']);
    expect(await volatility()).toBe('s');
  });

  it('forgets a rule whose file is gone, and applies a new one', async () => {
    const database = await migrated();
    const added: Rule = {
      name: 'functions/zz_probe',
      sql: 'create or replace function zz_probe() returns int language sql as $$ select 7 $$;',
      checksum: checksumOf('probe'),
    };
    expect((await migrate(database, { rules: [...listRules(), added] })).rules).toEqual(['functions/zz_probe']);
    expect((await sql<{ n: number }>`select zz_probe() as n`.execute(database.db)).rows[0]!.n).toBe(7);
    await migrate(database);
    const { rows } = await sql<{ name: string }>`select name from schema_rules order by name`.execute(database.db);
    expect(rows.map((r) => r.name)).toEqual(
      listRules()
        .map((r) => r.name)
        .sort(),
    );
  });

  it('records the checksums of migrations applied before checksums were kept, then holds them to it', async () => {
    const database = await migrated();
    await sql`update schema_migrations set checksum = null`.execute(database.db);
    const run = await migrate(database);
    expect(run.adopted).toEqual(listMigrations().map((m) => m.name));
    expect(await versions(database)).toEqual(listMigrations().map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })));
    const edited = listMigrations().map((m) => (m.version === 1 ? withText(m, `${m.sql} `) : m));
    await expect(migrate(database, { migrations: edited })).rejects.toThrow(/Migration 0001_initial\.sql was changed/);
  });

  it('migrates once when several runs start at once', async () => {
    const database = await migrated();
    const files = [...listMigrations(), migration(9003, 'once', 'create table applied_once (x int); insert into applied_once values (1)')];
    const runs = await Promise.all([
      migrate(database, { migrations: files }),
      migrate(database, { migrations: files }),
      migrate(database, { migrations: files }),
    ]);
    expect(runs.flatMap((run) => run.migrations)).toEqual(['9003_once']);
    expect((await sql<{ n: number }>`select count(*)::int as n from applied_once`.execute(database.db)).rows[0]!.n).toBe(1);
  });

  // Two server processes, or a server and db:migrate, started at once on one PostgreSQL database.
  it.runIf(inject('pgServerUrl'))(
    'migrates once when two processes start at once on one PostgreSQL database',
    { timeout: 120_000 },
    async () => {
      const database = await createDatabase(inject('pgServerUrl'), `${inject('pgTemplate').replace(/_tpl$/, '')}_two`);
      try {
        const run = () =>
          promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'migrate'], {
            cwd: REPO_ROOT,
            env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
          });
        const outputs = (await Promise.all([run(), run()])).map((r) => r.stdout).sort();
        expect(outputs[0]).toMatch(/^Applied migrations: /);
        expect(outputs[1]).toBe('Database is up to date.\n');
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const { rows } = await client.query<{ n: number }>('select count(*)::int as n from schema_migrations');
          expect(rows[0]!.n).toBe(listMigrations().length);
        } finally {
          await client.end();
        }
      } finally {
        await database.drop();
      }
    },
  );
});
