import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Outside the server, another workspace package is imported by its name and exports. */
const byPackageName = {
  group: ['**/apps/server/src/**', '**/apps/web/src/**', '**/packages/contract/src/**'],
  message: 'Import a package by its name and exports, not its files.',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.tmp/**', 'bench/results/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: globals.node } },
  // Import direction (docs/architecture.md): no cycles between modules, features never import each
  // other, nothing reaches into another package's files.
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}/**`,
              from: webFeatures
                .filter((other) => other !== feature)
                .map((other) => `./apps/web/src/features/${other}/**`),
              message: 'Features never import each other: compose them in app/.',
            })),
            {
              target: ['./apps/web/src/components/**', './apps/web/src/lib/**'],
              from: ['./apps/web/src/features/**', './apps/web/src/app/**'],
              message: 'Shared code flows one way: components and lib import no feature or app code.',
            },
            {
              target: './apps/web/src/features/**',
              from: './apps/web/src/app/**',
              message: 'Features do not import the app layer.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './apps/server/src/**/*.repository.ts',
              from: './apps/server/src/**/*.routes.ts',
              message: 'Repositories never import routes.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    ignores: ['apps/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [byPackageName],
        },
      ],
    },
  },
  {
    // What the sign-in screen loads (the entry's static imports and the login route): the contract by its
    // subpaths only, since its package entry configures zod (Japanese messages, about 4 KB gzip) for
    // every screen that validates; bench/README.md §6 (login JS ≤ 150 KB).
    files: [
      'apps/web/src/main.tsx',
      'apps/web/src/app/{router,root,screen,screen-guard,providers,theme}.{ts,tsx}',
      'apps/web/src/app/routes/error-page.tsx',
      'apps/web/src/components/{capability-gate,loading-bar,page-header}.tsx',
      'apps/web/src/lib/{session-store,session-guard,api-error,texts,paths,chunk-reload}.ts',
      // Not api.ts: loaded when the form gets focus, it brings the contract's schemas and zod on purpose.
      'apps/web/src/features/auth/{login-form,use-login-form,texts}.{ts,tsx}',
    ],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@fleet/contract',
              allowTypeImports: true,
              message: 'On the sign-in path import @fleet/contract/messages or /permissions, not the package.',
            },
          ],
          patterns: [byPackageName],
        },
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-empty-pattern': 'off',
    },
  },
);
