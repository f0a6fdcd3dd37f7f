import { ApplicationFailure, log, ParentClosePolicy, patched, proxyActivities, sleep, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  DEFAULT_EXPORT_RETENTION_SECONDS, EXPORT_FAILED, type ExportRetentionInput, exportRetentionWorkflowId, type ExportWorkflowInput,
  type ExportWorkflowResult,
} from './contracts';

// The panic export: build the account's package and store it. The API starts it (workflow id = export id)
// and waits for the result, so it is bounded: a few quick retries, then the export is recorded as failed.
// The stored package is deleted once its link has expired, by a workflow of its own that outlives this one.

const { buildAccountExport } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

const { recordExportFailed } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', backoffCoefficient: 2 },
});

const { removeExportPackage } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes', backoffCoefficient: 2 },
});

export async function exportWorkflow(input: ExportWorkflowInput): Promise<ExportWorkflowResult> {
  let result: ExportWorkflowResult;
  try {
    result = await buildAccountExport(input);
  } catch (err) {
    log.error('export failed', { exportId: input.exportId, error: String(err) });
    await recordExportFailed(input);
    throw ApplicationFailure.create({ type: EXPORT_FAILED, nonRetryable: true, message: 'The export package could not be built' });
  }
  // Exports recorded before packages were deleted end here when replayed (docs/operations.md, "Deploys").
  if (!patched('export-retention')) return result;
  const { exportId, tenantId, retainSeconds = DEFAULT_EXPORT_RETENTION_SECONDS } = input;
  await startChild(exportRetentionWorkflow, {
    workflowId: exportRetentionWorkflowId(exportId),
    args: [{ exportId, tenantId, storageKey: result.storageKey, retainSeconds }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
  return result;
}

/** Waits out the package's retention, then deletes it from the store (retried until the store answers). */
export async function exportRetentionWorkflow(input: ExportRetentionInput): Promise<void> {
  await sleep(input.retainSeconds * 1000);
  await removeExportPackage(input);
}
