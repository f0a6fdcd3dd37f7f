import { Client } from '@temporalio/client';
import { recordForwardingRegions } from '../../db/repositories/event-forwarding';
import { FORWARDING_BLIND_ID } from '../../domain/events/catalog';
import { heartbeatRuleArn } from '../../domain/events/forwarding-health';
import { HEARTBEAT_LATE_AFTER_MINUTES } from '../../domain/events/forwarding-rules';
import { eventForwardingWatchWorkflow } from '../../workflows';
import { AccountHarness } from '../helpers/account-harness';
import { waitFor } from '../helpers/patience';
import { type AlertPeers, alertsOf, deliveriesOf, insertRule, scanAndWait, startAlertPeers } from '../helpers/alerts';
import { emailText } from '../helpers/smtp';

// The forwarding watch (workflows/forwarding-watch.ts, core/events/forwarding-watch.ts) on the time-skipping test
// server: each run judges the heartbeats by the workflow's own time, so skipping the server's clock past the bound
// makes a region blind, and a fresh heartbeat brings it back. The run is started as the schedule starts it, on the
// suite's worker with the real activities, a real database and a real SMTP server for the alert it fires.

const MINUTE_MS = 60_000;

let h: AccountHarness;
let peers: AlertPeers;
let runs = 0;
beforeAll(async () => {
  peers = await startAlertPeers();
});
beforeEach(async () => {
  h = await AccountHarness.create({ config: peers.config });
});
afterEach(() => h?.close());
afterAll(() => peers?.close());

/**
 * One run of the watch, as the schedule starts it (on the task queue deliveries start on too). Through a plain client:
 * the test environment's own would let the server skip its clock while awaiting the result (to the account
 * workflow's next scan timer), and the heartbeats are judged by that clock; here only `env.sleep` moves it.
 */
function watch() {
  runs += 1;
  return new Client({ connection: h.env.connection }).workflow.execute(eventForwardingWatchWorkflow, {
    taskQueue: h.config.temporal.taskQueue,
    workflowId: `forwarding-watch-${runs}`,
  });
}

const envNow = async () => new Date(await h.env.currentTimeMs());

const blindSignals = (accountId: string) =>
  h.database.db
    .selectFrom('signals')
    .select(['id', 'region', 'resource', 'severity', 'title', 'resolved_at', 'event_batch_id'])
    .where('account_id', '=', accountId)
    .where('check_id', '=', FORWARDING_BLIND_ID)
    .orderBy('id')
    .execute();

