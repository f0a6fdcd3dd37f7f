import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import type { WorkflowHandle } from '@temporalio/client';
import type { accountWorkflow } from '../../workflows/account';
import {
  disconnectUpdate,
  eventsReceivedMessage,
  planChangedMessage,
  scanNowUpdate,
  stateQuery,
  verifyUpdate,
} from '../../workflows/contracts';
import { EVENT_RESCAN_QUIET_MS } from '../../workflows/event-rescans';
import { AccountHarness, updateFailure } from '../helpers/account-harness';
import { waitFor } from '../helpers/patience';

// `npm run record-histories`: runs the account lifecycle's scenarios on the time-skipping test server with
// today's workflow code and writes each workflow's history to test/fixtures/histories/<scenario>-<commit>.json,
// which test/workflows/replay.test.ts then replays against every later version of the code. Record and commit
// a set before changing what a workflow does (docs/operations.md, "Deploys"). Not part of `npm test`.

const DIR = path.resolve(__dirname, '../fixtures/histories');
const COMMIT = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const History = temporal.api.history.v1.History;

const HOUR = 3_600_000;
let h: AccountHarness;

/** Skips the test server's time to a minute past the account's next scheduled scan, and `extra` beyond it. */
async function pastNextScan(handle: WorkflowHandle<typeof accountWorkflow>, extra = 0): Promise<void> {
  const { nextScheduledScanAt } = await handle.query(stateQuery);
  await h.env.sleep(Date.parse(nextScheduledScanAt!) - (await h.env.currentTimeMs()) + extra + 60_000);
}
beforeEach(async () => {
  h = await AccountHarness.create();
});
afterEach(() => h?.close());

/** Writes the workflow's history, every run of it (a continued-as-new workflow has several). */
async function save(
  scenario: string,
  handle: Pick<WorkflowHandle, 'workflowId'>,
  runIds: string[] = [],
): Promise<void> {
  const runs = runIds.length > 0 ? runIds : [undefined];
  for (const [i, runId] of runs.entries()) {
    const history = await h.env.client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
    const name = runs.length > 1 ? `${scenario}-run${i + 1}` : scenario;
    const json = History.toObject(History.fromObject(history), { longs: String, enums: String, bytes: String });
    writeFileSync(path.join(DIR, `${name}-${COMMIT}.json`), `${JSON.stringify(json)}\n`);
  }
}

it('records verify, scheduled and manual scans, a plan change and a disconnect', async () => {
  const input = await h.seedAccount();
  const worker = await h.newWorker(input.taskQueue);
  await worker.runUntil(async () => {
    const handle = await h.start(input);
    await handle.executeUpdate(verifyUpdate);
    await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1);
    await pastNextScan(handle);
    await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 2);
    await handle.signal(planChangedMessage, { scanIntervalMinutes: 60, planRevision: 1 });
    await waitFor(async () => (await handle.query(stateQuery)).scanIntervalMinutes === 60);
    await handle.executeUpdate(scanNowUpdate);
    await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 3);
    await pastNextScan(handle);
    await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 4);
    await handle.executeUpdate(disconnectUpdate);
    await handle.result();
    await save('account-lifecycle', handle);
  });
});

it('records a continue-as-new at a timer boundary', async () => {
  const input = { ...(await h.seedAccount()), maxScansPerRun: 2 };
  const worker = await h.newWorker(input.taskQueue);
  await worker.runUntil(async () => {
    const handle = await h.start(input);
    const firstRun = (await handle.describe()).runId;
    await handle.executeUpdate(verifyUpdate);
    await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1);
    await pastNextScan(handle, 6 * HOUR); // two scheduled scans: the run hands over at the second timer
    const latest = h.env.client.workflow.getHandle<typeof accountWorkflow>(handle.workflowId);
    await waitFor(async () => (await latest.describe()).runId !== firstRun);
    await waitFor(async () => (await latest.query(stateQuery)).scansCompleted >= 3);
    const secondRun = (await latest.describe()).runId;
    await latest.executeUpdate(disconnectUpdate);
    await latest.result();
    await save('account-continue-as-new', handle, [firstRun, secondRun]);
  });
});

it('records events: a debounced targeted rescan, and one carried over continue-as-new', async () => {
  const input = { ...(await h.seedAccount()), maxScansPerRun: 2 };
  const worker = await h.newWorker(input.taskQueue);
  await worker.runUntil(async () => {
    const handle = await h.start(input);
    const firstRun = (await handle.describe()).runId;
    await handle.executeUpdate(verifyUpdate);
    await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1);
    await handle.signal(eventsReceivedMessage, { batchId: 'evb_recorded_1', groups: ['iam'] });
    await handle.signal(eventsReceivedMessage, { batchId: 'evb_recorded_2', groups: ['network'] });
    await h.env.sleep(EVENT_RESCAN_QUIET_MS + 60_000);
    await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 2);
    // A rescan waiting when the run hands over at its next timer: the next run carries it and runs it.
    const { nextScheduledScanAt } = await handle.query(stateQuery);
    await h.env.sleep(Date.parse(nextScheduledScanAt!) - (await h.env.currentTimeMs()) - EVENT_RESCAN_QUIET_MS / 2);
    await handle.signal(eventsReceivedMessage, { batchId: 'evb_recorded_3', groups: ['s3'] });
    await h.env.sleep(EVENT_RESCAN_QUIET_MS);
    const latest = h.env.client.workflow.getHandle<typeof accountWorkflow>(handle.workflowId);
    await waitFor(async () => (await latest.describe()).runId !== firstRun);
    await h.env.sleep(EVENT_RESCAN_QUIET_MS + 60_000);
    await waitFor(async () => (await latest.query(stateQuery)).pendingRescan === undefined);
    const secondRun = (await latest.describe()).runId;
    await latest.executeUpdate(disconnectUpdate);
    await latest.result();
    await save('account-events', handle, [firstRun, secondRun]);
  });
});

it('records a verify that fails, then succeeds', async () => {
  const input = await h.seedAccount();
  h.cloud.deny(input.awsAccountId, 'The role does not trust Sentinel');
  const worker = await h.newWorker(input.taskQueue);
  await worker.runUntil(async () => {
    const handle = await h.start(input);
    expect(await updateFailure(handle.executeUpdate(verifyUpdate))).toBe('RoleAssumptionFailed');
    h.cloud.allow(input.awsAccountId);
    await handle.executeUpdate(verifyUpdate);
    await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1);
    await handle.executeUpdate(disconnectUpdate);
    await handle.result();
    await save('account-failed-verify', handle);
  });
});

it('records an account never verified, disconnected after its timeout', async () => {
  const input = await h.seedAccount();
  const worker = await h.newWorker(input.taskQueue);
  await worker.runUntil(async () => {
    const handle = await h.start(input);
    await h.env.sleep('7 days');
    await handle.result();
    await save('account-pending-timeout', handle);
  });
});
