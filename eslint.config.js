import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Imports that cross the boundaries of DESIGN.md section 2. */
const restrict = (patterns) => ['error', { patterns }];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'bench/results/**', 'coverage/**'] },
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
        { group: ['react', 'react-*', 'fastify', 'kysely', 'pg', '@electric-sql/*', 'node:*'], message: 'packages/domain holds pure rules shared by both sides.' },
      ]),
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/apps/web/**', '**/web/src/**', '@console/web'], message: 'The server never imports the web app.' },
        { group: ['../*/*.repository*', '../../modules/*/*.repository*'], message: 'Reach another module through its service, never its SQL.' },
      ]),
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict([
        { group: ['**/apps/server/**', '**/server/src/**', '@console/server'], message: 'The web app never imports the server.' },
        { group: ['@/features/*/pages/*', '../../*/pages/*'], message: 'Reach another feature through its hooks or components, not its pages.' },
      ]),
    },
  },
);
