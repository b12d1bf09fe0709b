import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLock, checkLockHistory, LOCK_FILE, lockNewMigrations, MIGRATIONS_DIR } from './migration-lock.ts';
import { checksumOf } from './migrate.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** A copy of the migrations folder, to change without touching the repository's. */
function copy(): string {
  const root = mkdtempSync(join(tmpdir(), 'migration-lock-'));
  made.push(root);
  const dir = join(root, 'migrations');
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=ci@example.test', '-c', 'user.name=CI', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    stdio: 'pipe',
  });

describe('the migrations lock', () => {
  it('holds every migration of the repository with its checksum, and has only ever grown', () => {
    expect(checkLock()).toEqual([]);
    // Null only where the checkout has no git history to read.
    expect(checkLockHistory() ?? []).toEqual([]);
  });

  it('fails, naming the file, when a landed migration is edited', () => {
    const dir = copy();
    appendFileSync(join(dir, '0011_usage.sql'), '\n-- a late edit\n');
    const problems = checkLock(dir);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^0011_usage\.sql was changed after it landed/);
  });

  it('fails when a migration is removed, or a new one is not locked; locking adds its line and changes no other', () => {
    const dir = copy();
    rmSync(join(dir, '0002_invitations.sql'));
    writeFileSync(join(dir, '0999_new_thing.sql'), 'create table new_thing (x int);\n');
    expect(checkLock(dir)).toEqual([
      expect.stringMatching(/^0999_new_thing\.sql is not in checksums\.sha256/),
      expect.stringMatching(/^0002_invitations\.sql is in checksums\.sha256 but its file is gone/),
    ]);
    writeFileSync(join(dir, '0002_invitations.sql'), readFileSync(join(MIGRATIONS_DIR, '0002_invitations.sql')));
    const before = readFileSync(join(dir, LOCK_FILE), 'utf8');
    expect(lockNewMigrations(dir)).toEqual(['0999_new_thing.sql']);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(
      `${before}${checksumOf('create table new_thing (x int);\n')}  0999_new_thing.sql\n`,
    );
    expect(checkLock(dir)).toEqual([]);
  });

  it('fails in a later commit that edits a landed migration and its locked line together', () => {
    const dir = copy();
    const repo = join(dir, '..');
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'migrations land');
    expect(checkLockHistory(dir)).toEqual([]);

    const edited = `${readFileSync(join(dir, '0011_usage.sql'), 'utf8')}\n-- a late edit\n`;
    writeFileSync(join(dir, '0011_usage.sql'), edited);
    const lock = readFileSync(join(dir, LOCK_FILE), 'utf8').replace(/^[0-9a-f]{64}(?= {2}0011_usage\.sql$)/m, checksumOf(edited));
    writeFileSync(join(dir, LOCK_FILE), lock);
    git(repo, 'commit', '-q', '-am', 'edit a landed migration and its checksum');
    expect(checkLock(dir)).toEqual([]);
    const problems = checkLockHistory(dir)!;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^0011_usage\.sql: its locked checksum [0-9a-f]{12}… \(commit [0-9a-f]{10}\) was changed or removed/);
  });
});
