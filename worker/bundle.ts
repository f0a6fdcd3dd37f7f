import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from './worker';

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message: string) => process.stderr.write(`${message}\n`),
};

/**
 * Bundles the workflows into one file for `TEMPORAL_WORKFLOW_BUNDLE`: a worker that loads it starts in a second
 * instead of bundling (webpack) at start-up, and every worker of a deploy runs the same code. The tests run on one.
 */
export async function buildWorkflowBundle(outFile: string): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: quietLogger,
  });
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, code);
}
