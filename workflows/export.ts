import { ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { EXPORT_FAILED, type ExportWorkflowInput, type ExportWorkflowResult } from './contracts';

// The panic export: build the account's package and store it. The API starts it (workflow id = export id)
// and waits for the result, so it is bounded: a few quick retries, then the export is recorded as failed.

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
