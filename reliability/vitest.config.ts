import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:reliability` (crash, shutdown, outage) and `npm run test:soak`: the real
 * server process on a fresh PostgreSQL database, with faults injected; one file at a time.
 */
export default defineConfig({
  test: {
    name: 'reliability',
    root: fileURLToPath(new URL('..', import.meta.url)),
    environment: 'node',
    include: ['reliability/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
