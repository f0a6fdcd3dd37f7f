import { pingDatabase } from '../../db/repositories/health';
import type { AppDeps } from '../../core/deps';
import { PUBLIC } from '../openapi/registry';
import { healthOutput, readinessOutput } from '../../core/schemas/health';
import { withDeadline } from '../../core/temporal/commands';
import { endpoint, respond } from './operation';

// For load balancers; mounted before the JSON body parser. /healthz touches nothing; /readyz asks PostgreSQL and
// Temporal, and says which cloud provider runs: an operator sees at once when a deployment scans demo data.

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

async function readiness({ db, temporal, cloud }: AppDeps) {
  const [database, temporalStatus] = await Promise.all([
    probe(() => pingDatabase({ db })),
    probe(() => withDeadline(temporal, CHECK_TIMEOUT_MS, () => temporal.workflowService.getSystemInfo({}))),
  ]);
  const ready = database === 'ok' && temporalStatus === 'ok';
  return {
    ready,
    body: {
      status: ready ? 'ok' : 'unavailable',
      checks: { database, temporal: temporalStatus },
      cloud_provider: cloud.kind,
    },
  };
}

export const healthOperations = [
  endpoint({
    operationId: 'health',
    method: 'get',
    path: '/healthz',
    tag: 'Health',
    access: PUBLIC,
    database: false,
    beforeJsonParser: true,
    summary: 'The process is up',
    success: { status: 200, description: 'Up', schema: healthOutput },
    errors: [],
    handler: () => ({ status: 'ok' }),
  }),
  endpoint({
    operationId: 'readiness',
    method: 'get',
    path: '/readyz',
    tag: 'Health',
    access: PUBLIC,
    database: false,
    beforeJsonParser: true,
    summary: 'PostgreSQL and Temporal both answer',
    description:
      'For load balancers: 503 with the same body when either dependency does not answer within 2 seconds. ' +
      "`cloud_provider` says whether the service scans real AWS accounts or the sandbox's demo data.",
    success: { status: 200, description: 'Ready', schema: readinessOutput },
    otherAnswers: [
      {
        status: 503,
        description: 'Not ready: the body names the dependency that did not answer',
        schema: readinessOutput,
      },
    ],
    errors: [],
    handler: async ({ deps }) => {
      const { ready, body } = await readiness(deps);
      return respond((res) => res.status(ready ? 200 : 503).json(body));
    },
  }),
];
