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
    clientCertPair: t.tlsCertPath && t.tlsKeyPath
      ? { crt: readFileSync(t.tlsCertPath), key: readFileSync(t.tlsKeyPath) }
      : undefined,
  };
}

export function clientConnectionOptions(t: Config['temporal']): ConnectionOptions {
  return { address: t.address, tls: tlsOptions(t), apiKey: t.apiKey };
}

export function workerConnectionOptions(t: Config['temporal']): NativeConnectionOptions {
  return { address: t.address, tls: tlsOptions(t), apiKey: t.apiKey };
}
