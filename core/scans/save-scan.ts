import type { Db } from '../../db/client';
import { saveAttackPaths } from '../../db/repositories/attack-paths';
import { attackPathRow } from '../attack-paths/path-rows';
import { lockAccount, noteScanSaved, regionBaselineOf } from '../../db/repositories/accounts';
import { deleteCheckpoint } from '../../db/repositories/scan-progress';
import { failRunningScan, finishScan, findScanState } from '../../db/repositories/scans';
import { recordScorePoint } from '../../db/repositories/score-history';
import {
  fingerprintsChangedBy,
  insertSignals,
  listOpenSignalsWithAcceptance,
  noteExpiredAcceptances,
  resolveSignals,
} from '../../db/repositories/signals';
import type { AttackPathAnalysis } from '../../domain/attack-paths/analyze';
import { type Evaluation, isScoreComplete } from '../../domain/checks/evaluate';
import { learnedBaseline, regionAccepted } from '../../domain/checks/region-baseline';
import { indicatorKind, PROBABLE_COMPROMISE, probableCompromise } from '../../domain/events/compound';
import { eventFingerprint } from '../../domain/events/occurrences';
import { newId } from '../../domain/ids';
import { asOpenSignals, scoreOf, signalChanges } from '../../domain/signals/lifecycle';
import { indicatorsOfLastDay } from '../events/probable-compromise';
import { type OpenedSignal, openEventSignals } from '../events/open-event-signals';

export interface ScanResult {
  scanId: string;
  tenantId: string;
  accountId: string;
  /** When the scan observed the account: detected_at / resolved_at and the score-history day come from it. */
  observedAt: Date;
  evaluation: Evaluation;
  /** When set, the scan failed (the role could not be assumed): only its finding is recorded, nothing resolves. */
  failureReason?: string;
  /** A targeted rescan after events: it leaves the account's coverage (that of its last full scan) as it is. */
  targeted?: boolean;
  /**
   * What a full scan's inventory says the account uses (domain/checks/region-baseline.ts `learnRegions`); null or
   * absent: not read whole. Only an account without a learned baseline learns it.
   */
  learnedRegions?: string[] | null;
  /** Set when the scan itself read every IAM user and access key: the next scan's identity window starts here. */
  identitiesScannedAt?: Date;
  /** A full scan's attack-path analysis (domain/attack-paths/analyze.ts); absent for targeted rescans and failures. */
  attackPaths?: AttackPathAnalysis;
}

export interface SavedScan {
  /** The score the scan recorded; null when it read too little of the account to score it. */
  srs: number | null;
  newFingerprints: string[];
  resolvedFingerprints: string[];
  /** False when this scan had been saved already (a retried activity) or was discarded: nothing was changed. */
  applied: boolean;
  /** Set when the scan was discarded, and why (the account was disconnected while it ran). */
  discarded?: string;
  /** When the scan started (set when applied). */
  startedAt?: Date;
}

/** A scan that finishes after its account was disconnected saves nothing (scans.failure_reason). */
export const DISCONNECTED_MID_SCAN = 'The account was disconnected while this scan ran: nothing was saved.';

/** Why a scan that read too little records no score (scans.failure_reason). */
export function coverageLostReason({ evaluated, total }: Evaluation['coverage']): string {
  return `Sentinel could evaluate only ${evaluated} of ${total} checks: no score was recorded (see the account's checks for why).`;
}

/**
 * The compound detection, completed by what this scan opened (a spend spike, a GPU instance, ... with an access
 * indicator of the day): its signal, opened by the scan, unless one is open. Answers what it opened.
 */
