import type { Priority } from '@temporalio/common';
import { type ActivityOptions, log, ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { RECORD_SCAN_STARTED, RUN_SCAN, UNTIL_DATABASE_ANSWERS } from './activity-options';
import { alertDeliveryWorkflow } from './delivery';
import { deliveryStart, type ScanOutcome, type ScanWorkflowInput } from './contracts';

const FAILURE_REASON = 'The scan could not complete; it will run again at the next scheduled time';

/**
 * One scan, run by the account workflow itself as one activity, the fewest Temporal bills (with the timer that
 * schedules it, two actions per routine scan): runScan records the scan as running, collects, evaluates and saves
 * it, and fires the alert rules. Its activity id is the scan id, so an operator finds a scan in the account
 * workflow's history from the execution ARN the API returns. A scan whose role can no longer be assumed is recorded
 * as failed with the reason (and the connectivity finding) and leaves last_successful_scan_at alone.
 *
 * When runScan gives up, recordScanFailed closes the scan, unless it was saved and only firing the rules failed (a
 * database outage): a saved scan's alerts must not be lost, so evaluateAlerts (`<scan id>/alerts`) then fires
 * them, retrying until the database answers.
 */
export async function runScanActivities(
  input: ScanWorkflowInput,
  priority: Priority | undefined,
): Promise<ScanOutcome> {
  const { scanId, tenantId, accountId, trigger, groups } = input;
  const activity = (options: ActivityOptions, suffix = '') =>
    proxyActivities<Activities>({ ...options, activityId: `${scanId}${suffix}`, ...(priority ? { priority } : {}) });
  let outcome: ScanOutcome;
  let deliveryIds: string[];
  try {
    ({ deliveryIds = [], ...outcome } = await activity(RUN_SCAN).runScan({
      scanId,
      tenantId,
      accountId,
      trigger,
      fireAlerts: true,
      groups,
    }));
  } catch (err) {
    log.error('scan failed', { scanId, error: String(err) });
    const { saved } = await activity(UNTIL_DATABASE_ANSWERS, '/failed').recordScanFailed({
      scanId,
      tenantId,
      accountId,
      reason: FAILURE_REASON,
      trigger,
    });
    if (!saved) return { status: 'failed', failureReason: FAILURE_REASON };
    const deliveries = await activity(UNTIL_DATABASE_ANSWERS, '/alerts').evaluateAlerts({
      tenantId,
      accountId,
      scanId,
    });
    deliveryIds = deliveries.map((d) => d.deliveryId);
    outcome = saved;
  }
  await startDeliveries(input, deliveryIds);
  return { ...outcome, deliveries: deliveryIds.length };
}

const legacy = {
  recordScanStarted: proxyActivities<Activities>(RECORD_SCAN_STARTED).recordScanStarted,
  runScan: proxyActivities<Activities>(RUN_SCAN).runScan,
  recordScanFailed: proxyActivities<Activities>(UNTIL_DATABASE_ANSWERS).recordScanFailed,
  evaluateAlerts: proxyActivities<Activities>(UNTIL_DATABASE_ANSWERS).evaluateAlerts,
};

/**
 * One scan as a child workflow, as account workflows ran them before scans became activities (patch
 * `scan-activities` in account/legacy.ts). Kept, unchanged in its commands, for the scans such a workflow started before
 * the deploy; remove it once no run of it is left (`temporal workflow count --query 'WorkflowType="scanWorkflow"
 * AND ExecutionStatus="Running"'`) together with the patch.
 */
export async function scanWorkflow(input: ScanWorkflowInput): Promise<ScanOutcome> {
  const { scanId, tenantId, accountId, trigger } = input;
  await legacy.recordScanStarted({ scanId, tenantId, accountId, trigger });
  let outcome: ScanOutcome;
  try {
    outcome = await legacy.runScan({ scanId, tenantId, accountId });
  } catch (err) {
    // Retries are exhausted: record the failure rather than leave the scan "running" forever.
    log.error('scan failed', { scanId, error: String(err) });
    await legacy.recordScanFailed({ scanId, tenantId, accountId, reason: FAILURE_REASON });
    return { status: 'failed', failureReason: FAILURE_REASON };
  }
  const deliveries = await legacy.evaluateAlerts({ tenantId, accountId, scanId });
  await startDeliveries(
    input,
    deliveries.map((d) => d.deliveryId),
  );
  return { ...outcome, deliveries: deliveries.length };
}

/**
 * The scan is saved (with its score, or with the finding that says why it has none) and its alert rules fired:
 * each delivery runs in a workflow of its own, which outlives the scan, so a channel that is down delays nothing.
 */
async function startDeliveries({ tenantId, awsAccountId }: ScanWorkflowInput, deliveryIds: string[]): Promise<void> {
  await Promise.all(
    deliveryIds.map((deliveryId) =>
      startChild(alertDeliveryWorkflow, {
        ...deliveryStart({ tenantId, awsAccountId, deliveryId }),
        parentClosePolicy: ParentClosePolicy.ABANDON,
      }).catch((err: unknown) => {
        // Started before (this scan was reset or re-run): that delivery runs already, once.
        if (!(err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError')) throw err;
      }),
    ),
  );
}
