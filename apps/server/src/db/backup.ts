import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  closeSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  chmodSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { parseHostList, singleClient, splitPassword } from './multi-host.ts';
import type { Database } from './connection.ts';

/** A backup that cannot be taken or restored, with a message meant for the operator (one or two lines). */
export class BackupError extends Error {}

/**
 * What a backup file holds: the embedded database's data folder (a gzip tar of `pgdata/`'s
 * contents, PGlite's own `dumpDataDir` format with its members named relative to the folder),
 * or a `pg_dump --format=custom` archive of PostgreSQL.
 */
export type BackupKind = 'pglite' | 'pg';

export const KIND_NAMES: Record<BackupKind, string> = {
  pglite: 'a backup of the embedded database (PGlite data folder archive)',
  pg: 'a backup of a PostgreSQL database (pg_dump custom format)',
};

const EXTENSIONS: Record<BackupKind, string> = { pglite: 'tar.gz', pg: 'dump' };

/** Our file names: `console-<UTC time to the second>.<ext>`; rotation deletes only these. */
const OUR_NAME = /^console-(\d{8})T(\d{6})Z\.(tar\.gz|dump)$/;
/** A temporary file of ours, left behind if its writer died: `.<final name>.tmp-<pid>-<hex>`. */
const OUR_TEMP = /^\.console-\d{8}T\d{6}Z\.(?:tar\.gz|dump)\.tmp-(\d+)-[0-9a-f]{8}$/;

/**
 * A pg_dump archive carries no checksum of its own (only its data blocks are compressed with
 * one), so we append one line with the SHA-256 of everything before it. pg_restore reads a
 * file archive by the offsets in its table of contents and never reaches the trailer, so the
 * file stays usable by pg_restore alone.
 */
export const PG_TRAILER_PREFIX = '\nCONSOLE-BACKUP-SHA256 ';
export const PG_TRAILER_LENGTH = PG_TRAILER_PREFIX.length + 64 + 1;

export function backupFileName(kind: BackupKind, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `console-${stamp}.${EXTENSIONS[kind]}`;
}

/** The time in one of our backup file names, or null for any other name. */
export function timeOfBackupName(name: string): Date | null {
  const match = OUR_NAME.exec(name);
  if (!match) return null;
  const [, day, time] = match as unknown as [string, string, string];
  const at = new Date(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4)}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Whether a temporary file name is ours and its writer no longer runs. */
