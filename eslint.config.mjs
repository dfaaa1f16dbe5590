// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/** Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no service code. */
const workflowImportRules = {
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths: [
        ...builtinModules
          .flatMap((name) => [name, `node:${name}`])
          .map((name) => ({ name, message: 'Workflow code is deterministic: no Node built-ins.' })),
        { name: '../activities', message: 'Workflows see activities as types only.', allowTypeImports: true },
      ],
      patterns: [
        {
          group: ['../src/*', '!../src/temporal', '../src/temporal/*', '!../src/temporal/contract'],
          message: 'Workflows import only the workflows contract (src/temporal/contract) from src/.',
        },
      ],
    },
  ],
};

/**
 * A workflow's clock is the start of the workflow task it runs in. After a local activity that
 * task can differ on replay (docs/decisions/delivery.md, "Replay-safe retry window"), so a time
 * that decides a branch comes from an activity's result or the workflow's start. The documented
 * exceptions disable this rule on their line with the reason.
 */
const workflowClockRules = {
  'no-restricted-syntax': [
    'error',
    ...[
      "CallExpression[callee.object.name='Date'][callee.property.name='now']",
      "NewExpression[callee.name='Date'][arguments.length=0]",
    ].map((selector) => ({
      selector,
      message:
        "Workflow time read after a local activity differs on replay: take the time from an activity's result or the workflow's start (docs/decisions/delivery.md).",
    })),
  ],
};

/** docs/decisions/database.md: SQL outside src/db runs through src/db/sql.ts, whose helpers type its rows. */
const sqlThroughHelpers = {
  // A Temporal workflow query (`handle.query(someStateQuery)`) is not SQL.
  selector: "CallExpression[callee.property.name='query']:not([arguments.0.name=/Query$/])",
  message:
    "Run SQL through src/db/sql.ts (rows, firstRow, changed, execute) with the row's interface, not .query() (docs/decisions/database.md).",
};

/** infra/ starts the servers scripts and tests need; the product never depends on it. */
const noInfraImports = {
  group: ['**/infra', '**/infra/**'],
  message: 'infra/ (dev servers, embedded PostgreSQL) is for scripts and tests; the product never imports it.',
};

/** A folder whose code may not import src/services (nor infra/): `message` says why. */
function belowTheServices(files, message) {
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/services', '**/services/**'], message }, noInfraImports] },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data*/**', 'coverage/**', 'test-output/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Forgetting to await an activity, a workflow API or a query is a bug, not a style.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'object-shorthand': ['error', 'always'],
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // A later block that sets this rule replaces its list, so those blocks repeat noInfraImports.
    files: ['src/**/*.ts', 'api/**/*.ts', 'worker/**/*.ts', 'workflows/**/*.ts', 'activities/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noInfraImports] }] },
  },
  { files: ['workflows/**/*.ts'], rules: { ...workflowImportRules, ...workflowClockRules } },
  {
    files: ['src/services/**/*.ts', 'src/sources/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/workflows/*', '**/workflows'],
              message: 'Services use the workflows contract (src/temporal/contract), never workflow code.',
            },
            noInfraImports,
          ],
        },
      ],
    },
  },
  // The house's layers point down: services use providers, destinations and signal types, never
  // the other way round (docs/decisions/destinations.md, signal-breadth.md).
  belowTheServices(
    'src/providers/**/*.ts',
    'Providers sit below the services: they receive narrow interfaces and config, never src/services.',
  ),
  belowTheServices(
    'src/destinations/**/*.ts',
    'Destinations sit below the services: they receive PushTools and SettingsTools, never src/services.',
  ),
  belowTheServices(
    'src/signal-types/**/*.ts',
    'Signal types sit below the services: shared parts go in src/signal-types/kit, never src/services.',
  ),
  {
    // docs/decisions/database.md: SQL outside src/db runs through src/db/sql.ts, whose helpers type its rows.
    files: ['src/**/*.ts', 'api/**/*.ts', 'activities/**/*.ts', 'worker/**/*.ts'],
    ignores: ['src/db/**'],
    rules: {
      'no-restricted-syntax': ['error', sqlThroughHelpers],
    },
  },
  {
    // docs/decisions/wiring.md: a handler calls one service command; the command owns its transaction.
    files: ['api/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        sqlThroughHelpers,
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message:
            'A handler does not open a transaction: move the writes into one service command that does (docs/decisions/wiring.md).',
        },
      ],
    },
  },
  prettier,
);
