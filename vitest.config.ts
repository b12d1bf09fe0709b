import { defineConfig } from 'vitest/config';

/** `npm test`: domain rules, API tests through HTTP on a real database, console components, and the Node launcher. */
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
