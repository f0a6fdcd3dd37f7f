import { ApplicationFailure, condition, log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { MARK_DISCONNECTED, VERIFY } from '../activity-options';
import {
  disconnectUpdate,
  eventsReceivedMessage,
  INVALID_ACCOUNT_STATE,
  planChangedMessage,
  ROLE_ASSUMPTION_FAILED,
  scanNowUpdate,
  stateQuery,
  VERIFICATION_UNAVAILABLE,
  verifyUpdate,
} from '../contracts';
import type { EventRescans } from '../event-rescans';
import { newScanId } from '../ids';
import type { ScanTimer } from './scan-timer';
import { type AccountState, setStatus, stateView } from './state';

const { verifyAccount } = proxyActivities<Activities>(VERIFY);
const { markAccountDisconnected } = proxyActivities<Activities>(MARK_DISCONNECTED);

export interface AccountHandlerContext {
  tenantId: string;
  accountId: string;
  rescans: EventRescans;
  timer: ScanTimer;
}

/**
 * Installs the account workflow's query, signal and update handlers (workflows/contracts.ts), which read and change
 * `state`. Verify and disconnect run one at a time (`state.busy`); the main loop runs the scans they queue.
 *
 * Installed in this order: a handler installed receives at once the messages that arrived before it, so the order
 * is part of what the workflow does on replay.
 */
export function installHandlers(
  state: AccountState,
  { tenantId, accountId, rescans, timer }: AccountHandlerContext,
): void {
  setHandler(stateQuery, () => stateView(state, rescans.pending()));

  // The batch's alerts were fired by the API that stored it: what is left here is the rescan.
  setHandler(eventsReceivedMessage, ({ groups }) => {
    state.eventSignalsThisRun += 1;
    if (state.status === 'ACTIVE') rescans.add(groups);
  });

  setHandler(verifyUpdate, async () => {
    await condition(() => !state.busy);
    if (state.status === 'ACTIVE' && state.firstScanId)
      return { status: 'ACTIVE' as const, firstScanId: state.firstScanId };
    if (state.status === 'DISCONNECTED')
      throw ApplicationFailure.create({ type: INVALID_ACCOUNT_STATE, message: 'The account is disconnected' });
    state.busy = true;
    try {
      const scanId = newScanId();
      const result = await verifyAccount({ tenantId, accountId, firstScanId: scanId }).catch((err: unknown) => {
        log.warn('verification could not run', { error: String(err) });
        throw ApplicationFailure.create({
          type: VERIFICATION_UNAVAILABLE,
          message: 'Verification could not reach AWS; try again shortly',
        });
      });
      if (!result.ok)
        throw ApplicationFailure.create({
          type: ROLE_ASSUMPTION_FAILED,
          message: result.reason,
          details: [result.code],
        });
      // Verification reads the plan anew; a plan change signalled meanwhile may be newer still. (A result
      // recorded before revisions existed has none: it applies, as it did then.)
      const revision = result.planRevision ?? state.planRevision;
      if (revision >= state.planRevision) {
        state.scanIntervalMinutes = result.scanIntervalMinutes;
        state.fairnessWeight = result.fairnessWeight ?? state.fairnessWeight;
        state.planRevision = revision;
      }
      state.firstScanId = scanId;
      state.queue.push({ scanId, trigger: 'initial' });
      setStatus(state, 'ACTIVE');
      return { status: 'ACTIVE' as const, firstScanId: scanId };
    } finally {
      state.busy = false;
    }
  });

  setHandler(
    scanNowUpdate,
    async () => {
      // A manual scan already waiting is the answer to a second request: no duplicate work.
      const queued = state.queue.find((r) => r.trigger === 'manual');
      if (queued) return { scanId: queued.scanId };
      const scanId = newScanId();
      state.queue.push({ scanId, trigger: 'manual' });
      return { scanId };
    },
    {
      validator: () => {
        if (state.status !== 'ACTIVE') {
          throw ApplicationFailure.create({
            type: INVALID_ACCOUNT_STATE,
            message: `A ${state.status} account cannot be scanned`,
          });
        }
      },
    },
  );

  setHandler(planChangedMessage, ({ scanIntervalMinutes: minutes, planRevision: revision, fairnessWeight: weight }) => {
    if (revision !== undefined) {
      if (revision <= state.planRevision) return; // older news than the workflow has
      state.planRevision = revision;
    }
    if (weight !== undefined) state.fairnessWeight = weight;
    if (minutes === state.scanIntervalMinutes || minutes <= 0) return;
    state.scanIntervalMinutes = minutes;
    if (state.status === 'ACTIVE' && !state.scheduledScanDue) timer.arm(); // the next scheduled scan follows the new interval
  });

  setHandler(disconnectUpdate, async () => {
    await condition(() => !state.busy);
    if (state.status !== 'DISCONNECTED') {
      state.busy = true;
      try {
        await markAccountDisconnected({ tenantId, accountId });
        state.queue.length = 0;
        timer.cancel();
        rescans.cancel();
        state.nextScanAt = undefined;
        setStatus(state, 'DISCONNECTED');
      } finally {
        state.busy = false;
      }
    }
    return { status: 'DISCONNECTED' as const };
  });
}
