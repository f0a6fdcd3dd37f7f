import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Started every minute by the `sentinel-event-dispatch-<task queue>` schedule (worker/schedules.ts): acts on the
// event batches their ingesting requests could not finish (activities/event-dispatch.ts). A run that overlaps the
// next is skipped by the schedule; a run that fails is as good as the next one a minute later.

const { dispatchLeftOverEventBatches } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '30 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

export async function eventDispatchWorkflow(): Promise<Awaited<ReturnType<Activities['dispatchLeftOverEventBatches']>>> {
  return dispatchLeftOverEventBatches();
}
