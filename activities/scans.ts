import type { CloudProvider } from '../cloud/types';
import type { Logger } from '../config/logger';
import type { Db } from '../db/client';
import type { ScanTrigger } from '../workflows/messages';

export function scanActivities({ db, log, cloud }: { db: Db; log: Logger; cloud: CloudProvider }) {
  return {
    /** Records the scan as running. Keyed by the scan id: a retry inserts nothing twice. */
    async recordScanStarted(
      { scanId, tenantId, accountId, trigger }: { scanId: string; tenantId: string; accountId: string; trigger: ScanTrigger },
    ): Promise<void> {
      const now = new Date();
      await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('scans')
          .values({ id: scanId, tenant_id: tenantId, account_id: accountId, trigger, status: 'running', started_at: now })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (inserted) {
          await trx.updateTable('accounts').set({ last_scan_at: now, updated_at: now })
            .where('id', '=', accountId).where('tenant_id', '=', tenantId).execute();
        }
      });
    },

    /** Checks the role can still be assumed (the connectivity check). */
    async probeAccess({ tenantId, accountId }: { tenantId: string; accountId: string }): Promise<{ ok: true } | { ok: false; reason: string }> {
      const account = await db
        .selectFrom('accounts')
        .select(['aws_account_id', 'role_name', 'external_id'])
        .where('id', '=', accountId)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirstOrThrow();
      const access = await cloud.checkAccess({
        tenantId, awsAccountId: account.aws_account_id, roleName: account.role_name, externalId: account.external_id,
      });
      return access.ok ? { ok: true } : { ok: false, reason: access.reason };
    },

    /** Closes the scan once; only a successful scan moves last_successful_scan_at. */
    async recordScanFinished(
      { scanId, tenantId, accountId, status, failureReason }:
        { scanId: string; tenantId: string; accountId: string; status: 'succeeded' | 'failed'; failureReason?: string },
    ): Promise<void> {
      const now = new Date();
      await db.transaction().execute(async (trx) => {
        const closed = await trx
          .updateTable('scans')
          .set({ status, failure_reason: failureReason ?? null, finished_at: now })
          .where('id', '=', scanId)
          .where('status', '=', 'running')
          .executeTakeFirst();
        if (closed.numUpdatedRows > 0n && status === 'succeeded') {
          await trx.updateTable('accounts').set({ last_successful_scan_at: now, updated_at: now })
            .where('id', '=', accountId).where('tenant_id', '=', tenantId).execute();
        }
      });
      if (status === 'failed') log.warn({ tenantId, accountId, scanId, reason: failureReason }, 'scan failed');
    },
  };
}
