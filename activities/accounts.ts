import type { Logger } from '../config/logger';
import type { Db } from '../db/client';

export function accountActivities({ db, log }: { db: Db; log: Logger }) {
  return {
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
