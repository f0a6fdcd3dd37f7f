import { log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ScanOutcome, ScanWorkflowInput } from './messages';

const { recordScanStarted, probeAccess, recordScanFinished } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2, maximumAttempts: 10 },
});

/**
 * One scan of one account. Its workflow id is the scan id, which the API returns as the execution ARN, so
 * operators find every scan in the Temporal UI. A scan whose role can no longer be assumed is recorded as
 * failed with the reason and leaves last_successful_scan_at alone.
 */
export async function scanWorkflow(input: ScanWorkflowInput): Promise<ScanOutcome> {
  const { scanId, tenantId, accountId, trigger } = input;
  await recordScanStarted({ scanId, tenantId, accountId, trigger });
  let outcome: ScanOutcome;
  try {
    const access = await probeAccess({ tenantId, accountId });
    outcome = access.ok ? { status: 'succeeded' } : { status: 'failed', failureReason: access.reason };
  } catch (err) {
    // Retries are exhausted: record the failure rather than leave the scan "running" forever.
    log.error('scan failed', { scanId, error: String(err) });
    outcome = { status: 'failed', failureReason: 'The scan could not complete; it will be retried on the next schedule' };
  }
  await recordScanFinished({ scanId, tenantId, accountId, ...outcome });
  return outcome;
}
