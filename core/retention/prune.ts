import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import type { Attempt } from '../deps';
import {
  deleteAuditEventsOlderThan,
  deleteDeliveriesOlderThan,
  deleteEventBatchesOlderThan,
  deleteEventsOlderThan,
  deleteRateLimitWindowsOlderThan,
  deleteResolvedSignalsOlderThan,
  deleteScansOlderThan,
  deleteScorePointsOlderThan,
  deleteSpentLinks,
} from '../../db/repositories/retention';
import {
  AUDIT_RETENTION_DAYS,
  DELIVERY_RETENTION_DAYS,
  RATE_LIMIT_WINDOW_RETENTION_SECONDS,
  RESOLVED_SIGNAL_RETENTION_DAYS,
  RETENTION_BATCH,
  SCAN_RETENTION_DAYS,
  SCORE_HISTORY_RETENTION_DAYS,
  EVENT_BATCH_RETENTION_DAYS,
  EVENT_RETENTION_DAYS,
} from '../../domain/records/retention';

export interface PruneCounts {
  auditEvents: number;
  links: number;
  rateLimitWindows: number;
  deliveries: number;
  resolvedSignals: number;
  scorePoints: number;
  scans: number;
  events: number;
  eventBatches: number;
}

export function retentionUseCases({ db, log }: { db: Db; log: Logger }) {
  return {
    /**
     * Deletes what is past its retention (domain/records/retention.ts), history tables in batches with a heartbeat after
     * each. Deliveries, signals and score points go before scans, so deleting a scan finds little left to cascade to.
     */
    async pruneExpiredRecords(attempt: Attempt): Promise<PruneCounts> {
      const beat = () => attempt.heartbeat();
      const batched = { db, batch: RETENTION_BATCH, onBatch: beat };
      const counts: PruneCounts = {
        auditEvents: await deleteAuditEventsOlderThan({ db, days: AUDIT_RETENTION_DAYS }),
        links: await deleteSpentLinks({ db }),
        rateLimitWindows: await deleteRateLimitWindowsOlderThan({ db, seconds: RATE_LIMIT_WINDOW_RETENTION_SECONDS }),
        deliveries: await deleteDeliveriesOlderThan({ ...batched, days: DELIVERY_RETENTION_DAYS }),
        resolvedSignals: await deleteResolvedSignalsOlderThan({ ...batched, days: RESOLVED_SIGNAL_RETENTION_DAYS }),
        scorePoints: await deleteScorePointsOlderThan({ ...batched, days: SCORE_HISTORY_RETENTION_DAYS }),
        scans: await deleteScansOlderThan({ ...batched, days: SCAN_RETENTION_DAYS }),
        events: await deleteEventsOlderThan({ ...batched, days: EVENT_RETENTION_DAYS }),
        eventBatches: await deleteEventBatchesOlderThan({ ...batched, days: EVENT_BATCH_RETENTION_DAYS }),
      };
      log.info(counts, 'expired records deleted');
      return counts;
    },
  };
}
