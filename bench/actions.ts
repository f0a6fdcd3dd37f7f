import { setTimeout as sleep } from 'node:timers/promises';
import { temporal } from '@temporalio/proto';
import { PLANS } from '../domain/plans';
import { type BenchTenant, inFlight } from './accounts';
import type { BenchEnvironment } from './environment';

type EventType = temporal.api.enums.v1.EventType;
const E = temporal.api.enums.v1.EventType;

export interface BillableActions {
  /** From the histories of one first scan and its account workflow (what the history shows). */
  fromHistory: { perScan: number; activities: number };
  /** From the server's own `action` counter over `scans` manual scans, by action type (per scan). */
  fromServer: { scans: number; perManualScan: number; byType: [string, number][] };
  /** A routine scan: the server's count for a manual scan, its Update replaced by the timer that schedules it. */
  perRoutineScan: number;
  perMonth: { plan: string; interval: number; actions: number }[];
}

/**
 * Billable Temporal actions of one scan, two ways. The histories show the child workflow start, the timer
 * and the scan's activities, but not heartbeats (they leave no event); the dev server's `action` counter sees
 * everything it bills, so manual scans are counted there too and the routine figure is derived from them.
 */
export async function benchBillableActions(env: BenchEnvironment, { url, tenant, scans }: {
  url: string; tenant: BenchTenant; scans: number;
}): Promise<BillableActions> {
  const first = await env.db.selectFrom('accounts').select(['workflow_id', 'first_scan_id'])
    .where('tenant_id', '=', tenant.tenantId).where('aws_account_id', '=', tenant.awsAccountIds[0]!).executeTakeFirstOrThrow();
  const countEvents = async (workflowId: string, types: EventType[]) => {
    const history = await env.temporal.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).filter((e) => types.includes(e.eventType as EventType)).length;
  };
  const activities = await countEvents(first.first_scan_id as string, [E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, E.EVENT_TYPE_TIMER_STARTED]);
  const childStarts = await countEvents(first.workflow_id, [E.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED]);
  const fromHistory = { perScan: activities + childStarts + 1, activities }; // + the timer that schedules a routine scan

  // The first scans' last activity (evaluateAlerts) runs after their rows say succeeded: let them all end first.
  const firstScans = await env.db.selectFrom('accounts').select('first_scan_id').where('tenant_id', '=', tenant.tenantId).execute();
  await Promise.all(firstScans.map((a) => env.temporal.workflow.getHandle(a.first_scan_id as string).result()));
  await sleep(1_000);

  const ids = tenant.awsAccountIds.slice(0, scans);
  const before = await env.actionCounts();
  const scanIds: string[] = [];
  await inFlight(ids, 10, async (id) => {
    const res = await fetch(`${url}/accounts/${id}/scan`, { method: 'POST', headers: tenant.auth });
    if (res.status !== 202) throw new Error(`POST /accounts/${id}/scan answered ${res.status}`);
    const { execution_arn: arn } = (await res.json()) as { execution_arn: string };
    scanIds.push(arn.slice(arn.indexOf('workflow/') + 'workflow/'.length));
  });
  await Promise.all(scanIds.map((id) => env.temporal.workflow.getHandle(id).result()));
  await sleep(1_000); // the account workflows' last tasks after their scans (not billed, but let them settle)
  const after = await env.actionCounts();
  const byType = [...after]
    .map(([type, n]): [string, number] => [type, (n - (before.get(type) ?? 0)) / ids.length])
    .filter(([, n]) => n > 0);
  const perManualScan = byType.reduce((sum, [, n]) => sum + n, 0);
  const updates = byType.filter(([type]) => /Update/.test(type)).reduce((sum, [, n]) => sum + n, 0);
  const perRoutineScan = perManualScan - updates + 1;
  const perMonth = PLANS.map((p) => ({
    plan: p.id, interval: p.scan_interval_minutes, actions: Math.round(perRoutineScan * (30 * 24 * 60) / p.scan_interval_minutes),
  }));
  console.log(`billable actions per scan: history ${fromHistory.perScan}, server ${perManualScan} per manual scan `
    + `(${byType.map(([t, n]) => `${t} ${n}`).join(', ')}), ${perRoutineScan} per routine scan`);
  return { fromHistory, fromServer: { scans: ids.length, perManualScan, byType }, perRoutineScan, perMonth };
}
