import { ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// The panic export: build the account's package and store it. The API starts it (workflow id = export id)
// and waits for the result, so it is bounded: a few quick retries, then the export is recorded as failed.

export interface ExportWorkflowInput {
  exportId: string;
  tenantId: string;
  accountId: string;
}

export interface ExportWorkflowResult {
  storageKey: string;
}

/** ApplicationFailure type of an export whose package could not be built (the API answers 503 export_failed). */
const EXPORT_FAILED = 'ExportFailed';

const { buildAccountExport } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

const { recordExportFailed } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', backoffCoefficient: 2 },
});

export async function exportWorkflow(input: ExportWorkflowInput): Promise<ExportWorkflowResult> {
  try {
    return await buildAccountExport(input);
  } catch (err) {
    log.error('export failed', { exportId: input.exportId, error: String(err) });
    await recordExportFailed(input);
    throw ApplicationFailure.create({ type: EXPORT_FAILED, nonRetryable: true, message: 'The export package could not be built' });
  }
}
