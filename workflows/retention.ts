import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Started once a day by the `sentinel-retention-<task queue>` schedule (worker/schedules.ts): deletes what has outlived its
// retention (domain/retention.ts). Retried until the database answers; a run that overlaps the next is skipped
// by the schedule. A run cut off mid-way loses nothing: the next attempt deletes what is still there.

const { pruneExpiredRecords } = proxyActivities<Activities>({
  // Batches heartbeat: a dead worker is noticed within a minute; the whole run may take long on a large estate.
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes', backoffCoefficient: 2 },
});

export async function retentionWorkflow(): Promise<Awaited<ReturnType<Activities['pruneExpiredRecords']>>> {
  return pruneExpiredRecords();
}
