import type { Kysely } from 'kysely';
import type { AlertSource } from '../../domain/alerts/rules';
import type { ChannelType } from '../../domain/alerts/channels';
import type { AttemptOutcome, DeliveryStatus } from '../../domain/alerts/deliveries';
import type { HeldRecipient } from '../../domain/alerts/recipients';
import type { Database } from '../database';
import type { NewAlertDelivery, NewDeliveryAttempt } from '../tables/alerts';

type Conn = Kysely<Database>;

/** New deliveries; one already scheduled for the same alert, channel and kind is left as it is. */
export async function insertDeliveries({
  db,
  deliveries,
}: {
  db: Conn;
  deliveries: readonly NewAlertDelivery[];
}): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .insertInto('alert_deliveries')
    .values([...deliveries])
    .onConflict((oc) => oc.columns(['alert_id', 'channel_index', 'kind']).doNothing())
    .execute();
}

/** The alert's paging deliveries (PagerDuty triggers): a resolve goes where its trigger went. */
export async function listPagingTriggers({ db, alertId }: { db: Conn; alertId: string }) {
  return db
    .selectFrom('alert_deliveries')
    .select(['channel_index', 'channel'])
    .where('alert_id', '=', alertId)
    .where('kind', '=', 'trigger')
    .where('channel_type', '=', 'pagerduty')
    .execute();
}

/** Every delivery the alerts of a scan or an event batch scheduled, by id. */
export async function listDeliveriesOf({ db, source }: { db: Conn; source: AlertSource }) {
  return db
    .selectFrom('alert_deliveries')
    .select(['id', 'kind'])
    .where(source.kind === 'scan' ? 'scan_id' : 'event_batch_id', '=', source.id)
    .orderBy('id')
    .execute();
}

/** Everything a channel message says about one delivery: the alert, its rule, account and tenant. */
export async function findDeliveryView({
  db,
  tenantId,
  deliveryId,
}: {
  db: Conn;
  tenantId: string;
  deliveryId: string;
}) {
  return db
    .selectFrom('alert_deliveries as d')
    .innerJoin('alert_events as e', 'e.id', 'd.alert_id')
    .innerJoin('alert_rules as r', 'r.id', 'e.rule_id')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .innerJoin('tenants as t', 't.id', 'e.tenant_id')
    .select([
      'd.id as deliveryId',
      'd.kind',
      'd.channel',
      'd.attempts',
      'e.id as alertId',
      'e.tenant_id as tenantId',
      'e.account_id as accountId',
      'e.rule_id as ruleId',
      'e.scan_id as scanId',
      'e.event_batch_id as eventBatchId',
      'e.srs_at_trigger as srs',
      'e.srs_complete as srsComplete',
      'e.scenarios_triggered as scenarios',
      'e.fired_at as firedAt',
      'r.name as ruleName',
      'r.min_srs as minSrs',
      'a.aws_account_id as awsAccountId',
      'a.display_name as displayName',
      't.name as tenantName',
      't.plan',
    ])
    .where('d.id', '=', deliveryId)
    .where('d.tenant_id', '=', tenantId)
    .executeTakeFirst();
}

/** The delivery's status and claim, locked until the transaction ends (one attempt claims it at a time). */
export async function lockDelivery({ db, tenantId, deliveryId }: { db: Conn; tenantId: string; deliveryId: string }) {
  return db
    .selectFrom('alert_deliveries')
    .select(['status', 'claimed_at'])
    .where('id', '=', deliveryId)
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .executeTakeFirst();
}

export async function markSending({
  db,
  deliveryId,
  claimedAt,
}: {
  db: Conn;
  deliveryId: string;
  claimedAt: Date;
}): Promise<void> {
  await db
    .updateTable('alert_deliveries')
    .set((eb) => ({ status: 'sending', claimed_at: claimedAt, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', deliveryId)
    .execute();
}

export async function insertAttempt({ db, attempt }: { db: Conn; attempt: NewDeliveryAttempt }): Promise<void> {
  await db.insertInto('delivery_attempts').values(attempt).execute();
}

/**
 * Moves the delivery on after an attempt, but only while that attempt still holds the claim: a stale attempt
 * that outlived its timeout never undoes the outcome of a newer one.
 */
export async function settleDelivery({
  db,
  deliveryId,
  claimedAt,
  outcome,
  error,
  at,
  held,
}: {
  db: Conn;
  deliveryId: string;
  claimedAt: Date;
  outcome: AttemptOutcome;
  error: string | null;
  at: Date;
  /** E-mail: the addresses held back while the others were sent to. */
  held?: readonly HeldRecipient[];
}): Promise<void> {
  const status: DeliveryStatus = outcome === 'delivered' ? 'delivered' : outcome === 'permanent' ? 'failed' : 'pending';
  await db
    .updateTable('alert_deliveries')
    .set({
      status,
      delivered_at: outcome === 'delivered' ? at : null,
      last_error: error,
      claimed_at: null,
      ...(held && held.length > 0 ? { held_recipients: JSON.stringify(held) } : {}),
    })
    .where('id', '=', deliveryId)
    .where('status', '=', 'sending')
    .where('claimed_at', '=', claimedAt)
    .execute();
}

/**
 * Settles an e-mail delivery that sent nothing: every address was held back (domain/alerts/recipients.ts). Like
 * settleDelivery, only while the attempt still holds the claim.
 */
export async function holdDelivery({
  db,
  deliveryId,
  claimedAt,
  held,
}: {
  db: Conn;
  deliveryId: string;
  claimedAt: Date;
  held: readonly HeldRecipient[];
}): Promise<void> {
  await db
    .updateTable('alert_deliveries')
    .set({ status: 'held', held_recipients: JSON.stringify(held), last_error: null, claimed_at: null })
    .where('id', '=', deliveryId)
    .where('status', '=', 'sending')
    .where('claimed_at', '=', claimedAt)
    .execute();
}

/** The status of the trigger a resolve delivery closes (undefined for a trigger). */
export async function findTriggerStatusOfResolve({
  db,
  deliveryId,
}: {
  db: Conn;
  deliveryId: string;
}): Promise<DeliveryStatus | undefined> {
  const row = await db
    .selectFrom('alert_deliveries as r')
    .innerJoin('alert_deliveries as t', (join) =>
      join.onRef('t.alert_id', '=', 'r.alert_id').onRef('t.channel_index', '=', 'r.channel_index'),
    )
    .select('t.status')
    .where('r.id', '=', deliveryId)
    .where('r.kind', '=', 'resolve')
    .where('t.kind', '=', 'trigger')
    .executeTakeFirst();
  return row?.status;
}

/** Retries ran out (a day of them): the delivery is failed with its last error. */
/** Answers the delivery's channel type when this call failed it (undefined when it was settled already). */
export async function giveUpDelivery({
  db,
  deliveryId,
  reason,
}: {
  db: Conn;
  deliveryId: string;
  reason: string;
}): Promise<ChannelType | undefined> {
  const row = await db
    .updateTable('alert_deliveries')
    .set((eb) => ({ status: 'failed', claimed_at: null, last_error: eb.fn.coalesce('last_error', eb.val(reason)) }))
    .where('id', '=', deliveryId)
    .where('status', 'in', ['pending', 'sending'])
    .returning('channel_type')
    .executeTakeFirst();
  return row?.channel_type;
}
