import { Context } from '@temporalio/activity';
import { type CloudProvider, RoleUnavailableError } from '../cloud/types';
import type { Logger } from '../config/logger';
import type { Db } from '../db/client';
import { loadRoleTarget } from '../db/repositories/accounts';
import { saveScanResult } from '../db/repositories/scan-results';
import { connectivityFinding, evaluateInventory, type Finding } from '../domain/checks/evaluate';
import type { ScanOutcome, ScanTrigger } from '../workflows/messages';

export function scanActivities({ db, log, cloud }: { db: Db; log: Logger; cloud: CloudProvider }) {
  return {
    /** Records the scan as running. Keyed by the scan id: a retry inserts nothing twice. */
    async recordScanStarted(
      { scanId, tenantId, accountId, trigger }: { scanId: string; tenantId: string; accountId: string; trigger: ScanTrigger },
    ): Promise<void> {
      const now = new Date();
      await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('scans')
          .values({ id: scanId, tenant_id: tenantId, account_id: accountId, trigger, status: 'running', started_at: now })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (inserted) {
          await trx.updateTable('accounts').set({ last_scan_at: now, updated_at: now })
            .where('id', '=', accountId).where('tenant_id', '=', tenantId).execute();
        }
      });
    },

    /**
     * Collects the inventory through the role (heartbeating as each service group finishes), evaluates the
     * check catalog and saves signals, score and score history. The inventory never leaves this activity
     * (it can be large and it describes the customer's account); the workflow gets a summary. Idempotent.
     */
    async runScan({ scanId, tenantId, accountId }: { scanId: string; tenantId: string; accountId: string }): Promise<ScanOutcome> {
      const { target } = await loadRoleTarget({ db, tenantId, accountId });
      const heartbeat = (step: string) => Context.current().heartbeat(step);
      let findings: Finding[];
      let notEvaluatedCheckIds: string[] = [];
      let failureReason: string | undefined;
      let observedAt: Date;
      try {
        const inventory = await cloud.collectInventory(target, { onProgress: heartbeat });
        observedAt = new Date(inventory.collectedAt);
        const evaluation = evaluateInventory(inventory, { now: inventory.collectedAt });
        findings = evaluation.findings;
        notEvaluatedCheckIds = evaluation.notEvaluated.map((n) => n.checkId);
      } catch (err) {
        if (!(err instanceof RoleUnavailableError)) throw err;
        observedAt = new Date();
        failureReason = err.reason;
        findings = [connectivityFinding(err.reason)];
      }
      const saved = await saveScanResult({
        db,
        result: { scanId, tenantId, accountId, observedAt, findings, notEvaluatedCheckIds, failureReason },
      });
      if (saved.applied) {
        log.info({ tenantId, accountId, scanId, srs: saved.srs, new: saved.newFingerprints.length, resolved: saved.resolvedFingerprints.length },
          failureReason ? 'scan failed: role unavailable' : 'scan saved');
      }
      return failureReason ? { status: 'failed', failureReason, srs: saved.srs } : { status: 'succeeded', srs: saved.srs };
    },

    /** Closes a scan that could not complete at all (retries exhausted). Leaves signals and score alone. */
    async recordScanFailed({ scanId, tenantId, accountId, reason }: { scanId: string; tenantId: string; accountId: string; reason: string }): Promise<void> {
      await db.updateTable('scans')
        .set({ status: 'failed', failure_reason: reason, finished_at: new Date() })
        .where('id', '=', scanId).where('status', '=', 'running').execute();
      log.warn({ tenantId, accountId, scanId, reason }, 'scan failed');
    },
  };
}
