import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFreshDatabase } from '../test/harness.ts';
import { backupFileName, timeOfBackupName, type BackupSource } from './backup.ts';
import { backupDue, listBackups, scheduleBackups } from './backup-schedule.ts';
import type { Database } from './connection.ts';

/** Scheduled backups on the suite's database: PGlite's archive, or pg_dump on PostgreSQL. */
let database: Database;
let source: BackupSource;
const scratch = mkdtempSync(join(tmpdir(), 'console-schedule-test-'));

beforeAll(async () => {
  const fresh = await openFreshDatabase();
  database = fresh.database;
  source = fresh.url ? { kind: 'pg', url: fresh.url } : { kind: 'pglite', database };
});
afterAll(async () => {
  await database?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Log lines kept for the assertions. */
function recorder() {
  const lines: { level: 'info' | 'error'; obj: any; msg: string }[] = [];
  return {
    lines,
    log: {
      info: (obj: object, msg: string) => lines.push({ level: 'info', obj, msg }),
      error: (obj: object, msg: string) => lines.push({ level: 'error', obj, msg }),
    },
  };
}

/** A process id that no longer runs: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('scheduled backups', () => {
  it('take a backup when due and keep exactly BACKUP_KEEP newest of ours, leaving other files alone', async () => {
    const dir = join(scratch, 'rotation');
    mkdirSync(dir);
    const ext = source.kind === 'pg' ? 'dump' : 'tar.gz';
    const old = ['20240101T000000Z', '20240201T000000Z', '20240301T000000Z', '20240401T000000Z', '20240501T000000Z'].map(
      (stamp) => `console-${stamp}.${ext}`,
    );
    for (const name of old) writeFileSync(join(dir, name), 'an older backup');
    const others = ['notes.txt', 'console-latest.tar.gz', 'console-20240101T000000Z.tar.gz.bak'];
    for (const name of others) writeFileSync(join(dir, name), 'not ours');
    const stale = `.console-20240601T000000Z.${ext}.tmp-${deadPid()}-0123abcd`;
    writeFileSync(join(dir, stale), 'a partial file of a writer that died');

    const { lines, log } = recorder();
    const schedule = scheduleBackups({ source, dir, everyMs: 60 * 60_000, keep: 3, log });
    try {
      await schedule.check();
      const ours = listBackups(dir);
      expect(ours).toHaveLength(3);
      // The new one (from now) and the two newest older ones.
      expect(timeOfBackupName(ours[0]!)!.getTime()).toBeGreaterThan(Date.now() - 10 * 60_000);
      expect(ours.slice(1)).toEqual([old[4], old[3]]);
      expect(statSync(join(dir, ours[0]!)).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir).sort()).toEqual([...ours, ...others].sort());
      expect(lines.filter((l) => l.level === 'error')).toEqual([]);
      expect(lines.find((l) => l.msg === 'scheduled backup written')?.obj.deleted.sort()).toEqual([old[0], old[1], old[2], stale].sort());

      // Not due again until BACKUP_EVERY has passed since the newest.
      await schedule.check();
      expect(listBackups(dir)).toEqual(ours);
    } finally {
      await schedule.stop();
    }
  });

  it('is due when there is no backup of ours or the newest is BACKUP_EVERY old', () => {
    const dir = join(scratch, 'due');
    mkdirSync(dir);
    const hour = 60 * 60_000;
    const now = new Date('2025-03-01T12:00:00Z');
    expect(backupDue(dir, hour, now)).toBe(true);
    writeFileSync(join(dir, backupFileName('pglite', new Date('2025-03-01T11:30:00Z'))), '');
    expect(backupDue(dir, hour, now)).toBe(false);
    expect(backupDue(dir, hour, new Date('2025-03-01T12:30:00Z'))).toBe(true);
    expect(backupDue(join(scratch, 'missing'), hour, now)).toBe(true);
  });

  it('logs a failure, keeps running, and succeeds at a later check once the folder can be written', async () => {
    const parent = join(scratch, 'failing');
    // A file where the folder's parent should be: the folder cannot be made.
    writeFileSync(parent, 'in the way');
    const dir = join(parent, 'backups');
    const { lines, log } = recorder();
    const schedule = scheduleBackups({ source, dir, everyMs: 60 * 60_000, keep: 2, log });
    try {
      await schedule.check();
      await schedule.check();
      const errors = lines.filter((l) => l.level === 'error');
      expect(errors).toHaveLength(2);
      expect(errors[0]!.msg).toBe('scheduled backup failed: retrying at the next check');
      expect(errors[0]!.obj.err).toMatch(/Cannot create the folder .*failing\/backups for the backup/);

      rmSync(parent);
      await schedule.check();
      expect(listBackups(dir)).toHaveLength(1);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    } finally {
      await schedule.stop();
    }
  });
});
