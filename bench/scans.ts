import { temporal } from '@temporalio/proto';
import { PLANS } from '../domain/plans';
import type { BenchEnvironment } from './environment';

type EventType = temporal.api.enums.v1.EventType;

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('benchmark did not finish in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Connects and verifies `accounts` sandbox accounts (verification starts each first scan at once) and measures
 * how fast the worker completes those scans. Then counts the Temporal billable actions of one routine scan
 * from real histories.
 */
export async function benchScans(env: BenchEnvironment, { auth, tenantEmail, accounts }: { auth: Record<string, string>; tenantEmail: string; accounts: number }) {
  const user = await env.db.selectFrom('users').select('tenant_id').where('email', '=', tenantEmail).executeTakeFirstOrThrow();
  await env.db.updateTable('tenants').set({ plan: 'enterprise' }).where('id', '=', user.tenant_id).execute();
  const ids = Array.from({ length: accounts }, (_, i) => String(500000000000 + i));
  const post = (route: string, body?: object) => fetch(`${env.url}${route}`, {
    method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined,
  });
  for (const id of ids) await post('/accounts', { aws_account_id: id });

  const started = Date.now();
  await Promise.all(ids.map((id) => post(`/accounts/${id}/verify`)));
  const done = () => env.db.selectFrom('scans').select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', user.tenant_id).where('status', '=', 'succeeded').executeTakeFirstOrThrow();
  await until(async () => Number((await done()).n) >= accounts, 600_000);
  const seconds = (Date.now() - started) / 1000;
  const scansPerSecond = accounts / seconds;
  console.log(`${accounts} first scans in ${seconds.toFixed(1)} s: ${scansPerSecond.toFixed(1)} scans/s`);

  // Billable actions of one scan, from histories: the child's start and its activities, plus the timer that
  // schedules a routine scan in the account workflow.
  const account = await env.db.selectFrom('accounts').select(['workflow_id', 'first_scan_id']).where('aws_account_id', '=', ids[0]!).executeTakeFirstOrThrow();
  const countEvents = async (workflowId: string, types: EventType[]) => {
    const history = await env.temporal.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).filter((e) => types.includes(e.eventType as EventType)).length;
  };
  const E = temporal.api.enums.v1.EventType;
  const childActions = await countEvents(account.first_scan_id as string, [E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, E.EVENT_TYPE_TIMER_STARTED]);
  const parentPerScan = await countEvents(account.workflow_id, [E.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED]);
  const actionsPerScan = childActions + parentPerScan + 1; // + the timer that schedules it
  const perMonth = PLANS.map((p) => ({ plan: p.id, interval: p.scan_interval_minutes, actions: Math.round(actionsPerScan * (30 * 24 * 60) / p.scan_interval_minutes) }));
  console.log(`billable actions per routine scan: ${actionsPerScan}`);
  return { accounts, seconds, scansPerSecond, actionsPerScan, childActions, perMonth };
}