async function openProbableCompromise({
  db,
  tenantId,
  accountId,
  scanId,
  at,
}: {
  db: Db;
  tenantId: string;
  accountId: string;
  scanId: string;
  at: Date;
}): Promise<OpenedSignal[]> {
  const compound = probableCompromise(await indicatorsOfLastDay(db, accountId, at), at.toISOString());
  if (!compound) return [];
  const { id, scenario, severity, title, description } = PROBABLE_COMPROMISE;
  // An occurrence, as when an event completes it (domain/events/occurrences.ts): counted on the open one of the last
  // day unless that one was accepted.
  return openEventSignals(
    db,
    { tenant_id: tenantId, id: accountId },
    [
      {
        id: newId('signal', at.getTime()),
        tenant_id: tenantId,
        account_id: accountId,
        check_id: id,
        fingerprint: eventFingerprint(id, compound.finding, scanId),
        scenario,
        severity,
        title,
        description: `${description} ${compound.finding.detail}`,
        resource: compound.finding.resource,
        region: 'global',
        owner: null,
        first_scan_id: scanId,
        detected_at: at,
        principal: null,
        occurred_at: at,
      },
    ],
    at,
  );
}

/**
 * The scan's attack paths and how their analysis went. An analysis that could not run (the IAM documents unread)
 * leaves the paths found before as they are: nothing was looked at again.
 */
async function storeAttackPaths(db: Db, result: ScanResult, analysis: AttackPathAnalysis): Promise<void> {
  const { scanId, tenantId, accountId, observedAt } = result;
  const evaluated = analysis.status !== 'not_evaluated';
  await saveAttackPaths({
    db,
    analysis: {
      account_id: accountId,
      tenant_id: tenantId,
      scan_id: scanId,
      status: analysis.status,
      reason: analysis.reason ?? null,
      unread: analysis.unread,
      analyzed_at: observedAt,
    },
    paths: evaluated
      ? analysis.paths.map((p) => attackPathRow(p, { accountId, tenantId, scanId, foundAt: observedAt }))
      : [],
    replace: analysis.status === 'complete',
  });
}

/**
 * Applies one scan to the account in one transaction: its signals (domain/signals/lifecycle.ts), its check
 * outcomes and coverage, and, when it read enough of the account, its score and the day's score-history point.
 * Keyed by the scan id: saving the same scan twice changes nothing the second time.
 */
