import { type CloudProvider, type CollectionProgress, RoleUnavailableError } from '../../cloud/types';
import type { Config } from '../../config/config';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import type { Attempt } from '../deps';
import { hasWorkingEventKey } from '../../db/repositories/account-events';
import { loadRoleTarget, loadScanBaselines, noteScanStarted } from '../../db/repositories/accounts';
import {
  keepCostExplorerRead,
  loadCheckpoint,
  recentCostExplorerReads,
  saveCheckpoint,
} from '../../db/repositories/scan-progress';
import { failRunningScan, findScanState, insertRunningScan } from '../../db/repositories/scans';
import { recentEventActors } from '../../db/repositories/signals';
import { type AttackPathAnalysis, analyzeAttackPaths } from '../../domain/attack-paths/analyze';
import {
  type Evaluation,
  evaluateInventory,
  evaluateTargeted,
  roleUnavailableEvaluation,
} from '../../domain/checks/evaluate';
import { learnRegions } from '../../domain/checks/region-baseline';
import { EVENT_INGEST_PATH } from '../../domain/events/forwarding-rules';
import { partsOfGroups } from '../../domain/events/types';
import { COST_EXPLORER_PARTS, type Inventory, type PartName } from '../../domain/scans/inventory';
import type { RoleTarget } from '../../domain/onboarding/role';
import type { ReadOutcome } from '../../domain/scans/scan-progress';
import {
  type RunScanInput,
  type RunScanResult,
  SCAN_ATTEMPTS,
  type ScanOutcome,
  type ScanTrigger,
} from '../../workflows/contracts';
import { fireAlertRules } from '../alerts/fire-alert-rules';
import { saveScanResult } from './save-scan';
import { countNotEvaluated, countScanEnded, countScanStarted, scanMetricOutcome } from './scan-metrics';

