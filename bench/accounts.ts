import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { sql } from 'kysely';
import { getPlan } from '../domain/tenancy/plans';
import type { Db } from '../db/client';
import { stateQuery } from '../workflows/contracts';
import { tenantAuth } from './environment';

// Connecting and verifying accounts through the API, as a customer would, with a bounded number of requests
// in flight: thousands at once would measure the HTTP client's queue, not the service.

export interface BenchTenant {
  tenantId: string;
  auth: { authorization: string };
  awsAccountIds: string[];
}

/** Runs `task` over `items` with at most `limit` in flight. */
export async function inFlight<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

const MAX_ATTEMPTS = 20;

/**
 * POSTs like a well-behaved client: a 503 (the service asks to retry shortly) is retried after its Retry-After.
 * Returns how many 503s it got and the answer's body; anything else that is not 2xx throws.
 */
async function post(
  url: string,
  auth: object,
  route: string,
  body?: object,
): Promise<{ unavailable: number; text: string }> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${url}${route}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.ok) return { unavailable: attempt - 1, text };
    if (res.status !== 503 || attempt === MAX_ATTEMPTS)
      throw new Error(`POST ${route} answered ${res.status}: ${text}`);
    await sleep(Number(res.headers.get('retry-after') ?? 5) * 1000);
  }
}

/**
 * Signs up enough Enterprise tenants for `count` accounts (the plan allows 250 each) and gives each its
 * share of 12-digit ids starting at `firstId`.
 */
export async function signUpTenants({
  db,
  url,
  prefix,
  count,
  firstId,
}: {
  db: Db;
  url: string;
  prefix: string;
  count: number;
  firstId: number;
}): Promise<BenchTenant[]> {
  const perTenant = getPlan('enterprise').account_limit;
  const tenants: BenchTenant[] = [];
  for (let t = 0; t * perTenant < count; t++) {
    const email = `${prefix}-${t}@example.com`;
    const auth = await tenantAuth(url, email);
    const user = await db.selectFrom('users').select('tenant_id').where('email', '=', email).executeTakeFirstOrThrow();
    await db.updateTable('tenants').set({ plan: 'enterprise' }).where('id', '=', user.tenant_id).execute();
    const size = Math.min(perTenant, count - t * perTenant);
    const awsAccountIds = Array.from({ length: size }, (_, i) => String(firstId + t * perTenant + i));
    tenants.push({ tenantId: user.tenant_id, auth, awsAccountIds });
  }
  return tenants;
}

/** Every account, taking the tenants in turn: a connect locks its tenant's row, so one tenant at a time would queue. */
function pairs(tenants: BenchTenant[]): { auth: BenchTenant['auth']; id: string }[] {
  const all: { auth: BenchTenant['auth']; id: string }[] = [];
  const longest = Math.max(0, ...tenants.map((t) => t.awsAccountIds.length));
  for (let i = 0; i < longest; i++) {
    for (const t of tenants) {
      const id = t.awsAccountIds[i];
      if (id) all.push({ auth: t.auth, id });
    }
  }
  return all;
}

/**
 * POST /accounts for every account of every tenant; returns how many answers were 503 (then retried). Given
 * `eventKeys`, keeps each account's event key (`event_forwarding.api_key`, shown in the connect answer only) by its
 * AWS account id.
 */
export async function connectAccounts(
  url: string,
  tenants: BenchTenant[],
  concurrency: number,
  eventKeys?: Map<string, string>,
): Promise<number> {
  let unavailable = 0;
  await inFlight(pairs(tenants), concurrency, async ({ auth, id }) => {
    const answer = await post(url, auth, '/accounts', { aws_account_id: id });
    unavailable += answer.unavailable;
    if (eventKeys) {
      const key = (JSON.parse(answer.text) as { event_forwarding?: { api_key?: string } }).event_forwarding?.api_key;
      if (!key) throw new Error(`POST /accounts for ${id} answered no event key`);
      eventKeys.set(id, key);
    }
  });
  return unavailable;
}

/**
 * POST /accounts/{id}/verify for every account: each verification starts that account's first scan. Returns
 * how many answers were 503 (then retried).
 */
export async function verifyAccounts(url: string, tenants: BenchTenant[], concurrency: number): Promise<number> {
  let unavailable = 0;
  await inFlight(pairs(tenants), concurrency, async ({ auth, id }) => {
    unavailable += (await post(url, auth, `/accounts/${id}/verify`)).unavailable;
  });
  return unavailable;
}

/**
 * Moves the tenants to the Solo plan's daily interval before verification (which reads the interval), so no
 * routine scan interleaves with the first scans being measured, however long they take.
 */
export async function useDailyInterval(db: Db, tenants: BenchTenant[]): Promise<void> {
  await db
    .updateTable('tenants')
    .set({ plan: 'solo' })
    .where(
      'id',
      'in',
      tenants.map((t) => t.tenantId),
    )
    .execute();
}

/** First scans of the tenants' accounts by status. */
export async function firstScans(db: Db, tenants: BenchTenant[]): Promise<{ succeeded: number; failed: number }> {
  const rows = await db
    .selectFrom('scans')
    .select(['status', sql<string>`count(*)`.as('n')])
    .where(
      'tenant_id',
      'in',
      tenants.map((t) => t.tenantId),
    )
    .where('trigger', '=', 'initial')
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { succeeded: count('succeeded'), failed: count('failed') };
}

/** Resolves once the account workflow has run the scan to the end (alert rules fired): its state lists it. */
export async function scanCompleted(
  temporal: Client,
  workflowId: string,
  scanId: string,
  timeoutMs = 600_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const handle = temporal.workflow.getHandle(workflowId);
  while (!(await handle.query(stateQuery)).recentScans.some((s) => s.scanId === scanId)) {
    if (Date.now() > deadline) throw new Error(`scan ${scanId} of ${workflowId} did not complete in time`);
    await sleep(250);
  }
}
