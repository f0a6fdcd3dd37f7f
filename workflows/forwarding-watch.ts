import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { WATCH_EVENT_FORWARDING } from './activity-options';

// Started every HEARTBEAT_INTERVAL_MINUTES by the `sentinel-forwarding-watch-<task queue>` schedule
// (worker/schedules.ts): opens a signal for each watched region of the forwarder whose heartbeat is late, and resolves
// it once the heartbeat is back (core/events/forwarding-watch.ts). The run's own time is the one the heartbeats are
// judged by, so a test server that skips time judges them by its clock. A run that overlaps the next is skipped by
// the schedule; a run that fails is as good as the next one.

const { watchEventForwarding } = proxyActivities<Activities>(WATCH_EVENT_FORWARDING);

export async function eventForwardingWatchWorkflow(): Promise<Awaited<ReturnType<Activities['watchEventForwarding']>>> {
  // Workflow time: the time of the workflow task, recorded in history, so a replay passes the same value.
  // eslint-disable-next-line no-restricted-properties
  return watchEventForwarding({ at: Date.now() });
}
