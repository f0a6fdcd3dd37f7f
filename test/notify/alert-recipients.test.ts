import { MockActivityEnvironment } from '@temporalio/testing';
import { currentAttempt } from '../../activities/attempt';
import { deliveryUseCases } from '../../core/alerts/deliver';
import type { ChannelConfig } from '../../domain/alerts/channels';
import { newId } from '../../domain/ids';
import { emailsPerTenantPerHour } from '../../domain/tenancy/limits';
import { getPlan } from '../../domain/tenancy/plans';
import type { HeldRecipient } from '../../domain/alerts/recipients';
import { recipientToken } from '../../notify/recipient-links';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { type HttpPeer, startHttpPeer } from '../helpers/http-peer';
import { type CapturedEmail, emailText, type SmtpCapture, startSmtpCapture } from '../helpers/smtp';

// Who alert e-mails reach: the delivery activity against a real database and a real SMTP server. Alerts and
// their deliveries are inserted as the firing activity would make them; each delivery is then attempted once,
// and what leaves through SMTP is counted.

const BASE_URL = 'https://sentinel.example.test';
let capture: SmtpCapture;
let pagerduty: HttpPeer;
let ctx: TestContext;
let deliver: (input: { tenantId: string; deliveryId: string }) => Promise<void>;

beforeAll(async () => {
  [capture, pagerduty] = await Promise.all([
    startSmtpCapture(),
    startHttpPeer(() => ({ status: 202, body: { status: 'success' } })),
  ]);
  ctx = await createTestContext({
    config: { SMTP_URL: capture.url, PUBLIC_BASE_URL: BASE_URL, PAGERDUTY_EVENTS_URL: `${pagerduty.url}/v2/enqueue` },
  });
  const deliveries = deliveryUseCases({ db: ctx.db, log: ctx.log, config: ctx.config, mailer: ctx.mailer });
  deliver = (input) => deliveries.deliverAlert(input, currentAttempt());
});
afterAll(async () => {
  await ctx?.close();
  await capture?.close();
  await pagerduty?.close();
});

let sequence = 0;

/** An account of the tenant, and a rule with these channels. */
async function seedRule(user: TestUser, channels: ChannelConfig[]) {
  sequence += 1;
  const accountId = newId('account');
  const ruleId = newId('rule');
  await ctx.db
    .insertInto('accounts')
    .values({
      id: accountId,
      tenant_id: user.tenantId,
      aws_account_id: String(300000000000 + sequence),
      display_name: null,
      tags: [],
      status: 'ACTIVE',
      external_id: `x${sequence}`.padEnd(32, 'x'),
      role_name: 'SentinelReadOnly',
      workflow_id: `wf-${accountId}`,
    })
    .execute();
  await ctx.db
    .insertInto('alert_rules')
    .values({
      id: ruleId,
      tenant_id: user.tenantId,
      name: 'Risk',
      channels: JSON.stringify(channels),
      updated_at: new Date(),
    })
    .execute();
  return { accountId, ruleId, channels };
}

/** A scan of the rule's account and its alert, with a delivery per channel, each attempted once; answers the deliveries as stored. */
async function fire(user: TestUser, rule: Awaited<ReturnType<typeof seedRule>>) {
  const scanId = newId('scan');
  await ctx.db
    .insertInto('scans')
    .values({
      id: scanId,
      tenant_id: user.tenantId,
      account_id: rule.accountId,
      trigger: 'scheduled',
      status: 'succeeded',
      srs: 40,
      started_at: new Date(),
    })
    .execute();
  const alertId = newId('alert');
  await ctx.db
    .insertInto('alert_events')
    .values({
      id: alertId,
      tenant_id: user.tenantId,
      account_id: rule.accountId,
      rule_id: rule.ruleId,
      scan_id: scanId,
      srs_at_trigger: 40,
      scenarios_triggered: ['iam'],
      findings_digest: alertId,
      fired_at: new Date(),
    })
    .execute();
  const ids = rule.channels.map(() => newId('delivery'));
  await ctx.db
    .insertInto('alert_deliveries')
    .values(
      rule.channels.map((channel, i) => ({
        id: ids[i]!,
        alert_id: alertId,
        tenant_id: user.tenantId,
        scan_id: scanId,
        channel_index: i,
        channel_type: channel.type,
        channel: JSON.stringify(channel),
        status: 'pending' as const,
      })),
    )
    .execute();
  const env = new MockActivityEnvironment();
  await Promise.all(ids.map((deliveryId) => env.run(deliver, { tenantId: user.tenantId, deliveryId })));
  return ctx.db
    .selectFrom('alert_deliveries')
    .select(['id', 'status', 'held_recipients'])
    .where('id', 'in', ids)
    .orderBy('channel_index')
    .execute();
}

const mailTo = (address: string, since = 0) => capture.messages.slice(since).filter((m) => m.to.includes(address));
const subjectOf = (m: CapturedEmail) => /^Subject: (.*)$/m.exec(m.raw)?.[1];
const held = (rows: { held_recipients: unknown }[]) =>
  rows.flatMap((r) => (r.held_recipients ?? []) as HeldRecipient[]);

