import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { DROP_WORKFLOW_SPANS } from '../worker/tracing';
import { WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../worker/worker';

// `npm run replay-histories -- <folder>`: replays every history in the folder (JSON, as `temporal workflow show
// --output json` writes it, or as test/fixtures/histories holds them) against this checkout's workflow code.
// Run it before a deploy on a sample of production histories (docs/operations.md, "Deploys"). Exits 1 if any
// history no longer replays: that change needs patched().

function readHistory(file: string) {
  const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
  // The CLI's JSON (proto3 JSON: enum names, string longs) and ours (protobufjs objects) both load.
  try {
    return historyFromJSON(json);
  } catch {
    return temporal.api.history.v1.History.fromObject(json as Record<string, unknown>);
  }
}

async function main(): Promise<void> {
  const folder = process.argv[2];
  if (!folder) throw new Error('usage: npm run replay-histories -- <folder of history JSON files>');
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(folder, f));
  let failed = 0;
  const histories = files.map((file) => ({ workflowId: path.basename(file, '.json'), history: readHistory(file) }));
  // The code a worker runs: the workflows and the interceptors bundled with them (worker/bundle.ts).
  const code = {
    workflowsPath: WORKFLOWS_PATH,
    interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
    sinks: DROP_WORKFLOW_SPANS,
  };
  for await (const result of Worker.runReplayHistories(code, histories)) {
    if (result.error) {
      failed += 1;
      console.error(`FAIL ${result.workflowId}: ${result.error.message}`);
    } else {
      console.log(`ok   ${result.workflowId}`);
    }
  }
  console.log(`${files.length - failed} replayed, ${failed} failed`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
