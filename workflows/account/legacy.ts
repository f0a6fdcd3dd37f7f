import { executeChild, patched } from '@temporalio/workflow';
import { type ScanOutcome, type ScanWorkflowInput, scanWorkflowId } from '../contracts';
import { scanWorkflow } from '../scan';
import { delayToNextSlotMs } from '../scan-slots';
import { AWS_ACCOUNT_ID, TENANT_ID } from '../search-attributes';

// The account workflow's patches: every place where a history recorded by earlier code takes another path than a
// run of today's code (docs/operations.md, "Deploys"). Replaying such a history, patched() answers false and the
// workflow does what the earlier code did; anything else records the patch's marker and takes today's path.
//
// Each patch is called where the workflow reached that decision before the patch existed: moving a call moves the
// marker it records. Patch ids are recorded in histories: never rename one. A patch goes once no workflow started
// before its deploy is still running: first deprecatePatch() in a release, then the old path is removed.

/**
 * Patch `pending-timeout`, for workflows started before the deploy of commit 40cd27b (an account not verified
 * within PENDING_TIMEOUT is disconnected). Those wait for verification as they did: their histories have no timer.
 */
export function pendingTimeoutApplies(): boolean {
  return patched('pending-timeout');
}

/**
 * Patch `scan-slots`, for timers armed before the deploy of commit d298d08 (each account scans in its own slot of
 * the interval, from its id: scan-slots.ts): those keep the plain interval, as their histories say.
 */
export function scheduledScanDelayMs(accountId: string, intervalMs: number, nowMs: number): number {
  return patched('scan-slots') ? delayToNextSlotMs(accountId, intervalMs, nowMs) : intervalMs;
}

/**
 * Patch `continue-as-new-between-scans`, for runs that began before the deploy of commit faaf7fe (the account's
 * events grow a history between scans, so a run may hand over between them): those hand over only at a timer
 * boundary.
 */
export function handsOverBetweenScans(): boolean {
  return patched('continue-as-new-between-scans');
}

/**
 * Patch `scan-activities`, for workflows that ran scans before the deploy of commit 5d13411 (a scan runs as
 * activities of the account workflow: workflows/scan.ts, `runScanActivities`). Their histories replay through
 * `runScanAsChildWorkflow`.
 */
export function scansRunAsActivities(): boolean {
  return patched('scan-activities');
}

/**
 * A scan as a child `scanWorkflow`, as scans ran before patch `scan-activities` (four more billable actions and
 * five more workflow tasks each). Reached only by replaying those histories.
 */
export function runScanAsChildWorkflow(scan: ScanWorkflowInput): Promise<ScanOutcome> {
  return executeChild(scanWorkflow, {
    workflowId: scanWorkflowId(scan.scanId),
    args: [scan],
    typedSearchAttributes: [
      { key: TENANT_ID, value: scan.tenantId },
      { key: AWS_ACCOUNT_ID, value: scan.awsAccountId },
    ],
  });
}
