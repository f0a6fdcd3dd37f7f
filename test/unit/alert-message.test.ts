import {
  alertEmail,
  alertPagerDutyEvent,
  alertSlackMessage,
  type DeliveryContext,
  recipientConfirmationEmail,
} from '../../notify/alert-message';
import type { Severity } from '../../domain/checks/types';

// What each channel says about one alert, from the same facts.

const links = { findingsUrl: 'https://sentinel.example.com/app/accounts/123456789012' };
const unsubscribe = {
  pageUrl: 'https://sentinel.example.com/app/email-preferences#token=U',
  oneClickUrl: 'https://sentinel.example.com/email/unsubscribe?token=U',
};

function context(overrides: Partial<DeliveryContext> = {}): DeliveryContext {
  return {
    deliveryId: 'delivery_1',
    kind: 'trigger',
    channel: { type: 'email', to: ['a@example.com'] },
    attempts: 1,
    alertId: 'alert_1',
    tenantId: 'ten_1',
    accountId: 'acc_1',
    ruleId: 'rule_1',
    scanId: 'scan_1',
    eventBatchId: null,
    srs: 42,
    srsComplete: true,
    scenarios: ['iam'],
    firedAt: new Date('2026-11-22T10:00:00Z'),
    ruleName: 'Prod <critical> & friends',
    minSrs: 60,
    awsAccountId: '123456789012',
    displayName: 'Production',
    tenantName: 'Acme',
    plan: 'team',
    opened: [
      {
        id: 'sig_1',
        title: 'Root user has no MFA',
        severity: 'CRITICAL',
        scenario: 'iam',
        resource: 'root',
        region: 'global',
      },
    ],
    openCount: 3,
    openSeverities: ['CRITICAL', 'LOW'],
    ...overrides,
  };
}

describe('PagerDuty severity', () => {
  const severityOf = (ctx: DeliveryContext) =>
    (alertPagerDutyEvent(ctx, links, 'KEY').payload as { severity: string }).severity;

  it('follows the most severe new finding', () => {
    const opened = (severity: Severity) => ({ ...context().opened[0]!, severity });
    expect(severityOf(context({ opened: [opened('LOW'), opened('HIGH')] }))).toBe('error');
    expect(severityOf(context({ opened: [opened('MEDIUM')], openSeverities: ['CRITICAL'] }))).toBe('warning');
    expect(severityOf(context({ opened: [opened('LOW')] }))).toBe('info');
  });

  it("on a crossing without new findings, follows the most severe open finding in the alert's scenarios", () => {
    expect(severityOf(context({ opened: [], openSeverities: ['CRITICAL', 'LOW'] }))).toBe('critical');
    expect(severityOf(context({ opened: [], openSeverities: ['MEDIUM'] }))).toBe('warning');
    expect(severityOf(context({ opened: [], openSeverities: [] }))).toBe('error');
  });

  it('resolves the same incident by dedup_key', () => {
    expect(alertPagerDutyEvent(context({ kind: 'resolve' }), links, 'KEY')).toEqual({
      routing_key: 'KEY',
      event_action: 'resolve',
      dedup_key: 'sentinel:rule_1:acc_1',
    });
    expect(alertPagerDutyEvent(context(), links, 'KEY')).toMatchObject({
      event_action: 'trigger',
      dedup_key: 'sentinel:rule_1:acc_1',
    });
  });
});

