import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ServiceGroup } from '../domain/events/types';
import { MARK_DISCONNECTED } from './activity-options';
import { type AccountWorkflowInput, RECENT_SCANS, type ScanOutcome, type ScanRequest } from './contracts';
import { eventRescans } from './event-rescans';
import { scanPriority } from './fairness';
import { newScanId } from './ids';
import { runScanActivities } from './scan';
import { installHandlers } from './account/handlers';
import * as legacy from './account/legacy';
import { scanTimer } from './account/scan-timer';
import { carriedState, initialState, setStatus } from './account/state';

// The account's entity workflow, in four parts: its state (account/state.ts), its message handlers
// (account/handlers.ts), the timer of its scheduled scans (account/scan-timer.ts) and the paths kept for histories
// recorded by earlier code (account/legacy.ts). This file is its lifecycle, top-down.

const { markAccountDisconnected } = proxyActivities<Activities>(MARK_DISCONNECTED);

/** An account not verified within this long after it was connected is disconnected (its workflow ends). */
export const PENDING_TIMEOUT = '7 days';

/**
 * One entity workflow per connected account (workflow id derived from tenant and account). It holds the
 * lifecycle — PENDING until verified, then ACTIVE with a scan every `scanIntervalMinutes` plus manual scans,
 * until disconnected — while the database holds the read model the API lists.
 */
export async function accountWorkflow(input: AccountWorkflowInput): Promise<void> {
  const { tenantId, accountId, awsAccountId } = input;
  const state = initialState(input);
  const rescans = eventRescans(input.carried?.pendingRescan, queueRescan);
  const timer = scanTimer(state, accountId);
  installHandlers(state, { tenantId, accountId, rescans, timer });

  // PENDING until verified (handlers.ts); an account never verified within PENDING_TIMEOUT is disconnected.
  if (legacy.pendingTimeoutApplies()) {
    if (!(await condition(() => state.status !== 'PENDING', PENDING_TIMEOUT))) {
      await condition(() => !state.busy); // a verification under way decides first
      if (state.status === 'PENDING') {
        log.info('never verified: disconnecting', { timeout: PENDING_TIMEOUT });
        state.busy = true; // a verify arriving now waits, then finds the account disconnected
        try {
          await markAccountDisconnected({ tenantId, accountId });
          setStatus(state, 'DISCONNECTED');
        } finally {
          state.busy = false;
        }
      }
    }
  }
  await condition(() => state.status !== 'PENDING');
  if (state.status === 'ACTIVE' && !state.scheduledScanDue) timer.arm();

  const handsOverBetweenScans = legacy.handsOverBetweenScans();
  const historyFull = () =>
    handsOverBetweenScans &&
    (state.eventSignalsThisRun >= state.maxEventSignalsPerRun || workflowInfo().continueAsNewSuggested);

  // ACTIVE: run the queued scans one at a time, queueing the scheduled one when its timer fires, until disconnected.
  while (state.status === 'ACTIVE') {
    await condition(
      () => state.queue.length > 0 || state.scheduledScanDue || state.status !== 'ACTIVE' || historyFull(),
    );
    if (state.status !== 'ACTIVE') break;
    if (!state.scheduledScanDue && state.queue.length === 0 && historyFull()) {
      // Between scans: the next run arms its timer for the same slot (scan-slots.ts), so the cadence is kept.
      await condition(allHandlersFinished);
      return handOver(false);
    }
    if (state.scheduledScanDue) {
      // Hand over to a fresh run at a timer boundary, so the cadence is kept exactly across runs.
      if (
        state.queue.length === 0 &&
        (state.scansThisRun >= state.maxScansPerRun || workflowInfo().continueAsNewSuggested)
      ) {
        await condition(allHandlersFinished);
        return handOver(true);
      }
      state.scheduledScanDue = false;
      state.queue.push({ scanId: newScanId(), trigger: 'scheduled' });
      timer.arm();
    }
    const next = state.queue.shift();
    if (next) {
      await performScan(next);
      state.scansCompleted += 1;
      state.scansThisRun += 1;
    }
  }
  // DISCONNECTED: the workflow ends once its handlers have answered.
  await condition(allHandlersFinished);

  /** The account's events asked for a rescan of these groups (event-rescans.ts), now due. */
  function queueRescan(groups: ServiceGroup[]): void {
    if (state.status !== 'ACTIVE') return;
    // A full scan waiting reads every group anyway; a targeted one waiting takes these groups too.
    if (state.queue.some((r) => r.trigger !== 'event')) return;
    const waiting = state.queue.find((r) => r.trigger === 'event');
    if (waiting) waiting.groups = [...new Set([...(waiting.groups ?? []), ...groups])];
    else state.queue.push({ scanId: newScanId(), trigger: 'event', groups });
  }

  async function performScan(request: ScanRequest): Promise<void> {
    const scan = {
      tenantId,
      accountId,
      awsAccountId,
      scanId: request.scanId,
      trigger: request.trigger,
      groups: request.groups,
    };
    let outcome: ScanOutcome;
    try {
      outcome = legacy.scansRunAsActivities()
        ? await runScanActivities(
            scan,
            scanPriority({ tenantId, fairnessWeight: state.fairnessWeight, enabled: input.fairness !== false }),
          )
        : await legacy.runScanAsChildWorkflow(scan);
    } catch (err) {
      // A scan that failed for good must not end the account's lifecycle: the next one is scheduled anyway.
      log.error('scan failed', { scanId: request.scanId, error: String(err) });
      outcome = { status: 'failed', failureReason: String(err) };
    }
    state.recentScans.push({ scanId: request.scanId, ...outcome });
    state.recentScans.splice(0, state.recentScans.length - RECENT_SCANS);
  }

  /** Continue-as-new, carrying the state; `scheduledScanDue`: the timer has fired, the next run scans at once. */
  function handOver(scheduledScanDue: boolean): Promise<never> {
    return continueAsNew<typeof accountWorkflow>({
      ...input,
      carried: carriedState(state, rescans.pending(), scheduledScanDue),
    });
  }
}
