import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase } from '../test/harness.ts';
import { takeBackup } from './backup.ts';
import { ensureFirstHouseAdmin } from './bootstrap.ts';
import { openDatabase, type Database } from './connection.ts';
import { restoreBackup } from './restore.ts';

/**
 * The embedded database's archive as an operator may handle it by hand: its members are named
 * relative to the data folder, so `tar -x` (even with -P, which keeps absolute names) unpacks
 * it where it is run and never at the root of the file system. Archives written before, whose
 * members were absolute (`/PG_VERSION`), still restore.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const scratch = mkdtempSync(join(tmpdir(), 'console-backup-members-'));
const ADMIN = { email: 'members@example.test', password: 'members admin password' };
let database: Database;

const tar = async (args: string[], cwd = scratch) => (await promisify(execFile)('tar', args, { cwd })).stdout;
const members = async (file: string) => (await tar(['-tzf', file])).split('\n').filter(Boolean);

/** The archive as db:backup wrote it before its members were made relative: PGlite's own dump, gzipped. */
async function olderArchive(file: string) {
  await sql`checkpoint`.execute(database.db);
  const dump = await database.pglite!.dumpDataDir('none');
  writeFileSync(file, gzipSync(new Uint8Array(await dump.arrayBuffer())));
}

/** Restores `file` into a new data folder and answers who signs in there and its schema version. */
async function restored(file: string, name: string) {
  const dataDir = join(scratch, name);
  const result = await restoreBackup({ file, databaseUrl: null, dataDir });
  const copy = await openDatabase({ databaseUrl: null, dataDir, purpose: 'backup members test' });
  try {
    const users = await copy.db.selectFrom('users').select('email').execute();
    return { schemaVersion: result.schemaVersion, pending: result.pending, users: users.map((u) => u.email) };
  } finally {
    await copy.close();
  }
}

beforeAll(async () => {
  if (onPostgres) return;
  database = await freshDatabase();
  await ensureFirstHouseAdmin(database.db, ADMIN);
});

afterAll(async () => {
  await database?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(onPostgres)('the embedded database archive (PGlite)', () => {
  it('names its members relative to the data folder: tar -xPf by hand unpacks it into the current folder', async () => {
    const file = join(scratch, 'relative.tar.gz');
    await takeBackup({ kind: 'pglite', database }, file);
    const names = await members(file);
    expect(names).toEqual(expect.arrayContaining(['PG_VERSION', 'global/pg_control', 'base', 'pg_wal']));
    expect(names.filter((name) => name.startsWith('/'))).toEqual([]);

    const into = mkdtempSync(join(scratch, 'unpacked-'));
    await tar(['-xzPf', file], into);
    expect(readFileSync(join(into, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
    expect(existsSync(join(into, 'global', 'pg_control'))).toBe(true);
  }, 120_000);

  it("restores this version's archive and an older one whose members are absolute", async () => {
    const current = join(scratch, 'current.tar.gz');
    await takeBackup({ kind: 'pglite', database }, current);
    const older = join(scratch, 'older.tar.gz');
    await olderArchive(older);
    expect((await members(older)).filter((name) => !name.startsWith('/'))).toEqual([]);
    expect(await members(older)).toContain('/PG_VERSION');

    const expected = { schemaVersion: expect.any(Number), pending: 0, users: [ADMIN.email] };
    expect(await restored(current, 'from-current')).toEqual(expected);
    expect(await restored(older, 'from-older')).toEqual(expected);
  }, 120_000);
});
