import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import { findAccountById } from '../../db/repositories/accounts';
import {
  acceptances,
  countSignals,
  findExport,
  forgetExportPackage,
  markExportFailed,
  markExportReady,
} from '../../db/repositories/exports';
import { accountAuditEvents } from '../../db/repositories/audit-log';
import { allAttackPathsOf } from '../../db/repositories/attack-paths';
import { fullScoreHistory } from '../../db/repositories/score-history';
import { openSignals } from '../../db/repositories/signals';
import { recoveryChecklist } from '../../domain/signals/recovery';
import { packageFilename, writeExportPackage } from '../../exports/package';
import { accountRecord } from '../../exports/records';
import { signalPages } from '../../exports/signal-pages';
import { type ExportStorage, exportStorageKey } from '../../exports/storage';
import { EXPORT_ABANDONED, type ExportRetentionInput, type ExportWorkflowInput } from '../../workflows/contracts';

export function exportPackageUseCases({ db, log, storage }: { db: Db; log: Logger; storage: ExportStorage }) {
  const abandoned = (exportId: string) =>
    ApplicationFailure.create({
      type: EXPORT_ABANDONED,
      nonRetryable: true,
      message: `Export ${exportId} is no longer running`,
    });

  return {
    /**
     * Builds the account's panic export package from one consistent snapshot of the database, stores it and
     * marks the export ready. Idempotent: a retry after success answers the stored key; a package stored for
     * an export the API has since abandoned is removed again.
     */
    async buildAccountExport({ exportId, tenantId, accountId }: ExportWorkflowInput): Promise<{ storageKey: string }> {
      const row = await findExport({ db, tenantId, exportId });
      if (row?.status === 'ready' && row.storage_key) return { storageKey: row.storage_key };
      if (row?.status !== 'running') throw abandoned(exportId);

      const storageKey = exportStorageKey(tenantId, exportId);
      const staging = await mkdtemp(path.join(tmpdir(), 'sentinel-export-'));
      try {
        const file = path.join(staging, 'package.zip');
        const exportedAt = new Date();
        const awsAccountId = await db
          .transaction()
          .setIsolationLevel('repeatable read')
          .setAccessMode('read only')
          .execute(async (trx) => {
            const account = await findAccountById({ db: trx, tenantId, accountId });
            if (!account) throw new Error(`No account ${accountId} in tenant ${tenantId}`);
            const counts = await countSignals({ db: trx, tenantId, accountId });
            const history = await fullScoreHistory({ db: trx, tenantId, accountId });
            const open = await openSignals({ db: trx, tenantId, accountId });
            await writeExportPackage(
              {
                exportId,
                exportedAt,
                account: accountRecord(account),
                counts: { signals: counts.total, openSignals: counts.open },
                signalPages: () => signalPages({ db: trx, tenantId, accountId }),
                scoreHistory: history.map((h) => ({
                  date: h.day,
                  srs: h.srs,
                  complete: h.complete,
                  scan_id: h.scan_id,
                })),
                checklist: recoveryChecklist(open.map((s) => ({ checkId: s.check_id, severity: s.severity }))),
                acceptances: await acceptances({ db: trx, tenantId, accountId }),
                activity: await accountAuditEvents({ db: trx, tenantId, awsAccountId: account.aws_account_id }),
                attackPaths: await allAttackPathsOf({ db: trx, tenantId, accountId }),
              },
              file,
            );
            return account.aws_account_id;
          });
        await storage.put({ key: storageKey, file, filename: packageFilename(awsAccountId, exportedAt) });
      } finally {
        await rm(staging, { recursive: true, force: true });
      }

      if (!(await markExportReady({ db, tenantId, exportId, storageKey }))) {
        await storage.remove(storageKey);
        throw abandoned(exportId);
      }
      log.info({ tenantId, accountId, exportId, storage: storage.kind }, 'export package stored');
      return { storageKey };
    },

    /** Deletes a stored package past its retention; idempotent (a package already gone is fine). */
    async removeExportPackage({ exportId, tenantId, storageKey }: ExportRetentionInput): Promise<void> {
      await storage.remove(storageKey);
      await forgetExportPackage({ db, tenantId, exportId });
      log.info({ tenantId, exportId, storage: storage.kind }, 'export package deleted after its retention');
    },

    /** Idempotent: only a running export turns failed. */
    async recordExportFailed({ exportId, tenantId }: ExportWorkflowInput): Promise<void> {
      await markExportFailed({ db, tenantId, exportId });
      log.warn({ tenantId, exportId }, 'export failed');
    },
  };
}
