import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { DISPATCH_EVENT_BATCHES } from './activity-options';

// Started every minute by the `sentinel-event-dispatch-<task queue>` schedule (worker/schedules.ts): acts on the
// event batches their ingesting requests could not finish (core/events/dispatch-batches.ts). A run that overlaps the
// next is skipped by the schedule; a run that fails is as good as the next one a minute later.

const { dispatchLeftOverEventBatches } = proxyActivities<Activities>(DISPATCH_EVENT_BATCHES);

export async function eventDispatchWorkflow(): Promise<
  Awaited<ReturnType<Activities['dispatchLeftOverEventBatches']>>
> {
  return dispatchLeftOverEventBatches();
}
