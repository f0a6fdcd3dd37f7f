import type { CloudProvider } from '../cloud/types';
import type { Logger } from '../config/logger';
import type { Db } from '../db/client';
import { getPlan, type PlanId } from '../domain/plans';

export type VerifyResult =
  | { ok: true; scanIntervalMinutes: number }
  | { ok: false; reason: string; code: string };

async function loadAccount(db: Db, { tenantId, accountId }: { tenantId: string; accountId: string }) {
  return db
    .selectFrom('accounts')
    .innerJoin('tenants', 'tenants.id', 'accounts.tenant_id')
    .select(['accounts.aws_account_id', 'accounts.role_name', 'accounts.external_id', 'accounts.status', 'tenants.plan'])
    .where('accounts.id', '=', accountId)
    .where('accounts.tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
}

export function accountActivities({ db, log, cloud }: { db: Db; log: Logger; cloud: CloudProvider }) {
  return {
    /**
     * Assumes the customer's role with our ExternalId. On success marks the account ACTIVE (connected_at and
     * the first scan's id are set once: a retry changes nothing) and returns the tenant's scan interval.
     */
    async verifyAccount({ tenantId, accountId, firstScanId }: { tenantId: string; accountId: string; firstScanId: string }): Promise<VerifyResult> {
      const account = await loadAccount(db, { tenantId, accountId });
      const access = await cloud.checkAccess({
        tenantId, awsAccountId: account.aws_account_id, roleName: account.role_name, externalId: account.external_id,
      });
      if (!access.ok) {
        log.info({ tenantId, accountId, code: access.code }, 'account verification failed');
        return { ok: false, reason: access.reason, code: access.code };
      }
      await db
        .updateTable('accounts')
        .set((eb) => ({
          status: 'ACTIVE',
          connected_at: eb.fn.coalesce('connected_at', eb.val(new Date())),
          first_scan_id: eb.fn.coalesce('first_scan_id', eb.val(firstScanId)),
          updated_at: new Date(),
        }))
        .where('id', '=', accountId)
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'PENDING')
        .execute();
      log.info({ tenantId, accountId }, 'account verified');
      return { ok: true, scanIntervalMinutes: getPlan(account.plan as PlanId).scan_interval_minutes };
    },

    /** Idempotent: a retry finds the account already disconnected and changes nothing. */
    async markAccountDisconnected({ tenantId, accountId }: { tenantId: string; accountId: string }): Promise<void> {
      const result = await db
        .updateTable('accounts')
        .set({ status: 'DISCONNECTED', disconnected_at: new Date(), updated_at: new Date() })
        .where('id', '=', accountId)
        .where('tenant_id', '=', tenantId)
        .where('status', '!=', 'DISCONNECTED')
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) log.info({ tenantId, accountId }, 'account disconnected');
    },
  };
}
