import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { partsOfGroups } from '../../domain/events/types';
import type { ServiceGroup } from '../../domain/events/types';
import { disconnectUpdate, eventsReceivedMessage, type RunScanInput, stateQuery } from '../../workflows/contracts';
import { EVENT_RESCAN_MAX_WAIT_MS, EVENT_RESCAN_QUIET_MS } from '../../workflows/event-rescans';
import { AccountHarness } from '../helpers/account-harness';
import { waitFor } from '../helpers/patience';

// The targeted rescan the account's events ask for (workflows/event-rescans.ts), on the time-skipping test server:
// a burst is one rescan, read from the workflow's own history, of only the parts the events touched.

let h: AccountHarness;
beforeEach(async () => {
  h = await AccountHarness.create();
});
afterEach(() => h?.close());

type Handle = Parameters<Parameters<AccountHarness['withActiveAccount']>[0]>[0];

/** The runScan activities the workflow scheduled, with their inputs, from its history. */
async function scansInHistory(handle: Handle): Promise<RunScanInput[]> {
  const { events } = await h.env.client.workflow.getHandle(handle.workflowId).fetchHistory();
  return (events ?? [])
    .map((e: temporal.api.history.v1.IHistoryEvent) => e.activityTaskScheduledEventAttributes)
    .filter((a) => a?.activityType?.name === 'runScan')
    .map((a) => defaultPayloadConverter.fromPayload<RunScanInput>(a!.input!.payloads![0]!));
}

/** The timers of at most the debounce's longest wait the workflow started (the scheduled scans' are hours long). */
async function debounceTimers(handle: Handle): Promise<number> {
  const { events } = await h.env.client.workflow.getHandle(handle.workflowId).fetchHistory();
  return (events ?? [])
    .map((e: temporal.api.history.v1.IHistoryEvent) => e.timerStartedEventAttributes)
    .filter((t) => t && Number(t.startToFireTimeout?.seconds ?? 0) * 1000 <= EVENT_RESCAN_MAX_WAIT_MS).length;
}

const told = (handle: Handle, n: number, groups: ServiceGroup[]) =>
  handle.signal(eventsReceivedMessage, { batchId: `evb_${n}`, groups });

describe('targeted rescans after events', () => {
  it('turns a burst of 500 events into one rescan of the groups they touched, once the account has been quiet', async () => {
    await h.withActiveAccount(async (handle, input) => {
      for (let i = 0; i < 500; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, j) => told(handle, i + j, (i + j) % 2 ? ['network'] : ['iam'])),
        );
      }
      const waiting = (await handle.query(stateQuery)).pendingRescan;
      expect(waiting?.groups.sort()).toEqual(['iam', 'network']);

      // Not before the quiet period ends...
      await h.env.sleep(EVENT_RESCAN_QUIET_MS - 10_000);
      expect((await handle.query(stateQuery)).scansCompleted).toBe(1);
      // ...then once.
      await h.env.sleep(20_000);
      await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 2);
      await h.env.sleep(EVENT_RESCAN_MAX_WAIT_MS);
      expect((await handle.query(stateQuery)).scansCompleted).toBe(2);

      const scans = await scansInHistory(handle);
      expect(scans.map((s) => s.trigger)).toEqual(['initial', 'event']);
      // A timer or two for the whole burst, not one per event: the first wakes, finds the quiet period of the burst's
      // last event still running (the signals took real milliseconds to send), and sleeps the rest.
      expect(await debounceTimers(handle)).toBeLessThanOrEqual(2);
      expect(scans[1]!.groups?.sort()).toEqual(['iam', 'network']);
      // The rescan read only those groups' parts.
      const collected = h.cloud.collections.filter((c) => c.awsAccountId === input.awsAccountId);
      expect(collected.map((c) => c.parts?.sort())).toEqual([undefined, partsOfGroups(['iam', 'network']).sort()]);
      const rows = await h.scansOf(input.accountId);
      expect(rows.map((r) => [r.trigger, r.status])).toEqual([
        ['initial', 'succeeded'],
        ['event', 'succeeded'],
      ]);
      // Its coverage is not the account's: the last full scan's stands.
      const account = await h.accountRow(input.accountId);
      expect(account.checks_scan_id).toBe(rows[0]!.id);
    });
  });

  it('rescans at the latest five minutes after the first event, however long events keep coming', async () => {
    await h.withActiveAccount(async (handle) => {
      for (let n = 0; n < 8; n += 1) {
        await told(handle, n, ['compute']);
        await h.env.sleep(EVENT_RESCAN_QUIET_MS - 15_000);
      }
      // 8 events 45 s apart: the quiet period never came, the five-minute bound did.
      await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 2);
      expect((await scansInHistory(handle)).map((s) => s.trigger)).toEqual(['initial', 'event']);
      // The events after the rescan began wait for a rescan of their own.
      expect((await handle.query(stateQuery)).pendingRescan?.groups).toEqual(['compute']);
    });
  });

  it('asks for nothing when the events touched no group, and nothing once the account is disconnected', async () => {
    await h.withActiveAccount(async (handle) => {
      await told(handle, 1, []);
      expect((await handle.query(stateQuery)).pendingRescan).toBeUndefined();
      await told(handle, 2, ['s3']);
      await handle.executeUpdate(disconnectUpdate);
      await h.env.sleep(EVENT_RESCAN_MAX_WAIT_MS * 2);
      expect((await scansInHistory(handle)).map((s) => s.trigger)).toEqual(['initial']);
    });
  });

  it('hands over to a new run between scans once events have filled the run, carrying the waiting rescan and the scan slot', async () => {
    await h.withActiveAccount(
      async (handle) => {
        const before = await handle.query(stateQuery);
        const firstRun = (await handle.describe()).runId;
        for (let n = 0; n < 3; n += 1) await told(handle, n, ['s3']);
        const latest = h.env.client.workflow.getHandle(handle.workflowId);
        await waitFor(async () => (await latest.describe()).runId !== firstRun);
        const after = await latest.query(stateQuery);
        expect(after.pendingRescan?.groups).toEqual(['s3']);
        expect(after.nextScheduledScanAt).toBe(before.nextScheduledScanAt);
        expect(after.scansCompleted).toBe(1);
        // The carried rescan runs in the new run.
        await h.env.sleep(EVENT_RESCAN_MAX_WAIT_MS);
        await waitFor(async () => (await latest.query(stateQuery)).scansCompleted === 2);
      },
      { maxEventSignalsPerRun: 3 },
    );
  });
});
