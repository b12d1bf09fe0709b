import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, WEB_DIST_INDEX } from './harness.ts';

/** The newest modification time of a file or of any file below a folder. */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** Builds the console when apps/web/dist is missing or older than its sources. */
export default function setup(): void {
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
