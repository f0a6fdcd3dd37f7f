import { CancellationScope, isCancellation, sleep } from '@temporalio/workflow';
import type { ServiceGroup } from '../domain/events/types';

// The targeted rescan the account's events ask for, debounced: a burst of events (one `terraform apply` makes
// hundreds) is one rescan of every service group they touched, once the account has been quiet for
// EVENT_RESCAN_QUIET_MS, and at the latest EVENT_RESCAN_MAX_WAIT_MS after the first of them.

export const EVENT_RESCAN_QUIET_MS = 60_000;
export const EVENT_RESCAN_MAX_WAIT_MS = 5 * 60_000;

/** Groups waiting for their rescan, and when the first and the last event asking for it came (workflow time, ms). */
export interface PendingRescan {
  groups: ServiceGroup[];
  firstAt: number;
  lastAt: number;
}

export interface EventRescans {
  /** Events touched these groups: the rescan waits for the quiet period again. */
  add(groups: readonly ServiceGroup[]): void;
  /** What is waiting (carried over by continue-as-new). */
  pending(): PendingRescan | undefined;
  /** The account was disconnected: nothing is rescanned. */
  cancel(): void;
}

/**
 * `due` is called with the groups when the rescan is due. One timer at a time: events during it move the due time
 * later and the timer, waking, sleeps the rest (a burst costs a few timers, not one per event). Timers use workflow
 * time: deterministic on replay.
 */
export function eventRescans(carried: PendingRescan | undefined, due: (groups: ServiceGroup[]) => void): EventRescans {
  let waiting = carried && { ...carried, groups: [...carried.groups] };
  let timer: CancellationScope | undefined;

  const dueAt = ({ firstAt, lastAt }: PendingRescan) =>
    Math.min(lastAt + EVENT_RESCAN_QUIET_MS, firstAt + EVENT_RESCAN_MAX_WAIT_MS);
  // eslint-disable-next-line no-restricted-properties -- workflow time, deterministic on replay
  const untilDue = () => (waiting ? dueAt(waiting) - Date.now() : 0);

  const arm = () => {
    if (timer || !waiting) return;
    const scope = new CancellationScope();
    timer = scope;
    scope
      .run(async () => {
        for (let delayMs = untilDue(); delayMs > 0; delayMs = untilDue()) await sleep(delayMs);
      })
      .then(
        () => {
          const groups = waiting?.groups ?? [];
          waiting = undefined;
          timer = undefined;
          if (groups.length > 0) due(groups);
        },
        (err: unknown) => {
          if (!isCancellation(err)) throw err;
        },
      );
  };
  arm();

  return {
    add(groups) {
      if (groups.length === 0) return;
      // eslint-disable-next-line no-restricted-properties -- workflow time, deterministic on replay
      const now = Date.now();
      waiting = waiting
        ? { groups: [...new Set([...waiting.groups, ...groups])], firstAt: waiting.firstAt, lastAt: now }
        : { groups: [...new Set(groups)], firstAt: now, lastAt: now };
      arm();
    },
    pending: () => waiting && { ...waiting, groups: [...waiting.groups] },
    cancel() {
      timer?.cancel();
      timer = undefined;
      waiting = undefined;
    },
  };
}