describe('e-mail', () => {
  it('says the account, the score, what changed and links to the findings, in text and escaped HTML', () => {
    const mail = alertEmail(context(), links, 'a@example.com', unsubscribe);
    expect(mail.subject).toBe(
      '[Sentinel] Prod <critical> & friends: AWS account Production (123456789012): Security Risk Score 42 (below 60), 1 new finding',
    );
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Production (123456789012)');
      expect(part).toContain('Root user has no MFA');
      expect(part).toContain(links.findingsUrl);
    }
    expect(mail.text).toContain('Security Risk Score: 42 (rule threshold 60)');
    expect(mail.html).toContain('Security Risk Score <strong>42</strong> (rule threshold 60); 3 open findings');
    expect(mail.html).toContain('<h2>Prod &lt;critical&gt; &amp; friends</h2>');
    expect(mail.html).not.toContain('<critical>');
    expect(mail.to).toEqual(['a@example.com']);
  });

  it("carries its recipient's unsubscribe link, in the body and as RFC 8058 one-click headers", () => {
    const mail = alertEmail(context(), links, 'a@example.com', unsubscribe);
    expect(mail.text).toContain(`Stop these e-mails: ${unsubscribe.pageUrl}`);
    expect(mail.html).toContain(`<a href="${unsubscribe.pageUrl}">Unsubscribe</a>`);
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${unsubscribe.oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('asks a new recipient once, naming the tenant only in the escaped body, never in the subject', () => {
    const mail = recipientConfirmationEmail({
      tenantName: 'Evil <b>Corp</b>',
      to: 'x@example.com',
      confirmUrl: 'https://c.example/#token=C',
      unsubscribe,
    });
    expect(mail.subject).toBe('Confirm that you want Sentinel security alerts');
    expect(mail.text).toContain('https://c.example/#token=C');
    expect(mail.text).toContain('nothing more will be sent to you');
    expect(mail.html).toContain('Evil &lt;b&gt;Corp&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Corp');
    expect(mail.headers?.['List-Unsubscribe']).toBe(`<${unsubscribe.oneClickUrl}>`);
  });

  it('explains a crossing without new findings', () => {
    const mail = alertEmail(context({ opened: [] }), links, 'a@example.com', unsubscribe);
    expect(mail.text).toContain('No new findings in this scan; the score crossed the threshold.');
    expect(mail.html).toContain('No new findings in this scan');
  });
});

describe('Slack', () => {
  it('is a Block Kit message with escaped mrkdwn and a link button', () => {
    const message = alertSlackMessage(context(), links);
    const json = JSON.stringify(message.blocks);
    expect(message.text).toContain('Security Risk Score 42 (below 60)');
    expect(json).toContain('CRITICAL Root user has no MFA (root)');
    expect(json).toContain(JSON.stringify(links.findingsUrl));
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Sentinel: Prod <critical> & friends' },
    });
    const account = (message.blocks[1] as { fields: { text: string }[] }).fields[0]!.text;
    expect(account).toBe('*Account*\nProduction (123456789012)');
    const escaped = alertSlackMessage(context({ displayName: 'R&D <prod>' }), links);
    expect((escaped.blocks[1] as { fields: { text: string }[] }).fields[0]!.text).toBe(
      '*Account*\nR&amp;D &lt;prod&gt; (123456789012)',
    );
  });
});

describe('whether the score was complete', () => {
  const incomplete = context({ srsComplete: false });

  it('is said in the e-mail: subject, text and HTML', () => {
    const complete = alertEmail(context(), links, 'a@example.com', unsubscribe);
    expect(complete.text).toContain('Score complete: the scan read every core source of the account');
    expect(complete.html).toContain('Score complete: the scan read every core source of the account');
    const mail = alertEmail(incomplete, links, 'a@example.com', unsubscribe);
    expect(mail.subject).toBe(
      '[Sentinel] Prod <critical> & friends: AWS account Production (123456789012): Security Risk Score 42 (below 60, incomplete), 1 new finding',
    );
    expect(mail.text).toContain(
      'Security Risk Score: 42 (rule threshold 60)\nScore incomplete: Sentinel could not read',
    );
    expect(mail.html).toContain('Score incomplete: Sentinel could not read every core source of the account');
  });

  it('is said on a scenario alert above the threshold too', () => {
    const mail = alertEmail(context({ srsComplete: false, srs: 85 }), links, 'a@example.com', unsubscribe);
    expect(mail.subject).toContain('Security Risk Score 85 (incomplete), 1 new finding');
  });

  it('is said in Slack: the fallback text and the score field', () => {
    const fieldOf = (ctx: DeliveryContext) =>
      (alertSlackMessage(ctx, links).blocks[1] as { fields: { text: string }[] }).fields[1]!.text;
    expect(fieldOf(context())).toBe('*Security Risk Score*\n42 (threshold 60), complete');
    expect(fieldOf(incomplete)).toBe('*Security Risk Score*\n42 (threshold 60), incomplete');
    expect(alertSlackMessage(incomplete, links).text).toContain('Security Risk Score 42 (below 60, incomplete)');
  });

  it("is in PagerDuty's summary and details", () => {
    const event = alertPagerDutyEvent(incomplete, links, 'KEY') as {
      payload: { summary: string; custom_details: Record<string, unknown> };
    };
    expect(event.payload.summary).toContain('Security Risk Score 42 (below 60, incomplete)');
    expect(event.payload.custom_details).toMatchObject({
      srs: 42,
      srs_complete: false,
      score_coverage: expect.stringContaining('incomplete: Sentinel could not read every core source'),
    });
    const complete = alertPagerDutyEvent(context(), links, 'KEY') as { payload: { custom_details: object } };
    expect(complete.payload.custom_details).toMatchObject({ srs_complete: true });
  });

  it('says nothing of it for an alert fired before it was kept', () => {
    const old = context({ srsComplete: null });
    const mail = alertEmail(old, links, 'a@example.com', unsubscribe);
    expect(mail.text).not.toContain('Score complete');
    expect(mail.text).not.toContain('Score incomplete');
    expect(mail.subject).toContain('Security Risk Score 42 (below 60), 1 new finding');
    const field = (alertSlackMessage(old, links).blocks[1] as { fields: { text: string }[] }).fields[1]!.text;
    expect(field).toBe('*Security Risk Score*\n42 (threshold 60)');
    expect((alertPagerDutyEvent(old, links, 'KEY').payload as { custom_details: object }).custom_details).toMatchObject(
      {
        srs_complete: null,
        score_coverage: null,
      },
    );
  });
});