/** How often a running scan heartbeats its progress and keeps what it has read for a retry. */
const HEARTBEAT_MS = 10_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export function scanUseCases({
  db,
  log,
  cloud,
  config,
}: {
  db: Db;
  log: Logger;
  cloud: CloudProvider;
  config: Readonly<Config>;
}) {
  /**
   * Collects the inventory through the role. Every 10 s it heartbeats its progress (the Temporal UI shows it as
   * the activity's heartbeat details) and keeps the reads settled since the last time, so that a retry (a failed
   * read, a lost worker) reads only the rest. Cost Explorer parts younger than the configured interval are
   * reused instead of read: AWS bills every request to the customer.
   */
  async function collect(
    scanId: string,
    accountId: string,
    target: RoleTarget,
    parts: readonly PartName[] | undefined,
    attempt: Attempt,
  ): Promise<{ inventory: Inventory; resumed: boolean }> {
    const [checkpoint, reuse, forwarding] = await Promise.all([
      loadCheckpoint({ db, scanId }),
      recentCostExplorerReads({
        db,
        accountId,
        since: new Date(Date.now() - config.cloud.costExplorerMinIntervalHours * HOUR_MS),
      }),
      hasWorkingEventKey({ db, accountId }),
    ]);
    let unsaved: Record<string, ReadOutcome> = {};
    let progress: CollectionProgress | undefined;
    const keep = async () => {
      const reads = unsaved;
      unsaved = {};
      if (Object.keys(reads).length > 0) await saveCheckpoint({ db, scanId, reads });
    };
    let keeping: Promise<void> = Promise.resolve();
    const beat = setInterval(() => {
      attempt.heartbeat(progress);
      keeping = keeping
        .then(keep)
        .catch((err: unknown) => log.warn({ scanId, err }, "could not keep the scan's progress"));
    }, HEARTBEAT_MS);
    try {
      const inventory = await cloud.collectInventory(target, {
        checkpoint,
        reuse,
        finalAttempt: attempt.number >= SCAN_ATTEMPTS,
        parts,
        // An account with an event key was connected with event forwarding: its forwarder must post to this
        // service's ingestion endpoint, in every region. Without a key none is expected, and none is read.
        eventForwarder: forwarding ? { endpoint: `${config.http.publicBaseUrl}${EVENT_INGEST_PATH}` } : undefined,
        // Given up (timed out while another attempt took over, or cancelled): stop reading rather than run two
        // collections of the account at once.
        signal: attempt.cancelled,
        onRead: (key, outcome) => {
          unsaved[key] = outcome;
        },
        onProgress: (next) => {
          progress = next;
        },
      });
      for (const part of COST_EXPLORER_PARTS) {
        const read = inventory[part];
        if (!reuse[part] && read.status === 'ok') {
          await keepCostExplorerRead({
            db,
            accountId,
            part,
            value: read.value,
            readAt: new Date(inventory.collectedAt),
          });
        }
      }
      // A retry reuses what earlier attempts read, before this attempt's collection time.
      return { inventory, resumed: Object.keys(checkpoint).length > 0 };
    } catch (err) {
      // Whatever was read stays read for the next attempt.
      await keeping;
      await keep();
      throw err;
    } finally {
      clearInterval(beat);
    }
  }

  /** Records the scan as running. Keyed by the scan id: a retry inserts nothing twice. */
  async function recordScanStarted({
    scanId,
    tenantId,
    accountId,
    trigger,
  }: {
    scanId: string;
    tenantId: string;
    accountId: string;
    trigger: ScanTrigger;
  }): Promise<void> {
    const now = new Date();
    const inserted = await db.transaction().execute(async (trx) => {
      const added = await insertRunningScan({
        db: trx,
        scan: { id: scanId, tenant_id: tenantId, account_id: accountId, trigger, started_at: now },
      });
      if (added) await noteScanStarted({ db: trx, tenantId, accountId, at: now });
      return added;
    });
    if (inserted) countScanStarted(cloud.kind, trigger);
  }

  /**
   * Collects the inventory, evaluates the check catalog and saves signals, check outcomes, coverage and (when
   * enough was read) score and score history. The inventory never leaves the activity (it can be large and it
   * describes the customer's account); the workflow gets a summary.
   */
  async function collectAndSave(
    { scanId, tenantId, accountId, groups }: RunScanInput,
    attempt: Attempt,
  ): Promise<ScanOutcome> {
    const [{ target }, baselines, actors] = await Promise.all([
      loadRoleTarget({ db, tenantId, accountId }),
      loadScanBaselines({ db, accountId }),
      recentEventActors({ db, accountId, since: new Date(Date.now() - DAY_MS) }),
    ]);
    // A targeted rescan (after an event) reads only the parts of the service groups the events touched.
    const parts = groups && groups.length > 0 ? partsOfGroups(groups) : undefined;
    let evaluation: Evaluation;
    let failureReason: string | undefined;
    let observedAt: Date;
    let learnedRegions: string[] | null = null;
    let identitiesScannedAt: Date | undefined;
    let attackPaths: AttackPathAnalysis | undefined;
    // How long each step took, in the scan's log line: where a slow scan's time went.
    const startedAt = performance.now();
    let collectedAt: number;
    let evaluatedAt: number;
    try {
      const { inventory, resumed } = await collect(scanId, accountId, target, parts, attempt);
      collectedAt = performance.now();
      observedAt = new Date(inventory.collectedAt);
      const context = {
        now: inventory.collectedAt,
        previousScanAt: baselines.identitiesScannedAt?.toISOString() ?? null,
        regionBaseline: baselines.regionBaseline,
        // Who the account's event detections saw act in the last day: an escalation path of theirs may be in use.
        recentActors: actors.flatMap((a) =>
          a.principal && a.occurred_at
            ? [{ principal: a.principal, detection: a.check_id, at: a.occurred_at.toISOString() }]
            : [],
        ),
      };
      evaluation = parts ? evaluateTargeted(inventory, context) : evaluateInventory(inventory, context);
      learnedRegions = parts ? null : learnRegions(inventory);
      // The checks computed it already (once per inventory): the save stores its paths.
      attackPaths = parts ? undefined : analyzeAttackPaths(inventory, context);
      evaluatedAt = performance.now();
      // The next scan's identity window starts at this collection only if every user and key was read in it: a
      // read an earlier attempt made may be older than this time, and what was created between would fall in
      // neither scan's window.
      if (!resumed && readWhole(inventory.iamPrincipals)) identitiesScannedAt = observedAt;
    } catch (err) {
      if (!(err instanceof RoleUnavailableError)) throw err;
      collectedAt = evaluatedAt = performance.now();
      observedAt = new Date();
      failureReason = err.reason;
      evaluation = roleUnavailableEvaluation(err.reason);
    }
    const saved = await saveScanResult({
      db,
      result: {
        scanId,
        tenantId,
        accountId,
        observedAt,
        evaluation,
        failureReason,
        targeted: parts !== undefined,
        learnedRegions,
        identitiesScannedAt,
        attackPaths,
      },
    });
    if (saved.discarded) {
      log.info({ tenantId, accountId, scanId }, 'scan discarded: the account was disconnected while it ran');
      return { status: 'failed', failureReason: saved.discarded };
    }
    if (saved.applied) {
      countScanEnded({
        provider: cloud.kind,
        outcome: scanMetricOutcome(evaluation, failureReason),
        startedAt: saved.startedAt,
        at: new Date(),
      });
      countNotEvaluated(evaluation, failureReason);
      log.info(
        {
          tenantId,
          accountId,
          scanId,
          srs: saved.srs,
          coverage: evaluation.coverage,
          new: saved.newFingerprints.length,
          resolved: saved.resolvedFingerprints.length,
          collectMs: Math.round(collectedAt - startedAt),
          evaluateMs: Math.round(evaluatedAt - collectedAt),
          saveMs: Math.round(performance.now() - evaluatedAt),
        },
        failureReason
          ? 'scan failed: role unavailable'
          : evaluation.scored
            ? 'scan saved'
            : 'scan saved without a score: coverage lost',
      );
    }
    const srs = saved.srs ?? undefined;
    if (failureReason) return { status: 'failed', failureReason, srs };
    return evaluation.scored
      ? { status: 'succeeded', srs }
      : { status: 'failed', failureReason: 'Too little of the account could be read to score it' };
  }

  return {
    /** Scans that ran as child workflows recorded their start in an activity of its own. */
    recordScanStarted,

    /**
     * One scan: records it as running (given its trigger), collects, evaluates and saves it (collectAndSave), and
     * with `fireAlerts` fires the tenant's alert rules against it and answers the deliveries to start. Idempotent:
     * a retry records nothing twice, reads only what the attempts before did not, and once the scan is saved (the
     * attempt before failed while firing the rules) goes straight to the rules.
     */
    async scanAccount(input: RunScanInput, attempt: Attempt): Promise<RunScanResult> {
      const { scanId, tenantId, accountId, trigger, fireAlerts } = input;
      if (trigger) await recordScanStarted({ scanId, tenantId, accountId, trigger });
      if (!fireAlerts) return collectAndSave(input, attempt);
      const before = await findScanState({ db, accountId, scanId });
      const outcome =
        before && before.status !== 'running' ? savedOutcome(before) : await collectAndSave(input, attempt);
      const deliveries = await fireAlertRules({ db, log, tenantId, accountId, source: { kind: 'scan', id: scanId } });
      return { ...outcome, deliveryIds: deliveries.map((d) => d.deliveryId) };
    },

    /**
     * Closes a scan that could not complete at all (retries exhausted). Leaves signals and score alone. Given the
     * trigger, a scan whose runScan never got as far as recording it is recorded too: every scan id the API
     * answered with ends with a row. Answers the scan's outcome if it had been saved after all (runScan failed while
     * it fired the alert rules): its rules are then still to be fired.
     */
    async recordScanFailed({
      scanId,
      tenantId,
      accountId,
      reason,
      trigger,
    }: {
      scanId: string;
      tenantId: string;
      accountId: string;
      reason: string;
      trigger?: ScanTrigger;
    }): Promise<{ saved?: ScanOutcome }> {
      const now = new Date();
      const closed = await db.transaction().execute(async (trx) => {
        if (trigger)
          await insertRunningScan({
            db: trx,
            scan: { id: scanId, tenant_id: tenantId, account_id: accountId, trigger, started_at: now },
          });
        const state = await findScanState({ db: trx, accountId, scanId });
        if (state && state.status !== 'running') return { outcome: savedOutcome(state) };
        await failRunningScan({ db: trx, scanId, reason, at: now });
        return { startedAt: state?.started_at };
      });
      if ('startedAt' in closed)
        countScanEnded({ provider: cloud.kind, outcome: 'failed', startedAt: closed.startedAt, at: now });
      const saved = 'outcome' in closed ? closed.outcome : undefined;
      if (saved)
        log.warn({ tenantId, accountId, scanId }, 'scan saved, but its alert rules could not be fired in time');
      else log.warn({ tenantId, accountId, scanId, reason }, 'scan failed');
      return { saved };
    },
  };
}

/** A part read everywhere: nothing of it left unread. */
const readWhole = (part: Inventory[PartName]) => part.status === 'ok' && !part.unread?.length;

/** The outcome of a scan an earlier attempt saved. */
function savedOutcome(state: { status: string; srs: number | null; failure_reason: string | null }): ScanOutcome {
  return {
    status: state.status === 'succeeded' ? 'succeeded' : 'failed',
    srs: state.srs ?? undefined,
    failureReason: state.failure_reason ?? undefined,
  };
}
