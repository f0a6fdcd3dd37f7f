import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// The project runs on the Node pinned in .node-version: provisioned into .tools/node by scripts/install-node.sh,
// or a system Node of the same major first on PATH (scripts/with-node.sh, which package.json's scripts go through).
const ROOT = path.resolve(__dirname, '../..');
const pinned = readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim().replace(/^v/, '');
const pinnedMajor = Number(pinned.split('.')[0]);
const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);
const provisioned = path.join(ROOT, '.tools', 'node', 'bin', 'node');

describe('the Node runtime', () => {
  it('pins an exact version', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is not below the pinned major', () => {
    expect(major(process.version)).toBeGreaterThanOrEqual(pinnedMajor);
  });

  it('is the provisioned Node at the pinned version, or a system Node of the pinned major', () => {
    const isProvisioned = existsSync(provisioned) && realpathSync(process.execPath) === realpathSync(provisioned);
    if (isProvisioned) expect(process.version).toBe(`v${pinned}`);
    else expect(major(process.version)).toBe(pinnedMajor);
  });

  it('is the node that commands started by name get (tsx, eslint and npm run on `node` from PATH)', () => {
    const version = execFileSync('node', ['--version'], { encoding: 'utf8' }).trim();
    expect(major(version)).toBe(pinnedMajor);
  });

  it("is what package.json's engines asks for", () => {
    const { engines } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(engines.node).toBe(`>=${pinnedMajor} <${pinnedMajor + 1}`);
  });
});

// The worker's V8 heap ceiling (docs/operations.md, "Worker memory"): one figure in npm's script, the image's
// entrypoint and the Helm chart, under the chart's memory limit for the worker.
describe("the worker's heap ceiling", () => {
  const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
  const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  const fromScript = Number(/--max-old-space-size=(\d+) /.exec(scripts['start:worker'] ?? '')?.[1]);
  const fromEntrypoint = Number(
    /--max-old-space-size="\$\{WORKER_HEAP_MB:-(\d+)\}"/.exec(read('scripts/container-entrypoint.sh'))?.[1],
  );
  const values = parse(read('deploy/helm/sentinel/values.yaml')) as {
    worker: { heapMb: number; resources: { limits: { memory: string } } };
  };

  it('is the same in npm start:worker, the image and the Helm chart', () => {
    expect(fromScript).toBeGreaterThan(0);
    expect(fromEntrypoint).toBe(fromScript);
    expect(values.worker.heapMb).toBe(fromScript);
  });

  it("leaves a quarter of the chart's memory limit to what lives outside the main thread's heap", () => {
    const limit = /^(\d+)Gi$/.exec(values.worker.resources.limits.memory);
    expect(limit).not.toBeNull();
    expect(values.worker.heapMb).toBeLessThanOrEqual(0.75 * Number(limit![1]) * 1024);
  });

  it('is what node sizes the heap by when given the flag', () => {
    const limit = execFileSync(
      process.execPath,
      [`--max-old-space-size=${fromScript}`, '-p', 'require("node:v8").getHeapStatistics().heap_size_limit'],
      { encoding: 'utf8' },
    );
    // The limit is the old space plus the young generation's semi-spaces.
    expect(Number(limit) / 2 ** 20).toBeGreaterThanOrEqual(fromScript);
    expect(Number(limit) / 2 ** 20).toBeLessThan(fromScript + 256);
  });
});
