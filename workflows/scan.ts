import { log, ParentClosePolicy, proxyActivities, startChild, WorkflowIdReusePolicy } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { alertDeliveryWorkflow } from './delivery';
import { deliveryWorkflowId, SCAN_ATTEMPTS, type ScanOutcome, type ScanWorkflowInput } from './contracts';
import { AWS_ACCOUNT_ID, TENANT_ID } from './search-attributes';

const { recordScanStarted } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2, maximumAttempts: 10 },
});

// A scan row must never stay "running": recording its failure retries until the database answers, however long
// an outage lasts. (Retry options are not part of the history: changing them needs no version.)
const { recordScanFailed } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2 },
});

// The scan is saved by then: giving up would lose this scan's alerts for good (the next scan only sees the
// findings it opens itself), so evaluation retries until the database answers. It is idempotent per scan.
const { evaluateAlerts } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2 },
});

// Collection reads every region of the account: minutes for a large one, hours at worst. It heartbeats every
// 10 seconds, so a lost worker shows within a minute; a retry reads only what the attempts before did not.
const { runScan } = proxyActivities<Activities>({
  startToCloseTimeout: '3 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', backoffCoefficient: 2, maximumAttempts: SCAN_ATTEMPTS },
});

/**
 * One scan of one account. Its workflow id is the scan id, which the API returns as the execution ARN, so
 * operators find every scan in the Temporal UI. A scan whose role can no longer be assumed is recorded as
 * failed with the reason (and the connectivity finding) and leaves last_successful_scan_at alone.
 */
export async function scanWorkflow(input: ScanWorkflowInput): Promise<ScanOutcome> {
  const { scanId, tenantId, accountId, awsAccountId, trigger } = input;
  await recordScanStarted({ scanId, tenantId, accountId, trigger });
  let outcome: ScanOutcome;
  try {
    outcome = await runScan({ scanId, tenantId, accountId });
  } catch (err) {
    // Retries are exhausted: record the failure rather than leave the scan "running" forever.
    log.error('scan failed', { scanId, error: String(err) });
    const failureReason = 'The scan could not complete; it will run again at the next scheduled time';
    await recordScanFailed({ scanId, tenantId, accountId, reason: failureReason });
    return { status: 'failed', failureReason };
  }
  // The scan is saved (with its score, or with the finding that says why it has none): fire the alert rules and
  // hand each delivery to a workflow of its own, which outlives this scan, so a channel that is down delays nothing.
  const deliveries = await evaluateAlerts({ tenantId, accountId, scanId });
  await Promise.all(deliveries.map(({ deliveryId }) => startChild(alertDeliveryWorkflow, {
    workflowId: deliveryWorkflowId(deliveryId),
    args: [{ tenantId, deliveryId }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [{ key: TENANT_ID, value: tenantId }, { key: AWS_ACCOUNT_ID, value: awsAccountId }],
  }).catch((err: unknown) => {
    // Started before (this scan was reset or re-run): that delivery runs already, once.
    if (!(err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError')) throw err;
  })));
  return { ...outcome, deliveries: deliveries.length };
}
