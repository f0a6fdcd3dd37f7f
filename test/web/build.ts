import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONDITION_CEILING_MS } from '../helpers/patience';

const ROOT = path.resolve(__dirname, '..', '..');
const WAIT_MS = CONDITION_CEILING_MS;

/**
 * Builds the dashboard into web/dist, as `npm run build:web` does, so the browser tests always drive the current
 * sources. Once per Jest run: the browser suites run in parallel workers, and a second build would empty web/dist
 * under the first suite's browser. The first caller builds; the others wait for its outcome (a marker folder in the
 * run's scratch directory, whose creation is atomic).
 */
export async function buildDashboard(): Promise<void> {
  const marker = path.join(process.env.TEST_SCRATCH_DIR as string, 'dashboard-build');
  try {
    mkdirSync(marker);
  } catch {
    return waitForBuild(marker);
  }
  try {
    await viteBuild();
    writeFileSync(path.join(marker, 'done'), '');
  } catch (err) {
    writeFileSync(path.join(marker, 'failed'), String(err));
    throw err;
  }
}

async function waitForBuild(marker: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    if (existsSync(path.join(marker, 'done'))) return;
    if (existsSync(path.join(marker, 'failed'))) throw new Error(readFileSync(path.join(marker, 'failed'), 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The dashboard build of another suite did not finish within ${WAIT_MS / 1000} s`);
}

/** Vite runs in its own process: it is ESM-only, and Jest's module system is not. */
function viteBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--config',
        'web/vite.config.mts',
        '--logLevel',
        'warn',
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${output}`)),
    );
  });
}
