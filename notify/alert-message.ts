import type { ChannelConfig } from '../domain/alerts/channels';
import type { Scenario, Severity } from '../domain/checks/types';
import type { DeliveryKind } from '../domain/alerts/deliveries';
import type { PlanId } from '../domain/tenancy/plans';
import { CONFIRMATION_LINK_DAYS } from '../domain/alerts/recipients';
import { escapeHtml } from '../security/html';
import type { Email } from './mailer';

// What an alert says, per channel. One source of facts (DeliveryContext) so e-mail, Slack and PagerDuty agree.

const MAX_LISTED = 10;

/** Everything a channel message says about one delivery: the alert, its rule, account and new findings. */
export interface DeliveryContext {
  deliveryId: string;
  kind: DeliveryKind;
  /** The channel as the rule said when the alert fired. */
  channel: ChannelConfig;
  attempts: number;
  alertId: string;
  tenantId: string;
  accountId: string;
  ruleId: string;
  /** The scan the alert fired on; null for an alert on the account's events (eventBatchId). */
  scanId: string | null;
  eventBatchId: string | null;
  srs: number;
  /**
   * Whether that score read every core source of the account (domain/scoring/completeness.ts); null for an alert fired
   * before this was kept.
   */
  srsComplete: boolean | null;
  scenarios: Scenario[];
  firedAt: Date;
  ruleName: string;
  minSrs: number;
  awsAccountId: string;
  displayName: string | null;
  tenantName: string;
  /** The tenant's plan: its hourly e-mail allowance follows it. */
  plan: PlanId;
  /** The findings the alert's scan opened in its scenarios, most severe first. */
  opened: { id: string; title: string; severity: Severity; scenario: Scenario; resource: string; region: string }[];
  openCount: number;
  /** Severities of the open findings in the alert's scenarios (behind a threshold crossing), most severe first. */
  openSeverities: Severity[];
}

export interface AlertLinks {
  /** The account's findings in the dashboard. */
  findingsUrl: string;
}

/** The recipient's way out of an alert e-mail: the page to open, and the RFC 8058 one-click URL for mail clients. */
export interface UnsubscribeLinks {
  pageUrl: string;
  oneClickUrl: string;
}

function accountLabel(ctx: DeliveryContext): string {
  return ctx.displayName ? `${ctx.displayName} (${ctx.awsAccountId})` : ctx.awsAccountId;
}

/** What the score covered, in a few words: whether it read every core source of the account. */
function completeness(ctx: DeliveryContext): string | null {
  if (ctx.srsComplete === null) return null;
  return ctx.srsComplete
    ? 'complete: the scan read every core source of the account'
    : 'incomplete: Sentinel could not read every core source of the account, so the score covers only what it read (see its checks)';
}

