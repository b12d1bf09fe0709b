import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The server project of the root vitest.config.ts alone, for Stryker's vitest runner (it takes a
 * config file, not a project name). MUTATION_TESTS narrows the test files (comma-separated
 * globs): a mutant in the caller check is covered by every API test, and running them all
 * for each of its mutants takes hours on two cores.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    name: 'server',
    include: process.env.MUTATION_TESTS?.split(',') ?? ['apps/server/src/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
