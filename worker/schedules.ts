import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import { HEARTBEAT_INTERVAL_MINUTES } from '../domain/events/forwarding-rules';

// The worker's recurring workflows. One schedule of each per task queue: a deployment's workers create them; others
// sharing the namespace have their own. Operators see them, and can trigger or pause them, in the Temporal Web UI's
// Schedules.

/** Deletes what outlived its retention (workflows/retention.ts), daily. */
export const retentionScheduleId = (taskQueue: string) => `sentinel-retention-${taskQueue}`;
/** Acts on event batches their ingesting requests could not finish (workflows/left-over-batches.ts), every minute. */
export const eventDispatchScheduleId = (taskQueue: string) => `sentinel-event-dispatch-${taskQueue}`;
/**
 * Opens and resolves the signals of forwarder regions whose heartbeat is late (workflows/forwarding-watch.ts), as often
 * as the heartbeat beats: a region goes blind at most one interval before the watch says so.
 */
export const forwardingWatchScheduleId = (taskQueue: string) => `sentinel-forwarding-watch-${taskQueue}`;

interface RecurringWorkflow {
  scheduleId: string;
  workflowType: string;
  every: Duration;
}

const recurringWorkflows = (taskQueue: string): RecurringWorkflow[] => [
  { scheduleId: retentionScheduleId(taskQueue), workflowType: 'retentionWorkflow', every: '1 day' },
  { scheduleId: eventDispatchScheduleId(taskQueue), workflowType: 'eventDispatchWorkflow', every: '1 minute' },
  {
    scheduleId: forwardingWatchScheduleId(taskQueue),
    workflowType: 'eventForwardingWatchWorkflow',
    every: `${HEARTBEAT_INTERVAL_MINUTES} minutes`,
  },
];

/** Creates the schedule unless it exists (every worker calls this at start; the first one creates it). */
async function ensureSchedule(
  client: Client,
  taskQueue: string,
  { scheduleId, workflowType, every }: RecurringWorkflow,
): Promise<'created' | 'exists'> {
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every }] },
      // A run still going when the next is due: the next is skipped. A run missed while the server was down: made
      // up once, within one interval.
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: every },
      action: { type: 'startWorkflow', workflowType, taskQueue, workflowId: scheduleId },
    });
    return 'created';
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) return 'exists';
    throw err;
  }
}

/** Creates every recurring workflow's schedule that does not exist yet; answers what each schedule id found. */
export async function ensureSchedules(
  client: Client,
  taskQueue: string,
): Promise<Record<string, 'created' | 'exists'>> {
  const found: Record<string, 'created' | 'exists'> = {};
  for (const recurring of recurringWorkflows(taskQueue))
    found[recurring.scheduleId] = await ensureSchedule(client, taskQueue, recurring);
  return found;
}
