import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import type { Config } from '../config/config';
import { workerTracing } from './tracing';

export const WORKFLOWS_PATH = require.resolve('../workflows');
/** Bundled with the workflows: the tracing interceptors, which trace only what a traced caller asked (workflows/tracing.ts). */
export const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('../workflows/tracing')];

export interface CreateWorkerInput extends ActivityDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** A prebuilt bundle (tests and production images); without it the workflows are bundled at start-up. */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

export async function createWorker({
  connection,
  namespace,
  taskQueue,
  workflowBundle,
  ...deps
}: CreateWorkerInput): Promise<Worker> {
  const tracing = workerTracing();
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    activities: createActivities(deps),
    // A prebuilt bundle has the workflow interceptors in it already (worker/bundle.ts).
    ...(workflowBundle ? { workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    interceptors: {
      activity: tracing.activity,
      ...(workflowBundle ? {} : { workflowModules: WORKFLOW_INTERCEPTOR_MODULES }),
    },
    sinks: tracing.sinks,
    ...workerTuning(deps.config.temporal.worker),
  });
}

/**
 * How the worker takes work (docs/operations.md, "Worker tuning"). Every account workflow waits on a timer between
 * scans, so the sticky cache holds one per account the worker serves: a cache miss replays the whole history. A
 * task left on the sticky queue of a worker that went away moves to the shared queue after 3 s instead of the
 * SDK's 10 (a restarted worker, or Temporal restarted under it, answers the next command sooner). Pollers scale
 * with the backlog the server reports.
 */
export function workerTuning(worker: Config['temporal']['worker']): Partial<WorkerOptions> {
  return {
    maxCachedWorkflows: worker.maxCachedWorkflows,
    stickyQueueScheduleToStartTimeout: '3 seconds',
    workflowTaskPollerBehavior: { type: 'autoscaling', maximum: 20 },
    activityTaskPollerBehavior: { type: 'autoscaling', maximum: 20 },
    ...(worker.slots === 'resource-based' ? { tuner: RESOURCE_BASED } : {}),
  };
}

// Slots follow the host's CPU and memory, up to 80% of each. Never fewer than 10 activities and 5 workflow tasks at
// once, so a busy host still scans; a scan against AWS mostly waits on AWS, so up to 500 run at once.
const RESOURCE_BASED: WorkerOptions['tuner'] = {
  tunerOptions: { targetCpuUsage: 0.8, targetMemoryUsage: 0.8 },
  activityTaskSlotOptions: { minimumSlots: 10, maximumSlots: 500 },
  workflowTaskSlotOptions: { minimumSlots: 5, maximumSlots: 100 },
};
