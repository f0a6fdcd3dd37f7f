import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { createCloudProvider } from '../cloud';
import { createTemplatePublisher } from '../cloud/aws/template-publisher';
import { loadConfig } from '../config/config';
import { createLogger } from '../config/logger';
import { clientConnectionOptions } from '../config/temporal';
import { createDb, poolOf } from '../db/client';
import { createExportStorage } from '../exports/storage';
import { createMailer } from '../notify/mailer';
import { observeDbPool, observeReadCache } from '../observability/metrics';
import { startMetricsServer } from '../observability/metrics-server';
import { startTracing, temporalClientInterceptors } from '../observability/tracing';
import { createApp } from './app';
import { createHttpServer } from './http-server';
import { ReadCache } from '../db/read-cache';
import { eventDispatchesSettled } from '../core/events/dispatch-after-answer';
import { afterAnswerSettled } from '../core/after-answer';

const SHUTDOWN_GRACE_MS = 10_000;

// API process. One Temporal connection and one Postgres pool for the whole process; SIGTERM / SIGINT stop
// accepting connections, let in-flight requests (and the event dispatches they began) finish, then close both.
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger({ level: config.logLevel, name: 'api' });
  // First: the Temporal client and the app trace only if it is on (OTEL_EXPORTER_OTLP_ENDPOINT).
  const tracing = startTracing({ serviceName: 'sentinel-api' });
  // Every statement a request makes is bounded (docs/operations.md, "Statement timeout"); the worker's are not.
  const db = createDb({
    url: config.database.url,
    maxConnections: config.database.poolMax,
    statementTimeoutMs: config.database.apiStatementTimeoutMs,
  });
  observeDbPool(poolOf(db));
  // On a port of its own, never the public one (docs/operations.md, "Metrics").
  const metrics = await startMetricsServer({ host: config.metrics.host, port: config.metrics.apiPort, log });
  // Lazy: the API starts (and serves reads) even while Temporal is unreachable; commands then answer 503.
  const connection = Connection.lazy(clientConnectionOptions(config.temporal));
  const temporal = new Client({
    connection,
    namespace: config.temporal.namespace,
    interceptors: temporalClientInterceptors(),
  });

  const cloud = createCloudProvider({ config: config.cloud, log });
  const mailer = createMailer({ config: config.email, db, log });
  const storage = createExportStorage(config);
  const readCache = new ReadCache({ url: config.database.url, log });
  await readCache.start();
  observeReadCache(readCache);
  const templates = createTemplatePublisher(config.cloud);
  const deps = { db, config, log, temporal, cloud, mailer, storage, readCache, templates };
  const app = createApp(deps);
  const server = createHttpServer(app).listen(config.http.port, config.http.host, () => {
    // The bound port: PORT=0 picks a free one.
    log.info({ url: `http://${config.http.host}:${(server.address() as AddressInfo).port}` }, 'api listening');
  });

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    log.info('api stopping');
    server.close(async () => {
      await metrics.close();
      await readCache.close();
      // Events answered just now are still being acted on, and password reset e-mails being sent; what does not
      // end in time the event-dispatch schedule takes, or the client asks again for.
      await Promise.race([
        Promise.all([eventDispatchesSettled(deps), afterAnswerSettled()]),
        new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS)),
      ]);
      await connection.close().catch(() => undefined);
      mailer.close();
      await db.destroy();
      await tracing.shutdown();
      log.info('api stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
    // A client that never finishes its request must not keep the process alive past the drain period.
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`api failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
