import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Runtime } from '@temporalio/worker';

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Turns on the Temporal SDK's own worker metrics (slots, pollers, sticky cache, task latencies: `temporal_*`) and
 * returns how to read them. The SDK core serves them on an HTTP port of its own; it is bound to loopback so the
 * worker's `/metrics` appends them to Sentinel's and operators scrape one endpoint. Must run before the first
 * connection to Temporal: the runtime is installed once per process.
 */
export async function installTemporalMetrics(): Promise<() => Promise<string>> {
  const bindAddress = `127.0.0.1:${await freeLoopbackPort()}`;
  Runtime.install({ telemetryOptions: { metrics: { prometheus: { bindAddress, useSecondsForDurations: true } } } });
  return async () => {
    const res = await fetch(`http://${bindAddress}/metrics`, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`the Temporal SDK metrics answered ${res.status}`);
    return res.text();
  };
}
