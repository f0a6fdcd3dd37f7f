import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../scripts/tools';

// The moto server: a real emulator of the AWS APIs (STS, IAM, S3, EC2, ...) on loopback. It keeps one
// state per AWS account id, and credentials from AssumeRole act in the role's account, so tests can play
// both the customer's account and Sentinel's own.

export interface MotoServer {
  endpoint: string;
  process: ChildProcess;
}

/** Stops the server and waits for it to exit (it takes a few seconds), so Jest exits cleanly. */
export async function stopMoto(server: MotoServer): Promise<void> {
  if (server.process.exitCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  const timeout = setTimeout(() => server.process.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timeout);
}

/** moto's server, started by test/setup/moto_server.py: moto's own, with costs it pays again and again taken off. */
const LAUNCHER = path.join(__dirname, 'moto_server.py');

export async function startMoto(port: number): Promise<MotoServer> {
  const python = path.join(PROJECT_ROOT, '.tools/venv/bin/python3');
  if (!existsSync(python)) throw new Error(`moto's Python not found at ${python}: run npm run tools`);
  const child = spawn(python, [LAUNCHER, '-H', '127.0.0.1', '-p', String(port)], {
    stdio: 'ignore',
    // AWS managed policies (SecurityAudit, ViewOnlyAccess) exist only when moto loads them at start.
    env: { ...process.env, MOTO_IAM_LOAD_MANAGED_POLICIES: 'true' },
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${endpoint}/moto-api/`);
      if (res.ok) return { endpoint, process: child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('moto_server did not start within 30 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
