// `npm start`: from a fresh clone to a running service. Plain Node with no dependencies, because it runs
// before node_modules exists. It installs what is missing, then hands over to scripts/dev.ts.
// package.json runs it with `exec`: otherwise npm's `sh -c` stays in between, and a signal sent to npm
// stops at that shell (SIGINT is held, SIGTERM kills the shell and leaves everything below running).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

// npm rewrites node_modules/.package-lock.json after every install, so an older one means package-lock.json
// changed since (a pull, a branch switch) and the dependencies must be brought up to date.
const hiddenLock = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');
if (!existsSync(hiddenLock) || (existsSync(lock) && statSync(hiddenLock).mtimeMs < statSync(lock).mtimeMs)) {
  console.log('Installing dependencies (npm install) ...');
  // Under `npm start`, npm_execpath is the npm that launched us: use the same one.
  const npm = process.env.npm_execpath;
  const status = npm && /npm-cli\.js$/.test(npm) ? run(process.execPath, [npm, 'install']) : run('npm', ['install']);
  if (status !== 0) process.exit(status);
}

// The dashboard (/app) is served from web/dist, a build output that is not committed: build it on a fresh
// clone. A failed build is a warning: the API still runs and /app answers 503 saying how to build it.
if (!existsSync(path.join(root, 'web', 'dist', 'index.html'))) {
  console.log('Building the dashboard (npm run build:web) ...');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  if (run(process.execPath, [vite, 'build', '--config', 'web/vite.config.mts']) !== 0) {
    console.warn('Warning: the dashboard build failed; /app will answer 503 until `npm run build:web` succeeds.');
  }
}

// The Temporal CLI is only needed for the embedded dev server. Without .tools/ the Temporal SDK downloads
// the CLI itself, so a failure here is a warning, not the end.
if (!process.env.TEMPORAL_ADDRESS && run('bash', ['scripts/install-tools.sh']) !== 0) {
  console.warn('Warning: scripts/install-tools.sh failed; the Temporal SDK will try to download the CLI instead.');
}

// tsx is loaded into node rather than run as the `tsx` command: the command is a second process that relays
// signals, and it answers two signals in quick succession (one Ctrl-C arrives both from the terminal and
// from npm) by SIGKILLing the supervisor, which would orphan PostgreSQL and Temporal.
// The supervisor gets its own process group: a Ctrl-C in the terminal then reaches only this process, which
// forwards it, and the supervisor stops api, worker, Temporal and PostgreSQL in that order, instead of all of
// them receiving the signal at once and dying in whatever order they like.
const supervisor = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], { stdio: 'inherit', detached: true });

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => supervisor.kill(signal));
}

supervisor.on('error', (err) => {
  console.error(`Could not start scripts/dev.ts: ${err.message}`);
  process.exit(1);
});
supervisor.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
