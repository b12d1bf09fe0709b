// `npm start` (through scripts/with-node.mjs, which brings a Node the project supports):
// builds the console when its build is missing or older than its sources, then runs the
// server (migrations and the first house admin happen at its start).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/domain/src'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

if (!existsSync(built) || newest(built) < Math.max(...sources.map((s) => newest(join(root, s))))) {
  console.log('Building the console...');
  const build = spawnSync('npm', ['run', 'build', '-w', '@console/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Node runs the server's TypeScript itself (type stripping; the code uses only erasable
// syntax, which the type check enforces): no compiler at run time. tsx serves the development tools.
const server = spawn(process.execPath, ['apps/server/src/main.ts', 'serve'], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
