import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { PRUNE_EXPIRED_RECORDS } from './activity-options';

// Started once a day by the `sentinel-retention-<task queue>` schedule (worker/schedules.ts): deletes what has outlived its
// retention (domain/records/retention.ts). Retried until the database answers; a run that overlaps the next is skipped
// by the schedule. A run cut off mid-way loses nothing: the next attempt deletes what is still there.

const { pruneExpiredRecords } = proxyActivities<Activities>(PRUNE_EXPIRED_RECORDS);

export async function retentionWorkflow(): Promise<Awaited<ReturnType<Activities['pruneExpiredRecords']>>> {
  return pruneExpiredRecords();
}
