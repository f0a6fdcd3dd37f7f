import { attachment } from '../../exports/storage';
import {
  accountComplianceOutput,
  complianceQuery,
  listFrameworksOutput,
  tenantComplianceOutput,
} from '../../core/schemas/compliance';
import {
  accountCompliance,
  accountComplianceReport,
  listFrameworks,
  tenantCompliance,
} from '../../core/reports/compliance';
import { ACCOUNT } from './accounts';
import { endpoint, respond } from './operation';

// The report is a document of its own: it runs nothing and loads nothing, and says so to the browser.
const REPORT_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export const complianceOperations = [
  endpoint({
    operationId: 'listComplianceFrameworks',
    method: 'get',
    path: '/compliance/frameworks',
    tag: 'Compliance',
    access: 'viewer',
    summary: 'The compliance frameworks Sentinel reports on',
    success: { status: 200, description: 'The frameworks', schema: listFrameworksOutput },
    errors: [],
    handler: () => listFrameworks(),
  }),
  endpoint({
    operationId: 'getTenantCompliance',
    method: 'get',
    path: '/compliance',
    tag: 'Compliance',
    access: 'viewer',
    summary: "Every account's compliance summary",
    description:
      "One row per account of the tenant (disconnected accounts are left out), from each account's latest scan.",
    query: complianceQuery,
    success: { status: 200, description: "The accounts' summaries", schema: tenantComplianceOutput },
    errors: [],
    handler: ({ deps, caller, query }) => tenantCompliance(deps, caller, query.framework),
  }),
  endpoint({
    operationId: 'getAccountCompliance',
    method: 'get',
    path: `${ACCOUNT}/compliance`,
    tag: 'Compliance',
    access: 'viewer',
    summary: "The account's compliance with a framework, control by control",
    description:
      'From the latest full scan, the targeted rescans since, and the open signals (the evidence), those events ' +
      'opened included: an event fails the controls it breaks at once. Accepted risk is its own status, never a pass; ' +
      'a control whose checks could not read everything is `partial`, not passed. Before the first scan every control ' +
      'with checks is `not_evaluated`.',
    query: complianceQuery,
    success: { status: 200, description: 'Every control with its status', schema: accountComplianceOutput },
    errors: ['not_found'],
    handler: ({ deps, caller, params, query }) => accountCompliance(deps, caller, params.account_id, query.framework),
  }),
  endpoint({
    operationId: 'getAccountComplianceReport',
    method: 'get',
    path: `${ACCOUNT}/compliance/report`,
    tag: 'Compliance',
    access: 'viewer',
    summary: 'The compliance report to hand over (HTML)',
    description:
      'A self-contained HTML document (an attachment): the account, the dates, the summary, a chart, and every ' +
      'control with its evidence and remediation. It prints to PDF from any browser.',
    query: complianceQuery,
    success: { status: 200, description: 'The report', media: 'text/html' },
    errors: ['not_found'],
    handler: async ({ deps, caller, params, query }) => {
      const report = await accountComplianceReport(deps, caller, params.account_id, query.framework);
      return respond((res) =>
        res
          .set({ ...REPORT_HEADERS, 'Content-Disposition': attachment(report.filename) })
          .type('html')
          .send(report.html),
      );
    },
  }),
];
