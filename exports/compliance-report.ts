import { checkById } from '../domain/checks/catalog';
import { eventDetection, isEventSignal } from '../domain/events/catalog';
import type { ComplianceResult, ControlResult } from '../domain/compliance/evaluate';
import { CONTROL_STATUSES, type ControlStatus, type Framework } from '../domain/compliance/types';

// The compliance report a tenant hands to an auditor: one self-contained HTML document (styles inline, the chart
// an inline SVG, no script and nothing fetched), readable offline and printable to PDF from any browser. Every
// value from the tenant's data is escaped.

export interface ComplianceReportInput {
  framework: Framework;
  account: { awsAccountId: string; displayName: string | null };
  scannedAt: Date | null;
  generatedAt: Date;
  result: ComplianceResult;
}

const LABEL: Record<ControlStatus, string> = {
  passed: 'Passed',
  partial: 'Partial',
  failed: 'Failed',
  accepted: 'Accepted risk',
  not_evaluated: 'Not evaluated',
  manual: 'Manual',
};
const COLOUR: Record<ControlStatus, string> = {
  passed: '#1a7f37',
  partial: '#8250df',
  failed: '#cf222e',
  accepted: '#bf8700',
  not_evaluated: '#6e7781',
  manual: '#0969da',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

const utc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The file name the report is downloaded as. */
export function complianceReportFilename(framework: Framework, awsAccountId: string, at: Date): string {
  return `sentinel-${framework.id}-${awsAccountId}-${at.toISOString().slice(0, 10)}.html`;
}

/** One horizontal bar per section, its controls stacked by status, and a legend: a chart that prints. */
function chart(result: ComplianceResult): string {
  const sections = [...new Set(result.controls.map((c) => c.control.section))];
  const rowHeight = 26;
  const labelWidth = 230;
  const barWidth = 420;
  const most = Math.max(...sections.map((s) => result.controls.filter((c) => c.control.section === s).length));
  const rows = sections
    .map((section, i) => {
      const controls = result.controls.filter((c) => c.control.section === section);
      let x = labelWidth;
      const segments = CONTROL_STATUSES.map((status) => {
        const n = controls.filter((c) => c.status === status).length;
        if (n === 0) return '';
        const width = (n / most) * barWidth;
        const segment =
          `<rect x="${x.toFixed(1)}" y="${i * rowHeight + 4}" width="${width.toFixed(1)}" height="${rowHeight - 8}" fill="${COLOUR[status]}">` +
          `<title>${esc(section)}: ${n} ${LABEL[status].toLowerCase()}</title></rect>`;
        x += width;
        return segment;
      }).join('');
      return (
        `<text x="0" y="${i * rowHeight + rowHeight / 2 + 4}">${esc(section)}</text>${segments}` +
        `<text x="${(x + 6).toFixed(1)}" y="${i * rowHeight + rowHeight / 2 + 4}">${controls.length}</text>`
      );
    })
    .join('');
  const legendY = sections.length * rowHeight + 16;
  const legendStep = 115;
  const legend = CONTROL_STATUSES.map(
    (status, i) =>
      `<rect x="${i * legendStep}" y="${legendY - 10}" width="12" height="12" fill="${COLOUR[status]}"/>` +
      `<text x="${i * legendStep + 18}" y="${legendY}">${LABEL[status]}</text>`,
  ).join('');
  const width = Math.max(labelWidth + barWidth + 40, CONTROL_STATUSES.length * legendStep);
  return (
    `<svg class="chart" role="img" aria-label="Controls per section and status" xmlns="http://www.w3.org/2000/svg" ` +
    `width="${width}" height="${legendY + 8}" font-size="12" font-family="sans-serif">${rows}${legend}</svg>`
  );
}

function evidence(control: ControlResult): string {
  if (control.failingResources.length === 0) return '';
  const items = control.failingResources
    .map(
      (f) =>
        `<li><code>${esc(f.resource)}</code> (${esc(f.region)}, ${esc(f.checkId)})` +
        `${isEventSignal(f.checkId) ? ' <span class="tag event">event</span>' : ''}` +
        `${f.accepted ? ' <span class="tag">risk accepted</span>' : ''}</li>`,
    )
    .join('');
  const more = control.failingTotal - control.failingResources.length;
  const rest = more > 0 ? `<li class="more">and ${more} more open finding${more === 1 ? '' : 's'}</li>` : '';
  return `<div class="evidence"><strong>Evidence</strong> (${control.failingTotal})<ul>${items}${rest}</ul></div>`;
}

/**
 * What to do: each check of the control that did not pass, and each event detection that failed it, with its
 * remediation and the AWS page on it.
 */
function remediation(control: ControlResult): string {
  if (control.status === 'passed' || control.status === 'manual') return '';
  const failing = [...new Set(control.failingResources.map((f) => f.checkId))];
  const checks = [
    ...control.checkIds.filter((id) => failing.includes(id)).map((id) => checkById(id)),
    ...failing.filter(isEventSignal).map((id) => eventDetection(id)),
  ].filter((c) => c !== undefined);
  if (checks.length === 0) return '';
  return `<div class="remediation"><strong>Remediation</strong>${checks
    .map(
      (c) =>
        `<p><em>${esc(c.title)}.</em> ${esc(c.remediation)} ` + `<a href="${esc(c.docsUrl)}">AWS documentation</a></p>`,
    )
    .join('')}</div>`;
}

function controlRow(control: ControlResult): string {
  const details = [
    evidence(control),
    remediation(control),
    control.notes.length > 0
      ? `<div class="notes"><strong>Not read</strong><ul>${control.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></div>`
      : '',
    control.checkIds.length === 0 && control.control.attestation
      ? `<div class="attest"><strong>To attest</strong> ${esc(control.control.attestation)}</div>`
      : '',
  ].join('');
  return (
    `<tr class="control" data-control="${esc(control.control.id)}" data-status="${control.status}">` +
    `<td class="id">${esc(control.control.id)}</td>` +
    `<td><div class="title">${esc(control.control.title)}</div>${details}</td>` +
    `<td>${esc(control.control.profile)}</td>` +
    `<td class="checks">${control.checkIds.map((id) => `<code>${esc(id)}</code>`).join('<br>') || '—'}</td>` +
    `<td><span class="status" style="background:${COLOUR[control.status]}">${LABEL[control.status]}</span></td></tr>`
  );
}

export function renderComplianceReport({
  framework,
  account,
  scannedAt,
  generatedAt,
  result,
}: ComplianceReportInput): string {
  const accountName = account.displayName
    ? `${esc(account.displayName)} (${esc(account.awsAccountId)})`
    : esc(account.awsAccountId);
  const summary = CONTROL_STATUSES.map(
    (status) =>
      `<div class="card" data-summary="${status}" style="border-color:${COLOUR[status]}">` +
      `<div class="n">${result.summary[status]}</div><div>${LABEL[status]}</div></div>`,
  ).join('');
  const sections = [...new Set(result.controls.map((c) => c.control.section))]
    .map(
      (section) =>
        `<tbody>` +
        `<tr class="section"><th colspan="5">${esc(section)}</th></tr>` +
        `${result.controls
          .filter((c) => c.control.section === section)
          .map(controlRow)
          .join('')}</tbody>`,
    )
    .join('');
  const title = `${framework.name} v${framework.version}: ${account.awsAccountId}`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1f2328; margin: 32px auto; max-width: 1100px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 10px; }
.meta { color: #57606a; margin: 0 0 18px; } .meta dt { font-weight: 600; display: inline; } .meta dd { display: inline; margin: 0 16px 0 4px; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; } .card { border-left: 6px solid; padding: 8px 14px; background: #f6f8fa; min-width: 110px; }
.card .n { font-size: 24px; font-weight: 700; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid #d0d7de; }
tr.section th { background: #eaeef2; font-size: 15px; } td.id { white-space: nowrap; font-weight: 600; }
.status { color: #fff; border-radius: 10px; padding: 1px 8px; font-size: 12px; white-space: nowrap; }
.tag { background: #fff8c5; border: 1px solid #bf8700; border-radius: 8px; padding: 0 6px; font-size: 11px; }
.tag.event { background: #fbefff; border-color: #8250df; }
.evidence, .remediation, .notes, .attest { margin-top: 6px; font-size: 13px; } ul { margin: 2px 0 0 18px; padding: 0; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
td.checks { width: 19rem; } td.checks code { white-space: nowrap; }
footer { color: #57606a; margin-top: 28px; font-size: 12px; }
@media print { body { margin: 0; max-width: none; } tr.control { break-inside: avoid; } a { color: inherit; } }
</style></head>
<body>
<h1>${esc(framework.name)} v${esc(framework.version)}</h1>
<dl class="meta"><dt>Account</dt><dd id="account">${accountName}</dd>
<dt>Scanned</dt><dd id="scanned-at">${scannedAt ? utc(scannedAt) : 'not scanned yet'}</dd>
<dt>Report generated</dt><dd id="generated-at">${utc(generatedAt)}</dd></dl>
<h2>Summary</h2>
<div class="cards">${summary}</div>
<h2>Controls per section</h2>
${chart(result)}
<h2>Controls</h2>
<table><thead><tr><th>Control</th><th>Title, evidence and remediation</th><th>Profile</th><th>Checks</th><th>Status</th></tr></thead>
${sections}</table>
<footer>Produced by Sentinel from the account's latest full scan, the targeted rescans since and its open findings, those
its events opened included. A control is <em>failed</em> when a check or an event found it broken and the risk is not
accepted, <em>accepted risk</em> when its only failures are accepted, <em>not evaluated</em> when a check could not be
evaluated, <em>partial</em> when everything its checks read passed but part of it could not be read (listed under
<em>Not read</em>), <em>passed</em> only when its checks read everything and passed, and <em>manual</em> when no check
evaluates it: the tenant attests it.
Benchmark: <a href="${esc(framework.url)}">${esc(framework.url)}</a>.</footer>
</body></html>
`;
}
