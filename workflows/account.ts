import {
  allHandlersFinished, ApplicationFailure, CancellationScope, condition, continueAsNew, executeChild, isCancellation, log,
  patched, proxyActivities, setHandler, sleep, upsertSearchAttributes, workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { newScanId } from './ids';
import { delayToNextSlotMs } from './scan-slots';
import {
  type AccountStatus, type AccountWorkflowInput, type CompletedScan, disconnectUpdate, INVALID_ACCOUNT_STATE, planChangedSignal, RECENT_SCANS,
  ROLE_ASSUMPTION_FAILED, type ScanOutcome, type ScanRequest, scanNowUpdate, scanWorkflowId, stateQuery, VERIFICATION_UNAVAILABLE, verifyUpdate,
  eventsReceivedSignal,
} from './contracts';
import { eventRescans } from './event-rescans';
import { scanPriority } from './fairness';
import { runScanActivities, scanWorkflow } from './scan';
import { ACCOUNT_STATUS, AWS_ACCOUNT_ID, TENANT_ID } from './search-attributes';

// Verify and disconnect have a caller waiting on them: they go ahead of any backlog of scan activities on the
// shared task queue (priority 1; everything else has the default, 3). Without it, a tenant verifying while
// thousands of scans are queued waits behind all of them and gets a 503 at the API's deadline.
const INTERACTIVE = { priorityKey: 1 };

const { markAccountDisconnected } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2 },
  priority: INTERACTIVE,
});

// A caller is waiting on verification: give up after two minutes (STS or our own credentials broken) rather
// than keep the account busy, and blocking disconnect, for as long as the outage lasts.
const { verifyAccount } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '20 seconds', backoffCoefficient: 2 },
  priority: INTERACTIVE,
});

const DEFAULT_MAX_SCANS_PER_RUN = 500;
/** Each signal adds about four events to the history: a thousand keep a run well under Temporal's limits. */
const DEFAULT_MAX_EVENT_SIGNALS_PER_RUN = 1_000;

/** An account not verified within this long after it was connected is disconnected (its workflow ends). */
export const PENDING_TIMEOUT = '7 days';

/**
 * One entity workflow per connected account (workflow id derived from tenant and account). It holds the
 * lifecycle — PENDING until verified, then ACTIVE with a scan every `scanIntervalMinutes` plus manual scans,
 * until disconnected — while the database holds the read model the API lists.
 */
