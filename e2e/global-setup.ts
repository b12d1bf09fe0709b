import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase, type FreshDatabase } from '../support/postgres.ts';
import { REPO_ROOT, WEB_DIST_INDEX } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty database each journey's server starts from: a data folder to copy, or a PostgreSQL template database. */
    e2eTemplate: string;
  }
}

/** The newest modification time of a file or of any file below a folder. */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** Builds the console when apps/web/dist is missing or older than its sources. */
function build(): void {
  const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/domain/src'];
  const newestSource = Math.max(...sources.map((source) => newestMtime(join(REPO_ROOT, source))));
  if (existsSync(WEB_DIST_INDEX) && statSync(WEB_DIST_INDEX).mtimeMs >= newestSource) return;
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  execFileSync('npm', ['run', 'build', '-w', '@console/web'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/**
 * Builds the console, then migrates one empty database that every journey's server starts
 * from (the migrations run once, not at each journey's start): a PGlite data folder, or with
 * DATABASE_URL a template database on that server, removed at the end.
 */
export default async function setup(project: TestProject) {
  build();
  const migrate = (env: NodeJS.ProcessEnv) =>
    execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'migrate'], {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'console-e2e-template-'));
    migrate({ DATA_DIR: dataDir });
    project.provide('e2eTemplate', dataDir);
    return () => rmSync(dataDir, { recursive: true, force: true });
  }
  const template: FreshDatabase = await createDatabase(serverUrl, 'e2e_tpl');
  const scratch = mkdtempSync(join(tmpdir(), 'console-e2e-scratch-'));
  migrate({ DATABASE_URL: template.url, DATA_DIR: scratch });
  rmSync(scratch, { recursive: true, force: true });
  project.provide('e2eTemplate', template.name);
  return () => template.drop();
}
