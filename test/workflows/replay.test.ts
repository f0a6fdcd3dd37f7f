import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

// Account workflows live as long as their accounts, so a deploy meets histories that older workflow code wrote
// (docs/operations.md, "Deploys"). Today's code must replay each recorded history without a determinism error.
//
// test/fixtures/histories/ holds histories recorded on the time-skipping test server with earlier code: the
// `*-before-plan-revisions` pair with the code of commit 7ba7535 (verify, a plan change, a scheduled scan at the
// new interval, a manual scan, disconnect; and that account's first scan). To add one, fetch a run's history
// (`handle.fetchHistory()`) and write `History.toObject(history, { longs: String, enums: String, bytes: String })`
// as JSON.
const DIR = path.resolve(__dirname, '../fixtures/histories');
const History = temporal.api.history.v1.History;

describe('recorded histories', () => {
  it.each(readdirSync(DIR).filter((f) => f.endsWith('.json')))('%s replays with today\'s workflow code', async (file) => {
    const history = History.fromObject(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
    expect(history.events.length).toBeGreaterThan(10);
    await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE as string } }, history);
  });
});
