// Lint rules for the layers of docs/architecture.md ("Layers"). The workflow block enforces determinism:
// workflow code may import only @temporalio/workflow, domain/ and types, and may not read the real clock or
// randomness.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'assert',
  'async_hooks',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'timers',
  'tls',
  'url',
  'util',
  'v8',
  'vm',
  'worker_threads',
  'zlib',
];

export const workflowRestrictions = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        ...nodeBuiltins.map((name) => ({ name, message: 'Workflows are deterministic: no Node builtins.' })),
        { name: '@temporalio/activity', message: 'Activity APIs are not available in workflow code.' },
        { name: '@temporalio/client', message: 'Workflows talk to Temporal through @temporalio/workflow only.' },
        { name: '@temporalio/worker', message: 'Workflows talk to Temporal through @temporalio/workflow only.' },
      ],
      patterns: [
        { group: ['node:*'], message: 'Workflows are deterministic: no Node builtins.' },
        {
          group: [
            'pg',
            'pg-*',
            'kysely',
            'kysely/*',
            'express',
            'jsonwebtoken',
            'stripe',
            'nodemailer',
            '@aws-sdk/*',
            'pino',
            'pino-*',
          ],
          message: 'Drivers and I/O libraries belong in activities.',
        },
        {
          group: [
            '**/db',
            '**/db/*',
            '**/api',
            '**/api/*',
            '**/cloud',
            '**/cloud/*',
            '**/worker',
            '**/worker/*',
            '**/config',
            '**/config/*',
          ],
          message: 'Workflows import only @temporalio/workflow, domain/ and types.',
        },
        {
          group: ['**/activities', '**/activities/*'],
          allowTypeImports: true,
          message: 'Import activities with `import type` and proxyActivities only.',
        },
      ],
    },
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Math', property: 'random', message: 'Use uuid4() from @temporalio/workflow, or an activity.' },
    { object: 'Date', property: 'now', message: 'Timestamps that matter come from activities.' },
  ],
};

// Columns carry the domain's unions (db/tables): a row is already of its type, so a cast to one of them would only
// hide a column typed too loosely. (Tests may build invalid values on purpose; the dashboard reads form fields.)
const DOMAIN_UNIONS = [
  'AccountStatus',
  'ScanStatus',
  'ScanTrigger',
  'PlanId',
  'Role',
  'AssignableRole',
  'TenantStatus',
  'Severity',
  'Scenario',
  'ChannelType',
  'ChannelConfig',
  'DeliveryStatus',
  'DeliveryKind',
  'AttemptOutcome',
  'ExportStatus',
  'CheckStatus',
].join('|');
const castMessage = 'No cast to a domain type: type the column (db/tables) or parse the value instead.';
const domainCastSelectors = [
  { selector: `TSAsExpression[typeAnnotation.typeName.name=/^(${DOMAIN_UNIONS})$/]`, message: castMessage },
  { selector: `TSAsExpression[typeAnnotation.elementType.typeName.name=/^(${DOMAIN_UNIONS})$/]`, message: castMessage },
];
export const noDomainCasts = { 'no-restricted-syntax': ['error', ...domainCastSelectors] };

// ESLint keeps one setting of a rule per file: the last block's that matches it. So the import restrictions are
// written as parts ({ paths, patterns }), and each block below that sets no-restricted-imports lists every part
// its files are under.
const restrictImports = (...parts) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: parts.flatMap((part) => part.paths ?? []),
      patterns: parts.flatMap((part) => part.patterns ?? []),
    },
  ],
});

