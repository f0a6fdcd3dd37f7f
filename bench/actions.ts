import { setTimeout as sleep } from 'node:timers/promises';
import { temporal } from '@temporalio/proto';
import { sql } from 'kysely';
import { parseExecutionArn } from '../core/temporal/commands';
import { PLANS } from '../domain/tenancy/plans';
import { type BenchTenant, inFlight, scanCompleted } from './accounts';
import type { BenchEnvironment } from './environment';

const E = temporal.api.enums.v1.EventType;

export interface BillableActions {
  /** From the histories of one first scan and its account workflow (what the history shows). */
  fromHistory: { perScan: number; activities: number };
  /** From the server's own `action` counter over `scans` manual scans, by action type (per scan). */
  fromServer: { scans: number; perManualScan: number; byType: [string, number][] };
  /** A routine scan: the server's count for a manual scan, its Update replaced by the timer that schedules it. */
  perRoutineScan: number;
  perMonth: { plan: string; interval: number; actions: number }[];
  /** Workflow tasks the account workflow completed for its first scan (from its history). */
  workflowTasksPerScan: number;
  /** PostgreSQL rows inserted, updated or deleted per manual scan (pg_stat_database), with its two rate-limit counters. */
  rowsWrittenPerScan: number;
  /** Mean size of a scan's row (pg_column_size), its check outcomes included. */
  scanRowBytes: number;
}

/**
 * Billable Temporal actions of one scan, two ways. The account workflow's history shows the timer, any child
 * workflow start and the scan's activities (their ids start with the scan id), but not heartbeats (they leave
 * no event); the dev server's `action` counter sees everything it bills, so manual scans are counted there too
 * and the routine figure is derived from them.
 */
export async function benchBillableActions(
  env: BenchEnvironment,
  {
    url,
    tenant,
    scans,
  }: {
    url: string;
    tenant: BenchTenant;
    scans: number;
  },
): Promise<BillableActions> {
  const first = await env.db
    .selectFrom('accounts')
    .select(['workflow_id', 'first_scan_id'])
    .where('tenant_id', '=', tenant.tenantId)
    .where('aws_account_id', '=', tenant.awsAccountIds[0]!)
    .executeTakeFirstOrThrow();
  const firstScanId = first.first_scan_id as string;
  const history = await env.temporal.workflow.getHandle(first.workflow_id).fetchHistory();
  const events = history.events ?? [];
  const activities = events.filter(
    (e) =>
      e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED &&
      e.activityTaskScheduledEventAttributes?.activityId?.startsWith(firstScanId),
  ).length;
  const childStarts = events.filter(
    (e) => e.eventType === E.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
  ).length;
  const fromHistory = { perScan: activities + childStarts + 1, activities }; // + the timer that schedules a routine scan
  // The scan's workflow tasks: the one that scheduled its first activity, and one after each of its activities.
  const workflowTasksPerScan = 1 + activities;

  // The first scans' activities fire the alert rules after their rows say succeeded: let them all end first.
  const firstScans = await env.db
    .selectFrom('accounts')
    .select(['workflow_id', 'first_scan_id'])
    .where('tenant_id', '=', tenant.tenantId)
    .execute();
  await Promise.all(firstScans.map((a) => scanCompleted(env.temporal, a.workflow_id, a.first_scan_id as string)));
  await sleep(1_000);

  const ids = tenant.awsAccountIds.slice(0, scans);
  // The tenant scans daily (useDailyInterval: the Solo plan, which allows two manual scans an hour per tenant); its
  // workflows keep that interval, no plan change is signalled, but its manual scans follow the Enterprise allowance.
  await env.db.updateTable('tenants').set({ plan: 'enterprise' }).where('id', '=', tenant.tenantId).execute();
  const before = await env.actionCounts();
  const rowsBefore = await rowsWritten(env);
  const started: { workflowId: string; scanId: string }[] = [];
  await inFlight(ids, 10, async (id) => {
    const res = await fetch(`${url}/accounts/${id}/scan`, { method: 'POST', headers: tenant.auth });
    if (res.status !== 202) throw new Error(`POST /accounts/${id}/scan answered ${res.status}`);
    const { execution_arn: arn } = (await res.json()) as { execution_arn: string };
    started.push(parseExecutionArn(arn)!);
  });
  await Promise.all(started.map(({ workflowId, scanId }) => scanCompleted(env.temporal, workflowId, scanId)));
  await sleep(1_000); // the account workflows' last tasks after their scans (not billed, but let them settle)
  const after = await env.actionCounts();
  await sleep(1_000); // PostgreSQL publishes its statistics at most once a second
  const rowsWrittenPerScan = Math.round(((await rowsWritten(env)) - rowsBefore) / ids.length);
  const { bytes } = await env.db
    .selectFrom('scans')
    .select(sql<string>`avg(pg_column_size(scans.*))::int`.as('bytes'))
    .where('tenant_id', '=', tenant.tenantId)
    .executeTakeFirstOrThrow();
  const byType = [...after]
    .map(([type, n]): [string, number] => [type, (n - (before.get(type) ?? 0)) / ids.length])
    // The benchmark's own queries (it polls each account workflow for the scan's end) are billed too, but not the scan's.
    .filter(([type, n]) => n > 0 && !/Query/.test(type));
  const perManualScan = byType.reduce((sum, [, n]) => sum + n, 0);
  const updates = byType.filter(([type]) => /Update/.test(type)).reduce((sum, [, n]) => sum + n, 0);
  const perRoutineScan = perManualScan - updates + 1;
  const perMonth = PLANS.map((p) => ({
    plan: p.id,
    interval: p.scan_interval_minutes,
    actions: Math.round((perRoutineScan * (30 * 24 * 60)) / p.scan_interval_minutes),
  }));
  console.log(
    `billable actions per scan: history ${fromHistory.perScan}, server ${perManualScan} per manual scan ` +
      `(${byType.map(([t, n]) => `${t} ${n}`).join(', ')}), ${perRoutineScan} per routine scan`,
  );
  return {
    fromHistory,
    fromServer: { scans: ids.length, perManualScan, byType },
    perRoutineScan,
    perMonth,
    workflowTasksPerScan,
    rowsWrittenPerScan,
    scanRowBytes: Number(bytes),
  };
}

async function rowsWritten(env: BenchEnvironment): Promise<number> {
  const { rows } = await env.db
    .selectFrom(sql`pg_stat_database`.as('d'))
    .select(sql<string>`sum(tup_inserted + tup_updated + tup_deleted)`.as('rows'))
    .where(sql`datname`, '=', sql`current_database()`)
    .executeTakeFirstOrThrow();
  return Number(rows);
}
