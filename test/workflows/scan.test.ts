import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { disconnectUpdate, type ScanOutcome, scanNowUpdate, stateQuery, verifyUpdate } from '../../workflows/contracts';
import { AccountHarness } from '../helpers/account-harness';
import { waitFor } from '../helpers/patience';
import { cleanInventory, part } from '../helpers/inventory';

// Scans through the real account workflow and activities: the findings lifecycle as the account changes.
let h: AccountHarness;
beforeEach(async () => {
  h = await AccountHarness.create();
});
afterEach(() => h?.close());

const signalsOf = (accountId: string) =>
  h.database.db.selectFrom('signals').selectAll().where('account_id', '=', accountId).orderBy('detected_at').execute();

function withRootMfaOff(at: Date) {
  const inventory = cleanInventory(at.toISOString());
  part(inventory.iamSummary).rootMfaEnabled = false;
  return inventory;
}

/** Requests a manual scan and waits until the account has completed `total` scans. */
async function scanAndWait(
  handle: Parameters<Parameters<AccountHarness['withActiveAccount']>[0]>[0],
  total: number,
): Promise<void> {
  await handle.executeUpdate(scanNowUpdate);
  await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === total);
}

describe('scans', () => {
  it('opens a signal when a misconfiguration appears and resolves it when fixed, with the SRS following', async () => {
    await h.withActiveAccount(async (handle, input) => {
      expect((await h.accountRow(input.accountId)).current_srs).toBe(100);
      expect(await signalsOf(input.accountId)).toEqual([]);

      h.cloud.setInventory(input.awsAccountId, withRootMfaOff);
      await scanAndWait(handle, 2);
      const [signal] = await signalsOf(input.accountId);
      expect(signal).toMatchObject({ check_id: 'iam.root_mfa_disabled', severity: 'CRITICAL', resolved_at: null });
      expect((await h.accountRow(input.accountId)).current_srs).toBe(55);

      h.cloud.setInventory(input.awsAccountId, (at) => cleanInventory(at.toISOString()));
      await scanAndWait(handle, 3);
      const [resolved] = await signalsOf(input.accountId);
      expect(resolved!.resolved_at).toBeInstanceOf(Date);
      expect((await h.accountRow(input.accountId)).current_srs).toBe(100);
      expect((await h.scansOf(input.accountId)).map((s) => s.srs)).toEqual([100, 55, 100]);
    });
  });

  it('records the connectivity finding when the role can no longer be assumed', async () => {
    await h.withActiveAccount(async (handle, input) => {
      h.cloud.deny(input.awsAccountId, 'The role was deleted');
      await scanAndWait(handle, 2);
      const [signal] = await signalsOf(input.accountId);
      expect(signal).toMatchObject({
        check_id: 'connectivity.role_unassumable',
        scenario: 'connectivity',
        severity: 'CRITICAL',
      });
      h.cloud.allow(input.awsAccountId);
      await scanAndWait(handle, 3);
      expect((await signalsOf(input.accountId))[0]!.resolved_at).toBeInstanceOf(Date);
    });
  });

  it('saves a scan once even when its activity runs twice', async () => {
    const input = await h.seedAccount();
    const activities = h.activities();
    h.cloud.setInventory(input.awsAccountId, withRootMfaOff);
    await h.database.db.updateTable('accounts').set({ status: 'ACTIVE' }).where('id', '=', input.accountId).execute();
    const scan = { scanId: `scan_twice_${input.accountId}`, tenantId: input.tenantId, accountId: input.accountId };
    await activities.recordScanStarted({ ...scan, trigger: 'manual' });
    const env = new MockActivityEnvironment();
    const first = (await env.run(activities.runScan, scan)) as ScanOutcome;
    const second = (await env.run(activities.runScan, scan)) as ScanOutcome;
    expect(second.srs).toBe(first.srs);
    expect(await signalsOf(input.accountId)).toHaveLength(1);
    const history = await h.database.db
      .selectFrom('score_history')
      .selectAll()
      .where('account_id', '=', input.accountId)
      .execute();
    expect(history).toHaveLength(1);
  });

  it('records a scan that could not complete as failed, however long the database stays out of reach', async () => {
    const input = await h.seedAccount();
    const activities = h.activities();
    let refusals = 0;
    // Collection fails for good before it could record the scan; the database then refuses the failure's record
    // 25 times (well past the retries that would once have given up, leaving the scan "running" for ever).
    const worker = await h.newWorker(input.taskQueue, {
      runScan: () => Promise.reject(ApplicationFailure.nonRetryable('the collector broke')),
      recordScanFailed: async (args) => {
        refusals += 1;
        if (refusals <= 25) throw new Error('database unavailable');
        return activities.recordScanFailed(args);
      },
    });
    await worker.runUntil(async () => {
      const handle = await h.start(input);
      const { firstScanId } = await handle.executeUpdate(verifyUpdate);
      await h.env.sleep('1 hour'); // the retries' backoff, in test-server time
      await waitFor(async () => (await handle.query(stateQuery)).recentScans.some((s) => s.scanId === firstScanId));
      expect((await handle.query(stateQuery)).recentScans).toEqual([
        expect.objectContaining({ scanId: firstScanId, status: 'failed' }),
      ]);
      expect(refusals).toBe(26);
      const [scan] = await h.scansOf(input.accountId);
      expect(scan).toMatchObject({ id: firstScanId, status: 'failed', trigger: 'initial' });
      await handle.executeUpdate(disconnectUpdate);
    });
  });

  it('runs each scan as one activity of the account workflow, named by the scan id, with the tenant as fairness key', async () => {
    await h.withActiveAccount(
      async (handle, input, firstScanId) => {
        const { events } = await handle.fetchHistory();
        const scheduled = (events ?? []).flatMap((e) => e.activityTaskScheduledEventAttributes ?? []);
        const ofScan = scheduled.filter((a) => a.activityId?.startsWith(firstScanId));
        expect(ofScan.map((a) => [a.activityId, a.activityType?.name])).toEqual([[firstScanId, 'runScan']]);
        expect(ofScan.map((a) => [a.priority?.fairnessKey, a.priority?.fairnessWeight])).toEqual([[input.tenantId, 2]]);
        // No child workflow any more.
        expect((events ?? []).filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toEqual([]);
      },
      { fairnessWeight: 5 },
    ); // verification reads the team plan's weight, 2
  });

  it('fires the alert rules of a scan that was saved before its activity gave up, and keeps its outcome', async () => {
    const input = await h.seedAccount();
    const activities = h.activities();
    h.cloud.setInventory(input.awsAccountId, withRootMfaOff);
    const worker = await h.newWorker(input.taskQueue, {
      // Saves the scan, then fails for good as if firing the rules had hit a database outage.
      runScan: async (args) => {
        await activities.runScan({ ...args, fireAlerts: false });
        throw ApplicationFailure.nonRetryable('the database went away while the rules fired');
      },
    });
    await worker.runUntil(async () => {
      const handle = await h.start(input);
      const { firstScanId } = await handle.executeUpdate(verifyUpdate);
      await waitFor(async () => (await handle.query(stateQuery)).recentScans.some((s) => s.scanId === firstScanId));
      const [scan] = await h.scansOf(input.accountId);
      expect(scan).toMatchObject({ id: firstScanId, status: 'succeeded', srs: 55 }); // saved, not failed afterwards
      expect((await handle.query(stateQuery)).recentScans).toEqual([
        expect.objectContaining({ scanId: firstScanId, status: 'succeeded', srs: 55 }),
      ]);
      const { events } = await handle.fetchHistory();
      const scheduled = (events ?? [])
        .flatMap((e) => e.activityTaskScheduledEventAttributes ?? [])
        .map((a) => a.activityId);
      expect(scheduled).toEqual(
        expect.arrayContaining([firstScanId, `${firstScanId}/failed`, `${firstScanId}/alerts`]),
      );
      await handle.executeUpdate(disconnectUpdate);
    });
  });

  it('goes straight to the alert rules when an attempt before saved the scan', async () => {
    const input = await h.seedAccount();
    const activities = h.activities();
    h.cloud.setInventory(input.awsAccountId, withRootMfaOff);
    await h.database.db.updateTable('accounts').set({ status: 'ACTIVE' }).where('id', '=', input.accountId).execute();
    const scan = {
      scanId: `scan_retry_${input.accountId}`,
      tenantId: input.tenantId,
      accountId: input.accountId,
      trigger: 'manual' as const,
    };
    const env = new MockActivityEnvironment();
    const first = (await env.run(activities.runScan, { ...scan, fireAlerts: true })) as ScanOutcome;
    // The account is fixed meanwhile: a retry that collected again would save a different score.
    h.cloud.setInventory(input.awsAccountId, (at) => cleanInventory(at.toISOString()));
    const retried = (await env.run(activities.runScan, { ...scan, fireAlerts: true })) as ScanOutcome;
    expect(first).toMatchObject({ status: 'succeeded', srs: 55 });
    expect(retried).toMatchObject({ status: 'succeeded', srs: 55 });
    expect(await h.scansOf(input.accountId)).toEqual([expect.objectContaining({ id: scan.scanId, srs: 55 })]);
  });

  it('queues scans without a fairness key when fairness is off', async () => {
    await h.withActiveAccount(
      async (handle, _input, firstScanId) => {
        const { events } = await handle.fetchHistory();
        const runScan = (events ?? [])
          .flatMap((e) => e.activityTaskScheduledEventAttributes ?? [])
          .find((a) => a.activityId === firstScanId);
        expect(runScan?.activityType?.name).toBe('runScan');
        expect(runScan?.priority?.fairnessKey ?? '').toBe('');
      },
      { fairness: false },
    );
  });
});
