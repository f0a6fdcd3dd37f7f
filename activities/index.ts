// The worker's activities: thin adapters that register the use cases of core/ under the names the workflows call
// them by. These names are recorded in every running workflow's history: a renamed one would fail those workflows'
// replay, so they never change (test/workflows/replay.test.ts). What an activity needs of Temporal itself (its
// heartbeat, its attempt number, its cancellation) reaches the use case as an `Attempt` (activities/attempt.ts).
import { verificationUseCases } from '../core/accounts/verification';
import { deliveryUseCases } from '../core/alerts/deliver';
import { fireAlertRules } from '../core/alerts/fire-alert-rules';
import { leftOverBatchUseCases } from '../core/events/dispatch-batches';
import { exportPackageUseCases } from '../core/exports/export-package';
import { forwardingWatchUseCases } from '../core/events/forwarding-watch';
import { organizationUseCases } from '../core/organizations/sync';
import { retentionUseCases } from '../core/retention/prune';
import { scanUseCases } from '../core/scans/scan-account';
import type { AppDeps } from '../core/deps';
import type { RunScanInput } from '../workflows/contracts';
import { currentAttempt } from './attempt';

/**
 * What the worker builds once and hands every activity: the use cases' dependencies less the API process's own
 * (its read cache and template publisher). Its Temporal client lets organization syncs connect, verify and
 * disconnect member accounts through their own workflows, and left-over event batches start their deliveries.
 */
export type ActivityDeps = Omit<AppDeps, 'readCache' | 'templates'>;

/** Builds every activity from its dependencies (the worker registers the result). */
export function createActivities(deps: ActivityDeps) {
  const accounts = verificationUseCases(deps);
  const scans = scanUseCases(deps);
  const deliveries = deliveryUseCases(deps);
  const exports = exportPackageUseCases(deps);
  const organizations = organizationUseCases(deps);
  const retention = retentionUseCases(deps);
  const leftOverBatches = leftOverBatchUseCases(deps);
  const forwardingWatch = forwardingWatchUseCases(deps);
  return {
    verifyAccount: accounts.verifyAccount,
    markAccountDisconnected: accounts.markAccountDisconnected,

    recordScanStarted: scans.recordScanStarted,
    runScan: (input: RunScanInput) => scans.scanAccount(input, currentAttempt()),
    recordScanFailed: scans.recordScanFailed,

    /** Fires the tenant's alert rules against a finished scan (registered under its first name). */
    evaluateAlerts: ({ tenantId, accountId, scanId }: { tenantId: string; accountId: string; scanId: string }) =>
      fireAlertRules({ db: deps.db, log: deps.log, tenantId, accountId, source: { kind: 'scan', id: scanId } }),
    deliverAlert: (input: { tenantId: string; deliveryId: string }) => deliveries.deliverAlert(input, currentAttempt()),
    giveUpDelivery: deliveries.giveUpDelivery,

    buildAccountExport: exports.buildAccountExport,
    removeExportPackage: exports.removeExportPackage,
    recordExportFailed: exports.recordExportFailed,

    pruneExpiredRecords: () => retention.pruneExpiredRecords(currentAttempt()),

    verifyOrganization: organizations.verifyOrganization,
    syncOrganization: (input: { tenantId: string; orgId: string }) =>
      organizations.syncOrganization(input, currentAttempt()),
    markOrganizationDisconnected: organizations.markOrganizationDisconnected,

    dispatchLeftOverEventBatches: leftOverBatches.dispatchLeftOverEventBatches,
    watchEventForwarding: forwardingWatch.watchEventForwarding,
  };
}

export type Activities = ReturnType<typeof createActivities>;
