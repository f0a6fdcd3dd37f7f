import { existsSync } from 'node:fs';
import path from 'node:path';

// Where tool binaries come from, in order: an explicit path variable, the project's .tools/ folder
// (provisioned by scripts/install-tools.sh), then the Temporal SDK's own download, which needs general
// internet access.

const ROOT = path.resolve(__dirname, '..');
const VENV_BIN = path.join(ROOT, '.tools', 'venv', 'bin');

export type Executable = { type: 'existing-path'; path: string } | { type: 'cached-download' };

function resolve(envVar: string, binary: string): Executable {
  const explicit = process.env[envVar];
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`${envVar} points at ${explicit}, which does not exist`);
    return { type: 'existing-path', path: explicit };
  }
  const local = path.join(VENV_BIN, binary);
  return existsSync(local) ? { type: 'existing-path', path: local } : { type: 'cached-download' };
}

/** The Temporal CLI (dev server with Web UI). */
export const temporalCli = (): Executable => resolve('TEMPORAL_CLI_PATH', 'temporal');

/** The Temporal time-skipping test server. */
export const temporalTestServer = (): Executable => resolve('TEMPORAL_TEST_SERVER_PATH', 'temporal-test-server');

/** stripe-mock (tests only): STRIPE_MOCK_PATH, else the pinned build in .tools/bin. */
export function stripeMockBinary(): string {
  const binary = process.env.STRIPE_MOCK_PATH ?? path.join(ROOT, '.tools', 'bin', 'stripe-mock');
  if (!existsSync(binary)) throw new Error(`stripe-mock not found at ${binary}: run npm run tools`);
  return binary;
}

/** schemathesis' CLI (tests only): SCHEMATHESIS_PATH, else the pinned install in .tools/venv. */
export function schemathesisBinary(): string {
  const binary = process.env.SCHEMATHESIS_PATH ?? path.join(VENV_BIN, 'st');
  if (!existsSync(binary)) throw new Error(`schemathesis not found at ${binary}: run npm run tools`);
  return binary;
}

export const PROJECT_ROOT = ROOT;
