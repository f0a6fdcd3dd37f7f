import { type Kysely, sql } from 'kysely';
import { type Evaluation, isScoreComplete } from '../../domain/checks/evaluate';
import { newId } from '../../domain/ids';
import { type OpenSignal, scoreOf, signalChanges } from '../../domain/signal-lifecycle';
import type { Database } from '../database';
import { signalsWithCurrentAcceptance } from './signals';

type Conn = Kysely<Database>;

export interface ScanResult {
  scanId: string;
  tenantId: string;
  accountId: string;
  /** When the scan observed the account: detected_at / resolved_at and the score-history day come from it. */
  observedAt: Date;
  evaluation: Evaluation;
  /** When set, the scan failed (the role could not be assumed): only its finding is recorded, nothing resolves. */
  failureReason?: string;
}

export interface SavedScan {
  /** The score the scan recorded; null when it read too little of the account to score it. */
  srs: number | null;
  newFingerprints: string[];
  resolvedFingerprints: string[];
  /** False when this scan had been saved already (a retried activity): nothing was changed. */
  applied: boolean;
}

/** Why a scan that read too little records no score (scans.failure_reason). */
export function coverageLostReason({ evaluated, total }: Evaluation['coverage']): string {
  return `Sentinel could evaluate only ${evaluated} of ${total} checks: no score was recorded (see the account's checks for why).`;
}

/** The account's open signals, and whether an acceptance is in force for each at `at`. */
export async function openSignalsScored(db: Conn, accountId: string, at: Date): Promise<OpenSignal[]> {
  const rows = await signalsWithCurrentAcceptance(db)
    .select([
      'signals.id', 'signals.fingerprint', 'signals.check_id', 'signals.severity', 'signals.region', 'signals.resource', 'signals.owner',
      'signal_acceptances.id as acceptance_id', 'signal_acceptances.expires_at',
    ])
    .where('signals.account_id', '=', accountId)
    .where('signals.resolved_at', 'is', null)
    .execute();
  return rows.map((r) => ({
    id: r.id, fingerprint: r.fingerprint, checkId: r.check_id, severity: r.severity, region: r.region, resource: r.resource, owner: r.owner,
    accepted: r.acceptance_id !== null && (r.expires_at === null || r.expires_at > at),
  }));
}

/** The account's score outside a scan (an acceptance changed): no score-history point, which scans keep. */
export async function setCurrentSrs({ db, accountId, srs }: { db: Conn; accountId: string; srs: number }): Promise<void> {
  await db.updateTable('accounts').set({ current_srs: srs, updated_at: new Date() }).where('id', '=', accountId).execute();
}

/**
 * Applies one scan to the account in one transaction: its signals (domain/signal-lifecycle.ts), its check
 * outcomes and coverage, and, when it read enough of the account, its score and the day's score-history point.
 * Keyed by the scan id: saving the same scan twice changes nothing the second time.
 */
export async function saveScanResult({ db, result }: { db: Conn; result: ScanResult }): Promise<SavedScan> {
  const { evaluation, observedAt: at } = result;
  return db.transaction().execute(async (trx) => {
    // One scan of an account at a time writes its signals.
    await trx.selectFrom('accounts').select('id').where('id', '=', result.accountId).forUpdate().executeTakeFirstOrThrow();
    const scan = await trx.selectFrom('scans').select(['status', 'srs']).where('id', '=', result.scanId).executeTakeFirstOrThrow();
    if (scan.status !== 'running') {
      // Saved before (a retried activity): answer what that save did, so the retry reports the same outcome.
      const [opened, closed] = await Promise.all([
        trx.selectFrom('signals').select('fingerprint').where('first_scan_id', '=', result.scanId).execute(),
        trx.selectFrom('signals').select('fingerprint').where('resolved_scan_id', '=', result.scanId).execute(),
      ]);
      return { srs: scan.srs, newFingerprints: opened.map((s) => s.fingerprint), resolvedFingerprints: closed.map((s) => s.fingerprint), applied: false };
    }

    const open = await openSignalsScored(trx, result.accountId, at);
    const { fresh, stillOpen, resolved } = signalChanges(open, evaluation, { failed: result.failureReason !== undefined });
    if (fresh.length > 0) {
      await trx.insertInto('signals').values(fresh.map((f) => ({
        id: newId('signal', at.getTime()),
        tenant_id: result.tenantId,
        account_id: result.accountId,
        check_id: f.checkId,
        fingerprint: f.fingerprint,
        scenario: f.scenario,
        severity: f.severity,
        title: f.title,
        description: f.description,
        resource: f.resource,
        region: f.region,
        owner: f.owner,
        first_scan_id: result.scanId,
        last_seen_scan_id: result.scanId,
        detected_at: at,
      }))).execute();
    }
    if (stillOpen.length > 0) {
      await trx.updateTable('signals').set({ last_seen_scan_id: result.scanId })
        .where('id', 'in', stillOpen.map((s) => s.id)).execute();
    }
    if (resolved.length > 0) {
      await trx.updateTable('signals').set({ resolved_at: at, resolved_scan_id: result.scanId })
        .where('id', 'in', resolved.map((s) => s.id)).execute();
    }
    // The first scan after an acceptance expired: alert rules count its signal as new (see alert-firing.ts).
    await trx.updateTable('signal_acceptances').set({ expiry_scan_id: result.scanId })
      .where('account_id', '=', result.accountId).where('revoked_at', 'is', null).where('expiry_scan_id', 'is', null)
      .where('expires_at', '<=', at).execute();

    const resolvedIds = new Set(resolved.map((s) => s.id));
    const srs = scoreOf([
      ...open.filter((s) => !resolvedIds.has(s.id)),
      ...fresh.map((f) => ({ checkId: f.checkId, severity: f.severity, accepted: false })),
    ]);
    const failed = result.failureReason !== undefined || !evaluation.scored;
    const scored = evaluation.scored;

    await trx.updateTable('scans')
      .set({
        status: failed ? 'failed' : 'succeeded',
        srs: scored ? srs : null,
        failure_reason: result.failureReason ?? (scored ? null : coverageLostReason(evaluation.coverage)),
        checks: JSON.stringify(evaluation.outcomes),
        finished_at: new Date(),
      })
      .where('id', '=', result.scanId).execute();
    await trx.updateTable('accounts')
      .set({
        ...(scored ? { current_srs: srs } : {}),
        ...(failed ? {} : { last_successful_scan_at: at }),
        checks_scan_id: result.scanId,
        coverage_evaluated: evaluation.coverage.evaluated,
        coverage_total: evaluation.coverage.total,
        score_complete: isScoreComplete(evaluation.outcomes),
        updated_at: new Date(),
      })
      .where('id', '=', result.accountId).execute();
    if (scored) {
      // One point per day: the day's last scan wins, whatever order retries arrive in.
      await trx.insertInto('score_history')
        .values({ account_id: result.accountId, day: at.toISOString().slice(0, 10), srs, scan_id: result.scanId, recorded_at: at })
        .onConflict((oc) => oc.columns(['account_id', 'day']).doUpdateSet({
          srs: sql`excluded.srs`, scan_id: sql`excluded.scan_id`, recorded_at: sql`excluded.recorded_at`,
        }).where('score_history.recorded_at', '<=', sql<Date>`excluded.recorded_at`))
        .execute();
    }
    await trx.deleteFrom('scan_checkpoints').where('scan_id', '=', result.scanId).execute();

    return {
      srs: scored ? srs : null,
      newFingerprints: fresh.map((f) => f.fingerprint),
      resolvedFingerprints: resolved.map((s) => s.fingerprint),
      applied: true,
    };
  });
}
