import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** `npm test`: domain rules, API tests through HTTP on a real database, console components, and the Node launcher. */
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine,
    // where the server suites spend much of their time waiting on the database. Two workers
    // there roughly halve the run.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node', isolate: false },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Files share a worker instead of each starting one (about a second apiece): every
          // file opens its own database and app and closes them, and keeps no state in modules.
          isolate: false,
        },
      },
      'apps/web/vite.config.ts',
      {
        // scripts/with-node.mjs as a process, with npm and a registry of the test's own.
        test: { name: 'launcher', include: ['scripts/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
      },
    ],
  },
});
