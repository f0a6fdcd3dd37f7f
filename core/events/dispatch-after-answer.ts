import { type BatchAccount, dispatchEventBatches } from './dispatch-batches';
import type { AppDeps } from '../deps';

// Acts on an account's event batches once their requests are answered (core/events/dispatch-batches.ts), one run per
// account at a time in this process: a request that comes while the account's run is going asks for one more run
// after it. A burst of events is then a few runs (each firing the alerts of every batch it finds and telling the
// account workflow once), and no two runs of an account redo each other's batches. A run that fails leaves the
// batches to the event-dispatch schedule, which takes them after 30 seconds.

interface AccountRun {
  again: boolean;
  done: Promise<void>;
}

// Per Temporal client, which is one per process (each request's deps are a copy with its own logger); a test may
// build an app on another client in the same process.
const runsByClient = new WeakMap<AppDeps['temporal'], Map<string, AccountRun>>();

export function dispatchAfterAnswer(deps: AppDeps, account: BatchAccount): void {
  let runs = runsByClient.get(deps.temporal);
  if (!runs) {
    runs = new Map();
    runsByClient.set(deps.temporal, runs);
  }
  const running = runs.get(account.id);
  if (running) {
    running.again = true;
    return;
  }
  const run: AccountRun = { again: false, done: Promise.resolve() };
  runs.set(account.id, run);
  const accountRuns = runs;
  run.done = (async () => {
    try {
      do {
        run.again = false;
        await dispatchEventBatches(deps, account);
      } while (run.again);
    } catch (err) {
      deps.log.warn(
        { tenantId: account.tenant_id, accountId: account.id, err },
        'events not acted on now: the event-dispatch schedule will',
      );
    } finally {
      accountRuns.delete(account.id);
    }
  })();
}

/**
 * Resolves when this process's runs are over: a stopping process waits for them before it closes its Temporal
 * connection, since a call still retrying on a closed connection throws outside any caller. What they could not
 * finish stays to the event-dispatch schedule.
 */
export async function eventDispatchesSettled(deps: AppDeps): Promise<void> {
  const runs = runsByClient.get(deps.temporal);
  while (runs && runs.size > 0) await Promise.all([...runs.values()].map((run) => run.done));
}
