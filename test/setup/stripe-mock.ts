import { type ChildProcess, spawn } from 'node:child_process';
import { stripeMockBinary } from '../../scripts/tools';

// stripe-mock: Stripe's own mock of its API. It validates every request against Stripe's OpenAPI document
// (a wrong parameter is a 400, as from Stripe) and answers with fixture objects; it keeps no state.

export interface StripeMockServer {
  url: string;
  process: ChildProcess;
}

export async function startStripeMock(port: number): Promise<StripeMockServer> {
  // Both listeners on loopback: with only an HTTP address, stripe-mock also opens HTTPS on every interface.
  const child = spawn(stripeMockBinary(), ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`stripe-mock exited with ${child.exitCode}: ${stderr.trim()}`);
    try {
      const res = await fetch(url); // any answer (401 without a key) means it is listening
      await res.body?.cancel();
      return { url, process: child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('stripe-mock did not start within 30 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stopStripeMock(server: StripeMockServer): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
}