export async function accountWorkflow(input: AccountWorkflowInput): Promise<void> {
  const { tenantId, accountId, awsAccountId, carried } = input;
  let status: AccountStatus = carried?.status ?? 'PENDING';
  let scanIntervalMinutes = carried?.scanIntervalMinutes ?? input.scanIntervalMinutes;
  let planRevision = carried?.planRevision ?? input.planRevision ?? 0;
  let firstScanId = carried?.firstScanId;
  let scansCompleted = carried?.scansCompleted ?? 0;
  let scheduledScanDue = carried?.scheduledScanDue ?? false;
  const queue: ScanRequest[] = [...(carried?.pendingScans ?? [])];
  const maxScansPerRun = input.maxScansPerRun ?? DEFAULT_MAX_SCANS_PER_RUN;
  const maxEventSignalsPerRun = input.maxEventSignalsPerRun ?? DEFAULT_MAX_EVENT_SIGNALS_PER_RUN;
  let scansThisRun = 0;
  let eventSignalsThisRun = 0;
  let busy = false; // a verify or disconnect handler is running its activity
  let nextScanAt: string | undefined; // when the armed timer fires (workflow time)
  let fairnessWeight = carried?.fairnessWeight ?? input.fairnessWeight ?? 1;
  const recentScans: CompletedScan[] = [...(carried?.recentScans ?? [])];
  const rescans = eventRescans(carried?.pendingRescan, (groups) => {
    if (status !== 'ACTIVE') return;
    // A full scan waiting reads every group anyway; a targeted one waiting takes these groups too.
    if (queue.some((r) => r.trigger !== 'event')) return;
    const waiting = queue.find((r) => r.trigger === 'event');
    if (waiting) waiting.groups = [...new Set([...(waiting.groups ?? []), ...groups])];
    else queue.push({ scanId: newScanId(), trigger: 'event', groups });
  });

  const setStatus = (next: AccountStatus) => {
    status = next;
    upsertSearchAttributes([{ key: ACCOUNT_STATUS, value: next }]);
  };

  setHandler(stateQuery, () => ({
    status, scanIntervalMinutes, planRevision, scansCompleted, firstScanId, pendingScans: [...queue], nextScheduledScanAt: nextScanAt,
    fairnessWeight, recentScans: [...recentScans], pendingRescan: rescans.pending(),
  }));

  // The batch's alerts were fired by the API that stored it: what is left here is the rescan.
  setHandler(eventsReceivedSignal, ({ groups }) => {
    eventSignalsThisRun += 1;
    if (status === 'ACTIVE') rescans.add(groups);
  });

  setHandler(verifyUpdate, async () => {
    await condition(() => !busy);
    if (status === 'ACTIVE' && firstScanId) return { status: 'ACTIVE' as const, firstScanId };
    if (status === 'DISCONNECTED') throw ApplicationFailure.create({ type: INVALID_ACCOUNT_STATE, message: 'The account is disconnected' });
    busy = true;
    try {
      const scanId = newScanId();
      const result = await verifyAccount({ tenantId, accountId, firstScanId: scanId }).catch((err: unknown) => {
        log.warn('verification could not run', { error: String(err) });
        throw ApplicationFailure.create({ type: VERIFICATION_UNAVAILABLE, message: 'Verification could not reach AWS; try again shortly' });
      });
      if (!result.ok) throw ApplicationFailure.create({ type: ROLE_ASSUMPTION_FAILED, message: result.reason, details: [result.code] });
      // Verification reads the plan anew; a plan change signalled meanwhile may be newer still. (A result
      // recorded before revisions existed has none: it applies, as it did then.)
      const revision = result.planRevision ?? planRevision;
      if (revision >= planRevision) {
        scanIntervalMinutes = result.scanIntervalMinutes;
        fairnessWeight = result.fairnessWeight ?? fairnessWeight;
        planRevision = revision;
      }
      firstScanId = scanId;
      queue.push({ scanId, trigger: 'initial' });
      setStatus('ACTIVE');
      return { status: 'ACTIVE' as const, firstScanId: scanId };
    } finally {
      busy = false;
    }
  });

  setHandler(scanNowUpdate, async () => {
    // A manual scan already waiting is the answer to a second request: no duplicate work.
    const queued = queue.find((r) => r.trigger === 'manual');
    if (queued) return { scanId: queued.scanId };
    const scanId = newScanId();
    queue.push({ scanId, trigger: 'manual' });
    return { scanId };
  }, {
    validator: () => {
      if (status !== 'ACTIVE') {
        throw ApplicationFailure.create({ type: INVALID_ACCOUNT_STATE, message: `A ${status} account cannot be scanned` });
      }
    },
  });

  let timer: CancellationScope | undefined;
  const armTimer = () => {
    timer?.cancel();
    const scope = new CancellationScope();
    timer = scope;
    const intervalMs = scanIntervalMinutes * 60_000;
    // Workflows whose timers were armed before slots existed keep the plain interval (their histories say so).
    // Workflow time (deterministic on replay): it only places the timer; no record keeps it.
    // eslint-disable-next-line no-restricted-properties
    const now = Date.now();
    const delayMs = patched('scan-slots') ? delayToNextSlotMs(accountId, intervalMs, now) : intervalMs;
    nextScanAt = new Date(now + delayMs).toISOString();
    scope.run(() => sleep(delayMs)).then(
      () => {
        scheduledScanDue = true;
      },
      (err: unknown) => {
        if (!isCancellation(err)) throw err;
      },
    );
  };

  setHandler(planChangedSignal, ({ scanIntervalMinutes: minutes, planRevision: revision, fairnessWeight: weight }) => {
    if (revision !== undefined) {
      if (revision <= planRevision) return; // older news than the workflow has
      planRevision = revision;
    }
    if (weight !== undefined) fairnessWeight = weight;
    if (minutes === scanIntervalMinutes || minutes <= 0) return;
    scanIntervalMinutes = minutes;
    if (status === 'ACTIVE' && !scheduledScanDue) armTimer(); // the next scheduled scan follows the new interval
  });

  setHandler(disconnectUpdate, async () => {
    await condition(() => !busy);
    if (status !== 'DISCONNECTED') {
      busy = true;
      try {
        await markAccountDisconnected({ tenantId, accountId });
        queue.length = 0;
        timer?.cancel();
        rescans.cancel();
        nextScanAt = undefined;
        setStatus('DISCONNECTED');
      } finally {
        busy = false;
      }
    }
    return { status: 'DISCONNECTED' as const };
  });

  // Workflows started before the timeout existed wait for verification as they did (their histories have no timer).
  if (patched('pending-timeout')) {
    if (!(await condition(() => status !== 'PENDING', PENDING_TIMEOUT))) {
      await condition(() => !busy); // a verification under way decides first
      if (status === 'PENDING') {
        log.info('never verified: disconnecting', { timeout: PENDING_TIMEOUT });
        busy = true; // a verify arriving now waits, then finds the account disconnected
        try {
          await markAccountDisconnected({ tenantId, accountId });
          setStatus('DISCONNECTED');
        } finally {
          busy = false;
        }
      }
    }
  }
  await condition(() => status !== 'PENDING');
  if (status === 'ACTIVE' && !scheduledScanDue) armTimer();

  const handOver = (due: boolean) => continueAsNew<typeof accountWorkflow>({
    ...input,
    carried: {
      status, scanIntervalMinutes, planRevision, firstScanId, scansCompleted, pendingScans: [...queue], scheduledScanDue: due,
      fairnessWeight, recentScans, pendingRescan: rescans.pending(),
    },
  });
  // Runs that began before events could grow a history between scans hand over only at a timer boundary.
  const handsOverBetweenScans = patched('continue-as-new-between-scans');
  const historyFull = () => handsOverBetweenScans && (eventSignalsThisRun >= maxEventSignalsPerRun || workflowInfo().continueAsNewSuggested);

  while (status === 'ACTIVE') {
    await condition(() => queue.length > 0 || scheduledScanDue || status !== 'ACTIVE' || historyFull());
    if (status !== 'ACTIVE') break;
    if (!scheduledScanDue && queue.length === 0 && historyFull()) {
      // Between scans: the next run arms its timer for the same slot (scan-slots.ts), so the cadence is kept.
      await condition(allHandlersFinished);
      return handOver(false);
    }
    if (scheduledScanDue) {
      // Hand over to a fresh run at a timer boundary, so the cadence is kept exactly across runs.
      if (queue.length === 0 && (scansThisRun >= maxScansPerRun || workflowInfo().continueAsNewSuggested)) {
        await condition(allHandlersFinished);
        return handOver(true);
      }
      scheduledScanDue = false;
      queue.push({ scanId: newScanId(), trigger: 'scheduled' });
      armTimer();
    }
    const next = queue.shift();
    if (next) {
      await runScan(next);
      scansCompleted += 1;
      scansThisRun += 1;
    }
  }
  await condition(allHandlersFinished);

  async function runScan(request: ScanRequest): Promise<void> {
    const scan = { tenantId, accountId, awsAccountId, scanId: request.scanId, trigger: request.trigger, groups: request.groups };
    let outcome: ScanOutcome;
    try {
      // Scans ran as child workflows before (four more billable actions and five more workflow tasks each); the
      // histories of those runs replay through the old branch.
      outcome = patched('scan-activities')
        ? await runScanActivities(scan, scanPriority({ tenantId, fairnessWeight, enabled: input.fairness !== false }))
        : await executeChild(scanWorkflow, {
          workflowId: scanWorkflowId(request.scanId),
          args: [scan],
          typedSearchAttributes: [{ key: TENANT_ID, value: tenantId }, { key: AWS_ACCOUNT_ID, value: awsAccountId }],
        });
    } catch (err) {
      // A scan that failed for good must not end the account's lifecycle: the next one is scheduled anyway.
      log.error('scan failed', { scanId: request.scanId, error: String(err) });
      outcome = { status: 'failed', failureReason: String(err) };
    }
    recentScans.push({ scanId: request.scanId, ...outcome });
    recentScans.splice(0, recentScans.length - RECENT_SCANS);
  }
}
