import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { accountWorkflowStart } from '../core/temporal/commands';
import { newId } from '../domain/ids';
import { ROLE_NAME } from '../domain/onboarding/role';
import { getPlan, type PlanId } from '../domain/tenancy/plans';
import { accountWorkflow } from '../workflows/account';
import { accountWorkflowId } from '../workflows/contracts';
import { type BenchTenant, connectAccounts, inFlight, signUpTenants, verifyAccounts } from './accounts';
import type { BenchEnvironment, BenchServices } from './environment';
import { firstScansDone } from './scans';

export interface FairnessRun {
  fairness: boolean;
  /** Tenant A's scans not yet started when tenant B asked for its scans. */
  backlog: number;
  /** From each of tenant B's scan requests until its scan started (its row recorded by runScan), in ms. */
  latenciesMs: number[];
  p50: number;
  p95: number;
  max: number;
  /** B's scan requests answered 503 (the account's workflow did not take the request within the API's deadline), then retried. */
  unavailable: number;
}

export interface FairnessResult {
  backlogAccounts: number;
  samples: number;
  plans: { a: PlanId; b: PlanId };
  runs: FairnessRun[];
}

const A_PLAN: PlanId = 'enterprise';
const B_PLAN: PlanId = 'agency';
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;

/**
 * Two tenants on one task queue. Tenant A has `backlogAccounts` accounts whose scans all fall due while no worker
 * runs (a worker outage, or a burst of due timers); once a worker is back and they are queued, tenant B asks for a
 * scan of each of its `samples` accounts, one every 250 ms. The figure is B's wait from request to scan start. Run
 * twice in one run on the same server (fairness enabled): with the fairness keys (TEMPORAL_FAIRNESS=true, the
 * default) and without (first in, first out).
 */
export async function benchFairness(
  env: BenchEnvironment,
  {
    backlogAccounts,
    samples,
    concurrency,
    poolMax,
  }: {
    backlogAccounts: number;
    samples: number;
    concurrency: number;
    poolMax: number;
  },
): Promise<FairnessResult> {
  const runs: FairnessRun[] = [];
  for (const fairness of [false, true]) {
    const services = await env.startServices({
      taskQueue: `bench-fairness-${fairness}`,
      poolMax,
      env: { TEMPORAL_FAIRNESS: String(fairness) },
    });
    try {
      runs.push(await fairnessRun(env, services, { fairness, backlogAccounts, samples, concurrency }));
    } finally {
      await services.stop();
    }
  }
  return { backlogAccounts, samples, plans: { a: A_PLAN, b: B_PLAN }, runs };
}

async function fairnessRun(
  env: BenchEnvironment,
  services: BenchServices,
  {
    fairness,
    backlogAccounts,
    samples,
    concurrency,
  }: {
    fairness: boolean;
    backlogAccounts: number;
    samples: number;
    concurrency: number;
  },
): Promise<FairnessRun> {
  const firstId = fairness ? 720_000_000_000 : 710_000_000_000;
  const [b] = await signUpTenants({
    db: env.db,
    url: services.url,
    prefix: `fairness-${fairness}-b`,
    count: samples,
    firstId,
  });
  await env.db.updateTable('tenants').set({ plan: B_PLAN }).where('id', '=', b!.tenantId).execute();
  await connectAccounts(services.url, [b!], concurrency);
  await verifyAccounts(services.url, [b!], concurrency);
  await firstScansDone(env, [b!], 600_000);

  let a: BenchTenant | undefined;
  await services.restartWorker(async () => {
    a = await seedTenant(env, services, {
      prefix: `fairness-${fairness}-a`,
      count: backlogAccounts,
      firstId: firstId + 1_000,
    });
  });
  await sleep(2_000); // the new worker takes A's workflow tasks, each queueing its scan
  const backlog = await notStarted(env, a!, backlogAccounts);
  console.log(
    `fairness keys ${fairness ? 'on' : 'off'}: tenant A has ${backlogAccounts} scans due, ${backlog} not started yet`,
  );

  const requests: { scanId: string; sentAt: number }[] = [];
  let unavailable = 0;
  for (const id of b!.awsAccountIds) {
    const sentAt = Date.now();
    const { arn, retried } = await requestScan(services.url, b!.auth, id);
    unavailable += retried;
    requests.push({ scanId: arn.slice(arn.lastIndexOf('/') + 1), sentAt });
    await sleep(250);
  }
  const latenciesMs = await startLatencies(env, requests);
  const sorted = [...latenciesMs].sort((x, y) => x - y);
  const run = {
    fairness,
    backlog,
    latenciesMs,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    max: sorted.at(-1) ?? 0,
    unavailable,
  };
  console.log(
    `  tenant B's scan start latency: p50 ${run.p50} ms, p95 ${run.p95} ms, max ${run.max} ms; 503s retried: ${unavailable}`,
  );
  return run;
}

