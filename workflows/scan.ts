import type { Priority } from '@temporalio/common';
import {
  type ActivityOptions, log, ParentClosePolicy, proxyActivities, startChild, WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { alertDeliveryWorkflow } from './delivery';
import { deliveryWorkflowId, SCAN_ATTEMPTS, type ScanOutcome, type ScanWorkflowInput } from './contracts';
import { AWS_ACCOUNT_ID, TENANT_ID } from './search-attributes';

const RECORD_STARTED: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2, maximumAttempts: 10 },
};

// A scan row must never stay "running": recording its failure retries until the database answers, however long
// an outage lasts. (Retry options are not part of the history: changing them needs no version.)
const RECORD_FAILED: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2 },
};

// The scan is saved by then: giving up would lose this scan's alerts for good (the next scan only sees the
// findings it opens itself), so evaluation retries until the database answers. It is idempotent per scan.
const EVALUATE_ALERTS: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2 },
};

// Collection reads every region of the account: minutes for a large one, hours at worst. It heartbeats every
// 10 seconds once it has run that long (a short scan sends none: heartbeats are billed), so a lost worker shows
// within a minute; a retry reads only what the attempts before did not.
const RUN_SCAN: ActivityOptions = {
  startToCloseTimeout: '3 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', backoffCoefficient: 2, maximumAttempts: SCAN_ATTEMPTS },
};

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
export async function runScanActivities(input: ScanWorkflowInput, priority: Priority | undefined): Promise<ScanOutcome> {
  const { scanId, tenantId, accountId, trigger, groups } = input;
  const activity = (options: ActivityOptions, suffix = '') =>
    proxyActivities<Activities>({ ...options, activityId: `${scanId}${suffix}`, ...(priority ? { priority } : {}) });
  let outcome: ScanOutcome;
  let deliveryIds: string[];
  try {
    ({ deliveryIds = [], ...outcome } = await activity(RUN_SCAN).runScan({ scanId, tenantId, accountId, trigger, fireAlerts: true, groups }));
  } catch (err) {
    log.error('scan failed', { scanId, error: String(err) });
    const { saved } = await activity(RECORD_FAILED, '/failed').recordScanFailed({ scanId, tenantId, accountId, reason: FAILURE_REASON, trigger });
    if (!saved) return { status: 'failed', failureReason: FAILURE_REASON };
    const deliveries = await activity(EVALUATE_ALERTS, '/alerts').evaluateAlerts({ tenantId, accountId, scanId });
    deliveryIds = deliveries.map((d) => d.deliveryId);
    outcome = saved;
  }
  await startDeliveries(input, deliveryIds);
  return { ...outcome, deliveries: deliveryIds.length };
}

const legacy = {
  recordScanStarted: proxyActivities<Activities>(RECORD_STARTED).recordScanStarted,
  runScan: proxyActivities<Activities>(RUN_SCAN).runScan,
  recordScanFailed: proxyActivities<Activities>(RECORD_FAILED).recordScanFailed,
  evaluateAlerts: proxyActivities<Activities>(EVALUATE_ALERTS).evaluateAlerts,
};

/**
 * One scan as a child workflow, as account workflows ran them before scans became activities (patch
 * `scan-activities` in account.ts). Kept, unchanged in its commands, for the scans such a workflow started before
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
  await startDeliveries(input, deliveries.map((d) => d.deliveryId));
  return { ...outcome, deliveries: deliveries.length };
}

/**
 * The scan is saved (with its score, or with the finding that says why it has none) and its alert rules fired:
 * each delivery runs in a workflow of its own, which outlives the scan, so a channel that is down delays nothing.
 */
async function startDeliveries({ tenantId, awsAccountId }: ScanWorkflowInput, deliveryIds: string[]): Promise<void> {
  await Promise.all(deliveryIds.map((deliveryId) => startChild(alertDeliveryWorkflow, {
    workflowId: deliveryWorkflowId(deliveryId),
    args: [{ tenantId, deliveryId }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [{ key: TENANT_ID, value: tenantId }, { key: AWS_ACCOUNT_ID, value: awsAccountId }],
  }).catch((err: unknown) => {
    // Started before (this scan was reset or re-run): that delivery runs already, once.
    if (!(err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError')) throw err;
  })));
}
