import {
  ApplicationFailure,
  log,
  ParentClosePolicy,
  patched,
  proxyActivities,
  sleep,
  startChild,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { BUILD_EXPORT, RECORD_EXPORT_FAILED, REMOVE_EXPORT_PACKAGE } from './activity-options';
import {
  DEFAULT_EXPORT_RETENTION_SECONDS,
  EXPORT_FAILED,
  type ExportRetentionInput,
  exportRetentionWorkflowId,
  type ExportWorkflowInput,
  type ExportWorkflowResult,
} from './contracts';

// The panic export: build the account's package and store it. The API starts it (workflow id = export id)
// and waits for the result, so it is bounded: a few quick retries, then the export is recorded as failed.
// The stored package is deleted once its link has expired, by a workflow of its own that outlives this one.

const { buildAccountExport } = proxyActivities<Activities>(BUILD_EXPORT);
const { recordExportFailed } = proxyActivities<Activities>(RECORD_EXPORT_FAILED);
const { removeExportPackage } = proxyActivities<Activities>(REMOVE_EXPORT_PACKAGE);

export async function exportWorkflow(input: ExportWorkflowInput): Promise<ExportWorkflowResult> {
  let result: ExportWorkflowResult;
  try {
    result = await buildAccountExport(input);
  } catch (err) {
    log.error('export failed', { exportId: input.exportId, error: String(err) });
    await recordExportFailed(input);
    throw ApplicationFailure.create({
      type: EXPORT_FAILED,
      nonRetryable: true,
      message: 'The export package could not be built',
    });
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
