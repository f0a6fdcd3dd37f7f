import { upsertSearchAttributes } from '@temporalio/workflow';
import type {
  AccountStatus,
  AccountWorkflowInput,
  AccountWorkflowState,
  CarriedState,
  CompletedScan,
  ScanRequest,
} from '../contracts';
import type { PendingRescan } from '../event-rescans';
import { ACCOUNT_STATUS } from '../search-attributes';

const DEFAULT_MAX_SCANS_PER_RUN = 500;
/** Each signal adds about four events to the history: a thousand keep a run well under Temporal's limits. */
const DEFAULT_MAX_EVENT_SIGNALS_PER_RUN = 1_000;

/**
 * What one run of the account workflow knows. The handlers (handlers.ts) and the main loop (../account.ts) read
 * and change it; the state query shows it (`stateView`) and continue-as-new carries it to the next run
 * (`carriedState`), except what counts this run only.
 */
export interface AccountState {
  status: AccountStatus;
  scanIntervalMinutes: number;
  /** The newest plan revision the workflow was told; older plan changes are ignored. */
  planRevision: number;
  firstScanId?: string;
  scansCompleted: number;
  /** The scheduled scan's timer has fired: the main loop queues that scan. */
  scheduledScanDue: boolean;
  fairnessWeight: number;
  /** Scans waiting to run, oldest first. */
  queue: ScanRequest[];
  /** The last RECENT_SCANS scans, newest last. */
  recentScans: CompletedScan[];
  /** When the armed timer fires (workflow time). */
  nextScanAt?: string;
  /** A verify or disconnect handler (or the pending timeout) is running its activity: the others wait. */
  busy: boolean;
  /** This run only: it continues as new after `maxScansPerRun` scans or `maxEventSignalsPerRun` event signals. */
  scansThisRun: number;
  eventSignalsThisRun: number;
  readonly maxScansPerRun: number;
  readonly maxEventSignalsPerRun: number;
}

/** A new workflow's state, or the one the previous run carried over (`input.carried`). */
export function initialState(input: AccountWorkflowInput): AccountState {
  const { carried } = input;
  return {
    status: carried?.status ?? 'PENDING',
    scanIntervalMinutes: carried?.scanIntervalMinutes ?? input.scanIntervalMinutes,
    // Runs carried over, and workflows started, before revisions and weights existed have neither.
    planRevision: carried?.planRevision ?? input.planRevision ?? 0,
    firstScanId: carried?.firstScanId,
    scansCompleted: carried?.scansCompleted ?? 0,
    scheduledScanDue: carried?.scheduledScanDue ?? false,
    fairnessWeight: carried?.fairnessWeight ?? input.fairnessWeight ?? 1,
    queue: [...(carried?.pendingScans ?? [])],
    recentScans: [...(carried?.recentScans ?? [])],
    nextScanAt: undefined,
    busy: false,
    scansThisRun: 0,
    eventSignalsThisRun: 0,
    maxScansPerRun: input.maxScansPerRun ?? DEFAULT_MAX_SCANS_PER_RUN,
    maxEventSignalsPerRun: input.maxEventSignalsPerRun ?? DEFAULT_MAX_EVENT_SIGNALS_PER_RUN,
  };
}

/** The status, also set as the `SentinelAccountStatus` search attribute (findable in the Web UI). */
export function setStatus(state: AccountState, next: AccountStatus): void {
  state.status = next;
  upsertSearchAttributes([{ key: ACCOUNT_STATUS, value: next }]);
}

/** The answer of the state query. */
export function stateView(state: AccountState, pendingRescan: PendingRescan | undefined): AccountWorkflowState {
  return {
    status: state.status,
    scanIntervalMinutes: state.scanIntervalMinutes,
    planRevision: state.planRevision,
    scansCompleted: state.scansCompleted,
    firstScanId: state.firstScanId,
    pendingScans: [...state.queue],
    nextScheduledScanAt: state.nextScanAt,
    fairnessWeight: state.fairnessWeight,
    recentScans: [...state.recentScans],
    pendingRescan,
  };
}

/**
 * What continue-as-new carries to the next run. `scheduledScanDue`: the run hands over as its timer fired (the
 * next run scans at once), or between scans (the next run arms its timer for the same slot).
 */
export function carriedState(
  state: AccountState,
  pendingRescan: PendingRescan | undefined,
  scheduledScanDue: boolean,
): CarriedState {
  return {
    status: state.status,
    scanIntervalMinutes: state.scanIntervalMinutes,
    planRevision: state.planRevision,
    firstScanId: state.firstScanId,
    scansCompleted: state.scansCompleted,
    pendingScans: [...state.queue],
    scheduledScanDue,
    fairnessWeight: state.fairnessWeight,
    recentScans: [...state.recentScans],
    pendingRescan,
  };
}
