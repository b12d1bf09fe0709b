import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: browser journeys against the real server, two files at a time. Each
 * journey starts its own server on a free port from its own copy of the migrated template, so
 * files share nothing. A journey spends most of its time waiting on pages and its server: the
 * whole suite's processes used 8.7 CPU minutes (`time` over a run), against about 18 minutes
 * of wall time one file at a time, so two run side by side on two cores.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('..', import.meta.url)),
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
