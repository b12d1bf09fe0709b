import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPGlite, fromPGlite, fromPgPool } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a migrated data folder dump each test file loads (cheaper than migrating). */
    pgliteTemplate: string;
    /** PostgreSQL: the server URL and a migrated template database to copy per test file. */
    pgServerUrl: string;
    pgTemplate: string;
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Prepares one migrated database for the run: a PGlite dump by default, or, when
 * DATABASE_URL is set, a fresh template database on that server, dropped afterwards
 * with every database copied from it.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const pglite = await createPGlite();
    await migrate(fromPGlite(pglite));
    const dump = await pglite.dumpDataDir('none');
    const dir = mkdtempSync(join(tmpdir(), 'console-test-'));
    const file = join(dir, 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await pglite.close();
    project.provide('pgliteTemplate', file);
    project.provide('pgServerUrl', '');
    project.provide('pgTemplate', '');
    return () => rmSync(dir, { recursive: true, force: true });
  }

  const prefix = `console_test_${process.pid}_${Date.now().toString(36)}`;
  const template = `${prefix}_tpl`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const pool = new pg.Pool({ connectionString: withDatabase(url, template), max: 2 });
  const database = fromPgPool(pool);
  await migrate(database);
  await database.close();
  project.provide('pgliteTemplate', '');
  project.provide('pgServerUrl', url);
  project.provide('pgTemplate', template);
  return async () => {
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${prefix}%`]);
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.end();
  };
}
