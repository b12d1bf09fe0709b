import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {}

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
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'console.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
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
