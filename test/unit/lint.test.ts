import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The layer rules of docs/architecture.md ("Layers") are enforced by lint. The fixtures under
// test/fixtures/lint/ are linted as if they lived where each test says: each forbidden import or call must be
// reported, and what the layer allows must pass.
const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/lint/workflows');

// The real eslint CLI with the project's config (its config loader cannot run inside Jest's module system).
async function lintAs(fixturePath: string, filename: string): Promise<string[]> {
  const run = spawnSync(
    path.join(ROOT, 'node_modules/.bin/eslint'),
    ['--format', 'json', '--stdin', '--stdin-filename', filename],
    {
      cwd: ROOT,
      input: readFileSync(fixturePath, 'utf8'),
      encoding: 'utf8',
    },
  );
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string; message: string }[] }[];
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

const lintAsWorkflow = (fixture: string) => lintAs(path.join(FIXTURES, fixture), `workflows/${fixture}`);

describe('workflow lint rules', () => {
  it.each([
    ['imports-pg.ts', 'Drivers and I/O libraries belong in activities'],
    ['imports-fs.ts', 'no Node builtins'],
    ['imports-activities.ts', 'import type'],
  ])('reject %s', async (fixture, message) => {
    const messages = await lintAsWorkflow(fixture);
    expect(messages).toEqual(expect.arrayContaining([expect.stringContaining(message)]));
  });

  it('reject Math.random and Date.now', async () => {
    const messages = await lintAsWorkflow('random-and-clock.ts');
    expect(messages.filter((m) => m.startsWith('no-restricted-properties'))).toHaveLength(2);
  });

  it('accept a type-only import of the activities', async () => {
    expect(await lintAsWorkflow('type-only.ts')).toEqual([]);
  });
});

describe('domain lint rules', () => {
  it('reject an import from outside domain/', async () => {
    const messages = await lintAs(
      path.join(ROOT, 'test/fixtures/lint/domain/imports-db.ts'),
      'domain/checks/imports-db.ts',
    );
    expect(messages).toEqual(expect.arrayContaining([expect.stringContaining('domain/ imports nothing but itself')]));
  });
});

describe('row cast lint rule', () => {
  it('rejects casting a value to a domain union outside tests', async () => {
    const messages = await lintAs(
      path.join(ROOT, 'test/fixtures/lint/casts/casts-a-row.ts'),
      'core/accounts/casts-a-row.ts',
    );
    expect(messages.filter((m) => m.includes('No cast to a domain type'))).toHaveLength(2);
  });
});

describe('layer lint rules', () => {
  const LAYERS = path.join(ROOT, 'test/fixtures/lint/layers');

  it("reject a repository that imports the domain's logic, and accept its types", async () => {
    const messages = await lintAs(path.join(LAYERS, 'repository-decides.ts'), 'db/repositories/repository-decides.ts');
    expect(messages).toEqual([
      expect.stringContaining("'../../domain/ids' import is restricted"),
      expect.stringContaining("'../../domain/checks/types' import is restricted"),
    ]);
  });

  it.each(['api/operations', 'activities', 'core/scans', 'notify', 'exports'])(
    'reject queries and kysely values in %s/',
    async (folder) => {
      const messages = await lintAs(path.join(LAYERS, 'use-case-queries.ts'), `${folder}/use-case-queries.ts`);
      expect(messages).toEqual([
        expect.stringContaining("'kysely' import is restricted"),
        expect.stringContaining('Queries live in db/repositories/'),
        expect.stringContaining('Queries live in db/repositories/'),
      ]);
    },
  );

  it('accept the same queries and kysely values in a repository', async () => {
    const messages = await lintAs(path.join(LAYERS, 'use-case-queries.ts'), 'db/repositories/use-case-queries.ts');
    expect(messages.filter((m) => m.includes('kysely') || m.includes('Queries live'))).toEqual([]);
  });
});

// Who may import whom among the top-level folders, for the layout with core/ (the use cases) between the
// adapters (api/, activities/) and the domain and repositories. Each fixture is linted where its relative
// imports make sense: some as a top-level file of its folder, some from a subfolder.
describe('layer import rules', () => {
  const IMPORTS = path.join(ROOT, 'test/fixtures/lint/layers');
  const lintLayer = (fixture: string, folder: string) =>
    lintAs(path.join(IMPORTS, fixture), `${folder}/${path.basename(fixture)}`);

  const api = 'api/ is the REST and tRPC adapters';
  const activities = 'activities/ are thin Temporal adapters';
  const core = 'core/ is the use-case layer';
  const workflowsByName = 'core/ starts workflows by name';
  const db = 'db/ stores what it is given';
  const observability = 'observability/ does not import db/';

  it.each([
    ['api/imports-activities.ts', 'api/operations', api],
    ['api/imports-worker-types.ts', 'api', api],
    ['activities/imports-api.ts', 'activities', activities],
    ['activities/imports-api-types.ts', 'activities', activities],
    ['core/imports-api.ts', 'core/accounts', core],
    ['core/imports-activities.ts', 'core', core],
    ['core/imports-worker-types.ts', 'core/scans', core],
    ['core/imports-web.ts', 'core/reports', core],
    ['core/imports-workflow-value.ts', 'core/accounts', workflowsByName],
    ['core/imports-workflows-index.ts', 'core', workflowsByName],
    ['core/imports-activity-context.ts', 'core/scans', 'core/ talks to Temporal as a client'],
    ['db/imports-cloud-types.ts', 'db/repositories', db],
    ['db/imports-exports-types.ts', 'db', db],
    ['db/imports-core.ts', 'db/tables', db],
    ['db/imports-api.ts', 'db/tables', db],
    ['db/imports-activities.ts', 'db/tables', db],
    ['observability/imports-db.ts', 'observability', observability],
    ['observability/imports-db-types.ts', 'observability', observability],
  ])('reject %s in %s/', async (fixture, folder, message) => {
    expect(await lintLayer(fixture, folder)).toEqual([
      expect.stringMatching(new RegExp(`^no-restricted-imports: .*${message}`)),
    ]);
  });

  it.each([
    ['api/allowed.ts', 'api/operations'],
    ['activities/allowed.ts', 'activities'],
    ['core/allowed.ts', 'core/accounts'],
    ['db/allowed.ts', 'db/repositories'],
    ['observability/allowed.ts', 'observability'],
  ])('accept %s in %s/', async (fixture, folder) => {
    expect(await lintLayer(fixture, folder)).toEqual([]);
  });

  it("keeps kysely's values out of observability/ too", async () => {
    const messages = await lintAs(
      path.join(IMPORTS, 'use-case-queries.ts'),
      'observability/metrics/use-case-queries.ts',
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining("'kysely' import is restricted"),
        expect.stringContaining(observability),
      ]),
    );
  });
});
