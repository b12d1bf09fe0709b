import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Imports that cross a layer boundary: domain <- apps, server and web apart, features apart. */
const restrict = (patterns) => ['error', { patterns }];

/** The console's feature folders: each may reach components/, lib/ and api/, never another feature. */
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const serverNeverWeb = { group: ['**/apps/web/**', '**/web/src/**', '@console/web'], message: 'The server never imports the web app.' };
const webNeverServer = {
  group: ['**/apps/server/**', '**/server/src/**', '@console/server'],
  message: 'The web app never imports the server.',
};
/** The console shows an action exactly when the server allows it, so it asks the predicate the server decides with. */
const webNeverRawCan = {
  group: ['@console/domain', '@console/domain/*'],
  importNames: ['can'],
  message:
    'Show an action through a policy predicate of packages/domain (policy*.ts), the one the server decides with; add one if none fits.',
};
/** A feature by its alias or by a relative path from inside another feature (`../x`, `../../x/...`, `../../../features/x`). */
const featureImport = (feature) => ({
  regex: `^(@/features/|(\\.\\./)+(features/)?)${feature}(/|$)`,
  message: `Features never import each other: move what ${feature} shares to components/, lib/ or api/.`,
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.cache/**',
      '.tmp/**',
      'bench/results/**',
      'coverage/**',
      '.stryker-tmp/**',
      'reports/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/apps/**', '@console/server', '@console/web'], message: 'packages/domain imports neither app.' },
        {
          group: ['react', 'react-*', 'fastify', 'kysely', 'pg', '@electric-sql/*', 'node:*'],
          message: 'packages/domain holds pure rules shared by both sides.',
        },
      ]),
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([serverNeverWeb]),
    },
  },
  // A module reaches another only through its service (whose factory the context wires);
  // lib/ and db/ serve the modules and import none of them.
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        serverNeverWeb,
        {
          regex: '^\\.\\./[a-z-]+/(?![a-z-]+\\.service\\.ts$)',
          message: 'Reach another module through its service, never its routes, SQL or helpers.',
        },
      ]),
    },
  },
  {
    files: ['apps/server/src/{lib,db}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        serverNeverWeb,
        { regex: '(^|/)modules/', message: 'lib/ and db/ serve the modules and import none of them.' },
      ]),
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict([webNeverServer, webNeverRawCan]),
    },
  },
  // Every date on screen is written by lib/dates.ts, so a date reads the same everywhere (not as the browser's locale would).
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'apps/web/src/test/**', 'apps/web/src/lib/dates.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['toLocaleDateString', 'toLocaleTimeString'].map((name) => ({
          selector: `CallExpression[callee.property.name='${name}']`,
          message: 'Write dates with formatDate, formatDateTime, formatDay or formatMonth from @/lib/dates.',
        })),
        {
          selector:
            "CallExpression[callee.property.name='toLocaleString'][callee.object.type='NewExpression'][callee.object.callee.name='Date']",
          message: 'Write dates with formatDate, formatDateTime, formatDay or formatMonth from @/lib/dates.',
        },
      ],
    },
  },
  // The shared layers serve the features and the app, so they import neither.
  {
    files: ['apps/web/src/{components,lib,api}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict([
        webNeverServer,
        webNeverRawCan,
        {
          regex: '^(@/|(\\.\\./)+)(features|app)(/|$)',
          message: 'components/, lib/ and api/ import no feature and not the app: the app composes features.',
        },
      ]),
    },
  },
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': restrict([
        webNeverServer,
        webNeverRawCan,
        ...webFeatures.filter((other) => other !== feature).map(featureImport),
      ]),
    },
  })),
);
