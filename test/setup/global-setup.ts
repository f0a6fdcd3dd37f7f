import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startPostgres, startTemporalDevServer } from '../../scripts/services';
import { buildWorkflowBundle } from '../../worker/bundle';
import { startAwsFront } from '../helpers/aws';
import { startMoto, stopMoto } from './moto';
import { startStripeMock, stopStripeMock } from './stripe-mock';

// Starts, once per `jest` run, the real services every suite uses: embedded PostgreSQL, the Temporal dev
// server, the moto server and stripe-mock on free loopback ports, and builds the workflow bundle once. Suites
// read the addresses from the environment (inherited by Jest's workers) and isolate themselves: a fresh
// database and a unique task queue each.

export default async function globalSetup(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'sentinel-test-'));
  chmodSync(scratch, 0o755); // as root, PostgreSQL runs as an unprivileged user that must reach its data dir
  const [pgPort, temporalPort, motoPort, stripeMockPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  // Built as production builds it (npm run build:workflows), once for every suite's workers.
  const bundlePath = path.join(scratch, 'workflow-bundle.js');

  const started = await Promise.allSettled([
    startPostgres({ dataDir: path.join(scratch, 'pg'), port: pgPort, persistent: false }),
    startTemporalDevServer({ port: temporalPort }),
    buildWorkflowBundle(bundlePath),
    startMoto(motoPort),
    startStripeMock(stripeMockPort),
  ] as const);
  const [pgResult, temporalResult, bundleResult, motoResult, stripeMockResult] = started;
  if (
    pgResult.status === 'rejected' ||
    temporalResult.status === 'rejected' ||
    bundleResult.status === 'rejected' ||
    motoResult.status === 'rejected' ||
    stripeMockResult.status === 'rejected'
  ) {
    // Jest skips the teardown when the setup fails: stop whatever did start, so no server outlives the run.
    await Promise.allSettled([
      pgResult.status === 'fulfilled' && pgResult.value.stop(),
      temporalResult.status === 'fulfilled' && temporalResult.value.env.teardown(),
      motoResult.status === 'fulfilled' && stopMoto(motoResult.value),
      stripeMockResult.status === 'fulfilled' && stopStripeMock(stripeMockResult.value),
    ]);
    throw started.map((r) => (r.status === 'rejected' ? r.reason : undefined)).find(Boolean);
  }
  const [postgres, temporal, moto, stripeMock] = [
    pgResult.value,
    temporalResult.value,
    motoResult.value,
    stripeMockResult.value,
  ];

  process.env.TEST_PG_ADMIN_URL = postgres.url('postgres');
  process.env.TEST_TEMPORAL_ADDRESS = temporal.address;
  process.env.TEST_WORKFLOW_BUNDLE = bundlePath;
  process.env.TEST_SCRATCH_DIR = scratch;
  process.env.TEST_AWS_ENDPOINT = moto.endpoint;
  process.env.TEST_STRIPE_MOCK_URL = stripeMock.url;
  // Credentials for the moto server (it accepts any); they act as its default account 123456789012.
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
    AWS_REGION: 'us-east-1',
  });
  delete process.env.AWS_PROFILE;
  delete process.env.AWS_SESSION_TOKEN;
  // The AWS the service sees in tests: moto, with AWS's documented answers for the few APIs moto lacks.
  const awsFront = await startAwsFront();
  process.env.TEST_AWS_FRONT_ENDPOINT = awsFront.endpoint;
  Object.assign(globalThis, { __sentinelServices: { postgres, temporal, moto, stripeMock, awsFront, scratch } });
}