// A relative import that climbs out of the importing file's folder into one of these top-level folders:
// '../api', '../../api/services/x'. A package ('@opentelemetry/api', '@temporalio/worker') is not one.
const topLevel = (...folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;

// Layers (docs/architecture.md): every query lives in db/repositories/, one query per function; use cases
// (core/) open transactions and call the domain and repositories. So outside db/, no query builder call, no
// raw SQL, and nothing but types from kysely.
const queryMessage = 'Queries live in db/repositories/: call a repository function (one query each).';
const kyselyTypesOnly = {
  paths: [
    { name: 'kysely', allowTypeImports: true, message: `${queryMessage} Only kysely's types may be imported here.` },
  ],
};
export const queriesInRepositoriesOnly = {
  'no-restricted-syntax': [
    'error',
    ...domainCastSelectors,
    {
      selector:
        'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
      message: queryMessage,
    },
    { selector: 'TaggedTemplateExpression[tag.name="sql"]', message: queryMessage },
  ],
  ...restrictImports(kyselyTypesOnly),
};

// Repositories store what they are given: the domain's types, never its logic (ids, rules, scores are the
// use case's), and nothing else of the service but types.
const repositoryTypesOnly = {
  patterns: [
    {
      regex: '^\\.\\./\\.\\./',
      allowTypeImports: true,
      message:
        'A repository runs one query with what it is given: import only types from outside db/ (decisions belong in the use case).',
    },
  ],
};

// Who may import whom among the top-level folders (docs/architecture.md, "Layers"). Types count as imports
// unless a pattern says otherwise.
const apiLayer = {
  patterns: [
    {
      regex: topLevel('activities', 'worker'),
      message:
        "api/ is the REST and tRPC adapters: call the use cases in core/; activities/ and worker/ are the worker process's own (not even their types).",
    },
  ],
};
const activitiesLayer = {
  patterns: [
    {
      regex: topLevel('api'),
      message: 'activities/ are thin Temporal adapters: call the use cases in core/, never the API (api/).',
    },
  ],
};
const coreLayer = {
  patterns: [
    {
      group: ['@temporalio/activity', '@temporalio/worker', '@temporalio/workflow'],
      message:
        "core/ talks to Temporal as a client (@temporalio/client, @temporalio/common): an activity's heartbeat, attempt and cancellation reach a use case as an Attempt (activities/attempt.ts).",
    },
    {
      regex: topLevel('api', 'activities', 'worker', 'web'),
      message:
        'core/ is the use-case layer: the REST and tRPC adapters in api/ and the Temporal activities call it, never the other way (nor does it import worker/ or web/).',
    },
    {
      regex: '^(\\.\\./)+workflows(?!/(contracts|search-attributes)$)(/|$)',
      allowTypeImports: true,
      message:
        "core/ starts workflows by name: import the workflow function with `import type` and call client.workflow.start<typeof accountWorkflow>('accountWorkflow', ...); only workflows/contracts and workflows/search-attributes may be imported as values.",
    },
  ],
};
const dbLayer = {
  patterns: [
    {
      regex: topLevel('cloud', 'exports', 'core', 'api', 'activities'),
      message:
        'db/ stores what it is given and imports no layer above it (not even types): a type that db/ shares with cloud/ or exports/ belongs in domain/.',
    },
  ],
};
const observabilityLayer = {
  patterns: [
    {
      regex: topLevel('db'),
      message:
        'observability/ does not import db/: the process that owns the database hands its pool over (observeDbPool(poolOf(db)) in api/main.ts and worker/main.ts).',
    },
  ],
};
export const layerRestrictions = {
  api: restrictImports(kyselyTypesOnly, apiLayer),
  activities: restrictImports(kyselyTypesOnly, activitiesLayer),
  core: restrictImports(kyselyTypesOnly, coreLayer),
  observability: restrictImports(kyselyTypesOnly, observabilityLayer),
  db: restrictImports(dbLayer),
  repositories: restrictImports(dbLayer, repositoryTypesOnly),
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.data/**',
      '.tools/**',
      'coverage/**',
      'dist/**',
      'web/dist/**',
      'test-results/**',
      'test/fixtures/lint/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        module: 'writable',
        require: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'error',
    },
  },
  { files: ['db/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'], rules: noDomainCasts },
  {
    files: ['**/*.ts'],
    ignores: ['test/**', 'web/**', 'db/**', 'bench/**', 'scripts/**'],
    rules: queriesInRepositoriesOnly,
  },
  { files: ['api/**/*.ts'], rules: layerRestrictions.api },
  { files: ['activities/**/*.ts'], rules: layerRestrictions.activities },
  { files: ['core/**/*.ts'], rules: layerRestrictions.core },
  { files: ['observability/**/*.ts'], rules: layerRestrictions.observability },
  { files: ['db/**/*.ts'], rules: layerRestrictions.db },
  { files: ['db/repositories/**/*.ts'], rules: layerRestrictions.repositories },
  { files: ['workflows/**/*.ts'], rules: workflowRestrictions },
  {
    // domain/ is pure logic shared by everything: it imports nothing but itself (relative paths that stay
    // inside domain/: './x' from the top level, './x' or '../x' from a subfolder).
    files: ['domain/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\./)', message: 'domain/ imports nothing but itself.' }] },
      ],
    },
  },
  {
    files: ['domain/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\./|\\.\\./(?!\\.\\./))', message: 'domain/ imports nothing but itself.' }] },
      ],
    },
  },
  { files: ['scripts/**/*.ts', 'scripts/**/*.mjs', 'bench/**/*.ts'], rules: { 'no-console': 'off' } },
  // The dashboard runs in the browser.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        navigator: 'readonly',
        sessionStorage: 'readonly',
        Blob: 'readonly',
        FormData: 'readonly',
        URLSearchParams: 'readonly',
        PopStateEvent: 'readonly',
        HTMLElement: 'readonly',
      },
    },
  },
  // Migrations are frozen in time: they work on Kysely<any>, not on today's Database type.
  { files: ['db/migrations/**/*.ts', 'db/migrate.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['jest.config.js'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
