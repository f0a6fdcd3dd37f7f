import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

// Account workflows live as long as their accounts, so a deploy meets histories that older workflow code wrote
// (docs/operations.md, "Deploys"). Today's code must replay each recorded history without a determinism error.
//
// test/fixtures/histories/ holds histories recorded on the time-skipping test server with earlier code: the
// `*-before-plan-revisions` pair with the code of commit 7ba7535 (verify, a plan change, a scheduled scan at the
// new interval, a manual scan, disconnect; and that account's first scan), and the `*-<commit>` sets that
// `npm run record-histories` (test/histories/record.ts) wrote with the code of that commit: a lifecycle with
// scheduled and manual scans, a plan change and a disconnect, a continue-as-new (both runs), a failed verify,
// and a verification timeout, and from set ae11026 on the account's events (a debounced targeted rescan, and one
// carried over continue-as-new). Until scans became an activity of the account workflow (set f745662 on), each scan
// was a child workflow: the earlier sets hold one (`scan-*`), replayed against the `scanWorkflow` kept for them.
const DIR = path.resolve(__dirname, '../fixtures/histories');
const History = temporal.api.history.v1.History;

describe('recorded histories', () => {
  it.each(readdirSync(DIR).filter((f) => f.endsWith('.json')))(
    "%s replays with today's workflow code",
    async (file) => {
      const history = History.fromObject(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
      expect(history.events.length).toBeGreaterThan(10);
      try {
        await Worker.runReplayHistory(
          { workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE as string } },
          history,
        );
      } catch (err) {
        throw new Error(
          `Today's workflow code no longer replays ${file}: workflows started by the earlier code would fail after a ` +
            `deploy. Put the change behind patched() (docs/operations.md, "Deploys"). ${(err as Error).message}`,
          { cause: err },
        );
      }
    },
  );
});
