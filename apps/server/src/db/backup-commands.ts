import { existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { Config } from '../config.ts';
import { BackupError, backupFileName, describeSize, snapshotPGlite, takeBackup, writeArchive, type BackupResult } from './backup.ts';
import { requestBackup, socketPathTooLong } from './backup-socket.ts';
import { openDatabase } from './connection.ts';
import { DataDirInUseError } from './data-dir-lock.ts';
import { restoreBackup, type RestoreResult } from './restore.ts';

/** A path as the operator would type it: relative to the current folder when inside it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/**
 * `db:backup [FILE]`. PostgreSQL: pg_dump. Embedded database: through the running server's
 * socket when one holds the folder, else by opening the folder under its lock.
 */
export async function backupCommand(config: Config, file: string | undefined): Promise<{ result: BackupResult; via: string }> {
  const target = file ?? join('backups', backupFileName(config.databaseUrl ? 'pg' : 'pglite', new Date()));
  // Refused before the server is asked for anything (checked again when the file is written).
  if (existsSync(target)) throw new BackupError(`${target} already exists: choose another file name (a backup is never overwritten).`);
  if (config.databaseUrl) return { result: await takeBackup({ kind: 'pg', url: config.databaseUrl }, target), via: 'pg_dump' };

  if (existsSync(join(config.dataDir, 'pgdata'))) {
    const fromServer = await requestBackup(config.dataDir);
    if (fromServer) return { result: await writeArchive(target, fromServer), via: 'the running server' };
  }
  if (!existsSync(join(config.dataDir, 'pgdata', 'PG_VERSION'))) {
    throw new BackupError(
      `There is no embedded database in ${config.dataDir} to back up (set DATA_DIR to the server's data folder, or DATABASE_URL for PostgreSQL).`,
    );
  }
  let database;
  try {
    database = await openDatabase({ databaseUrl: null, dataDir: config.dataDir, purpose: 'db:backup' });
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      const holder = error.message.split('. Stop')[0];
      if (socketPathTooLong(config.dataDir)) {
        throw new BackupError(
          `${holder}; its path is too long for the backup socket, so the server cannot take the backup: stop the server to back up, or move DATA_DIR to a shorter path.`,
        );
      }
      throw new BackupError(
        `${holder}, which takes no backup requests (a server still starting, or another command): try again once it has started or finished.`,
      );
    }
    throw error;
  }
  try {
    return { result: await writeArchive(target, await snapshotPGlite(database)), via: 'the data folder (no server running)' };
  } finally {
    await database.close();
  }
}

export function describeBackup({ result, via }: { result: BackupResult; via: string }): string {
  const kind = result.kind === 'pg' ? 'PostgreSQL, pg_dump custom format' : `embedded database, taken by ${via}`;
  return [
    `Backup written: ${shown(result.file)} (${describeSize(result.bytes)}).`,
    `  ${kind}; schema version ${result.schemaVersion ?? 'none'}.`,
  ].join('\n');
}

/** `db:restore FILE`. */
export async function restoreCommand(config: Config, file: string | undefined): Promise<RestoreResult> {
  if (!file) throw new BackupError('Name the backup to restore: npm run db:restore -- FILE');
  return restoreBackup({ file, databaseUrl: config.databaseUrl, dataDir: config.dataDir });
}

export function describeRestore(file: string, result: RestoreResult): string {
  const where = result.kind === 'pg' ? `the PostgreSQL database ${result.target}` : `the embedded database in ${shown(result.target)}`;
  return [
    `Restored ${shown(file)} into ${where} (schema version ${result.schemaVersion}).`,
    result.pending > 0
      ? `  The next start (npm start, or npm run db:migrate) applies the ${result.pending} newer migration${result.pending === 1 ? '' : 's'}.`
      : '  Its schema is up to date.',
  ].join('\n');
}
