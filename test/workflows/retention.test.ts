import { sql } from 'kysely';
import { HEARTBEAT_INTERVAL_MINUTES } from '../../domain/events/forwarding-rules';
import { newId } from '../../domain/ids';
import { deleteResolvedSignalsOlderThan } from '../../db/repositories/retention';
import {
  ensureSchedules,
  eventDispatchScheduleId,
  forwardingWatchScheduleId,
  retentionScheduleId,
} from '../../worker/schedules';
import { waitFor } from '../helpers/patience';
import { createTestContext, signupAndLogin, type TestContext } from '../helpers/context';

// The daily retention run: a Temporal schedule on the dev server starts the workflow on the suite's worker,
// which deletes what is past its retention (domain/records/retention.ts), and nothing else.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true });
});
afterAll(async () => {
  for (const id of [retentionScheduleId, eventDispatchScheduleId, forwardingWatchScheduleId]) {
    await ctx.temporal.schedule
      .getHandle(id(ctx.config.temporal.taskQueue))
      .delete()
      .catch(() => undefined);
  }
  await ctx.close();
});

const daysAgo = (days: number) => sql<Date>`now() - make_interval(days => ${days})`;

it('is scheduled once per task queue and deletes only what outlived its retention', async () => {
  const owner = await signupAndLogin(ctx);
  const auditEvent = (id: string, days: number) => ({
    id,
    tenant_id: owner.tenantId,
    actor_user_id: owner.userId,
    actor_email: owner.email,
    action: 'auth.login_succeeded' as const,
    target: null,
    client_address: null,
    details: JSON.stringify({}),
    created_at: daysAgo(days),
  });
  const [old, kept] = [newId('auditEvent'), newId('auditEvent')];
  await ctx.db
    .insertInto('audit_events')
    .values([auditEvent(old, 401), auditEvent(kept, 399)])
    .execute();
  await ctx.db
    .insertInto('rate_limits')
    .values([
      { key: 'test:stale', window_start: daysAgo(3), count: 4 },
      { key: 'test:live', window_start: sql`now()`, count: 4 },
    ])
    .execute();
  const reset = (id: string, expiredDaysAgo: number) => ({
    id,
    user_id: owner.userId,
    token_hash: id,
    expires_at: daysAgo(expiredDaysAgo),
  });
  await ctx.db
    .insertInto('password_resets')
    .values([reset('pwr_spent', 2), reset('pwr_recent', 0)])
    .execute();

  const history = await seedHistory(owner.tenantId);

  const taskQueue = ctx.config.temporal.taskQueue;
  const scheduleIds = {
    retention: retentionScheduleId(taskQueue),
    eventDispatch: eventDispatchScheduleId(taskQueue),
    forwardingWatch: forwardingWatchScheduleId(taskQueue),
  };
  expect(await ensureSchedules(ctx.temporal, taskQueue)).toEqual({
    [scheduleIds.retention]: 'created',
    [scheduleIds.eventDispatch]: 'created',
    [scheduleIds.forwardingWatch]: 'created',
  });
  expect(await ensureSchedules(ctx.temporal, taskQueue)).toEqual({
    [scheduleIds.retention]: 'exists',
    [scheduleIds.eventDispatch]: 'exists',
    [scheduleIds.forwardingWatch]: 'exists',
  });
  const schedule = ctx.temporal.schedule.getHandle(retentionScheduleId(taskQueue));
  const described = await schedule.describe();
  expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionWorkflow', taskQueue });
  expect(described.spec.intervals).toMatchObject([{ every: 86_400_000 }]);
  // The forwarding watch runs as often as the forwarder's heartbeat beats.
  const watch = await ctx.temporal.schedule.getHandle(scheduleIds.forwardingWatch).describe();
  expect(watch.action).toMatchObject({
    type: 'startWorkflow',
    workflowType: 'eventForwardingWatchWorkflow',
    taskQueue,
  });
  expect(watch.spec.intervals).toMatchObject([{ every: HEARTBEAT_INTERVAL_MINUTES * 60_000 }]);

  // What an operator's "trigger" in the Web UI does; the next daily run would do the same.
  await schedule.trigger();
  const ids = async (
    table: 'audit_events' | 'password_resets' | 'scans' | 'signals' | 'alert_deliveries' | 'alert_events',
  ) => (await ctx.db.selectFrom(table).select('id').execute()).map((r) => r.id).sort();
  await waitFor(
    async () => !(await ids('scans')).includes(history.oldScan) && !(await ids('audit_events')).includes(old),
  );
  expect(await ids('audit_events')).toContain(kept);
  expect(await ids('password_resets')).toEqual(['pwr_recent']);
  const windows = (await ctx.db.selectFrom('rate_limits').select('key').where('key', 'like', 'test:%').execute()).map(
    (r) => r.key,
  );
  expect(windows).toEqual(['test:live']);

  // Scans past 400 days go with their alert events and deliveries, except the account's latest compliance scan.
  expect(await ids('scans')).toEqual([history.complianceScan, history.recentScan].sort());
  expect(await ids('alert_events')).toEqual([history.recentAlert]);
  // Settled deliveries past 90 days go; one still pending stays.
  expect(await ids('alert_deliveries')).toEqual([history.pendingDelivery]);
  // Resolved signals past 400 days go; an open signal stays, however old the scan that opened it.
  const signals = await ctx.db.selectFrom('signals').select(['id', 'first_scan_id']).orderBy('id').execute();
  expect(signals).toEqual([
    { id: history.openSignal, first_scan_id: null },
    { id: history.recentResolved, first_scan_id: history.recentScan },
  ]);
  // A year of score history stays.
  const days = (
    await ctx.db.selectFrom('score_history').select(sql<string>`day::text`.as('day')).orderBy('day').execute()
  ).map((p) => p.day);
  expect(days).toEqual([history.keptDay]);
});