export function isStaleTemp(name: string): boolean {
  const match = OUR_TEMP.exec(name);
  if (!match) return false;
  const pid = Number(match[1]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

export function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The newest applied migration, or null where the schema table does not exist. */
export async function schemaVersionOf(db: Kysely<any>): Promise<number | null> {
  const { rows } = await sql<{ exists: boolean }>`select to_regclass('public.schema_migrations') is not null as exists`.execute(db);
  if (!rows[0]?.exists) return null;
  const version = await sql<{ version: number | null }>`select max(version)::int as version from schema_migrations`.execute(db);
  return version.rows[0]?.version ?? null;
}

export interface Snapshot {
  /** The gzip tar of the data folder. */
  archive: Buffer;
  schemaVersion: number | null;
}

const gzipAsync = promisify(gzip);

/**
 * A consistent copy of the embedded database's data folder, taken while the database runs.
 *
 * PGlite's `dumpDataDir` reads every file under PGDATA through its file system (the real
 * files, for a data folder on disk) into a tar, holding the mutex every statement takes. It
 * does not wait for a transaction: a `begin` ... `commit` is several statements, and a dump
 * between two of them would copy the files mid-transaction. So the copy is taken
 *   - holding the Kysely dialect's only connection: a Kysely transaction holds that connection
 *     from `begin` to `commit`, so every one has ended and none starts until we let go;
 *   - after a CHECKPOINT on that connection: every committed change is written from the
 *     buffers (WebAssembly memory) to the files, so the files alone are the database, with no
 *     write-ahead log to replay;
 *   - inside PGlite's transaction mutex, which `pglite.transaction()` (the migrations) holds
 *     from begin to commit and every statement takes, after checking that the backend is in
 *     no transaction block: nothing else runs a statement until the copy is made.
 * PGlite runs no background process (no autovacuum, no background writer), so the files do
 * not change while they are read. The tar is compressed after the mutex is released, so the
 * requests wait only for the copy.
 */
export async function snapshotPGlite(database: Database): Promise<Snapshot> {
  const pglite = database.pglite;
  if (!pglite) throw new Error('snapshotPGlite needs the embedded database');
  const { tar, schemaVersion } = await database.db.connection().execute(async (connection) => {
    await sql`checkpoint`.execute(connection);
    const schemaVersion = await schemaVersionOf(connection);
    const tar = await pglite._runExclusiveTransaction(async () => {
      if (pglite.isInTransaction()) throw new Error('a transaction is open on the embedded database: no consistent copy can be taken');
      return new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
    });
    return { tar, schemaVersion };
  });
  return { archive: await gzipAsync(relativeMembers(tar)), schemaVersion };
}

const TAR_BLOCK = 512;

/**
 * PGlite's dump names every member from the data folder's root with a leading slash
 * (`/PG_VERSION`, `/base/1/...`): `tar -xPf` by hand would write them at the root of the file
 * system. Each name (or its prefix field, where one is used) loses its leading slashes and its
 * header checksum is computed again, in place, so the archive unpacks where it is run like any
 * other. A restore joins the names to the data folder either way, so the archives written
 * before, with absolute names, still restore.
 */
export function relativeMembers(tar: Uint8Array): Uint8Array {
  const field = (header: Uint8Array, start: number, length: number) => {
    const end = header.subarray(start, start + length).indexOf(0);
    return header.subarray(start, end < 0 ? start + length : start + end);
  };
  for (let offset = 0; offset + TAR_BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + TAR_BLOCK);
    if (header.every((b) => b === 0)) break;
    // The ustar prefix (byte 345) comes before the name when set: the leading slash is its own.
    const name = field(header, 345, 155).length > 0 ? field(header, 345, 155) : field(header, 0, 100);
    let slashes = 0;
    while (slashes < name.length && name[slashes] === 0x2f) slashes++;
    if (slashes > 0) {
      name.copyWithin(0, slashes);
      name.fill(0, name.length - slashes);
      header.fill(0x20, 148, 156);
      const sum = header.reduce((total, b) => total + b, 0);
      header.set(Buffer.from(`${sum.toString(8).padStart(6, '0')}\0 `, 'latin1'), 148);
    }
    const sizeText = String.fromCharCode(...field(header, 124, 12)).trim();
    const size = sizeText === '' ? 0 : parseInt(sizeText, 8);
    if (!Number.isSafeInteger(size)) throw new Error(`the data folder's archive has a header without a size at byte ${offset}`);
    offset += TAR_BLOCK + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
  }
  return tar;
}

export type BackupSource = { kind: 'pglite'; database: Database } | { kind: 'pg'; url: string };

export interface BackupResult {
  kind: BackupKind;
  file: string;
  bytes: number;
  schemaVersion: number | null;
}

/**
 * Writes a backup file through a temporary name in the target's folder, renamed into place
 * once complete and flushed, so a crash never leaves a partial file under the final name.
 * The file is 0600 (it holds password hashes); a missing folder is created 0700. An existing
 * file is never replaced.
 */
export async function writeBackupFile(file: string, fill: (tempPath: string) => Promise<void>): Promise<number> {
  const target = resolve(file);
  if (existsSync(target)) throw new BackupError(`${file} already exists: choose another file name (a backup is never overwritten).`);
  const folder = dirname(target);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new BackupError(`Cannot create the folder ${folder} for the backup (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  const temp = join(folder, `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    closeSync(openSync(temp, 'wx', 0o600));
  } catch (error) {
    throw new BackupError(`Cannot write in ${folder} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  try {
    await fill(temp);
    chmodSync(temp, 0o600);
    const fd = openSync(temp, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (existsSync(target)) throw new BackupError(`${file} appeared while the backup was written: choose another file name.`);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  // The rename itself survives a crash once the folder is flushed too.
  try {
    const dirFd = openSync(folder, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some file systems refuse to flush a folder; the file itself is complete.
  }
  return statSync(target).size;
}

export function writeAll(path: string, data: Uint8Array, flags = 'w'): void {
  const fd = openSync(path, flags, 0o600);
  try {
    for (let offset = 0; offset < data.length; ) offset += writeSync(fd, data, offset, data.length - offset);
  } finally {
    closeSync(fd);
  }
}

/** Writes an archive already in memory (the embedded database's) to `file`. */
export async function writeArchive(file: string, snapshot: Snapshot): Promise<BackupResult> {
  const bytes = await writeBackupFile(file, async (temp) => writeAll(temp, snapshot.archive));
  return { kind: 'pglite', file, bytes, schemaVersion: snapshot.schemaVersion };
}

/** Takes a backup of `source` into `file`. */
export async function takeBackup(source: BackupSource, file: string): Promise<BackupResult> {
  if (source.kind === 'pglite') return writeArchive(file, await snapshotPGlite(source.database));
  return dumpPostgres(source.url, file);
}

/** A PostgreSQL URL without its password, and the password for PGPASSWORD: never in a command line others can read. */
export function connectionOf(url: string): { url: string; env: NodeJS.ProcessEnv } {
  // Several hosts (h1:5432,h2:5432): libpq's tools read them themselves; only the password moves.
  if (parseHostList(url)) {
    const split = splitPassword(url);
    return { url: split.url, env: split.password ? { PGPASSWORD: split.password } : {} };
  }
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

export interface ToolRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a PostgreSQL client tool; a tool missing from PATH is a BackupError saying what to install. */
export function runTool(
  tool: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  stdin?: (input: NodeJS.WritableStream) => void,
): Promise<ToolRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(tool, args, { env: { ...process.env, ...env }, stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-20_000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${tool} was not found on PATH: install the PostgreSQL client tools (the server's major version or newer), such as the postgresql-client package.`,
            )
          : error,
      );
    });
    if (stdin) {
      child.stdin!.on('error', () => {
        // The tool stopped reading (it failed): its exit code and message say why.
      });
      stdin(child.stdin!);
    }
    child.on('close', (code) => resolvePromise({ code, stdout: Buffer.concat(out), stderr: err }));
  });
}