/** The token of an e-mail's link to the dashboard's e-mail preferences page, for this purpose. */
function linkToken(mail: CapturedEmail, purpose: 'confirm' | 'unsubscribe'): string {
  const text = emailText(mail.raw);
  const token = new RegExp(`/app/email-preferences#token=(${purpose}\\.[^\\s"<]+)`).exec(text)?.[1];
  if (!token) throw new Error(`no ${purpose} link in ${text}`);
  return decodeURIComponent(token);
}

describe('alert e-mails', () => {
  it("go to nobody until the owner has verified their address, the owner's own included, and are recorded as held", async () => {
    // Anyone can sign up with another person's address: the rule's name, the subject of its alerts, is theirs to write.
    const owner = await signupAndLogin(ctx.http);
    const member = await addUserWithRole(ctx, owner.tenantId, 'member');
    const rule = await seedRule(owner, [
      { type: 'email', to: [owner.email, member.email, 'outsider@example.com'] },
      { type: 'email', to: ['outsider@example.com'] },
      { type: 'pagerduty', routing_key: 'R'.repeat(32) },
    ]);
    const since = capture.messages.length;
    const paged = pagerduty.requests.length;
    const [all, outsiderOnly, paging] = await fire(owner, rule);
    // Paging is no e-mail: it is not held.
    expect(paging).toMatchObject({ status: 'delivered', held_recipients: null });
    expect(pagerduty.requests.length - paged).toBe(1);

    expect(capture.messages.length - since).toBe(0);
    expect(all).toMatchObject({
      status: 'held',
      held_recipients: [
        { address: owner.email, reason: 'owner_unverified' },
        { address: member.email, reason: 'owner_unverified' },
        { address: 'outsider@example.com', reason: 'owner_unverified' },
      ],
    });
    expect(outsiderOnly).toMatchObject({
      status: 'held',
      held_recipients: [{ address: 'outsider@example.com', reason: 'owner_unverified' }],
    });
    const attempts = await ctx.db
      .selectFrom('delivery_attempts')
      .select('outcome')
      .where('delivery_id', 'in', [all!.id, outsiderOnly!.id])
      .execute();
    expect(attempts).toEqual([]);
    // Held is final: the same delivery run again (a retried activity) sends nothing, even once the owner verified.
    await ctx.db.updateTable('users').set({ email_verified_at: new Date() }).where('id', '=', owner.userId).execute();
    await new MockActivityEnvironment().run(deliver, { tenantId: owner.tenantId, deliveryId: all!.id });
    expect(capture.messages.length - since).toBe(0);

    // The next alert, the owner verified: the owner and the verified member get it, the outsider its confirmation.
    const [next] = await fire(owner, rule);
    expect(next).toMatchObject({
      status: 'delivered',
      held_recipients: [{ address: 'outsider@example.com', reason: 'awaiting_confirmation' }],
    });
    expect(mailTo(owner.email, since).map(subjectOf)).toEqual([expect.stringContaining('Risk')]);
    expect(mailTo(member.email, since)).toHaveLength(1);
    expect(mailTo('outsider@example.com', since).map(subjectOf)).toEqual([
      'Confirm that you want Sentinel security alerts',
    ]);
  });

  it('reach a new address only after it confirms through its one confirmation e-mail, and stop at its one-click unsubscribe', async () => {
    const owner = await signupAndLogin(ctx);
    const member = await addUserWithRole(ctx, owner.tenantId, 'member');
    const outsider = `oncall-${sequence}@example.com`;
    const rule = await seedRule(owner, [{ type: 'email', to: [member.email, outsider.toUpperCase()] }]);

    // First alert: the verified member gets it; the new address gets one confirmation, nothing else.
    let since = capture.messages.length;
    const [first] = await fire(owner, rule);
    expect(first).toMatchObject({
      status: 'delivered',
      held_recipients: [{ address: outsider, reason: 'awaiting_confirmation' }],
    });
    expect(mailTo(member.email, since)).toHaveLength(1);
    const [confirmation, ...more] = mailTo(outsider, since);
    expect(more).toEqual([]);
    expect(subjectOf(confirmation!)).toBe('Confirm that you want Sentinel security alerts');
    expect(emailText(confirmation!.raw)).toContain(`${BASE_URL}/app/email-preferences#token=`);

    // Second alert, before confirming: nothing more to the address (no second confirmation either).
    since = capture.messages.length;
    await fire(owner, rule);
    expect(mailTo(outsider, since)).toHaveLength(0);

    // The link confirms; a tampered or misused token does not.
    const token = linkToken(confirmation!, 'confirm');
    await ctx.http
      .post('/email/confirm')
      .query({ token: `${token}x` })
      .expect(403, { error: 'This link is not valid', code: 'link_invalid' });
    const unsubscribeToken = linkToken(confirmation!, 'unsubscribe');
    await ctx.http.post('/email/confirm').query({ token: unsubscribeToken }).expect(403);
    const confirmed = await ctx.http.post('/email/confirm').query({ token }).expect(200);
    expect(confirmed.body.message).toContain(outsider);

    // Third alert: the address gets it, with its own unsubscribe link and RFC 8058 headers.
    since = capture.messages.length;
    const [third] = await fire(owner, rule);
    expect(third).toMatchObject({ status: 'delivered', held_recipients: null });
    const [alert] = mailTo(outsider, since);
    expect(alert!.to).toEqual([outsider]); // one message per recipient: nobody sees the others' addresses
    const raw = alert!.raw.replace(/\r?\n[ \t]+/g, ' ');
    const oneClick = /^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1];
    expect(oneClick).toMatch(new RegExp(`^${BASE_URL}/email/unsubscribe\\?token=`));
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(emailText(alert!.raw)).toContain(`Stop these e-mails: ${BASE_URL}/app/email-preferences#token=`);

    // One-click unsubscribe, as a mail client does it: a form POST to the header's URL.
    const path = oneClick!.slice(BASE_URL.length);
    await ctx.http.post(path).type('form').send('List-Unsubscribe=One-Click').expect(200);
    await ctx.http.post(path).type('form').send('List-Unsubscribe=One-Click').expect(200); // idempotent
    since = capture.messages.length;
    const [fourth] = await fire(owner, rule);
    expect(mailTo(outsider, since)).toHaveLength(0);
    expect(fourth).toMatchObject({
      status: 'delivered',
      held_recipients: [{ address: outsider, reason: 'unsubscribed' }],
    });

    // A tenant's own verified user can unsubscribe too.
    const memberLink = linkToken(mailTo(member.email, since)[0]!, 'unsubscribe');
    await ctx.http.post('/email/unsubscribe').query({ token: memberLink }).expect(200);
    const [fifth] = await fire(owner, rule);
    expect(fifth).toMatchObject({ status: 'held' });
    expect(held([fifth!]).map((h) => h.reason)).toEqual(['unsubscribed', 'unsubscribed']);
  });

  it('asks an unconfirmed address again only once its confirmation link has expired', async () => {
    const owner = await signupAndLogin(ctx);
    const address = `late-${sequence}@example.com`;
    const rule = await seedRule(owner, [{ type: 'email', to: [address] }]);
    await fire(owner, rule);
    const [first] = mailTo(address);
    // The link is dead after 7 days...
    const weekAgo = new Date(Date.now() - 8 * 86_400_000);
    const stale = recipientToken(
      ctx.config.secrets.urlSigningKey,
      { purpose: 'confirm', tenantId: owner.tenantId, address },
      weekAgo,
    );
    await ctx.http
      .post('/email/confirm')
      .query({ token: stale })
      .expect(403)
      .expect((res) => expect(res.body.code).toBe('link_expired'));
    // ...so the next alert after that brings a new one; before that, nothing.
    await fire(owner, rule);
    expect(mailTo(address)).toEqual([first]);
    await ctx.db
      .updateTable('alert_recipients')
      .set({ confirmation_sent_at: weekAgo })
      .where('address', '=', address)
      .execute();
    const [again] = await fire(owner, rule);
    expect(again).toMatchObject({ status: 'held', held_recipients: [{ address, reason: 'awaiting_confirmation' }] });
    expect(mailTo(address)).toHaveLength(2);
  });

  it("cannot be turned into a mail cannon: unconfirmed addresses get one e-mail each, within the tenant's hourly allowance", async () => {
    const owner = await signupAndLogin(ctx);
    const allowance = emailsPerTenantPerHour(getPlan('solo').account_limit);
    // 25 rules of 20 fresh addresses each (the caps of the rules API): 500 addresses, more than the allowance.
    const rules = [];
    for (let r = 0; r < 25; r += 1) {
      rules.push(
        await seedRule(owner, [
          { type: 'email', to: Array.from({ length: 20 }, (_, i) => `victim-${r}-${i}@example.net`) },
        ]),
      );
    }
    const since = capture.messages.length;
    const deliveries = (await Promise.all(rules.map((rule) => fire(owner, rule)))).flat();
    const sent = capture.messages.slice(since);

    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(allowance);
    // Nothing but confirmations, one per address; nothing carries the tenant's words in its subject.
    expect(new Set(sent.map(subjectOf))).toEqual(new Set(['Confirm that you want Sentinel security alerts']));
    expect(new Set(sent.map((m) => m.to.join())).size).toBe(sent.length);
    expect(deliveries.every((d) => d.status === 'held')).toBe(true);
    const reasons = held(deliveries);
    expect(reasons).toHaveLength(500);
    expect(reasons.filter((h) => h.reason === 'awaiting_confirmation')).toHaveLength(sent.length);
    expect(reasons.filter((h) => h.reason === 'tenant_hourly_limit')).toHaveLength(500 - sent.length);

    // The same alerts again: no address is asked twice, and the allowance is not spent on them.
    const again = capture.messages.length;
    await Promise.all(rules.slice(0, 5).map((rule) => fire(owner, rule)));
    const resent = capture.messages.slice(again).map((m) => m.to.join());
    expect(resent.filter((address) => sent.some((m) => m.to.join() === address))).toEqual([]);
  });
});
