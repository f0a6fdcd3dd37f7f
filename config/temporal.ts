import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from '@temporalio/client';
import type { NativeConnectionOptions } from '@temporalio/worker';
import type { Config } from './config';

/** TLS / API-key options shared by the client (api) and the worker's native connection. */
function tlsOptions(t: Config['temporal']) {
  if (!t.tls) return undefined;
  return {
    serverNameOverride: t.tlsServerName,
    serverRootCACertificate: t.tlsCaPath ? readFileSync(t.tlsCaPath) : undefined,
    clientCertPair:
      t.tlsCertPath && t.tlsKeyPath ? { crt: readFileSync(t.tlsCertPath), key: readFileSync(t.tlsKeyPath) } : undefined,
  };
}

export function clientConnectionOptions(t: Config['temporal']): ConnectionOptions {
  return { address: t.address, tls: tlsOptions(t), apiKey: t.apiKey };
}

export function workerConnectionOptions(t: Config['temporal']): NativeConnectionOptions {
  return { address: t.address, tls: tlsOptions(t), apiKey: t.apiKey };
}

/**
 * Server settings the embedded dev server (and the tests' and benchmarks') runs with, and that a self-hosted
 * production server needs too (docs/operations.md, "Fairness"): task-queue fairness, so scans are dispatched
 * round-robin across tenants. One partition per task queue keeps priority and fairness exact on a single server.
 */
export const DEV_SERVER_DYNAMIC_CONFIG = [
  'matching.enableFairness=true',
  'matching.numTaskqueueReadPartitions=1',
  'matching.numTaskqueueWritePartitions=1',
];

export const devServerArgs = () => DEV_SERVER_DYNAMIC_CONFIG.flatMap((v) => ['--dynamic-config-value', v]);
