import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listMigrations } from './migrate.ts';

/**
 * The checksums of the migrations that have landed, one `sha256  file` line each (the format
 * of `sha256sum`, so `sha256sum -c checksums.sha256` checks it too). Lines are only ever added:
 * a landed migration is never edited, and neither is its line.
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
export const LOCK_FILE = 'checksums.sha256';

export interface LockLine {
  checksum: string;
  file: string;
}

export function parseLock(text: string): LockLine[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
      if (!match) throw new Error(`${LOCK_FILE}: not a checksum line: ${line}`);
      return { checksum: match[1]!, file: match[2]! };
    });
}

const lockLine = (line: LockLine) => `${line.checksum}  ${line.file}`;

/**
 * What is wrong between the migration files and the lock: a migration changed after its
 * checksum was locked, a locked migration missing, or a new one not yet locked.
 */
export function checkLock(dir = MIGRATIONS_DIR): string[] {
  const locked = new Map(parseLock(readFileSync(join(dir, LOCK_FILE), 'utf8')).map((l) => [l.file, l.checksum]));
  const problems: string[] = [];
  const files = listMigrations(dir);
  for (const migration of files) {
    const file = `${migration.name}.sql`;
    const checksum = locked.get(file);
    if (checksum === undefined)
      problems.push(`${file} is not in ${LOCK_FILE}: a new migration is locked with \`npm run db:lock-migrations\`.`);
    else if (checksum !== migration.checksum) {
      problems.push(
        `${file} was changed after it landed (locked sha256 ${checksum.slice(0, 12)}…, now ${migration.checksum.slice(0, 12)}…): a landed migration is never edited; put the change in a new migration.`,
      );
    }
  }
  const present = new Set(files.map((m) => `${m.name}.sql`));
  for (const file of locked.keys())
    if (!present.has(file)) problems.push(`${file} is in ${LOCK_FILE} but its file is gone: a landed migration is never removed.`);
  return problems;
}

/** Adds a line for each migration not yet locked; never changes a line. Answers the files added. */
export function lockNewMigrations(dir = MIGRATIONS_DIR): string[] {
  const path = join(dir, LOCK_FILE);
  const text = readFileSync(path, 'utf8');
  const locked = new Set(parseLock(text).map((l) => l.file));
  const added = listMigrations(dir).filter((m) => !locked.has(`${m.name}.sql`));
  if (added.length)
    writeFileSync(
      path,
      `${text.replace(/\n*$/, '\n')}${added.map((m) => lockLine({ checksum: m.checksum, file: `${m.name}.sql` })).join('\n')}\n`,
    );
  return added.map((m) => `${m.name}.sql`);
}

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * The lock is append-only across the repository's history: every line any commit ever held
 * is still there, unchanged. So a commit that edits a landed migration and its line together
 * is caught too. Answers the problems, or null when there is no git history to read.
 */
export function checkLockHistory(dir = MIGRATIONS_DIR): string[] | null {
  let root: string;
  try {
    root = git(dir, ['rev-parse', '--show-toplevel']).trim();
  } catch {
    return null;
  }
  const lockPath = relative(root, join(dir, LOCK_FILE));
  const current = new Set(parseLock(readFileSync(join(dir, LOCK_FILE), 'utf8')).map(lockLine));
  const commits = git(root, ['log', '--format=%H', '--', lockPath]).split('\n').filter(Boolean);
  const problems = new Set<string>();
  for (const commit of commits) {
    for (const line of parseLock(git(root, ['show', `${commit}:${lockPath}`]))) {
      if (!current.has(lockLine(line))) {
        problems.add(
          `${line.file}: its locked checksum ${line.checksum.slice(0, 12)}… (commit ${commit.slice(0, 10)}) was changed or removed: a landed migration and its line are never edited.`,
        );
      }
    }
  }
  return [...problems];
}
