import { acknowledgeAlert } from '../../core/alerts/alerts';
import { createLogger } from '../../config/logger';
import { newId } from '../../domain/ids';
import { encryptSecret } from '../../security/crypto';
import { AccountHarness } from '../helpers/account-harness';
import {
  type AlertPeers,
  alertsOf,
  deliveriesOf,
  deliveryResult,
  insertRule,
  ROUTING_KEY,
  rootMfaOff,
  rootMfaOffNoBudget,
  scanAndWait,
  startAlertPeers,
} from '../helpers/alerts';
import { cleanInventory } from '../helpers/inventory';
import { emailText } from '../helpers/smtp';

// Alert rules fire inside the scan workflow and deliveries run in workflows of their own, on the
// time-skipping test server with the real activities, a real SMTP server and loopback peers that speak
// Slack's and PagerDuty's protocols. (Retries over simulated hours are in alert-delivery-retries.test.ts.)

const silentLog = createLogger({ level: 'silent', name: 'test' });
let h: AccountHarness;
let peers: AlertPeers;
beforeAll(async () => {
  peers = await startAlertPeers();
});
beforeEach(async () => {
  h = await AccountHarness.create({ config: peers.config });
});
afterEach(() => h?.close());
afterAll(() => peers?.close());

describe('alert rules in the scan workflow', () => {
  it('fires once when the score drops, not again while it stays low, and again for a new listed-scenario finding', async () => {
    await h.withActiveAccount(async (handle, input) => {
      const to = [`ops-${input.accountId}@example.com`];
      await insertRule(h, input.tenantId, { minSrs: 60, scenarios: ['billing'], channels: [{ type: 'email', to }] });

      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      const [first] = await alertsOf(h, input.accountId);
      expect(first).toMatchObject({ srs_at_trigger: 55, scenarios_triggered: ['iam'], acknowledged_at: null });
      const [delivery] = await deliveriesOf(h, input.accountId);
      expect(await deliveryResult(h, delivery!.id)).toBe('delivered');
      const mails = peers.smtp.messages.filter((m) => m.to.includes(to[0]!));
      expect(mails).toHaveLength(1);
      const body = emailText(mails[0]!.raw);
      expect(body).toContain(input.awsAccountId);
      expect(body).toContain('Security Risk Score: 55');
      expect(body).toContain('Root user has no MFA');
      expect(body).toContain(`/app/accounts/${input.awsAccountId}`);
      expect(body).toMatch(/Content-Type: text\/html/i);

      // Same findings, still below: no new alert.
      await scanAndWait(handle, 3);
      expect(await alertsOf(h, input.accountId)).toHaveLength(1);

      // A new finding of the listed scenario fires again.
      h.cloud.setInventory(input.awsAccountId, rootMfaOffNoBudget);
      await scanAndWait(handle, 4);
      const alerts = await alertsOf(h, input.accountId);
      expect(alerts).toHaveLength(2);
      expect(alerts[1]!.scenarios_triggered).toEqual(['billing']);
      const second = (await deliveriesOf(h, input.accountId)).find((d) => d.alert_id === alerts[1]!.id)!;
      expect(await deliveryResult(h, second.id)).toBe('delivered');
      expect(peers.smtp.messages.filter((m) => m.to.includes(to[0]!))).toHaveLength(2);
    });
  });

  it('stays quiet after an acknowledgement until the findings change, including findings that clear and come back', async () => {
    await h.withActiveAccount(async (handle, input) => {
      const ruleId = await insertRule(h, input.tenantId, {
        minSrs: 60,
        scenarios: ['billing'],
        channels: [{ type: 'email', to: ['ack@example.com'] }],
      });
      const userId = newId('user');
      await h.database.db
        .insertInto('users')
        .values({ id: userId, tenant_id: input.tenantId, email: 'ack@example.com', name: 'Ack', role: 'member' })
        .execute();
      const caller = { userId, tenantId: input.tenantId, role: 'member' as const, email: 'ack@example.com' };
      const acknowledge = (alertId: string) => acknowledgeAlert({ db: h.database.db, log: silentLog }, caller, alertId);

      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      const [alert] = await alertsOf(h, input.accountId);
      await acknowledge(alert!.id);

      // Editing the rule makes the next scan count as a crossing, but the acknowledged findings are unchanged.
      await h.database.db
        .updateTable('alert_rules')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('id', '=', ruleId)
        .execute();
      await scanAndWait(handle, 3);
      expect(await alertsOf(h, input.accountId)).toHaveLength(1);

      // A new finding is a change: the rule fires again.
      h.cloud.setInventory(input.awsAccountId, rootMfaOffNoBudget);
      await scanAndWait(handle, 4);
      const alerts = await alertsOf(h, input.accountId);
      expect(alerts).toHaveLength(2);
      await acknowledge(alerts[1]!.id);

      // Everything clears (nothing to fire on), then the same findings come back: the acknowledgement of the
      // alert on exactly these findings no longer holds, because they changed in between.
      h.cloud.setInventory(input.awsAccountId, (at) => cleanInventory(at.toISOString()));
      await scanAndWait(handle, 5);
      expect(await alertsOf(h, input.accountId)).toHaveLength(2);
      h.cloud.setInventory(input.awsAccountId, rootMfaOffNoBudget);
      await scanAndWait(handle, 6);
      const after = await alertsOf(h, input.accountId);
      expect(after).toHaveLength(3);
      expect(after[2]).toMatchObject({ acknowledged_at: null, scenarios_triggered: ['billing', 'iam'] });
    });
  });

  it('posts to Slack through the installed bot and through an incoming webhook', async () => {
    await h.withActiveAccount(async (handle, input) => {
      await h.database.db
        .insertInto('slack_installations')
        .values({
          id: newId('slack'),
          tenant_id: input.tenantId,
          team_id: 'T0TEAM',
          team_name: 'Acme',
          bot_token_encrypted: encryptSecret(h.config.secrets.dataEncryptionKey, 'xoxb-secret-token'),
        })
        .execute();
      await insertRule(h, input.tenantId, {
        minSrs: 60,
        channels: [
          { type: 'slack', team_id: 'T0TEAM', channel: 'C0ALERTS' },
          { type: 'slack', webhook_url: `${peers.slack.url}/services/T0/B0/hook` },
        ],
      });
      const before = peers.slack.requests.length;
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      for (const d of await deliveriesOf(h, input.accountId)) expect(await deliveryResult(h, d.id)).toBe('delivered');

      const sent = peers.slack.requests.slice(before);
      const api = sent.find((r) => r.path === '/api/chat.postMessage')!;
      expect(api.headers.authorization).toBe('Bearer xoxb-secret-token');
      const message = api.json as { channel: string; text: string; blocks: { type: string }[] };
      expect(message.channel).toBe('C0ALERTS');
      expect(message.text).toContain(input.awsAccountId);
      expect(message.blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'actions', 'context']);
      const hook = sent.find((r) => r.path === '/services/T0/B0/hook')!;
      expect((hook.json as { text: string }).text).toContain('Security Risk Score 55');
    });
  });

  it('triggers one PagerDuty incident per rule and account, and resolves it when the condition clears', async () => {
    await h.withActiveAccount(async (handle, input) => {
      await insertRule(h, input.tenantId, { minSrs: 60, channels: [{ type: 'pagerduty', routing_key: ROUTING_KEY }] });
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      const [trigger] = await deliveriesOf(h, input.accountId);
      expect(await deliveryResult(h, trigger!.id)).toBe('delivered');
      type PagingEvent = { event_action: string; dedup_key: string; payload: { source: string } };
      const triggerEvent = peers.pagerduty.requests
        .map((r) => r.json as PagingEvent)
        .find((e) => e.event_action === 'trigger' && e.payload.source === `aws:${input.awsAccountId}`)!;
      expect(triggerEvent).toMatchObject({ routing_key: ROUTING_KEY, payload: { severity: 'critical' } });
      expect(peers.incidents.get(triggerEvent.dedup_key)).toEqual({ status: 'triggered', opened: 1 });

      h.cloud.setInventory(input.awsAccountId, (at) => cleanInventory(at.toISOString()));
      await scanAndWait(handle, 3);
      const resolve = (await deliveriesOf(h, input.accountId)).find((d) => d.kind === 'resolve')!;
      expect(await deliveryResult(h, resolve.id)).toBe('delivered');
      expect(peers.incidents.get(triggerEvent.dedup_key)).toEqual({ status: 'resolved', opened: 1 });
    });
  });

  it('resolves the open incident of a rule that is disabled', async () => {
    await h.withActiveAccount(async (handle, input) => {
      const ruleId = await insertRule(h, input.tenantId, {
        minSrs: 60,
        channels: [{ type: 'pagerduty', routing_key: ROUTING_KEY }],
      });
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      const [trigger] = await deliveriesOf(h, input.accountId);
      expect(await deliveryResult(h, trigger!.id)).toBe('delivered');

      await h.database.db.updateTable('alert_rules').set({ enabled: false }).where('id', '=', ruleId).execute();
      await scanAndWait(handle, 3); // the score is still low, but nobody watches it any more
      const resolve = (await deliveriesOf(h, input.accountId)).find((d) => d.kind === 'resolve')!;
      expect(await deliveryResult(h, resolve.id)).toBe('delivered');
      expect(peers.incidents.get(`sentinel:${ruleId}:${input.accountId}`)).toEqual({ status: 'resolved', opened: 1 });
      expect(await alertsOf(h, input.accountId)).toHaveLength(1);
    });
  });
});