/** An account with history on both sides of each retention line. */
async function seedHistory(tenantId: string, awsAccountId = '777788889999') {
  const accountId = newId('account');
  const [oldScan, complianceScan, recentScan] = [newId('scan'), newId('scan'), newId('scan')];
  await ctx.db
    .insertInto('accounts')
    .values({
      id: accountId,
      tenant_id: tenantId,
      aws_account_id: awsAccountId,
      display_name: null,
      tags: [],
      status: 'ACTIVE',
      external_id: `r${awsAccountId}`.padEnd(32, 'r'),
      role_name: 'SentinelReadOnly',
      workflow_id: `wf-${accountId}`,
    })
    .execute();
  const scan = (id: string, days: number) => ({
    id,
    tenant_id: tenantId,
    account_id: accountId,
    trigger: 'scheduled' as const,
    status: 'succeeded' as const,
    srs: 50,
    started_at: daysAgo(days),
  });
  await ctx.db
    .insertInto('scans')
    .values([scan(oldScan, 401), scan(complianceScan, 402), scan(recentScan, 10)])
    .execute();
  await ctx.db.updateTable('accounts').set({ checks_scan_id: complianceScan }).where('id', '=', accountId).execute();

  const ruleId = newId('rule');
  await ctx.db
    .insertInto('alert_rules')
    .values({
      id: ruleId,
      tenant_id: tenantId,
      name: 'R',
      channels: JSON.stringify([{ type: 'email', to: ['x@example.com'] }]),
      updated_at: new Date(),
    })
    .execute();
  const [oldAlert, recentAlert] = [newId('alert'), newId('alert')];
  const alert = (id: string, scanId: string) => ({
    id,
    tenant_id: tenantId,
    account_id: accountId,
    rule_id: ruleId,
    scan_id: scanId,
    srs_at_trigger: 50,
    scenarios_triggered: [],
    findings_digest: id,
    fired_at: new Date(),
  });
  await ctx.db
    .insertInto('alert_events')
    .values([alert(oldAlert, oldScan), alert(recentAlert, recentScan)])
    .execute();
  const [oldDelivery, staleDelivery, pendingDelivery] = [newId('delivery'), newId('delivery'), newId('delivery')];
  const delivery = (
    id: string,
    alertId: string,
    scanId: string,
    index: number,
    status: 'delivered' | 'pending',
    days: number,
  ) => ({
    id,
    alert_id: alertId,
    tenant_id: tenantId,
    scan_id: scanId,
    channel_index: index,
    channel_type: 'email' as const,
    channel: JSON.stringify({ type: 'email', to: ['x@example.com'] }),
    status,
    created_at: daysAgo(days),
  });
  await ctx.db
    .insertInto('alert_deliveries')
    .values([
      delivery(oldDelivery, oldAlert, oldScan, 0, 'delivered', 401),
      delivery(staleDelivery, recentAlert, recentScan, 0, 'delivered', 91),
      delivery(pendingDelivery, recentAlert, recentScan, 1, 'pending', 91),
    ])
    .execute();

  const openSignal = `sig_a_open_${awsAccountId}`;
  const oldResolved = `sig_b_old_resolved_${awsAccountId}`;
  const recentResolved = `sig_c_recent_resolved_${awsAccountId}`;
  const signal = (id: string, firstScanId: string, resolvedDaysAgo: number | null) => ({
    id,
    tenant_id: tenantId,
    account_id: accountId,
    check_id: 'iam.root_mfa_disabled',
    fingerprint: id,
    scenario: 'iam' as const,
    severity: 'CRITICAL' as const,
    title: 't',
    description: 'd',
    resource: id,
    region: 'global',
    first_scan_id: firstScanId,
    detected_at: daysAgo(500),
    resolved_at: resolvedDaysAgo === null ? null : daysAgo(resolvedDaysAgo),
  });
  await ctx.db
    .insertInto('signals')
    .values([
      signal(openSignal, oldScan, null),
      signal(oldResolved, recentScan, 401),
      signal(recentResolved, recentScan, 5),
    ])
    .execute();

  const keptDay = new Date(Date.now() - 300 * 86_400_000).toISOString().slice(0, 10);
  const oldDay = new Date(Date.now() - 370 * 86_400_000).toISOString().slice(0, 10);
  await ctx.db
    .insertInto('score_history')
    .values([
      { account_id: accountId, day: oldDay, srs: 40, scan_id: recentScan, recorded_at: new Date() },
      { account_id: accountId, day: keptDay, srs: 50, scan_id: recentScan, recorded_at: new Date() },
    ])
    .execute();
  return { oldScan, complianceScan, recentScan, recentAlert, pendingDelivery, openSignal, recentResolved, keptDay };
}

