import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';

/** One schedule per task queue: a deployment's workers create it; others sharing the namespace have their own. */
export const retentionScheduleId = (taskQueue: string) => `sentinel-retention-${taskQueue}`;

/**
 * Creates the daily retention schedule unless it exists (every worker calls this at start; the first one
 * creates it). Operators see it, and can trigger or pause it, in the Temporal Web UI's Schedules.
 */
export async function ensureRetentionSchedule(client: Client, taskQueue: string): Promise<'created' | 'exists'> {
  const scheduleId = retentionScheduleId(taskQueue);
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '1 day' }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
      action: { type: 'startWorkflow', workflowType: 'retentionWorkflow', taskQueue, workflowId: scheduleId },
    });
    return 'created';
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) return 'exists';
    throw err;
  }
}
