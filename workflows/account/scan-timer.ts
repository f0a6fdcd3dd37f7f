import { CancellationScope, isCancellation, sleep } from '@temporalio/workflow';
import { scheduledScanDelayMs } from './legacy';
import type { AccountState } from './state';

export interface ScanTimer {
  /** Arms the timer of the next scheduled scan for the current interval, replacing the one armed before. */
  arm(): void;
  /** The account was disconnected: no scheduled scan is due any more. */
  cancel(): void;
}

/**
 * The timer of the account's next scheduled scan: one at a time. When it fires, `state.scheduledScanDue` turns true
 * and the main loop queues the scan; `state.nextScanAt` says when it will.
 */
export function scanTimer(state: AccountState, accountId: string): ScanTimer {
  let timer: CancellationScope | undefined;
  return {
    arm() {
      timer?.cancel();
      const scope = new CancellationScope();
      timer = scope;
      const intervalMs = state.scanIntervalMinutes * 60_000;
      // Workflow time (deterministic on replay): it only places the timer; no record keeps it.
      // eslint-disable-next-line no-restricted-properties
      const now = Date.now();
      const delayMs = scheduledScanDelayMs(accountId, intervalMs, now);
      state.nextScanAt = new Date(now + delayMs).toISOString();
      scope
        .run(() => sleep(delayMs))
        .then(
          () => {
            state.scheduledScanDue = true;
          },
          (err: unknown) => {
            if (!isCancellation(err)) throw err;
          },
        );
    },
    cancel() {
      timer?.cancel();
    },
  };
}