/** The first line of a tool's complaint that says something (skipping its program-name prefix). */
export function firstLine(stderr: string): string {
  const line =
    stderr
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? 'no message';
  return line.replace(/^(pg_dump|pg_restore): (error: )?/, '');
}

/** The major version a client tool reports (`pg_dump (PostgreSQL) 15.20 ...` gives 15). */
export async function toolMajor(tool: string): Promise<number> {
  const run = await runTool(tool, ['--version']);
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(run.stdout.toString());
  if (run.code !== 0 || !match)
    throw new BackupError(`${tool} --version did not say its version (${firstLine(run.stderr || run.stdout.toString())}).`);
  return Number(match[1]);
}

/** One short connection to the database at DATABASE_URL; not reaching it is said in one line. */
export async function connectForBackup(url: string): Promise<pg.Client> {
  const client = singleClient({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Cannot reach the database at DATABASE_URL: ${(error as Error).message}`);
  }
  return client;
}

/** The server's major version and the schema version, over one short connection. */
async function describePostgres(url: string): Promise<{ major: number; schemaVersion: number | null }> {
  const client = await connectForBackup(url);
  try {
    const { rows } = await client.query<{ major: number; migrated: boolean }>(
      `select current_setting('server_version_num')::int / 10000 as major, to_regclass('public.schema_migrations') is not null as migrated`,
    );
    const version = rows[0]!.migrated
      ? (await client.query<{ version: number | null }>('select max(version)::int as version from schema_migrations')).rows[0]!.version
      : null;
    return { major: rows[0]!.major, schemaVersion: version };
  } finally {
    await client.end();
  }
}

/** Hex SHA-256 of a file's first `length` bytes (all of it when left out). */
export function hashFile(path: string, length?: number): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash('sha256');
    const stream = createReadStream(path, length === undefined ? {} : { start: 0, end: length - 1 });
    stream.on('data', (chunk) => hash.update(chunk));
    stream.on('error', reject);
    stream.on('end', () => resolvePromise(hash.digest('hex')));
  });
}

/**
 * pg_dump in custom format (consistent by itself: it reads everything in one snapshot while
 * the server runs), followed by our checksum line. Refused with one line when pg_dump is
 * missing or older than the server, which pg_dump would refuse anyway, less clearly.
 */
async function dumpPostgres(databaseUrl: string, file: string): Promise<BackupResult> {
  const server = await describePostgres(databaseUrl);
  const major = await toolMajor('pg_dump');
  if (major < server.major) {
    throw new BackupError(
      `pg_dump ${major} is older than the database server (PostgreSQL ${server.major}): install the PostgreSQL ${server.major} client tools and put them first on PATH.`,
    );
  }
  const connection = connectionOf(databaseUrl);
  const bytes = await writeBackupFile(file, async (temp) => {
    const run = await runTool('pg_dump', ['--format=custom', `--file=${temp}`, `--dbname=${connection.url}`], connection.env);
    if (run.code !== 0) throw new BackupError(`pg_dump failed: ${firstLine(run.stderr)}`);
    const digest = await hashFile(temp);
    writeAll(temp, Buffer.from(`${PG_TRAILER_PREFIX}${digest}\n`), 'a');
  });
  return { kind: 'pg', file, bytes, schemaVersion: server.schemaVersion };
}
