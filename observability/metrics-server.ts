import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../config/logger';
import { registry } from './metrics';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text format) on a port of its own, so the public API port never shows it
 * (docs/operations.md, "Metrics"). `more` appends another exposition, the worker's Temporal SDK metrics.
 */
export async function startMetricsServer({
  host,
  port,
  log,
  more,
}: {
  host: string;
  port: number;
  log: Logger;
  more?: () => Promise<string>;
}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    Promise.all([
      registry.metrics(),
      more?.().catch((err: unknown) => {
        log.warn({ err }, 'metrics: the Temporal SDK metrics could not be read');
        return '';
      }) ?? '',
    ])
      .then(([own, extra]) =>
        res.writeHead(200, { 'content-type': registry.contentType }).end(extra ? `${own}\n${extra}` : own),
      )
      .catch((err: unknown) => {
        log.error({ err }, 'metrics: collection failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  log.info({ url: `http://${host}:${bound}/metrics` }, 'metrics listening');
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
