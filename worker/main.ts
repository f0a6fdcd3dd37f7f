import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { createCloudProvider } from '../cloud';
import { loadConfig } from '../config/config';
import { createLogger } from '../config/logger';
import { clientConnectionOptions, workerConnectionOptions } from '../config/temporal';
import { createDb, poolOf } from '../db/client';
import { createExportStorage } from '../exports/storage';
import { createMailer } from '../notify/mailer';
import { observeDbPool } from '../observability/metrics';
import { startMetricsServer } from '../observability/metrics-server';
import { startTracing, temporalClientInterceptors } from '../observability/tracing';
import { ensureSchedules } from './schedules';
import { installTemporalMetrics } from './temporal-metrics';
import { createWorker } from './worker';

// Worker process: runs workflows and activities on one task queue. SIGTERM / SIGINT drain it: in-flight
// activities finish, then the process exits.
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger({ level: config.logLevel, name: 'worker' });
  // First: the worker traces its workflows and activities only if it is on (OTEL_EXPORTER_OTLP_ENDPOINT).
  const tracing = startTracing({ serviceName: 'sentinel-worker' });
  const temporalMetrics = await installTemporalMetrics();
  const db = createDb({ url: config.database.url, maxConnections: config.database.poolMax });
  observeDbPool(poolOf(db));
  const metrics = await startMetricsServer({
    host: config.metrics.host,
    port: config.metrics.workerPort,
    log,
    more: temporalMetrics,
  });
  const cloud = createCloudProvider({ config: config.cloud, log });
  const mailer = createMailer({ config: config.email, db, log });
  const storage = createExportStorage(config);
  const connection = await NativeConnection.connect(workerConnectionOptions(config.temporal));
  // Kept for the worker's life: organization syncs start, verify and disconnect member accounts' workflows.
  const clientConnection = await Connection.connect(clientConnectionOptions(config.temporal));
  const temporal = new Client({
    connection: clientConnection,
    namespace: config.temporal.namespace,
    interceptors: temporalClientInterceptors(),
  });
  log.info({ schedules: await ensureSchedules(temporal, config.temporal.taskQueue) }, 'schedules ready');
  const { workflowBundlePath } = config.temporal.worker;
  const worker = await createWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    db,
    log,
    cloud,
    config,
    mailer,
    storage,
    temporal,
    ...(workflowBundlePath ? { workflowBundle: { codePath: workflowBundlePath } } : {}),
  });
  // The Temporal runtime also reacts to these signals; shut down once, whichever arrives first.
  let stopping = false;
  const stop = () => {
    if (stopping || worker.getState() !== 'RUNNING') return;
    stopping = true;
    worker.shutdown();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  log.info(
    {
      taskQueue: config.temporal.taskQueue,
      namespace: config.temporal.namespace,
      cloud: cloud.kind,
      workflows: workflowBundlePath ?? 'bundled at start-up',
    },
    'worker started',
  );
  try {
    await worker.run();
  } finally {
    await metrics.close();
    await connection.close();
    await clientConnection.close();
    mailer.close();
    await db.destroy();
    await tracing.shutdown();
    log.info('worker stopped');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`worker failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
