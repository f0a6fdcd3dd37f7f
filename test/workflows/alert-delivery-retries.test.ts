import { deliveryWorkflowId } from '../../workflows/contracts';
import { AccountHarness } from '../helpers/account-harness';
import { waitFor } from '../helpers/patience';
import {
  type AlertPeers,
  attemptsOf,
  deliveriesOf,
  deliveryResult,
  insertRule,
  ROUTING_KEY,
  rootMfaOff,
  rootMfaOffNoBudget,
  scanAndWait,
  startAlertPeers,
} from '../helpers/alerts';
import { cleanInventory } from '../helpers/inventory';

// Deliveries that have to wait: a channel down for hours, throttling, a permanent refusal. Simulated time on
// the time-skipping test server. Each test gets a server of its own: once a delivery workflow has completed
// on it, the Java test server stops skipping time for later sleeps.

let h: AccountHarness;
let peers: AlertPeers;
beforeAll(async () => {
  peers = await startAlertPeers();
});
beforeEach(async () => {
  peers.pagerDutyDown = undefined;
  h = await AccountHarness.create({ config: peers.config });
});
afterEach(() => h?.close());
afterAll(() => peers?.close());

/** Seconds between the delivery activity's scheduling and the start of its last attempt, from the workflow's history. */
async function retryWaitSeconds(workflowId: string): Promise<number> {
  const { events } = await h.env.client.workflow.getHandle(workflowId).fetchHistory();
  const seconds = (type: string) => Number(events!.find((e) => e[type as keyof typeof e])!.eventTime!.seconds);
  return seconds('activityTaskStartedEventAttributes') - seconds('activityTaskScheduledEventAttributes');
}

describe('alert delivery retries', () => {
  it('delivers once to a channel that was down for three hours, without delaying the next scan', async () => {
    await h.withActiveAccount(async (handle, input) => {
      await insertRule(h, input.tenantId, { minSrs: 60, channels: [{ type: 'pagerduty', routing_key: ROUTING_KEY }] });
      peers.pagerDutyDown = { status: 503, body: { status: 'unavailable' } };
      const before = peers.pagerduty.requests.length;
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      const [delivery] = await deliveriesOf(h, input.accountId);

      // The channel is down, yet the next scan runs at once.
      await scanAndWait(handle, 3);
      expect((await deliveriesOf(h, input.accountId))[0]!.status).not.toBe('delivered');

      await h.env.sleep('3 hours');
      const failedWhileDown = peers.pagerduty.requests.length - before;
      expect(failedWhileDown).toBeGreaterThan(3);
      peers.pagerDutyDown = undefined;
      expect(await deliveryResult(h, delivery!.id)).toBe('delivered');

      const attempts = await attemptsOf(h, delivery!.id);
      expect(attempts.filter((a) => a.outcome === 'delivered')).toHaveLength(1);
      expect(attempts.filter((a) => a.outcome === 'retryable').every((a) => a.http_status === 503)).toBe(true);
      expect(attempts.length).toBe(peers.pagerduty.requests.length - before);
      expect((await deliveriesOf(h, input.accountId))[0]).toMatchObject({
        status: 'delivered',
        attempts: attempts.length,
      });
    });
  });

  it('honours 429 and gives up at once on a permanent refusal', async () => {
    await h.withActiveAccount(async (handle, input) => {
      await insertRule(h, input.tenantId, { minSrs: 60, channels: [{ type: 'pagerduty', routing_key: ROUTING_KEY }] });
      peers.pagerDutyDown = { status: 429, headers: { 'retry-after': '600' }, body: { status: 'throttled' } };
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      const [throttled] = await deliveriesOf(h, input.accountId);
      await waitFor(async () => (await attemptsOf(h, throttled!.id)).length > 0);
      peers.pagerDutyDown = undefined;
      expect(await deliveryResult(h, throttled!.id)).toBe('delivered');
      expect((await attemptsOf(h, throttled!.id)).map((a) => [a.outcome, a.http_status])).toEqual([
        ['retryable', 429],
        ['delivered', null],
      ]);
      // The retry waited as long as PagerDuty asked, not the 5-second first backoff (server time, skipped).
      expect(await retryWaitSeconds(deliveryWorkflowId(throttled!.id))).toBeGreaterThanOrEqual(600);

      // A bad routing key: PagerDuty answers 400 and no retry can fix it.
      peers.pagerDutyDown = { status: 400, body: { status: 'invalid event', errors: ['Invalid routing key'] } };
      h.cloud.setInventory(input.awsAccountId, rootMfaOffNoBudget);
      await scanAndWait(handle, 3);
      const refused = (await deliveriesOf(h, input.accountId)).find((d) => d.id !== throttled!.id)!;
      expect(await deliveryResult(h, refused.id)).toBe('failed');
      expect(await attemptsOf(h, refused.id)).toEqual([
        expect.objectContaining({ outcome: 'permanent', http_status: 400 }),
      ]);
      expect((await deliveriesOf(h, input.accountId)).find((d) => d.id === refused.id)).toMatchObject({
        status: 'failed',
        attempts: 1,
      });
    });
  });

  it('holds a resolve back until the trigger of its incident is delivered', async () => {
    await h.withActiveAccount(async (handle, input) => {
      await insertRule(h, input.tenantId, { minSrs: 60, channels: [{ type: 'pagerduty', routing_key: ROUTING_KEY }] });
      peers.pagerDutyDown = { status: 503, body: { status: 'unavailable' } };
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      h.cloud.setInventory(input.awsAccountId, (at) => cleanInventory(at.toISOString()));
      await scanAndWait(handle, 3); // the condition clears while the trigger is still failing
      const [trigger, resolve] = await deliveriesOf(h, input.accountId);
      expect([trigger!.kind, resolve!.kind]).toEqual(['trigger', 'resolve']);
      await waitFor(async () => (await attemptsOf(h, trigger!.id)).length > 0);
      expect(await attemptsOf(h, resolve!.id)).toEqual([]);

      peers.pagerDutyDown = undefined;
      expect(await deliveryResult(h, resolve!.id)).toBe('delivered');
      expect((await deliveriesOf(h, input.accountId)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
      const actions = peers.pagerduty.requests
        .map((r) => r.json as { event_action: string; dedup_key: string })
        .filter((e) => e.dedup_key.endsWith(`:${input.accountId}`))
        .map((e) => e.event_action);
      expect(actions.lastIndexOf('trigger')).toBeLessThan(actions.indexOf('resolve'));
    });
  });

  it('gives up after a day of failures and records the delivery as failed', async () => {
    await h.withActiveAccount(async (handle, input) => {
      await insertRule(h, input.tenantId, { minSrs: 60, channels: [{ type: 'pagerduty', routing_key: ROUTING_KEY }] });
      peers.pagerDutyDown = { status: 500, body: { status: 'error' } };
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      const [delivery] = await deliveriesOf(h, input.accountId);
      expect(await deliveryResult(h, delivery!.id)).toBe('failed');
      const attempts = await attemptsOf(h, delivery!.id);
      // Backing off to every 30 minutes: a day holds dozens of attempts, not thousands.
      expect(attempts.length).toBeGreaterThan(20);
      expect(attempts.length).toBeLessThan(80);
      expect(attempts.every((a) => a.outcome === 'retryable' && a.http_status === 500)).toBe(true);
      expect((await deliveriesOf(h, input.accountId))[0]).toMatchObject({
        status: 'failed',
        last_error: expect.stringContaining('500'),
      });
    });
  });
});
