import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Started once a day by the `sentinel-retention-<task queue>` schedule (worker/schedules.ts): deletes what has outlived its
// retention. Retried until the database answers; a run that overlaps the next is skipped by the schedule.

const { pruneExpiredRecords } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes', backoffCoefficient: 2 },
});

export async function retentionWorkflow(): Promise<Awaited<ReturnType<Activities['pruneExpiredRecords']>>> {
  return pruneExpiredRecords();
}
