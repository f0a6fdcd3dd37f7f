import { type Kysely, sql } from 'kysely';
import type { Finding } from '../../domain/checks/evaluate';
import { newId } from '../../domain/ids';
import { computeSrs } from '../../domain/srs';
import type { Database } from '../database';

type Conn = Kysely<Database>;

export interface ScanResult {
  scanId: string;
  tenantId: string;
  accountId: string;
  /** When the scan observed the account: detected_at / resolved_at and the score-history day come from it. */
  observedAt: Date;
  findings: Finding[];
  /** Checks the scan could not evaluate: their open signals stay open (unknown is not resolved). */
  notEvaluatedCheckIds: string[];
  /** When set, the scan failed (the role could not be assumed): only `findings` are recorded, nothing resolves. */
  failureReason?: string;
}

export interface SavedScan {
  srs: number;
  newFingerprints: string[];
  resolvedFingerprints: string[];
  /** False when this scan had been saved already (a retried activity): nothing was changed. */
  applied: boolean;
}

/**
 * Applies one scan's findings to the account's signals, score and score history in one transaction. Keyed by
 * the scan id: saving the same scan twice changes nothing the second time.
 *
 * Lifecycle: a fingerprint seen again keeps its open signal; an open signal not seen (and whose check was
 * evaluated) is resolved; a fingerprint that returns after being resolved opens a new signal.
 */
export async function saveScanResult({ db, result }: { db: Conn; result: ScanResult }): Promise<SavedScan> {
  return db.transaction().execute(async (trx) => {
    // One scan of an account at a time writes its signals.
    await trx.selectFrom('accounts').select('id').where('id', '=', result.accountId).forUpdate().executeTakeFirstOrThrow();
    const scan = await trx.selectFrom('scans').select(['status', 'srs']).where('id', '=', result.scanId).executeTakeFirstOrThrow();
    const open = await trx
      .selectFrom('signals')
      .select(['id', 'fingerprint', 'check_id', 'severity'])
      .where('account_id', '=', result.accountId)
      .where('resolved_at', 'is', null)
      .execute();

    if (scan.status !== 'running') {
      // Saved before (a retried activity): answer what that save did, so the retry reports the same outcome.
      const [opened, closed] = await Promise.all([
        trx.selectFrom('signals').select('fingerprint').where('first_scan_id', '=', result.scanId).execute(),
        trx.selectFrom('signals').select('fingerprint').where('resolved_scan_id', '=', result.scanId).execute(),
      ]);
      return {
        srs: scan.srs ?? 100,
        newFingerprints: opened.map((s) => s.fingerprint),
        resolvedFingerprints: closed.map((s) => s.fingerprint),
        applied: false,
      };
    }

    const openByFingerprint = new Map(open.map((s) => [s.fingerprint, s]));
    const findings = [...new Map(result.findings.map((f) => [f.fingerprint, f])).values()];
    const seen = new Set(findings.map((f) => f.fingerprint));
    const fresh = findings.filter((f) => !openByFingerprint.has(f.fingerprint));
    const stillOpen = open.filter((s) => seen.has(s.fingerprint));
    const notEvaluated = new Set(result.notEvaluatedCheckIds);
    const resolved = result.failureReason ? [] : open.filter((s) => !seen.has(s.fingerprint) && !notEvaluated.has(s.check_id));

    const at = result.observedAt;
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

    const resolvedIds = new Set(resolved.map((s) => s.id));
    const openAfter = [
      ...open.filter((s) => !resolvedIds.has(s.id)).map((s) => ({ checkId: s.check_id, severity: s.severity, fingerprint: s.fingerprint })),
      ...fresh.map((f) => ({ checkId: f.checkId, severity: f.severity, fingerprint: f.fingerprint })),
    ];
    const srs = computeSrs(openAfter);
    const succeeded = !result.failureReason;

    await trx.updateTable('scans')
      .set({ status: succeeded ? 'succeeded' : 'failed', srs, failure_reason: result.failureReason ?? null, finished_at: new Date() })
      .where('id', '=', result.scanId).execute();
    await trx.updateTable('accounts')
      .set({ current_srs: srs, updated_at: new Date(), ...(succeeded ? { last_successful_scan_at: at } : {}) })
      .where('id', '=', result.accountId).execute();
    // One point per day: the day's last scan wins, whatever order retries arrive in.
    await trx.insertInto('score_history')
      .values({ account_id: result.accountId, day: at.toISOString().slice(0, 10), srs, scan_id: result.scanId, recorded_at: at })
      .onConflict((oc) => oc.columns(['account_id', 'day']).doUpdateSet({
        srs: sql`excluded.srs`, scan_id: sql`excluded.scan_id`, recorded_at: sql`excluded.recorded_at`,
      }).where('score_history.recorded_at', '<=', sql<Date>`excluded.recorded_at`))
      .execute();

    return {
      srs,
      newFingerprints: fresh.map((f) => f.fingerprint),
      resolvedFingerprints: resolved.map((s) => s.fingerprint),
      applied: true,
    };
  });
}
