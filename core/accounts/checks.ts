import { findScanChecks } from '../../db/repositories/scans';
import { CATALOG } from '../../domain/checks/catalog';
import { SERVICES } from '../../domain/checks/services';
import type { CheckOutcome } from '../../domain/checks/evaluate';
import type { AppDeps, Caller } from '../deps';
import { requireAccount } from './require-account';

const NOT_SCANNED = 'The account has not been scanned yet.';
const ADDED_SINCE = 'Added to Sentinel after this scan: the next scan evaluates it.';

/**
 * Every check of the catalogue with its outcome in the account's latest scan that recorded outcomes. A check
 * the scan did not know (added since) is not evaluated, so the list always covers the whole catalogue.
 */
export async function accountChecks({ db }: Pick<AppDeps, 'db'>, caller: Caller, awsAccountId: string) {
  const account = await requireAccount(db, caller, awsAccountId);
  const scan = account.checks_scan_id
    ? await findScanChecks({ db, accountId: account.id, scanId: account.checks_scan_id })
    : undefined;
  const outcomes = new Map((scan?.checks ?? []).map((o: CheckOutcome) => [o.checkId, o]));
  const checks = CATALOG.map((check) => {
    const outcome = outcomes.get(check.id);
    return {
      check_id: check.id,
      scenario: check.scenario,
      severity: check.severity,
      title: check.title,
      service: check.service,
      service_label: SERVICES[check.service],
      prowler_ids: [...(check.prowler ?? [])],
      status: outcome?.status ?? 'not_evaluated',
      failing_resources: outcome?.failingResources ?? 0,
      reason: outcome ? outcome.reason : scan ? ADDED_SINCE : NOT_SCANNED,
      unread: (outcome?.unread ?? []).map((u) => u.scope),
    };
  });
  return {
    scan_id: scan?.id ?? null,
    scanned_at: scan ? scan.started_at.toISOString() : null,
    coverage: { evaluated: checks.filter((c) => c.status !== 'not_evaluated').length, total: checks.length },
    checks,
  };
}
