import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { createPGlite, fromPGlite } from './connection.ts';
import { lockDataDir, makeDataDirPrivate, DataDirInUseError } from './data-dir-lock.ts';
import { listMigrations } from './migrate.ts';
import {
  BackupError,
  KIND_NAMES,
  PG_TRAILER_LENGTH,
  PG_TRAILER_PREFIX,
  connectForBackup,
  connectionOf,
  firstLine,
  hashFile,
  runTool,
  schemaVersionOf,
  type BackupKind,
} from './backup.ts';

const gunzipAsync = promisify(gunzip);

/** What a file is, from its first bytes: gzip (our data-folder archive) or a pg_dump custom archive. */
export function sniffKind(file: string): BackupKind {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new BackupError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  const head = Buffer.alloc(5);
  try {
    readSync(fd, head, 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  if (head.toString('latin1') === 'PGDMP') return 'pg';
  throw new BackupError(
    `${file} is not a backup of this console: it is neither a data-folder archive (gzip) nor a pg_dump custom archive.`,
  );
}

export interface TarEntry {
  name: string;
  type: 'file' | 'dir';
  size: number;
  offset: number;
}

const BLOCK = 512;
const text = (block: Uint8Array, start: number, length: number) =>
  Buffer.from(block.subarray(start, start + length))
    .toString('latin1')
    .replace(/\0.*$/s, '');
const octal = (block: Uint8Array, start: number, length: number) => {
  const value = text(block, start, length).trim();
  return /^[0-7]+$/.test(value) ? parseInt(value, 8) : Number.NaN;
};

/**
 * Walks a whole tar archive and checks every header: its checksum, a size that fits in the
 * archive, a plain file or folder (no link or device), a name without `..`, and the
 * end-of-archive blocks. Throws with what is wrong; returns the entries by name, relative to
 * the data folder (the archives written before their names were made relative begin with `/`).
 */
export function walkTar(tar: Uint8Array): Map<string, TarEntry> {
  const entries = new Map<string, TarEntry>();
  let offset = 0;
  for (;;) {
    if (offset + BLOCK > tar.length) throw new Error('the archive ends without its end-of-archive blocks (cut short)');
    const block = tar.subarray(offset, offset + BLOCK);
    if (block.every((b) => b === 0)) {
      const next = tar.subarray(offset + BLOCK, offset + 2 * BLOCK);
      if (next.length < BLOCK || !next.every((b) => b === 0)) throw new Error(`a lone empty block at byte ${offset}`);
      if (!tar.subarray(offset + 2 * BLOCK).every((b) => b === 0)) throw new Error('data after the end of the archive');
      return entries;
    }
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
    if (octal(block, 148, 8) !== sum) throw new Error(`a damaged header at byte ${offset} (checksum)`);
    const size = octal(block, 124, 12);
    if (!Number.isSafeInteger(size)) throw new Error(`a damaged header at byte ${offset} (size)`);
    const flag = String.fromCharCode(block[156]!);
    const type = flag === '0' || flag === '\0' ? 'file' : flag === '5' ? 'dir' : null;
    const prefix = text(block, 345, 155);
    const raw = (prefix ? `${prefix}/` : '') + text(block, 0, 100);
    const name = raw.replace(/^(\.?\/)+/, '').replace(/\/+$/, '');
    if (type === null)
      throw new Error(`${raw} is a link or special file (type ${JSON.stringify(flag)}), which a data folder does not hold`);
    if (name === '' || name.split('/').some((part) => part === '..' || part === ''))
      throw new Error(`an entry with an unsafe name: ${JSON.stringify(raw)}`);
    const dataStart = offset + BLOCK;
    const next = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (next > tar.length) throw new Error(`${name} is cut short`);
    entries.set(name, { name, type, size, offset: dataStart });
    offset = next;
  }
}

/**
 * Checks a data-folder archive entirely before anything is written: the gzip stream (its
 * CRC-32 and length catch a flipped byte or a cut), every tar header, and the files a
 * PostgreSQL data folder cannot lack. Returns the tar and the PostgreSQL major version.
 */
export async function checkDataFolderArchive(file: string): Promise<{ tar: Uint8Array; major: number }> {
  let tar: Uint8Array;
  try {
    tar = await gunzipAsync(readFileSync(file));
  } catch (error) {
    throw new BackupError(`${file} is damaged or cut short (gzip: ${(error as Error).message}); nothing was restored.`);
  }
  let entries: Map<string, TarEntry>;
  try {
    entries = walkTar(tar);
  } catch (error) {
    throw new BackupError(`${file} is damaged: ${(error as Error).message}; nothing was restored.`);
  }
  const version = entries.get('PG_VERSION');
  const control = entries.get('global/pg_control');
  const hasFolder = (folder: string) => [...entries.keys()].some((name) => name === folder || name.startsWith(`${folder}/`));
  if (!version || version.type !== 'file' || !control || control.type !== 'file' || !hasFolder('base') || !hasFolder('pg_wal')) {
    throw new BackupError(
      `${file} is a tar archive but not of a PostgreSQL data folder (PG_VERSION, global/pg_control, base/ or pg_wal/ is missing); nothing was restored.`,
    );
  }
  const major = Number(
    Buffer.from(tar.subarray(version.offset, version.offset + version.size))
      .toString()
      .trim(),
  );
  if (!Number.isInteger(major)) throw new BackupError(`${file} holds an unreadable PG_VERSION; nothing was restored.`);
  return { tar, major };
}

export interface RestoreResult {
  kind: BackupKind;
  /** Where it went: the data folder's pgdata, or the database named by DATABASE_URL (without its password). */
  target: string;
  schemaVersion: number;
  /** How many of this version's migrations the restored database lacks (applied at the next start). */
  pending: number;
}

export interface RestoreOptions {
  file: string;
  databaseUrl: string | null;
  dataDir: string;
}

/**
 * Restores a backup into an empty target: the data folder without a database (PGlite) or a
 * database without tables in its public schema (PostgreSQL). Refused, writing nothing: a
 * target that is not empty, a backup of the other kind, a damaged or cut file, and a schema
 * newer than this version's migrations.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const kind = sniffKind(options.file);
  const wanted: BackupKind = options.databaseUrl ? 'pg' : 'pglite';
  if (kind !== wanted) {
    const hint =
      kind === 'pglite'
        ? 'it restores only into the embedded database: unset DATABASE_URL and set DATA_DIR to an empty folder.'
        : 'it restores only into PostgreSQL: set DATABASE_URL to an empty database.';
    throw new BackupError(
      `${options.file} is ${KIND_NAMES[kind]}, but the target is ${wanted === 'pg' ? 'PostgreSQL (DATABASE_URL is set)' : 'the embedded database (DATABASE_URL is not set)'}; ${hint}`,
    );
  }
  return kind === 'pglite' ? restoreDataFolder(options.file, options.dataDir) : restorePostgres(options.file, options.databaseUrl!);
}

const latestMigration = () => Math.max(0, ...listMigrations().map((m) => m.version));

function checkSchemaVersion(file: string, version: number | null): number {
  if (version === null) throw new BackupError(`${file} holds no console database (no schema_migrations table); nothing was restored.`);
  const latest = latestMigration();
  if (version > latest) {
    throw new BackupError(
      `${file} was made by a newer version of the console (schema version ${version}, this one knows ${latest}): restore it with that version or a later one; nothing was restored.`,
    );
  }
  return version;
}

/** Why the data folder cannot take a restore, or null when it holds no database. */
function dataFolderOccupied(dataDir: string): string | null {
  const pgdata = join(dataDir, 'pgdata');
  if (!existsSync(pgdata)) return null;
  if (!statSync(pgdata).isDirectory()) return `${pgdata} exists and is not a folder`;
  const names = readdirSync(pgdata);
  if (names.length === 0) return null;
  return names.includes('PG_VERSION') ? `${pgdata} already holds a database` : `${pgdata} is not empty`;
}

function refuseOccupied(dataDir: string, reason: string): never {
  throw new BackupError(
    `${reason}: a backup restores only into an empty data folder. Stop the server and move ${join(dataDir, 'pgdata')} aside, or set DATA_DIR to a new folder; nothing was restored.`,
  );
}

/**
 * The archive is checked whole, unpacked by PGlite into a folder beside pgdata/, opened and
 * queried there, and only then renamed to pgdata/: an interrupted restore leaves no database
 * that looks whole, only the temporary folder, which the next restore removes.
 */
async function restoreDataFolder(file: string, dataDir: string): Promise<RestoreResult> {
  const occupied = dataFolderOccupied(dataDir);
  if (occupied) refuseOccupied(dataDir, occupied);
  const { tar, major } = await checkDataFolderArchive(file);

  // A data folder made here is removed again if the restore fails, so a refusal leaves nothing.
  const created = !existsSync(dataDir);
  makeDataDirPrivate(dataDir);
  let release: () => void;
  try {
    release = lockDataDir(dataDir, 'db:restore');
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new BackupError(`${error.message} Nothing was restored.`);
    throw error;
  }
  const temp = join(dataDir, '.pgdata-restore');
  let restored = false;
  try {
    const again = dataFolderOccupied(dataDir);
    if (again) refuseOccupied(dataDir, again);
    // Left by a restore that died: we hold the lock, so no one else is writing it.
    rmSync(temp, { recursive: true, force: true });
    let schemaVersion: number;
    try {
      const pglite = await createPGlite({ dataDir: temp, loadDataDir: new Blob([tar as Uint8Array<ArrayBuffer>]) });
      const database = fromPGlite(pglite);
      try {
        schemaVersion = checkSchemaVersion(file, await schemaVersionOf(database.db));
      } finally {
        await database.close();
      }
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(
        `${file} (a PostgreSQL ${major} data folder) could not be opened by the embedded database (${(error as Error).message}); nothing was restored.`,
      );
    }
    const pgdata = join(dataDir, 'pgdata');
    // An empty pgdata/ (checked above, under the lock) is replaced by the rename.
    if (existsSync(pgdata)) rmSync(pgdata, { recursive: true });
    renameSync(temp, pgdata);
    restored = true;
    makeDataDirPrivate(dataDir);
    return { kind: 'pglite', target: resolve(pgdata), schemaVersion, pending: latestMigration() - schemaVersion };
  } finally {
    rmSync(temp, { recursive: true, force: true });
    release();
    if (created && !restored) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The file's checksum line is present and matches: refused otherwise, before anything is written. */
async function checkTrailer(file: string): Promise<void> {
  const size = statSync(file).size;
  const damaged = (why: string) => new BackupError(`${file} is damaged or cut short (${why}); nothing was restored.`);
  if (size <= PG_TRAILER_LENGTH) throw damaged('too short to hold a dump');
  const fd = openSync(file, 'r');
  const trailer = Buffer.alloc(PG_TRAILER_LENGTH);
  try {
    readSync(fd, trailer, 0, PG_TRAILER_LENGTH, size - PG_TRAILER_LENGTH);
  } finally {
    closeSync(fd);
  }
  const match = new RegExp(`^${PG_TRAILER_PREFIX.replace('\n', '\\n')}([0-9a-f]{64})\\n$`).exec(trailer.toString('latin1'));
  if (!match) {
    throw new BackupError(
      `${file} does not end with the checksum line db:backup writes: it was cut short, or made by pg_dump alone (restore such a file with pg_restore); nothing was restored.`,
    );
  }
  if ((await hashFile(file, size - PG_TRAILER_LENGTH)) !== match[1]) throw damaged('its checksum does not match its contents');
}

/** The versions in the dump's schema_migrations data (read by pg_restore, nothing written). */
async function dumpSchemaVersion(file: string): Promise<number | null> {
  const run = await runTool('pg_restore', ['--data-only', '--table=schema_migrations', '--file=-', file]);
  if (run.code !== 0) throw new BackupError(`${file} cannot be read by pg_restore: ${firstLine(run.stderr)}; nothing was restored.`);
  const lines = run.stdout.toString().split('\n');
  const start = lines.findIndex((line) => /^COPY public\.schema_migrations /.test(line));
  if (start < 0) return null;
  const versions: number[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === '\\.') break;
    versions.push(Number(line.split('\t')[0]));
  }
  return versions.length ? Math.max(...versions) : null;
}

async function publicTableCount(url: string): Promise<number> {
  const client = await connectForBackup(url);
  try {
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname = 'public'`);
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

/**
 * Checksum, table of contents (`pg_restore --list`) and schema version first; then one
 * pg_restore in a single transaction that stops at the first error, so a failure rolls
 * everything back.
 */
async function restorePostgres(file: string, databaseUrl: string): Promise<RestoreResult> {
  const connection = connectionOf(databaseUrl);
  const tables = await publicTableCount(databaseUrl);
  if (tables > 0) {
    throw new BackupError(
      `The database at DATABASE_URL is not empty (${tables} tables in its public schema): a backup restores only into an empty database (createdb a new one and point DATABASE_URL at it); nothing was restored.`,
    );
  }
  await checkTrailer(file);
  const list = await runTool('pg_restore', ['--list', file]);
  if (list.code !== 0) throw new BackupError(`${file} cannot be read by pg_restore: ${firstLine(list.stderr)}; nothing was restored.`);
  const schemaVersion = checkSchemaVersion(file, await dumpSchemaVersion(file));
  const run = await runTool(
    'pg_restore',
    ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', `--dbname=${connection.url}`, file],
    connection.env,
  );
  if (run.code !== 0) throw new BackupError(`pg_restore failed and was rolled back, nothing was restored: ${firstLine(run.stderr)}`);
  const target = new URL(connection.url);
  return { kind: 'pg', target: `${target.host}${target.pathname}`, schemaVersion, pending: latestMigration() - schemaVersion };
}