/**
 * One tenant with `count` ACTIVE accounts, more than any plan allows to connect, each with a scan due: its rows are
 * inserted as verification leaves them, and its workflows started as connect starts them (accountWorkflowStart, same
 * priority), with the state a workflow carries over when it continues as new holding a scheduled scan to run.
 */
async function seedTenant(
  env: BenchEnvironment,
  services: BenchServices,
  {
    prefix,
    count,
    firstId,
  }: {
    prefix: string;
    count: number;
    firstId: number;
  },
): Promise<BenchTenant> {
  const [tenant] = await signUpTenants({ db: env.db, url: services.url, prefix, count: 1, firstId });
  const { tenantId, auth } = tenant!;
  const plan = getPlan(A_PLAN);
  const { plan_revision: planRevision } = await env.db
    .updateTable('tenants')
    .set({ plan: A_PLAN })
    .where('id', '=', tenantId)
    .returning('plan_revision')
    .executeTakeFirstOrThrow();
  const awsAccountIds = Array.from({ length: count }, (_, i) => String(firstId + i));
  const now = new Date();
  const accounts = awsAccountIds.map((awsAccountId) => ({
    id: newId('account'),
    tenant_id: tenantId,
    aws_account_id: awsAccountId,
    display_name: null,
    tags: [],
    status: 'ACTIVE' as const,
    connected_at: now,
    external_id: randomBytes(24).toString('base64url'),
    role_name: ROLE_NAME,
    workflow_id: accountWorkflowId(tenantId, awsAccountId),
  }));
  for (let i = 0; i < accounts.length; i += 1_000)
    await env.db
      .insertInto('accounts')
      .values(accounts.slice(i, i + 1_000))
      .execute();
  await inFlight(accounts, 50, async (row) => {
    const options = accountWorkflowStart(
      { taskQueue: services.taskQueue, fairness: services.fairness },
      {
        tenantId,
        accountId: row.id,
        awsAccountId: row.aws_account_id,
        scanIntervalMinutes: plan.scan_interval_minutes,
        planRevision,
        fairnessWeight: plan.fairness_weight,
      },
    );
    const [input] = options.args;
    await env.temporal.workflow.start(accountWorkflow, {
      ...options,
      args: [
        {
          ...input,
          carried: {
            status: 'ACTIVE',
            scanIntervalMinutes: plan.scan_interval_minutes,
            planRevision,
            scansCompleted: 0,
            pendingScans: [{ scanId: newId('scan'), trigger: 'scheduled' }],
            scheduledScanDue: false,
            fairnessWeight: plan.fairness_weight,
          },
        },
      ],
    });
  });
  return { tenantId, auth, awsAccountIds };
}

/** Of the tenant's `due` scans, those not started yet (no row). */
async function notStarted(env: BenchEnvironment, tenant: BenchTenant, due: number): Promise<number> {
  const { n } = await env.db
    .selectFrom('scans')
    .select(sql<string>`count(*)`.as('n'))
    .where('tenant_id', '=', tenant.tenantId)
    .executeTakeFirstOrThrow();
  return due - Number(n);
}

// Without fairness keys a scan asked for behind another tenant's backlog may wait as long as the backlog takes:
// that wait is what this benchmark measures, so a client keeps retrying its 503s for up to half an hour.
const REQUEST_PATIENCE_MS = 30 * 60_000;

/** POST /accounts/{id}/scan as a client should: a 503 is retried after its Retry-After. */
async function requestScan(url: string, auth: object, awsAccountId: string): Promise<{ arn: string; retried: number }> {
  const giveUpAt = Date.now() + REQUEST_PATIENCE_MS;
  for (let retried = 0; ; retried++) {
    const res = await fetch(`${url}/accounts/${awsAccountId}/scan`, { method: 'POST', headers: { ...auth } });
    if (res.status === 202) return { arn: ((await res.json()) as { execution_arn: string }).execution_arn, retried };
    if (res.status !== 503 || Date.now() > giveUpAt)
      throw new Error(`POST /accounts/${awsAccountId}/scan answered ${res.status}`);
    await sleep(Number(res.headers.get('retry-after') ?? 5) * 1000);
  }
}

/** Waits until every requested scan has started; answers each one's wait in ms, in request order. */
async function startLatencies(
  env: BenchEnvironment,
  requests: { scanId: string; sentAt: number }[],
): Promise<number[]> {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const rows = await env.db
      .selectFrom('scans')
      .select(['id', 'started_at'])
      .where(
        'id',
        'in',
        requests.map((r) => r.scanId),
      )
      .execute();
    if (rows.length === requests.length) {
      const started = new Map(rows.map((r) => [r.id, r.started_at.getTime()]));
      return requests.map((r) => Math.max(0, started.get(r.scanId)! - r.sentAt));
    }
    if (Date.now() > deadline)
      throw new Error(`only ${rows.length} of tenant B's ${requests.length} scans started in time`);
    await sleep(100);
  }
}
