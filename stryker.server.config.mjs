// @ts-check
const report = `server${process.env.MUTATION_REPORT ? `-${process.env.MUTATION_REPORT}` : ''}`;

/**
 * Mutation testing of the server's rule-bearing services (npm run test:mutation:server): money
 * movements and reconciliation, billing, invitations, sign-in, organizations, people, and the
 * caller check. Run by hand, not in CI: every mutant runs its API tests on the embedded database.
 * One file at a time, with the tests that matter for it (MUTATION_TESTS, see mutation/vitest.server.config.ts)
 * and a report of its own (MUTATION_REPORT):
 *   MUTATION_TESTS='apps/server/src/modules/credits/**\/*.test.ts' MUTATION_REPORT=credits \
 *     npm run test:mutation:server -- --mutate apps/server/src/modules/credits/reconcile.ts
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'mutation/vitest.server.config.ts' },
  mutate: [
    // Each service is its use cases beside the queries they share, assembled by <module>.service.ts.
    'apps/server/src/modules/credits/queries.ts',
    'apps/server/src/modules/credits/allocate.ts',
    'apps/server/src/modules/credits/adjust.ts',
    'apps/server/src/modules/credits/import-usage.ts',
    'apps/server/src/modules/credits/initial-balance.ts',
    'apps/server/src/modules/credits/ledger.ts',
    'apps/server/src/modules/credits/credits.service.ts',
    'apps/server/src/modules/credits/reconcile.ts',
    'apps/server/src/modules/billing/billing.service.ts',
    'apps/server/src/modules/invitations/queries.ts',
    'apps/server/src/modules/invitations/create.ts',
    'apps/server/src/modules/invitations/list.ts',
    'apps/server/src/modules/invitations/manage.ts',
    'apps/server/src/modules/invitations/accept.ts',
    'apps/server/src/modules/invitations/invitations.service.ts',
    'apps/server/src/modules/auth/queries.ts',
    'apps/server/src/modules/auth/sign-in.ts',
    'apps/server/src/modules/auth/refresh.ts',
    'apps/server/src/modules/auth/recovery.ts',
    'apps/server/src/modules/auth/change-password.ts',
    'apps/server/src/modules/auth/auth.service.ts',
    'apps/server/src/modules/organizations/queries.ts',
    'apps/server/src/modules/organizations/list.ts',
    'apps/server/src/modules/organizations/read.ts',
    'apps/server/src/modules/organizations/create.ts',
    'apps/server/src/modules/organizations/update.ts',
    'apps/server/src/modules/organizations/remove.ts',
    'apps/server/src/modules/organizations/verify-children.ts',
    'apps/server/src/modules/organizations/organizations.service.ts',
    'apps/server/src/modules/users/queries.ts',
    'apps/server/src/modules/users/accounts.ts',
    'apps/server/src/modules/users/read.ts',
    'apps/server/src/modules/users/update.ts',
    'apps/server/src/modules/users/users.service.ts',
    'apps/server/src/lib/caller.ts',
    'apps/server/src/lib/authorize.ts',
  ],
  // The sandbox copies the checkout: only what these tests read (build output and data come and go).
  ignorePatterns: ['apps/web', 'e2e', 'bench', 'reliability', 'docs', 'data', '**/dist', '.tmp', 'coverage'],
  coverageAnalysis: 'perTest',
  // Two cores shared with other work; each runner also holds an embedded database per test file.
  concurrency: 2,
  // A mutant that loops or deadlocks a transaction is cut off rather than waited for.
  timeoutMS: 30_000,
  tempDirName: `.stryker-tmp/${report}`,
  cleanTempDir: 'always',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${report}.html` },
  jsonReporter: { fileName: `reports/mutation/${report}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true },
  thresholds: { high: 80, low: 60, break: null },
};
