import path from 'node:path';
import { buildWorkflowBundle } from '../worker/bundle';

// `npm run build:workflows [file]`: the workflow bundle for production workers (default dist/workflow-bundle.js);
// point TEMPORAL_WORKFLOW_BUNDLE at it. Build it with the same commit as the worker's code.
const outFile = path.resolve(process.argv[2] ?? 'dist/workflow-bundle.js');
buildWorkflowBundle(outFile).then(
  () => {
    process.stdout.write(`workflow bundle written to ${outFile}\n`);
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
