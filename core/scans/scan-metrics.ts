import type { Evaluation } from '../../domain/checks/evaluate';
import { OUTSIDE_TARGETED_SCAN } from '../../domain/scans/inventory';
import { checksNotEvaluated, scanDuration, scansCompleted, scansStarted } from '../../observability/metrics';
import type { ScanTrigger } from '../../workflows/contracts';

// A scan's figures for the worker's /metrics, counted once per scan: where the scan row changes state (a retried
// activity that finds the scan already started or saved counts nothing again).

export type ScanMetricOutcome = 'succeeded' | 'partial' | 'failed';

/** succeeded: scored with every check evaluated; partial: scored with some not evaluated; failed: no usable result. */
export function scanMetricOutcome(evaluation: Evaluation, failureReason: string | undefined): ScanMetricOutcome {
  if (failureReason !== undefined || !evaluation.scored) return 'failed';
  return evaluation.coverage.evaluated < evaluation.coverage.total ? 'partial' : 'succeeded';
}

/**
 * Why a check was not evaluated, as a bounded label (the reasons themselves are sentences that name services,
 * regions and resources). Matches the phrasing of cloud/aws/collectors/failures.ts and the sandbox.
 */
export function notEvaluatedLabel(reason: string | null): 'denied' | 'unsubscribed' | 'failed' {
  if (reason && /\bdenied\b|AccessDenied|not authori[sz]ed/i.test(reason)) return 'denied';
  if (reason && /not subscribed|subscription|support plan|OptInRequired/i.test(reason)) return 'unsubscribed';
  return 'failed';
}

export function countScanStarted(provider: string, trigger: ScanTrigger): void {
  scansStarted.inc({ provider, trigger });
}

export function countScanEnded({
  provider,
  outcome,
  startedAt,
  at,
}: {
  provider: string;
  outcome: ScanMetricOutcome;
  startedAt: Date | undefined;
  at: Date;
}): void {
  scansCompleted.inc({ provider, outcome });
  if (startedAt) scanDuration.observe({ provider, outcome }, Math.max(0, at.getTime() - startedAt.getTime()) / 1000);
}

/** The checks a saved scan could not evaluate: all of them `role_unavailable` when the role could not be assumed. */
export function countNotEvaluated(evaluation: Evaluation, failureReason: string | undefined): void {
  for (const outcome of evaluation.outcomes) {
    // A targeted rescan leaves most checks out on purpose: not a failure to read anything.
    if (outcome.status !== 'not_evaluated' || outcome.reason === OUTSIDE_TARGETED_SCAN) continue;
    checksNotEvaluated.inc({
      reason: failureReason !== undefined ? 'role_unavailable' : notEvaluatedLabel(outcome.reason),
    });
  }
}
