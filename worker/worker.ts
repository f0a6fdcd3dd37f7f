import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';

export const WORKFLOWS_PATH = require.resolve('../workflows');

export interface CreateWorkerInput extends ActivityDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** A prebuilt bundle (tests and production images); without it the workflows are bundled at start-up. */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

export async function createWorker({ connection, namespace, taskQueue, workflowBundle, ...deps }: CreateWorkerInput): Promise<Worker> {
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    activities: createActivities(deps),
    ...(workflowBundle ? { workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
  });
}
