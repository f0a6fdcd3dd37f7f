import type { ChannelConfig } from '../../domain/alerts/channels';
import type { Scenario } from '../../domain/checks/types';
import { newId } from '../../domain/ids';
import type { Inventory } from '../../domain/scans/inventory';
import { deliveryWorkflowId, scanNowUpdate, stateQuery } from '../../workflows/contracts';
import type { alertDeliveryWorkflow } from '../../workflows/delivery';
import { type AccountHarness } from './account-harness';
import { waitFor } from './patience';
import { confirmRecipients } from './email-trust';
import { type HttpPeer, type PeerReply, startHttpPeer } from './http-peer';
import { cleanInventory, part } from './inventory';
import { type SmtpCapture, startSmtpCapture } from './smtp';

// The outside world of alert delivery: a real SMTP server and loopback peers that speak Slack's and
// PagerDuty's protocols, plus shortcuts to the alert tables for workflow tests.

export const ROUTING_KEY = 'R0UT1NGKEY0000000000000000000001';

export type AccountHandle = Parameters<Parameters<AccountHarness['withActiveAccount']>[0]>[0];

export interface AlertPeers {
  smtp: SmtpCapture;
  slack: HttpPeer;
  pagerduty: HttpPeer;
  /** PagerDuty's incidents by dedup_key, as PagerDuty keeps them: a trigger for an open incident opens nothing. */
  incidents: Map<string, { status: 'triggered' | 'resolved'; opened: number }>;
  /** While set, PagerDuty answers this instead of accepting events. */
  pagerDutyDown?: PeerReply;
  /**
   * PagerDuty processes the next event but holds its answer until released (as when the sender dies before
   * the answer arrives). Resolves once an event is held.
   */
  holdNextPagerDuty(): Promise<{ release: () => void }>;
  /** Configuration that points the service at these peers. */
  config: Record<string, string>;
  close(): Promise<void>;
}

export async function startAlertPeers(): Promise<AlertPeers> {
  const incidents: AlertPeers['incidents'] = new Map();
  let holding: ((held: { release: () => void }) => void) | undefined;
  const smtp = await startSmtpCapture();
  const slack = await startHttpPeer(() => ({
    status: 200,
    body: { ok: true, channel: 'C0ALERTS', ts: '1700000000.000100' },
  }));
  const peers: AlertPeers = {
    smtp,
    slack,
    pagerduty: await startHttpPeer((req) => {
      if (peers.pagerDutyDown) return peers.pagerDutyDown;
      const event = req.json as { event_action: string; dedup_key: string };
      const incident = incidents.get(event.dedup_key);
      if (event.event_action === 'trigger' && incident?.status !== 'triggered') {
        incidents.set(event.dedup_key, { status: 'triggered', opened: (incident?.opened ?? 0) + 1 });
      }
      if (event.event_action === 'resolve' && incident) incident.status = 'resolved';
      const reply = {
        status: 202,
        body: { status: 'success', message: 'Event processed', dedup_key: event.dedup_key },
      };
      if (!holding) return reply;
      const notify = holding;
      holding = undefined;
      return new Promise<PeerReply>((resolve) => notify({ release: () => resolve(reply) }));
    }),
    incidents,
    holdNextPagerDuty: () =>
      new Promise((resolve) => {
        holding = resolve;
      }),
    config: {},
    close: async () => {
      await Promise.all([smtp.close(), slack.close(), peers.pagerduty.close()]);
    },
  };
  peers.config = {
    SMTP_URL: smtp.url,
    PAGERDUTY_EVENTS_URL: `${peers.pagerduty.url}/v2/enqueue`,
    SLACK_API_BASE_URL: `${slack.url}/api`,
  };
  return peers;
}

/** A rule of the tenant; its e-mail addresses have confirmed that they want the tenant's alerts. */
export async function insertRule(
  h: AccountHarness,
  tenantId: string,
  rule: { minSrs: number; scenarios?: Scenario[]; channels: ChannelConfig[] },
): Promise<string> {
  const id = newId('rule');
  await h.database.db
    .insertInto('alert_rules')
    .values({
      id,
      tenant_id: tenantId,
      name: 'Production risk',
      min_srs: rule.minSrs,
      scenarios: rule.scenarios ?? [],
      channels: JSON.stringify(rule.channels),
      updated_at: new Date(),
    })
    .execute();
  await confirmRecipients(
    h.database.db,
    tenantId,
    rule.channels.flatMap((c) => (c.type === 'email' ? c.to : [])),
  );
  return id;
}

export const alertsOf = (h: AccountHarness, accountId: string) =>
  h.database.db
    .selectFrom('alert_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('fired_at')
    .orderBy('id')
    .execute();

export const deliveriesOf = (h: AccountHarness, accountId: string) =>
  h.database.db
    .selectFrom('alert_deliveries as d')
    .innerJoin('alert_events as e', 'e.id', 'd.alert_id')
    .select(['d.id', 'd.kind', 'd.status', 'd.attempts', 'd.channel_type', 'd.last_error', 'e.id as alert_id'])
    .where('e.account_id', '=', accountId)
    .orderBy('d.id')
    .execute();

export const attemptsOf = (h: AccountHarness, deliveryId: string) =>
  h.database.db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempted_at')
    .execute();

/** Waits for a delivery's workflow to finish (the test server skips time while the client waits). */
export async function deliveryResult(h: AccountHarness, deliveryId: string): Promise<string> {
  const handle = h.env.client.workflow.getHandle<typeof alertDeliveryWorkflow>(deliveryWorkflowId(deliveryId));
  await waitFor(() =>
    handle.describe().then(
      () => true,
      () => false,
    ),
  );
  return handle.result();
}

/**
 * Runs a manual scan and waits until it is done: at least `total` scans completed, and more than before the request.
 * While the test waits on another workflow's result the test server skips time, and a scheduled scan may run in that
 * gap: the count is then ahead of `total`, and only a rise past what it was tells that this scan finished.
 */
export async function scanAndWait(handle: AccountHandle, total: number): Promise<void> {
  const before = (await handle.query(stateQuery)).scansCompleted;
  await handle.executeUpdate(scanNowUpdate);
  await waitFor(async () => {
    const { scansCompleted } = await handle.query(stateQuery);
    return scansCompleted >= total && scansCompleted > before;
  });
}

/** Root user without MFA: one CRITICAL finding, SRS 55. */
export function rootMfaOff(at: Date): Inventory {
  const inventory = cleanInventory(at.toISOString());
  part(inventory.iamSummary).rootMfaEnabled = false;
  return inventory;
}

/** As rootMfaOff, plus a new billing finding (no budget). */
export function rootMfaOffNoBudget(at: Date): Inventory {
  const inventory = rootMfaOff(at);
  part(inventory.budgets).budgets = [];
  return inventory;
}
