import { type BatchAccount, dispatchEventBatches } from '../../activities/event-dispatch';
import type { AppDeps } from '../context';

// Acts on an account's event batches once their requests are answered (activities/event-dispatch.ts), one run per
// account at a time in this process: a request that comes while the account's run is going asks for one more run
// after it. A burst of events is then a few runs (each firing the alerts of every batch it finds and telling the
// account workflow once), and no two runs of an account redo each other's batches. A run that fails leaves the
// batches to the event-dispatch schedule, which takes them after 30 seconds.

interface AccountRun {
  again: boolean;
}

// Per set of dependencies: a test may build apps with other deps in the same process.
const runsByDeps = new WeakMap<AppDeps, Map<string, AccountRun>>();

export function dispatchAfterAnswer(deps: AppDeps, account: BatchAccount): void {
  let runs = runsByDeps.get(deps);
  if (!runs) {
    runs = new Map();
    runsByDeps.set(deps, runs);
  }
  const running = runs.get(account.id);
  if (running) {
    running.again = true;
    return;
  }
  const run: AccountRun = { again: false };
  runs.set(account.id, run);
  const accountRuns = runs;
  void (async () => {
    try {
      do {
        run.again = false;
        await dispatchEventBatches(deps, account);
      } while (run.again);
    } catch (err) {
      deps.log.warn({ tenantId: account.tenant_id, accountId: account.id, err }, 'events not acted on now: the event-dispatch schedule will');
    } finally {
      accountRuns.delete(account.id);
    }
  })();
}
