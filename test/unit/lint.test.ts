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
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/eslint'), ['--format', 'json', '--stdin', '--stdin-filename', filename], {
    cwd: ROOT,
    input: readFileSync(fixturePath, 'utf8'),
    encoding: 'utf8',
  });
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
    const messages = await lintAs(path.join(ROOT, 'test/fixtures/lint/domain/imports-db.ts'), 'domain/checks/imports-db.ts');
    expect(messages).toEqual(expect.arrayContaining([expect.stringContaining('domain/ imports nothing but itself')]));
  });
});

describe('row cast lint rule', () => {
  it('rejects casting a value to a domain union outside tests', async () => {
    const messages = await lintAs(path.join(ROOT, 'test/fixtures/lint/casts/casts-a-row.ts'), 'api/services/casts-a-row.ts');
    expect(messages.filter((m) => m.includes('No cast to a domain type'))).toHaveLength(2);
  });
});

describe('layer lint rules', () => {
  const LAYERS = path.join(ROOT, 'test/fixtures/lint/layers');

  it('reject a repository that imports the domain\'s logic, and accept its types', async () => {
    const messages = await lintAs(path.join(LAYERS, 'repository-decides.ts'), 'db/repositories/repository-decides.ts');
    expect(messages).toEqual([
      expect.stringContaining("'../../domain/ids' import is restricted"),
      expect.stringContaining("'../../domain/checks/types' import is restricted"),
    ]);
  });

  it.each(['api/services', 'activities', 'notify', 'exports'])('reject queries and kysely values in %s/', async (folder) => {
    const messages = await lintAs(path.join(LAYERS, 'use-case-queries.ts'), `${folder}/use-case-queries.ts`);
    expect(messages).toEqual([
      expect.stringContaining("'kysely' import is restricted"),
      expect.stringContaining('Queries live in db/repositories/'),
      expect.stringContaining('Queries live in db/repositories/'),
    ]);
  });

  it('accept the same queries and kysely values in a repository', async () => {
    const messages = await lintAs(path.join(LAYERS, 'use-case-queries.ts'), 'db/repositories/use-case-queries.ts');
    expect(messages.filter((m) => m.includes('kysely') || m.includes('Queries live'))).toEqual([]);
  });
});