function headline(ctx: DeliveryContext): string {
  const notes = [
    ...(ctx.srs < ctx.minSrs ? [`below ${ctx.minSrs}`] : []),
    ...(ctx.srsComplete === false ? ['incomplete'] : []),
  ];
  const why = `Security Risk Score ${ctx.srs}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
  const news = ctx.opened.length > 0 ? `, ${ctx.opened.length} new finding${ctx.opened.length === 1 ? '' : 's'}` : '';
  return `[Sentinel] ${ctx.ruleName}: AWS account ${accountLabel(ctx)}: ${why}${news}`;
}

function findingLines(ctx: DeliveryContext): string[] {
  const lines = ctx.opened
    .slice(0, MAX_LISTED)
    .map((f) => `${f.severity} ${f.title} (${f.resource}${f.region === 'global' ? '' : `, ${f.region}`})`);
  if (ctx.opened.length > MAX_LISTED) lines.push(`... and ${ctx.opened.length - MAX_LISTED} more`);
  return lines;
}

/** The alert e-mail to one recipient, with its own unsubscribe link and List-Unsubscribe headers. */
export function alertEmail(
  ctx: DeliveryContext,
  links: AlertLinks,
  to: string,
  unsubscribe: UnsubscribeLinks,
): Omit<Email, 'idempotencyKey'> {
  const found = findingLines(ctx);
  const covered = completeness(ctx);
  const text = [
    `Alert rule "${ctx.ruleName}" fired for AWS account ${accountLabel(ctx)}.`,
    '',
    `Security Risk Score: ${ctx.srs} (rule threshold ${ctx.minSrs})`,
    ...(covered ? [`Score ${covered}`] : []),
    `Scenarios: ${ctx.scenarios.join(', ') || 'none'}`,
    `Open findings: ${ctx.openCount}`,
    '',
    found.length > 0 ? 'New in this scan:' : 'No new findings in this scan; the score crossed the threshold.',
    ...found.map((l) => `  - ${l}`),
    '',
    `Findings: ${links.findingsUrl}`,
    `Alert id: ${ctx.alertId} (acknowledge it to stop repeat notifications until the findings change)`,
    '',
    `You get this as an alert recipient of ${ctx.tenantName} on Sentinel. Stop these e-mails: ${unsubscribe.pageUrl}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<h2>${escapeHtml(ctx.ruleName)}</h2>
<p>AWS account <strong>${escapeHtml(accountLabel(ctx))}</strong></p>
<p>Security Risk Score <strong>${ctx.srs}</strong> (rule threshold ${ctx.minSrs}); ${ctx.openCount} open findings;
scenarios: ${escapeHtml(ctx.scenarios.join(', ') || 'none')}</p>
${covered ? `<p${ctx.srsComplete ? '' : ' style="color:#b45309"'}>Score ${escapeHtml(covered)}</p>\n` : ''}${found.length > 0 ? `<p>New in this scan:</p><ul>${found.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : '<p>No new findings in this scan; the score crossed the threshold.</p>'}
<p><a href="${escapeHtml(links.findingsUrl)}">See the findings</a></p>
<p style="color:#666">Alert ${escapeHtml(ctx.alertId)}</p>
<p style="color:#666">You get this as an alert recipient of ${escapeHtml(ctx.tenantName)} on Sentinel.
<a href="${escapeHtml(unsubscribe.pageUrl)}">Unsubscribe</a></p>
</body></html>`;
  return {
    to: [to],
    subject: headline(ctx),
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribe.oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * The one e-mail an address gets before it has asked for a tenant's alerts. It names the tenant (the only text
 * the tenant chose) in the body, never in the subject, and says that nothing more comes unless the link is used.
 */
export function recipientConfirmationEmail({
  tenantName,
  to,
  confirmUrl,
  unsubscribe,
}: {
  tenantName: string;
  to: string;
  confirmUrl: string;
  unsubscribe: UnsubscribeLinks;
}): Omit<Email, 'idempotencyKey'> {
  const text = [
    `The Sentinel tenant "${tenantName}" listed ${to} to receive its AWS security alerts by e-mail.`,
    '',
    `If you want them, confirm here (the link works for ${CONFIRMATION_LINK_DAYS} days):`,
    confirmUrl,
    '',
    'If you did not expect this, ignore this e-mail: nothing more will be sent to you.',
    `Never ask me again: ${unsubscribe.pageUrl}`,
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>The Sentinel tenant <strong>${e(tenantName)}</strong> listed ${e(to)} to receive its AWS security alerts by e-mail.</p>`,
    `<p><a href="${e(confirmUrl)}">Yes, send me these alerts</a> (the link works for ${CONFIRMATION_LINK_DAYS} days)</p>`,
    '<p>If you did not expect this, ignore this e-mail: nothing more will be sent to you.</p>',
    `<p style="color:#666"><a href="${e(unsubscribe.pageUrl)}">Never ask me again</a></p>`,
  ].join('\n');
  return {
    to: [to],
    subject: 'Confirm that you want Sentinel security alerts',
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribe.oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** Block Kit message; `text` is the notification fallback. */
export function alertSlackMessage(ctx: DeliveryContext, links: AlertLinks): { text: string; blocks: unknown[] } {
  const found = findingLines(ctx);
  return {
    text: headline(ctx),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: `Sentinel: ${ctx.ruleName}`.slice(0, 150) } },
      {
        type: 'section',
        fields: [
          { type: 'mrkdwn', text: `*Account*\n${slackEscape(accountLabel(ctx))}` },
          {
            type: 'mrkdwn',
            text: `*Security Risk Score*\n${ctx.srs} (threshold ${ctx.minSrs})${ctx.srsComplete === null ? '' : ctx.srsComplete ? ', complete' : ', incomplete'}`,
          },
          { type: 'mrkdwn', text: `*Scenarios*\n${slackEscape(ctx.scenarios.join(', ') || 'none')}` },
          { type: 'mrkdwn', text: `*Open findings*\n${ctx.openCount}` },
        ],
      },
      ...(found.length > 0
        ? [
            {
              type: 'section',
              text: {
                type: 'mrkdwn',
                text: `*New in this scan*\n${found.map((l) => `• ${slackEscape(l)}`).join('\n')}`.slice(0, 3000),
              },
            },
          ]
        : []),
      {
        type: 'actions',
        elements: [{ type: 'button', text: { type: 'plain_text', text: 'See the findings' }, url: links.findingsUrl }],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Alert ${ctx.alertId}` }] },
    ],
  };
}

const PAGING_SEVERITY = { CRITICAL: 'critical', HIGH: 'error', MEDIUM: 'warning', LOW: 'info' } as const;

/** PagerDuty Events API v2: one incident per rule and account (dedup_key), triggered again or resolved. */
export function alertPagerDutyEvent(
  ctx: DeliveryContext,
  links: AlertLinks,
  routingKey: string,
): Record<string, unknown> {
  const dedupKey = `sentinel:${ctx.ruleId}:${ctx.accountId}`;
  if (ctx.kind === 'resolve') return { routing_key: routingKey, event_action: 'resolve', dedup_key: dedupKey };
  // The most severe finding behind the alert: a new one, or on a threshold crossing without new findings, an
  // open one in the alert's scenarios. Without either (not expected: a low score has findings), an error.
  const severities: string[] = ctx.opened.length > 0 ? ctx.opened.map((f) => f.severity) : ctx.openSeverities;
  const worst = (['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const).find((s) => severities.includes(s));
  const severity = worst ? PAGING_SEVERITY[worst] : 'error';
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: headline(ctx).slice(0, 1024),
      source: `aws:${ctx.awsAccountId}`,
      severity,
      timestamp: new Date(ctx.firedAt).toISOString(),
      component: ctx.awsAccountId,
      group: ctx.tenantName,
      class: ctx.scenarios.join(',') || 'risk-score',
      custom_details: {
        alert_id: ctx.alertId,
        rule: ctx.ruleName,
        srs: ctx.srs,
        srs_complete: ctx.srsComplete,
        score_coverage: completeness(ctx),
        min_srs: ctx.minSrs,
        open_findings: ctx.openCount,
        new_findings: findingLines(ctx),
      },
    },
    client: 'Sentinel',
    client_url: links.findingsUrl,
    links: [{ href: links.findingsUrl, text: 'Findings in Sentinel' }],
  };
}

/** Slack's mrkdwn needs &, < and > escaped; anything else is literal. */
function slackEscape(value: string): string {
  return value.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] as string);
}