export async function saveScanResult({ db, result }: { db: Db; result: ScanResult }): Promise<SavedScan> {
  const { scanId, tenantId, accountId, evaluation, observedAt: at } = result;
  return db.transaction().execute(async (trx) => {
    const account = await lockAccount({ db: trx, tenantId, accountId });
    const scan = await findScanState({ db: trx, accountId, scanId });
    if (!scan) throw new Error(`No scan ${scanId} of account ${accountId}`);
    if (scan.status !== 'running') {
      // Saved before (a retried activity): answer what that save did, so the retry reports the same outcome.
      const [opened, closed] = await Promise.all([
        fingerprintsChangedBy({ db: trx, scanId, change: 'opened' }),
        fingerprintsChangedBy({ db: trx, scanId, change: 'resolved' }),
      ]);
      return { srs: scan.srs, newFingerprints: opened, resolvedFingerprints: closed, applied: false };
    }
    if (account?.status === 'DISCONNECTED') {
      // Its signals, score and alerts would belong to an account the tenant has let go.
      await failRunningScan({ db: trx, scanId, reason: DISCONNECTED_MID_SCAN, at: new Date() });
      return {
        srs: null,
        newFingerprints: [],
        resolvedFingerprints: [],
        applied: false,
        discarded: DISCONNECTED_MID_SCAN,
      };
    }

    const baseline = account ? regionBaselineOf(account) : undefined;
    // A signal of an instance in a region a member has since accepted into the baseline was reviewed with it.
    const open = asOpenSignals(await listOpenSignalsWithAcceptance({ db: trx, accountId }), at).map((s) =>
      baseline && regionAccepted(s, baseline) ? { ...s, reviewed: true } : s,
    );
    // Learned once, from the first full scan that read every region's instances and trails; kept as is after that.
    const learned =
      baseline && !result.targeted && result.learnedRegions
        ? learnedBaseline(baseline, result.learnedRegions, at)
        : null;
    const failed = result.failureReason !== undefined;
    // Signals still open are left as they are: no write per open signal per scan.
    const { fresh, resolved } = signalChanges(open, evaluation, { failed, at });
    await insertSignals({
      db: trx,
      signals: fresh.map((f) => ({
        id: newId('signal', at.getTime()),
        tenant_id: tenantId,
        account_id: accountId,
        check_id: f.checkId,
        fingerprint: f.fingerprint,
        scenario: f.scenario,
        severity: f.severity,
        title: f.title,
        description: f.description,
        resource: f.resource,
        region: f.region,
        owner: f.owner,
        first_scan_id: scanId,
        detected_at: at,
      })),
    });
    const compound = fresh.some((f) => indicatorKind(f.checkId) !== null)
      ? await openProbableCompromise({ db: trx, tenantId, accountId, scanId, at })
      : [];
    await resolveSignals({ db: trx, signalIds: resolved.map((s) => s.id), scanId, at });
    // The first scan after an acceptance expired: alert rules count its signal as new (see fire-alert-rules.ts).
    await noteExpiredAcceptances({ db: trx, accountId, scanId, at });

    const resolvedIds = new Set(resolved.map((s) => s.id));
    const srs = scoreOf([
      ...open.filter((s) => !resolvedIds.has(s.id)),
      ...fresh.map((f) => ({ checkId: f.checkId, severity: f.severity, scenario: f.scenario, accepted: false })),
      ...compound.map((c) => ({ ...c, scenario: PROBABLE_COMPROMISE.scenario })),
    ]);
    // Whether the score read every core source (domain/scoring/completeness.ts). A targeted rescan's score stands on
    // the coverage of the account's last full scan, and so does its completeness.
    const complete = result.targeted ? account?.score_complete === true : isScoreComplete(evaluation.outcomes);
    // A targeted rescan read a few parts: it rescores an account that has a score, and gives none to one whose full
    // scans read too little to be scored.
    const scored = evaluation.scored && (!result.targeted || account?.current_srs != null);
    // A targeted rescan that read what it was asked to has succeeded, scored or not.
    const succeeded = !failed && (scored || result.targeted === true);

    await finishScan({
      db: trx,
      scanId,
      fields: {
        status: succeeded ? 'succeeded' : 'failed',
        srs: scored ? srs : null,
        failure_reason: result.failureReason ?? (succeeded ? null : coverageLostReason(evaluation.coverage)),
        checks: evaluation.outcomes,
        finished_at: new Date(),
      },
    });
    await noteScanSaved({
      db: trx,
      accountId,
      fields: {
        ...(result.targeted
          ? {}
          : {
              checks_scan_id: scanId,
              coverage_evaluated: evaluation.coverage.evaluated,
              coverage_total: evaluation.coverage.total,
              score_complete: complete,
            }),
        ...(learned
          ? {
              region_baseline: [...learned.regions],
              region_baseline_learned_at: at,
              // The previous release's processes read this during a deploy: the baseline is what they should judge by.
              used_regions: [...learned.regions],
            }
          : {}),
        ...(result.identitiesScannedAt ? { identities_scanned_at: result.identitiesScannedAt } : {}),
        ...(scored ? { current_srs: srs } : {}),
        // The last full read of the account: a targeted rescan is not one.
        ...(succeeded && !result.targeted ? { last_successful_scan_at: at } : {}),
      },
    });
    if (scored) {
      await recordScorePoint({
        db: trx,
        point: {
          account_id: accountId,
          day: at.toISOString().slice(0, 10),
          srs,
          complete,
          scan_id: scanId,
          recorded_at: at,
        },
      });
    }
    if (result.attackPaths && !failed) await storeAttackPaths(trx, result, result.attackPaths);
    await deleteCheckpoint({ db: trx, scanId });

    return {
      srs: scored ? srs : null,
      newFingerprints: fresh.map((f) => f.fingerprint),
      resolvedFingerprints: resolved.map((s) => s.fingerprint),
      applied: true,
      startedAt: scan.started_at,
    };
  });
}
