import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

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
