import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The domain project of the root vitest.config.ts alone, for Stryker's vitest runner (it takes a
 * config file, not a project name). The domain's tests are pure functions, so one worker reused
 * across files is safe and makes each of the thousands of runs about four times quicker.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node', isolate: false },
});
