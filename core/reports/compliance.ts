import { listAccounts } from '../../db/repositories/accounts';
import { findChecksOfScans, findRescanChecksSinceFullScan } from '../../db/repositories/scans';
import { listOpenSignalsOfAccounts } from '../../db/repositories/signals';
import type { AccountRow } from '../../db/tables/accounts';
import { complianceReportFilename, renderComplianceReport } from '../../exports/compliance-report';
import { CATALOG } from '../../domain/checks/catalog';
import type { CheckOutcome } from '../../domain/checks/evaluate';
import {
  checksByControl,
  type ComplianceResult,
  currentOutcomes,
  evaluateFramework,
  type EvidenceSignal,
} from '../../domain/compliance/evaluate';
import { frameworkById, FRAMEWORKS } from '../../domain/compliance/frameworks';
import type { Framework, FrameworkId } from '../../domain/compliance/types';
import { DETECTION_CATALOG } from '../../domain/events/catalog';
import { acceptanceInForce } from '../../domain/signals/lifecycle';
import type { AppDeps, Caller } from '../deps';
import { requireAccount } from '../accounts/require-account';
import { audit } from '../audit-log';

// Compliance: a framework's controls in an account, from the checks of its latest full scan, the targeted rescans
// since, and its open signals (the evidence, with their accepted risk), those events opened included. Nothing is
// stored: the view follows each scan, each event and each acceptance at once (docs/decisions.md, "Compliance").

/** An account's compliance with the scan it is from. */
export interface AccountCompliance {
  account: AccountRow;
  scanId: string | null;
  scannedAt: Date | null;
  result: ComplianceResult;
}

/** Every framework Sentinel reports on, with how many of its controls the checks evaluate. */
export function listFrameworks() {
  return {
    frameworks: FRAMEWORKS.map((framework) => {
      const byControl = checksByControl(framework, CATALOG);
      const evaluated = framework.controls.filter((c) => (byControl.get(c.id) ?? []).length > 0).length;
      return {
        framework: framework.id,
        name: framework.name,
        version: framework.version,
        url: framework.url,
        controls: framework.controls.length,
        automated_controls: framework.controls.filter((c) => c.automated).length,
        evaluated_controls: evaluated,
        manual_controls: framework.controls.length - evaluated,
      };
    }),
  };
}

/** The compliance of several accounts of one tenant, in three queries whatever their number. */
async function complianceOf(
  db: AppDeps['db'],
  tenantId: string,
  accounts: readonly AccountRow[],
  framework: Framework,
  at: Date,
) {
  const scanIds = accounts.flatMap((a) => (a.checks_scan_id ? [a.checks_scan_id] : []));
  const accountIds = accounts.map((a) => a.id);
  const [scans, rescans, findings] = await Promise.all([
    findChecksOfScans({ db, tenantId, scanIds }),
    findRescanChecksSinceFullScan({ db, tenantId, accountIds }),
    listOpenSignalsOfAccounts({ db, tenantId, accountIds }),
  ]);
  const scanOf = new Map(scans.map((s) => [s.id, s]));
  const rescansOf = new Map<string, CheckOutcome[][]>();
  for (const r of rescans) rescansOf.set(r.account_id, [...(rescansOf.get(r.account_id) ?? []), r.checks ?? []]);
  const findingsOf = new Map<string, EvidenceSignal[]>();
  for (const f of findings) {
    const list = findingsOf.get(f.accountId) ?? [];
    list.push({
      signalId: f.id,
      checkId: f.checkId,
      resource: f.resource,
      region: f.region,
      accepted: acceptanceInForce(f.acceptance, at),
      controls: f.controls,
    });
    findingsOf.set(f.accountId, list);
  }
  return accounts.map((account): AccountCompliance => {
    const scan = account.checks_scan_id ? scanOf.get(account.checks_scan_id) : undefined;
    const outcomes = currentOutcomes(scan?.checks ?? null, rescansOf.get(account.id) ?? []);
    return {
      account,
      scanId: scan?.id ?? null,
      scannedAt: scan?.started_at ?? null,
      result: evaluateFramework(framework, CATALOG, outcomes, findingsOf.get(account.id) ?? [], DETECTION_CATALOG),
    };
  });
}

