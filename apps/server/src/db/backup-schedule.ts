import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { backupFileName, describeSize, isStaleTemp, takeBackup, timeOfBackupName, type BackupSource } from './backup.ts';

export interface ScheduleOptions {
  source: BackupSource;
  /** BACKUP_DIR */
  dir: string;
  /** BACKUP_EVERY, in milliseconds. */
  everyMs: number;
  /** BACKUP_KEEP: how many of the newest backups of ours stay. */
  keep: number;
  log: {
    info(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  /**
   * Several hosts over one database: a due backup is taken only once this claims its window
   * (null: another host has it); a failed backup releases the claim.
   */
  claim?: () => Promise<{ release(): Promise<void> } | null>;
}

/** How often the schedule looks whether a backup is due (at most): a failure is retried this soon. */
const CHECK_MS = 60_000;

/** Our backups in `dir`, newest first (their names sort by time). */
export function listBackups(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => timeOfBackupName(name) !== null)
    .sort()
    .reverse();
}

/**
 * Keeps the `keep` newest of our backups in `dir` and deletes the older ones, and the temporary
 * files of writers that died; other files are left alone. Returns the names deleted.
 */
export function rotateBackups(dir: string, keep: number): string[] {
  const deleted = [...listBackups(dir).slice(keep), ...readdirSync(dir).filter(isStaleTemp)];
  for (const name of deleted) rmSync(join(dir, name), { force: true });
  return deleted;
}

/**
 * Whether a backup is due: none of ours in `dir` yet, or the newest is at least `everyMs` old.
 * The schedule follows the files, not the process, so a server restarted more often than
 * BACKUP_EVERY still backs up, and a backup taken by hand into BACKUP_DIR counts.
 */
export function backupDue(dir: string, everyMs: number, now: Date): boolean {
  const newest = listBackups(dir)[0];
  return newest === undefined || now.getTime() - timeOfBackupName(newest)!.getTime() >= everyMs;
}

export interface Schedule {
  /** Looks now, takes a backup if one is due, rotates; never throws (a failure is logged). */
  check(): Promise<void>;
  /** No more checks; resolves once a backup under way has finished. */
  stop(): Promise<void>;
}

/**
 * Scheduled backups in the server process: looked at now and then every minute (or every
 * BACKUP_EVERY, if shorter). A failure is logged and, the backup still being due, retried at
 * the next look; it never stops the server.
 */
export function scheduleBackups(options: ScheduleOptions): Schedule {
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const attempt = async () => {
    const now = new Date();
    if (!backupDue(options.dir, options.everyMs, now)) return;
    let claimed: { release(): Promise<void> } | null = null;
    try {
      if (options.claim && !(claimed = await options.claim())) return;
      const file = join(options.dir, backupFileName(options.source.kind, now));
      const result = await takeBackup(options.source, file);
      const deleted = rotateBackups(options.dir, options.keep);
      options.log.info(
        { file, size: describeSize(result.bytes), schemaVersion: result.schemaVersion, deleted },
        'scheduled backup written',
      );
    } catch (error) {
      await claimed?.release().catch(() => {});
      options.log.error({ err: (error as Error).message, dir: options.dir }, 'scheduled backup failed: retrying at the next check');
    }
  };
  const check = () => {
    running ??= attempt().finally(() => {
      running = null;
    });
    return running;
  };
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => void check().then(next), Math.min(CHECK_MS, options.everyMs));
    timer.unref();
  };
  void check().then(next);
  return {
    check,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
