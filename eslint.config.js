// One lint config for the whole repository: typescript-eslint's type-aware rules everywhere
// (no-floating-promises matters for signalling code), React hooks rules in the two apps.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { layerRules } from './eslint.layers.js';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/dist-ssr/**', '.tools/**', '.run/**', 'data/**', 'test-results/**', 'e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'vitest.config.ts', 'scripts/*.mjs', 'infra/*.d.mts'] }, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/guest/**/*.tsx', 'apps/console/**/*.tsx', 'apps/guest/**/*.ts', 'apps/console/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // Playwright's idiom for a test that uses no fixture but needs testInfo is `async ({}, testInfo) =>`.
  { files: ['e2e/**/*.ts'], rules: { 'no-empty-pattern': 'off' } },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  // The layer order (eslint.layers.js): a back-edge between workspaces fails the lint stage.
  ...layerRules,
);