describe('the forwarding watch', () => {
  it('opens a signal for the region whose heartbeat is late, alerts on it, and resolves it once the heartbeat is back', async () => {
    await h.withActiveAccount(
      async (handle, input) => {
        const to = `blind-${input.accountId}@example.com`;
        await insertRule(h, input.tenantId, {
          minSrs: 0,
          scenarios: ['detection'],
          channels: [{ type: 'email', to: [to] }],
        });
        const record = async (region: string, kind: 'heartbeat' | 'event') => {
          const at = await envNow();
          await recordForwardingRegions({
            db: h.database.db,
            tenantId: input.tenantId,
            accountId: input.accountId,
            touches: [{ region, heartbeatAt: kind === 'heartbeat' ? at : null, eventAt: kind === 'event' ? at : null }],
          });
        };
        await record('us-east-1', 'heartbeat');
        await record('eu-west-1', 'heartbeat');
        // Events but never a heartbeat: not watched, however long it stays silent.
        await record('ap-south-1', 'event');
        expect(await watch()).toMatchObject({ opened: 0, resolved: 0 });

        // eu-west-1 beats again on time; us-east-1 goes silent past the bound.
        await h.env.sleep(15 * MINUTE_MS);
        await record('eu-west-1', 'heartbeat');
        await h.env.sleep((HEARTBEAT_LATE_AFTER_MINUTES - 15 + 1) * MINUTE_MS);
        const scoreBefore = (await h.accountRow(input.accountId)).current_srs;
        expect(await watch()).toMatchObject({ accounts: 1, opened: 1, resolved: 0, failed: 0 });

        const [signal, ...others] = await blindSignals(input.accountId);
        expect(others).toEqual([]);
        expect(signal).toMatchObject({
          region: 'us-east-1',
          resource: heartbeatRuleArn('us-east-1', input.awsAccountId),
          severity: 'HIGH',
          title: 'Real-time detection is blind in us-east-1',
          resolved_at: null,
        });
        // It counts at once, as an event's signal does.
        expect((await h.accountRow(input.accountId)).current_srs).toBeLessThan(scoreBefore!);

        // The rule fired on the signal's batch, and its e-mail went out.
        const alerts = (await alertsOf(h, input.accountId)).filter((a) => a.event_batch_id === signal!.event_batch_id);
        expect(alerts).toHaveLength(1);
        const deliveries = (await deliveriesOf(h, input.accountId)).filter((d) => d.alert_id === alerts[0]!.id);
        expect(deliveries).toHaveLength(1);
        // Polled in the database: awaiting the delivery's workflow would let the server skip its clock meanwhile.
        await waitFor(async () =>
          (await deliveriesOf(h, input.accountId)).some((d) => d.id === deliveries[0]!.id && d.status === 'delivered'),
        );
        const mails = peers.smtp.messages.filter((m) => m.to.includes(to));
        expect(mails).toHaveLength(1);
        expect(emailText(mails[0]!.raw)).toContain('Real-time detection is blind in us-east-1');

        // Other runs while it is still late change nothing, two at once included (eu-west-1 beating on, as it
        // would); nor does a scan, which cannot see the forwarder deliver.
        await record('eu-west-1', 'heartbeat');
        const again = await Promise.all([watch(), watch()]);
        expect(again.map((r) => [r.opened, r.resolved])).toEqual([
          [0, 0],
          [0, 0],
        ]);
        await scanAndWait(handle, 2);
        expect(await blindSignals(input.accountId)).toMatchObject([{ id: signal!.id, resolved_at: null }]);

        // The heartbeat is back: the next run resolves the signal, and the score recovers.
        await record('us-east-1', 'heartbeat');
        await record('eu-west-1', 'heartbeat');
        await h.env.sleep(5 * MINUTE_MS);
        expect(await watch()).toMatchObject({ accounts: 1, opened: 0, resolved: 1 });
        const [resolved] = await blindSignals(input.accountId);
        expect(resolved!.resolved_at).not.toBeNull();
        expect((await h.accountRow(input.accountId)).current_srs).toBe(scoreBefore);
        expect(await watch()).toMatchObject({ accounts: 0, opened: 0, resolved: 0 });
        expect((await alertsOf(h, input.accountId)).filter((a) => a.event_batch_id !== null)).toHaveLength(1);
      },
      { taskQueue: h.config.temporal.taskQueue },
    );
  });

  it('opens one signal when two runs overlap, and does not watch a disconnected account', async () => {
    await h.withActiveAccount(
      async (_handle, input) => {
        const gone = await h.seedAccount();
        await h.database.db
          .updateTable('accounts')
          .set({ status: 'DISCONNECTED' })
          .where('id', '=', gone.accountId)
          .execute();
        for (const account of [input, gone])
          await recordForwardingRegions({
            db: h.database.db,
            tenantId: account.tenantId,
            accountId: account.accountId,
            touches: [{ region: 'eu-central-1', heartbeatAt: await envNow(), eventAt: null }],
          });
        await h.env.sleep((HEARTBEAT_LATE_AFTER_MINUTES + 5) * MINUTE_MS);
        // Two runs at once open one signal between them: the account's lock orders them, and the later finds it open.
        const overlapping = await Promise.all([watch(), watch()]);
        expect(overlapping.map((r) => r.opened).sort()).toEqual([0, 1]);
        expect((await blindSignals(input.accountId)).map((s) => s.region)).toEqual(['eu-central-1']);
        expect(await blindSignals(gone.accountId)).toEqual([]);
      },
      { taskQueue: h.config.temporal.taskQueue },
    );
  });
});
