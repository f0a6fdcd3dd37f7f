import { sql } from 'kysely';
import { newId } from '../../domain/ids';
import { ensureRetentionSchedule, retentionScheduleId } from '../../worker/schedules';
import { waitFor } from '../helpers/account-harness';
import { createTestContext, signupAndLogin, type TestContext } from '../helpers/context';

// The daily retention run: a Temporal schedule on the dev server starts the workflow on the suite's worker,
// which deletes audit events past 400 days, spent links and stale rate-limit windows, and nothing else.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true });
});
afterAll(async () => {
  await ctx.temporal.schedule.getHandle(retentionScheduleId(ctx.config.temporal.taskQueue)).delete().catch(() => undefined);
  await ctx.close();
});

const daysAgo = (days: number) => sql<Date>`now() - make_interval(days => ${days})`;

it('is scheduled once per task queue and deletes only what outlived its retention', async () => {
  const owner = await signupAndLogin(ctx);
  const auditEvent = (id: string, days: number) => ({
    id, tenant_id: owner.tenantId, actor_user_id: owner.userId, actor_email: owner.email, action: 'auth.login_succeeded' as const,
    target: null, client_address: null, details: JSON.stringify({}), created_at: daysAgo(days),
  });
  const [old, kept] = [newId('auditEvent'), newId('auditEvent')];
  await ctx.db.insertInto('audit_events').values([auditEvent(old, 401), auditEvent(kept, 399)]).execute();
  await ctx.db.insertInto('rate_limits').values([
    { key: 'test:stale', window_start: daysAgo(3), count: 4 }, { key: 'test:live', window_start: sql`now()`, count: 4 },
  ]).execute();
  const reset = (id: string, expiredDaysAgo: number) => ({
    id, user_id: owner.userId, token_hash: id, expires_at: daysAgo(expiredDaysAgo),
  });
  await ctx.db.insertInto('password_resets').values([reset('pwr_spent', 2), reset('pwr_recent', 0)]).execute();

  const taskQueue = ctx.config.temporal.taskQueue;
  expect(await ensureRetentionSchedule(ctx.temporal, taskQueue)).toBe('created');
  expect(await ensureRetentionSchedule(ctx.temporal, taskQueue)).toBe('exists');
  const schedule = ctx.temporal.schedule.getHandle(retentionScheduleId(taskQueue));
  const described = await schedule.describe();
  expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionWorkflow', taskQueue });
  expect(described.spec.intervals).toMatchObject([{ every: 86_400_000 }]);

  // What an operator's "trigger" in the Web UI does; the next daily run would do the same.
  await schedule.trigger();
  const ids = async (table: 'audit_events' | 'password_resets') => (await ctx.db.selectFrom(table).select('id').execute()).map((r) => r.id);
  await waitFor(async () => !(await ids('audit_events')).includes(old), 30_000);
  expect(await ids('audit_events')).toContain(kept);
  expect((await ids('password_resets')).sort()).toEqual(['pwr_recent']);
  const windows = (await ctx.db.selectFrom('rate_limits').select('key').where('key', 'like', 'test:%').execute()).map((r) => r.key);
  expect(windows).toEqual(['test:live']);
}, 60_000);
