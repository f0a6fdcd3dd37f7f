import {
  disconnectUpdate,
  planChangedMessage,
  scanNowUpdate,
  stateQuery,
  verifyUpdate,
} from '../../workflows/contracts';
import { PENDING_TIMEOUT } from '../../workflows/account';
import { slotOffsetMs } from '../../workflows/scan-slots';
import { AccountHarness } from '../helpers/account-harness';
import { waitFor } from '../helpers/patience';

// The account lifecycle on the time-skipping test server, a server of its own for each test. (Failed updates
// are in account-verify-failure.test.ts.)
const HOUR = 3_600_000;
let h: AccountHarness;
beforeEach(async () => {
  h = await AccountHarness.create();
});
afterEach(() => h?.close());

describe('accountWorkflow', () => {
  it('verifies: ACTIVE, connected_at set, and the first scan runs at once', async () => {
    const input = await h.seedAccount();
    const worker = await h.newWorker(input.taskQueue);
    await worker.runUntil(async () => {
      const handle = await h.start(input);
      const { firstScanId } = await handle.executeUpdate(verifyUpdate);
      expect(firstScanId).toMatch(/^scan_/);
      // Verifying again answers the same first scan.
      expect(await handle.executeUpdate(verifyUpdate)).toEqual({ status: 'ACTIVE', firstScanId });
      await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1);
      const scans = await h.scansOf(input.accountId);
      expect(scans.map((s) => [s.id, s.trigger, s.status])).toEqual([[firstScanId, 'initial', 'succeeded']]);
      const account = await h.accountRow(input.accountId);
      expect(account).toMatchObject({ status: 'ACTIVE', first_scan_id: firstScanId });
      expect(account.connected_at).toBeInstanceOf(Date);
      expect(account.last_successful_scan_at).toBeInstanceOf(Date);
      await handle.executeUpdate(disconnectUpdate);
    });
  });

  it("scans at the plan interval over several simulated days, in the account's own slot of it", async () => {
    await h.withActiveAccount(async (handle, input) => {
      // 360-minute interval: the first scheduled scan comes at the account's slot, 3 to 9 hours after the
      // initial one, then one every 6 hours.
      const { nextScheduledScanAt } = await handle.query(stateQuery);
      const due = Date.parse(nextScheduledScanAt!);
      const now = await h.env.currentTimeMs();
      expect(due - now).toBeLessThan(9 * HOUR);
      expect((due - slotOffsetMs(input.accountId, 6 * HOUR)) % (6 * HOUR)).toBe(0);
      const expected = await h.scheduledScansWithin(handle, 73 * HOUR);
      expect([11, 12]).toContain(expected);
      await h.env.sleep('73 hours');
      await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1 + expected);
      const scans = await h.scansOf(input.accountId);
      expect(scans.filter((s) => s.trigger === 'initial')).toHaveLength(1);
      expect(scans.filter((s) => s.trigger === 'scheduled')).toHaveLength(expected);
    });
  });

  it('runs a manual scan on request, and a second request while it waits gets the same scan', async () => {
    const input = await h.seedAccount();
    const worker = await h.newWorker(input.taskQueue);
    await worker.runUntil(async () => {
      const handle = await h.start(input);
      await handle.executeUpdate(verifyUpdate);
      // Requested while the first scan may still run: the manual scans queue behind it.
      const [a, b] = await Promise.all([handle.executeUpdate(scanNowUpdate), handle.executeUpdate(scanNowUpdate)]);
      expect(a.scanId).toMatch(/^scan_/);
      await waitFor(async () =>
        (await h.scansOf(input.accountId)).some((s) => s.id === a.scanId && s.status === 'succeeded'),
      );
      const manual = (await h.scansOf(input.accountId)).filter((s) => s.trigger === 'manual');
      expect(manual.map((s) => s.id)).toContain(b.scanId);
      expect(manual.length).toBeLessThanOrEqual(2);
      await handle.executeUpdate(disconnectUpdate);
    });
  });

  it("follows a plan change: the next scans come at the new interval, in the account's slot of it", async () => {
    await h.withActiveAccount(async (handle, input) => {
      await handle.signal(planChangedMessage, { scanIntervalMinutes: 60 });
      await waitFor(async () => (await handle.query(stateQuery)).scanIntervalMinutes === 60);
      const due = Date.parse((await handle.query(stateQuery)).nextScheduledScanAt!);
      expect((due - slotOffsetMs(input.accountId, HOUR)) % HOUR).toBe(0);
      const expected = await h.scheduledScansWithin(handle, 330 * 60_000);
      expect([5, 6]).toContain(expected);
      await h.env.sleep('330 minutes');
      await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1 + expected);
    });
  });

  it('keeps the newest plan whatever order plan changes arrive in', async () => {
    await h.withActiveAccount(async (handle) => {
      const state = () => handle.query(stateQuery);
      await handle.signal(planChangedMessage, { scanIntervalMinutes: 60, planRevision: 3, fairnessWeight: 4 });
      // Sent by a webhook that read the plan before the one above: older news, ignored.
      await handle.signal(planChangedMessage, { scanIntervalMinutes: 1440, planRevision: 2, fairnessWeight: 1 });
      await handle.signal(planChangedMessage, { scanIntervalMinutes: 1440, planRevision: 3, fairnessWeight: 1 });
      await waitFor(async () => (await state()).planRevision === 3);
      expect(await state()).toMatchObject({ scanIntervalMinutes: 60, planRevision: 3, fairnessWeight: 4 });
      // A signal without a revision (sent before revisions existed) still applies.
      await handle.signal(planChangedMessage, { scanIntervalMinutes: 30 });
      await waitFor(async () => (await state()).scanIntervalMinutes === 30);
      expect((await state()).planRevision).toBe(3);
    });
  });

  it('keeps a plan change signalled before verification over the older plan verification read', async () => {
    const input = await h.seedAccount(); // plan revision 0 in the database
    const worker = await h.newWorker(input.taskQueue);
    await worker.runUntil(async () => {
      const handle = await h.start(input);
      await handle.signal(planChangedMessage, { scanIntervalMinutes: 60, planRevision: 1 });
      await handle.executeUpdate(verifyUpdate);
      expect(await handle.query(stateQuery)).toMatchObject({
        status: 'ACTIVE',
        scanIntervalMinutes: 60,
        planRevision: 1,
      });
      await handle.executeUpdate(disconnectUpdate);
    });
  });

  it('stops scanning when disconnected, records DISCONNECTED and completes', async () => {
    await h.withActiveAccount(async (handle, input) => {
      expect(await handle.executeUpdate(disconnectUpdate)).toEqual({ status: 'DISCONNECTED' });
      await handle.result();
      await h.env.sleep('2 days');
      expect(await h.scansOf(input.accountId)).toHaveLength(1);
      const account = await h.accountRow(input.accountId);
      expect(account.status).toBe('DISCONNECTED');
      expect(account.disconnected_at).toBeInstanceOf(Date);
    });
  });

  it('continues as new to bound history and keeps its state', async () => {
    await h.withActiveAccount(
      async (handle, input, firstScanId) => {
        const firstRun = (await handle.describe()).runId;
        await handle.signal(planChangedMessage, { scanIntervalMinutes: 360, planRevision: 4 }); // same interval, newer plan
        const expected = await h.scheduledScansWithin(handle, 49 * HOUR); // 7 or 8: at least two hand-overs
        await h.env.sleep('49 hours');
        await waitFor(
          async () =>
            (await h.env.client.workflow.getHandle(handle.workflowId).query(stateQuery)).scansCompleted ===
            1 + expected,
        );
        const latest = h.env.client.workflow.getHandle(handle.workflowId);
        expect((await latest.describe()).runId).not.toBe(firstRun);
        expect(await latest.query(stateQuery)).toMatchObject({
          status: 'ACTIVE',
          firstScanId,
          scanIntervalMinutes: 360,
          scansCompleted: 1 + expected,
        });
        expect((await latest.query(stateQuery)).planRevision).toBe(4);
        expect(await h.scansOf(input.accountId)).toHaveLength(1 + expected);
      },
      { maxScansPerRun: 3 },
    );
  });

  it('loses nothing across a worker restart mid-loop', async () => {
    const input = await h.seedAccount();
    const first = await h.newWorker(input.taskQueue);
    const handle = await first.runUntil(async () => {
      const started = await h.start(input);
      await started.executeUpdate(verifyUpdate);
      await waitFor(async () => (await started.query(stateQuery)).scansCompleted === 1);
      return started;
    });
    // The first worker is gone; the loop's state lives in Temporal, and a new worker rebuilds it from history.
    const second = await h.newWorker(input.taskQueue);
    await second.runUntil(async () => {
      const expected = await h.scheduledScansWithin(handle, 25 * HOUR);
      await h.env.sleep('25 hours');
      await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1 + expected);
      const scans = await h.scansOf(input.accountId);
      expect(scans.map((s) => s.trigger)).toEqual(['initial', ...Array(expected).fill('scheduled')]);
      expect(new Set(scans.map((s) => s.id)).size).toBe(1 + expected);
      expect(scans.every((s) => s.status === 'succeeded')).toBe(true);
      await handle.executeUpdate(disconnectUpdate);
    });
  });

  it('records a scan whose role can no longer be assumed as failed, keeping last_successful_scan_at', async () => {
    await h.withActiveAccount(async (handle, input) => {
      const before = await h.accountRow(input.accountId);
      h.cloud.deny(input.awsAccountId, 'The role was deleted');
      const { scanId } = await handle.executeUpdate(scanNowUpdate);
      await waitFor(async () =>
        (await h.scansOf(input.accountId)).some((s) => s.id === scanId && s.status === 'failed'),
      );
      const failed = (await h.scansOf(input.accountId)).find((s) => s.id === scanId);
      expect(failed?.failure_reason).toBe('The role was deleted');
      const after = await h.accountRow(input.accountId);
      expect(after.last_successful_scan_at).toEqual(before.last_successful_scan_at);
      expect(after.last_scan_at!.getTime()).toBeGreaterThanOrEqual(before.last_scan_at!.getTime());
      h.cloud.allow(input.awsAccountId);
    });
  });

  it('marks the account disconnected idempotently when the activity runs twice', async () => {
    const input = await h.seedAccount();
    const { markAccountDisconnected } = h.activities();
    await markAccountDisconnected(input);
    const first = await h.accountRow(input.accountId);
    await markAccountDisconnected(input);
    expect((await h.accountRow(input.accountId)).disconnected_at).toEqual(first.disconnected_at);
  });
});

describe('an account never verified', () => {
  it(`is disconnected ${PENDING_TIMEOUT} after it was connected, and its workflow ends`, async () => {
    const input = await h.seedAccount();
    const worker = await h.newWorker(input.taskQueue);
    await worker.runUntil(async () => {
      const handle = await h.start(input);
      await h.env.sleep('6 days');
      expect((await handle.query(stateQuery)).status).toBe('PENDING');
      await h.env.sleep('1 day');
      await handle.result();
      expect(await h.accountRow(input.accountId)).toMatchObject({ status: 'DISCONNECTED' });
      expect(await h.scansOf(input.accountId)).toEqual([]);
    });
  });
});
