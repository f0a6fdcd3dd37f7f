import { listAccounts } from '../../db/repositories/accounts';
import { findChecksOfScans, findRescanChecksSinceFullScan } from '../../db/repositories/scans';
import { groupOpenEvidence } from '../../db/repositories/signals';
import type { AccountRow } from '../../db/tables/accounts';
import { complianceReportFilename, renderComplianceReport } from '../../exports/compliance-report';
import { CATALOG } from '../../domain/checks/catalog';
import type { CheckOutcome } from '../../domain/checks/evaluate';
import {
  checksByControl,
  type ComplianceResult,
  currentOutcomes,
  EVIDENCE_PER_CONTROL,
  evaluateFramework,
  type EvidenceGroup,
} from '../../domain/compliance/evaluate';
import { frameworkById, FRAMEWORKS } from '../../domain/compliance/frameworks';
import type { Framework, FrameworkId } from '../../domain/compliance/types';
import { DETECTION_CATALOG } from '../../domain/events/catalog';
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

/** The checks and event detections whose open signals may be evidence against a control of the framework. */
function evidencingIds(framework: Framework): string[] {
  return [...CATALOG, ...DETECTION_CATALOG]
    .filter((c) => (c.controls?.[framework.id] ?? []).length > 0)
    .map((c) => c.id);
}

/** The checks whose resources each stand for one control: their signals are grouped by resource. */
const BY_RESOURCE = CATALOG.filter((c) => c.controlOfResource).map((c) => c.id);

/**
 * The compliance of several accounts of one tenant, in three queries whatever their number. Open signals are never
 * read one by one: PostgreSQL groups them by what decides their controls and answers each group's first `samples`
 * (the evidence listed) with its counts (db/repositories/signals.ts `groupOpenEvidence`).
 */
async function complianceOf(
  db: AppDeps['db'],
  tenantId: string,
  accounts: readonly AccountRow[],
  framework: Framework,
  at: Date,
  samples: number,
) {
  const scanIds = accounts.flatMap((a) => (a.checks_scan_id ? [a.checks_scan_id] : []));
  const accountIds = accounts.map((a) => a.id);
  const [scans, rescans] = await Promise.all([
    findChecksOfScans({ db, tenantId, scanIds }),
    findRescanChecksSinceFullScan({ db, tenantId, accountIds }),
  ]);
  const scanOf = new Map(scans.map((s) => [s.id, s]));
  const rescansOf = new Map<string, CheckOutcome[][]>();
  for (const r of rescans) rescansOf.set(r.account_id, [...(rescansOf.get(r.account_id) ?? []), r.checks ?? []]);
  const outcomesOf = new Map(
    accounts.map((account) => {
      const scan = account.checks_scan_id ? scanOf.get(account.checks_scan_id) : undefined;
      return [account.id, currentOutcomes(scan?.checks ?? null, rescansOf.get(account.id) ?? [])] as const;
    }),
  );
  // The controls the scans recorded for each failing resource of a check whose resources stand for different ones.
  const named = accounts.flatMap((account) =>
    (outcomesOf.get(account.id) ?? []).flatMap((outcome) =>
      Object.entries(outcome.failingControls ?? {}).map(([key, controls]) => ({
        accountId: account.id,
        checkId: outcome.checkId,
        key,
        controls,
      })),
    ),
  );
  const rows = await groupOpenEvidence({
    db,
    tenantId,
    accountIds,
    checkIds: evidencingIds(framework),
    byResource: BY_RESOURCE,
    named,
    samples,
    at,
  });
  const groupsOf = new Map<string, EvidenceGroup[]>();
  let current: { key: string; group: EvidenceGroup } | undefined;
  for (const row of rows) {
    const key = `${row.accountId}|${row.group}`;
    if (current?.key !== key) {
      current = { key, group: { signals: [], open: row.open, unaccepted: row.unaccepted } };
      groupsOf.set(row.accountId, [...(groupsOf.get(row.accountId) ?? []), current.group]);
    }
    current.group.signals.push({
      signalId: row.id,
      checkId: row.checkId,
      resource: row.resource,
      region: row.region,
      accepted: row.accepted,
      controls: row.controls,
    });
  }
  return accounts.map((account): AccountCompliance => {
    const scan = account.checks_scan_id ? scanOf.get(account.checks_scan_id) : undefined;
    return {
      account,
      scanId: scan?.id ?? null,
      scannedAt: scan?.started_at ?? null,
      result: evaluateFramework(
        framework,
        CATALOG,
        outcomesOf.get(account.id) ?? null,
        groupsOf.get(account.id) ?? [],
        DETECTION_CATALOG,
      ),
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
  const [compliance] = await complianceOf(
    db,
    caller.tenantId,
    [account],
    frameworkById(frameworkId),
    new Date(),
    EVIDENCE_PER_CONTROL,
  );
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
      failing_resources_total: c.failingTotal,
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
  // The summary needs no evidence listed: one signal per group, to tell its controls.
  const rows = await complianceOf(db, caller.tenantId, accounts, framework, new Date(), 1);
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
