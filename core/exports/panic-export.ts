import { type WorkflowHandle, WorkflowFailedError } from '@temporalio/client';
import { deleteExport, findExportForDownload, insertExport, markExportFailed } from '../../db/repositories/exports';
import { newId } from '../../domain/ids';
import {
  accountLimitKey,
  PANIC_EXPORT_WINDOW_SECONDS,
  PANIC_EXPORTS_PER_ACCOUNT,
  PANIC_EXPORTS_PER_TENANT,
} from '../../domain/tenancy/limits';
import { packageFilename } from '../../exports/package';
import { checkDownloadLink } from '../../exports/storage';
import { exportWorkflowId, type ExportWorkflowResult } from '../../workflows/contracts';
import { AWS_ACCOUNT_ID, TENANT_ID } from '../../workflows/search-attributes';
import { type ExportWorkflow, WORKFLOW_TYPES } from '../temporal/workflow-types';
import type { AppDeps, Caller } from '../deps';
import { AppError, notFound } from '../errors';
import { COMMAND_DEADLINE_MS, withDeadline } from '../temporal/commands';
import { requireAccount } from '../accounts/require-account';
import { audit, auditAs } from '../audit-log';
import { takeHits } from '../rate-limits';

/** Building a package takes seconds; past this the caller gets a 503 rather than a hanging request. */
export const EXPORT_WAIT_MS = 60_000;

/**
 * Builds the account's emergency export through the export workflow (workflow id = export id) and answers
 * with a download link once the package is stored. Temporal unreachable: nothing is recorded and the attempt
 * does not count. The package not ready in time, or not buildable: the export is recorded as failed (503).
 */
export async function requestPanicExport(
  { db, temporal, config, log, storage }: AppDeps,
  caller: Caller,
  awsAccountId: string,
) {
  const account = await requireAccount(db, caller, awsAccountId);
  const releaseHits = await takeHits(db, [
    {
      key: accountLimitKey('export:panic', caller.tenantId, account.aws_account_id),
      limit: PANIC_EXPORTS_PER_ACCOUNT,
      windowSeconds: PANIC_EXPORT_WINDOW_SECONDS,
      message: `At most ${PANIC_EXPORTS_PER_ACCOUNT} emergency exports per account per hour`,
    },
    {
      key: `export:panic:${caller.tenantId}`,
      limit: PANIC_EXPORTS_PER_TENANT,
      windowSeconds: PANIC_EXPORT_WINDOW_SECONDS,
      message: `At most ${PANIC_EXPORTS_PER_TENANT} emergency exports per tenant per hour`,
    },
  ]);

  const exportId = newId('export');
  const scope = { db, tenantId: caller.tenantId, exportId };
  await insertExport({
    db,
    row: { id: exportId, tenant_id: caller.tenantId, account_id: account.id, requested_by: caller.userId },
  });
  let handle: WorkflowHandle<ExportWorkflow>;
  try {
    handle = await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
      temporal.workflow.start<ExportWorkflow>(WORKFLOW_TYPES.export, {
        workflowId: exportWorkflowId(exportId),
        taskQueue: config.temporal.taskQueue,
        args: [
          {
            exportId,
            tenantId: caller.tenantId,
            accountId: account.id,
            retainSeconds: config.exports.retentionSeconds,
          },
        ],
        // A backstop for a worker that never picks it up: the API stops waiting long before.
        workflowExecutionTimeout: '10 minutes',
        typedSearchAttributes: [
          { key: TENANT_ID, value: caller.tenantId },
          { key: AWS_ACCOUNT_ID, value: account.aws_account_id },
        ],
      }),
    );
  } catch (err) {
    await deleteExport(scope);
    await releaseHits();
    throw err;
  }

  let result: ExportWorkflowResult;
  try {
    result = await withDeadline(temporal, EXPORT_WAIT_MS, () => handle.result());
  } catch (err) {
    await markExportFailed(scope);
    if (!(err instanceof WorkflowFailedError)) {
      // Stop the workflow so a late worker does not build a package nobody will fetch (it would find the
      // export failed and give up anyway).
      await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
        handle.terminate('the API stopped waiting for the export'),
      ).catch(() => undefined);
    }
    log.warn({ exportId, err }, 'panic export failed');
    throw new AppError('export_failed', `The export package could not be built (export ${exportId}); retry shortly`, {
      retryAfterSeconds: 30,
    });
  }

  const link = await storage.downloadLink({ exportId, key: result.storageKey });
  await audit(db, caller, 'export.panic_created', `account:${account.aws_account_id}`, { export_id: exportId });
  log.info({ exportId, awsAccountId: account.aws_account_id, storage: storage.kind }, 'panic export ready');
  return {
    message: `Emergency export of account ${account.aws_account_id} is ready; the download link is valid for 15 minutes`,
    download_url: link.url,
    export_id: exportId,
    expires_at: link.expiresAt.toISOString(),
  };
}

/**
 * Opens a locally stored package for its signed link. The signature (ours, over the export id and the
 * expiry) stands in for a bearer token: a changed id, expiry or signature is 403 link_invalid, an old link
 * 403 link_expired.
 */
export async function openExportDownload(
  { db, config, storage }: Pick<AppDeps, 'db' | 'config' | 'storage'>,
  link: { exportId: string; expires: unknown; signature: unknown; clientAddress?: string },
) {
  const verdict = checkDownloadLink({
    signingKey: config.secrets.urlSigningKey,
    exportId: link.exportId,
    expires: link.expires,
    signature: link.signature,
  });
  if (verdict === 'invalid') throw new AppError('link_invalid', 'The download link is invalid');
  if (verdict === 'expired') throw new AppError('link_expired', 'The download link has expired; request a new export');
  const row = storage.kind === 'local' ? await findExportForDownload({ db, exportId: link.exportId }) : undefined;
  const file =
    row?.status === 'ready' && row.storage_key && storage.kind === 'local'
      ? await storage.open(row.storage_key)
      : undefined;
  if (!row || !file) throw notFound('Export');
  // Whoever holds the link downloads: recorded with the address it came from, not a user.
  await auditAs(db, {
    tenantId: row.tenant_id,
    action: 'export.panic_downloaded',
    target: `account:${row.aws_account_id}`,
    clientAddress: link.clientAddress,
    details: { export_id: row.id },
  });
  return { ...file, filename: packageFilename(row.aws_account_id, row.completed_at ?? row.created_at) };
}