it('deletes in batches until a batch comes back short', async () => {
  const owner = await signupAndLogin(ctx);
  const { recentScan } = await seedHistory(owner.tenantId, '777788880000');
  const accountId = (
    await ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('aws_account_id', '=', '777788880000')
      .executeTakeFirstOrThrow()
  ).id;
  await ctx.db
    .insertInto('signals')
    .values(
      Array.from({ length: 5 }, (_, i) => ({
        id: `sig_batch_${i}`,
        tenant_id: owner.tenantId,
        account_id: accountId,
        check_id: 'iam.root_mfa_disabled',
        fingerprint: `batch-${i}`,
        scenario: 'iam' as const,
        severity: 'LOW' as const,
        title: 't',
        description: 'd',
        resource: `r${i}`,
        region: 'global',
        first_scan_id: recentScan,
        detected_at: daysAgo(900),
        resolved_at: daysAgo(800),
      })),
    )
    .execute();
  let batches = 0;
  const deleted = await deleteResolvedSignalsOlderThan({
    db: ctx.db,
    days: 400,
    batch: 2,
    onBatch: () => {
      batches += 1;
    },
  });
  expect(deleted).toBe(6); // the five, and the seeded one resolved 401 days ago
  expect(batches).toBe(4); // 2, 2, 2, then an empty batch ends it
});
