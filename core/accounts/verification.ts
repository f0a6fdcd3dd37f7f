import type { CloudProvider } from '../../cloud/types';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import { activateAccount, loadRoleTarget } from '../../db/repositories/accounts';
import { getPlan } from '../../domain/tenancy/plans';
import { recordDisconnected } from './lifecycle';

export type VerifyResult =
  /** `planRevision` and `fairnessWeight` are absent in results recorded in histories before they existed. */
  | { ok: true; scanIntervalMinutes: number; planRevision?: number; fairnessWeight?: number }
  | { ok: false; reason: string; code: string };

export function verificationUseCases({ db, log, cloud }: { db: Db; log: Logger; cloud: CloudProvider }) {
  return {
    /**
     * Assumes the customer's role with our ExternalId. On success marks the account ACTIVE (connected_at and
     * the first scan's id are set once: a retry changes nothing) and returns the tenant's scan interval.
     */
    async verifyAccount({
      tenantId,
      accountId,
      firstScanId,
    }: {
      tenantId: string;
      accountId: string;
      firstScanId: string;
    }): Promise<VerifyResult> {
      const { target, plan, planRevision } = await loadRoleTarget({ db, tenantId, accountId });
      const access = await cloud.checkAccess(target);
      if (!access.ok) {
        log.info({ tenantId, accountId, code: access.code }, 'account verification failed');
        return { ok: false, reason: access.reason, code: access.code };
      }
      await activateAccount({ db, tenantId, accountId, firstScanId, at: new Date() });
      log.info({ tenantId, accountId }, 'account verified');
      const { scan_interval_minutes: scanIntervalMinutes, fairness_weight: fairnessWeight } = getPlan(plan);
      return { ok: true, scanIntervalMinutes, planRevision, fairnessWeight };
    },

    /** Idempotent: a retry finds the account already disconnected and its keys ended, and changes nothing. */
    async markAccountDisconnected({ tenantId, accountId }: { tenantId: string; accountId: string }): Promise<void> {
      const changed = await recordDisconnected({ db }, { tenantId, accountId });
      if (changed) log.info({ tenantId, accountId }, 'account disconnected');
    },
  };
}
