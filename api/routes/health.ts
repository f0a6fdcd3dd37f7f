import { Router } from 'express';
import { pingDatabase } from '../../db/repositories/health';
import type { AppDeps } from '../context';
import { withDeadline } from '../temporal';

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref()),
  ]);
}

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  try {
    await withTimeout(check());
    return 'ok';
  } catch {
    return 'unavailable';
  }
}

/**
 * /healthz: the process is up. /readyz: PostgreSQL and Temporal both answer (load balancers route on this), and which
 * cloud provider runs: an operator sees at once when a deployment scans the sandbox's demo data.
 */
export function healthRouter({ db, temporal, cloud }: AppDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [database, temporalStatus] = await Promise.all([
      probe(() => pingDatabase({ db })),
      probe(() => withDeadline(temporal, CHECK_TIMEOUT_MS, () => temporal.workflowService.getSystemInfo({}))),
    ]);
    const ready = database === 'ok' && temporalStatus === 'ok';
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : 'unavailable', checks: { database, temporal: temporalStatus }, cloud_provider: cloud.kind,
    });
  });
  return router;
}
