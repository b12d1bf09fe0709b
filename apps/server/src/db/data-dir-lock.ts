import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {}

/** The data folder cannot be kept private (another user owns it, or it stays open to others). */
export class DataDirUnsafeError extends Error {}

/** What the data folder holds besides pgdata/: the folder lock and the generated JWT secret. */
const OWN_FILES = ['console.lock', 'jwt-secret'];

const mode = (path: string) => `0${(lstatSync(path).mode & 0o777).toString(8)}`;

/** Folders 0700, files 0600, under `path` (symbolic links left alone: they are not ours). */
function tighten(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
    for (const name of readdirSync(path)) tighten(join(path, name));
  } else if ((stat.mode & 0o777) !== 0o600) {
    chmodSync(path, 0o600);
  }
}

/**
 * Makes the data folder readable and writable by its owner only: it holds the database
 * (password hashes, and reset links in the write-ahead log) and the JWT secret. Files
 * created from now on are private (umask 077); what exists is tightened (folders 0700,
 * files 0600), the way earlier versions left it (database files 0666) included. Refused
 * with a one-line message, and left untouched: a folder that belongs to another user, who
 * could open it again, and a folder every user may write to (such as /tmp), where anyone
 * could have replaced what it holds (the JWT secret, the database). Idempotent.
 */
export function makeDataDirPrivate(dataDir: string): void {
  if (process.platform === 'win32') return;
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const uid = process.getuid!();
  const owner = lstatSync(dataDir).uid;
  if (owner !== uid) {
    throw new DataDirUnsafeError(
      `The data folder ${dataDir} belongs to another user (uid ${owner}, mode ${mode(dataDir)}), who could open it to others: ` +
        `give it to the user that runs the server (uid ${uid}) or set DATA_DIR to a folder of that user.`,
    );
  }
  if ((lstatSync(dataDir).mode & 0o002) !== 0) {
    throw new DataDirUnsafeError(
      `The data folder ${dataDir} is writable by every user (mode ${mode(dataDir)}), so anyone could have replaced what it holds: ` +
        `check its contents and make it private (chmod 700 ${dataDir}), or set DATA_DIR to another folder.`,
    );
  }
  try {
    chmodSync(dataDir, 0o700);
    for (const name of ['pgdata', ...OWN_FILES]) {
      if (existsSync(join(dataDir, name))) tighten(join(dataDir, name));
    }
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    throw new DataDirUnsafeError(
      `The data folder ${dataDir} could not be made private (${code ?? 'error'} on ${path ?? dataDir}): ` +
        'give every file in it to the user that runs the server, or set DATA_DIR to another folder.',
    );
  }
  if ((lstatSync(dataDir).mode & 0o077) !== 0) {
    throw new DataDirUnsafeError(
      `The data folder ${dataDir} stays open to other users (mode ${mode(dataDir)}): set DATA_DIR to a folder of the user that runs the server.`,
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the embedded database's folder for this process. Two processes on one PGlite
 * folder corrupt it, so a second server or CLI refuses with a clear message. A lock
 * left by a process that no longer runs is taken over.
 */
export function lockDataDir(dataDir: string, purpose: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockPath = join(dataDir, 'console.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder: { pid?: number; purpose?: string } = {};
      try {
        holder = JSON.parse(readFileSync(lockPath, 'utf8'));
      } catch {
        // unreadable: treat as stale
      }
      if (holder.pid && holder.pid !== process.pid && isAlive(holder.pid)) {
        throw new DataDirInUseError(
          `The data folder ${dataDir} is in use by process ${holder.pid} (${holder.purpose ?? 'unknown'}). ` +
            'Stop that process first (only one process may open the embedded database), ' +
            'or set DATABASE_URL to use a PostgreSQL server.',
        );
      }
      unlinkSync(lockPath);
    }
  }
  throw new DataDirInUseError(`Could not lock the data folder ${dataDir}.`);
}
