import type { Logger } from '../config/logger';
import type { Db } from '../db/client';
import { deleteAuditEventsOlderThan, deleteRateLimitWindowsOlderThan, deleteSpentLinks } from '../db/repositories/retention';
import { AUDIT_RETENTION_DAYS } from '../domain/audit';

/** Longer than the longest rate-limit window (a day): an older window counts nothing. */
const RATE_LIMIT_WINDOW_RETENTION_SECONDS = 2 * 24 * 60 * 60;

export function retentionActivities({ db, log }: { db: Db; log: Logger }) {
  return {
    /** Deletes the records kept no longer than their documented retention (README, "Data retention"). */
    async pruneExpiredRecords(): Promise<{ auditEvents: number; links: number; rateLimitWindows: number }> {
      const [auditEvents, links, rateLimitWindows] = await Promise.all([
        deleteAuditEventsOlderThan({ db, days: AUDIT_RETENTION_DAYS }),
        deleteSpentLinks({ db }),
        deleteRateLimitWindowsOlderThan({ db, seconds: RATE_LIMIT_WINDOW_RETENTION_SECONDS }),
      ]);
      log.info({ auditEvents, links, rateLimitWindows }, 'expired records deleted');
      return { auditEvents, links, rateLimitWindows };
    },
  };
}
