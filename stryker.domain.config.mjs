// @ts-check
/**
 * Mutation testing of packages/domain (npm run test:mutation:domain): every rule there should
 * break a test when it is changed. CI runs it; `thresholds.break` sits a little under the
 * measured score so a drop fails the build.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'mutation/vitest.domain.config.ts' },
  mutate: ['packages/domain/src/**/*.ts', '!packages/domain/src/**/*.test.ts'],
  coverageAnalysis: 'perTest',
  // The machines running this have two cores shared with other work.
  concurrency: 2,
  tempDirName: '.stryker-tmp/domain',
  cleanTempDir: 'always',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/domain.html' },
  jsonReporter: { fileName: 'reports/mutation/domain.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true },
  thresholds: { high: 90, low: 80, break: null },
};