/** One account's compliance with a framework, as the report and the JSON view show it. */
export async function loadAccountCompliance(
  { db }: Pick<AppDeps, 'db'>,
  caller: Caller,
  awsAccountId: string,
  frameworkId: FrameworkId,
) {
  const account = await requireAccount(db, caller, awsAccountId);
  const [compliance] = await complianceOf(db, caller.tenantId, [account], frameworkById(frameworkId), new Date());
  return compliance as AccountCompliance;
}

const frameworkFields = (framework: Framework) => ({
  framework: framework.id,
  name: framework.name,
  version: framework.version,
});

export async function accountCompliance(
  deps: Pick<AppDeps, 'db'>,
  caller: Caller,
  awsAccountId: string,
  frameworkId: FrameworkId,
) {
  const { account, scanId, scannedAt, result } = await loadAccountCompliance(deps, caller, awsAccountId, frameworkId);
  return {
    ...frameworkFields(frameworkById(frameworkId)),
    aws_account_id: account.aws_account_id,
    scan_id: scanId,
    scanned_at: scannedAt?.toISOString() ?? null,
    summary: result.summary,
    controls: result.controls.map((c) => ({
      id: c.control.id,
      section: c.control.section,
      title: c.control.title,
      profile: c.control.profile,
      automated: c.control.automated,
      status: c.status,
      check_ids: c.checkIds,
      failing_resources: c.failingResources.map((f) => ({
        signal_id: f.signalId,
        check_id: f.checkId,
        resource: f.resource,
        region: f.region,
        accepted: f.accepted,
      })),
      unread: c.unread.map((u) => ({ check_id: u.checkId, kind: u.kind, scope: u.scope, reason: u.reason })),
      notes: c.notes,
      attestation: c.checkIds.length === 0 ? (c.control.attestation ?? null) : null,
    })),
  };
}

/** Every monitored account of the tenant (disconnected ones are no longer scanned) with its summary. */
export async function tenantCompliance({ db }: Pick<AppDeps, 'db'>, caller: Caller, frameworkId: FrameworkId) {
  const framework = frameworkById(frameworkId);
  const accounts = (await listAccounts({ db, tenantId: caller.tenantId })).filter((a) => a.status !== 'DISCONNECTED');
  const rows = await complianceOf(db, caller.tenantId, accounts, framework, new Date());
  return {
    ...frameworkFields(framework),
    accounts: rows.map(({ account, scanId, scannedAt, result }) => ({
      aws_account_id: account.aws_account_id,
      display_name: account.display_name,
      status: account.status,
      scan_id: scanId,
      scanned_at: scannedAt?.toISOString() ?? null,
      summary: result.summary,
    })),
  };
}

/** The report to hand over: a self-contained HTML document (exports/compliance-report.ts). */
export async function accountComplianceReport(
  deps: Pick<AppDeps, 'db'>,
  caller: Caller,
  awsAccountId: string,
  frameworkId: FrameworkId,
) {
  const { account, scannedAt, result } = await loadAccountCompliance(deps, caller, awsAccountId, frameworkId);
  const framework = frameworkById(frameworkId);
  const generatedAt = new Date();
  await audit(deps.db, caller, 'export.compliance_report_downloaded', `account:${account.aws_account_id}`, {
    framework: frameworkId,
  });
  return {
    filename: complianceReportFilename(framework, account.aws_account_id, generatedAt),
    html: renderComplianceReport({
      framework,
      account: { awsAccountId: account.aws_account_id, displayName: account.display_name },
      scannedAt,
      generatedAt,
      result,
    }),
  };
}
