import type { Kysely } from 'kysely';
import type { ChannelConfig } from '../../domain/channels';
import { newId } from '../../domain/ids';
import type { Database } from '../database';

type Conn = Kysely<Database>;

/** Everything a channel message says about one delivery: the alert, its rule, account and new findings. */
export async function loadDeliveryContext({ db, deliveryId }: { db: Conn; deliveryId: string }) {
  const row = await db.selectFrom('alert_deliveries as d')
    .innerJoin('alert_events as e', 'e.id', 'd.alert_id')
    .innerJoin('alert_rules as r', 'r.id', 'e.rule_id')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .innerJoin('tenants as t', 't.id', 'e.tenant_id')
    .select([
      'd.id as deliveryId', 'd.kind', 'd.status', 'd.channel', 'd.channel_index as channelIndex', 'd.attempts',
      'e.id as alertId', 'e.tenant_id as tenantId', 'e.account_id as accountId', 'e.rule_id as ruleId', 'e.scan_id as scanId',
      'e.srs_at_trigger as srs', 'e.scenarios_triggered as scenarios', 'e.fired_at as firedAt',
      'r.name as ruleName', 'r.min_srs as minSrs', 'a.aws_account_id as awsAccountId', 'a.display_name as displayName',
      't.name as tenantName',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  if (!row) return undefined;
  // The findings the alert's scan opened, most severe first: "what changed".
  const opened = await db.selectFrom('signals')
    .select(['title', 'severity', 'scenario', 'resource', 'region'])
    .where('account_id', '=', row.accountId).where('first_scan_id', '=', row.scanId)
    .orderBy((eb) => eb.case().when('severity', '=', 'CRITICAL').then(0).when('severity', '=', 'HIGH').then(1)
      .when('severity', '=', 'MEDIUM').then(2).else(3).end())
    .orderBy('id')
    .execute();
  const openCount = await db.selectFrom('signals').select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', row.accountId).where('resolved_at', 'is', null).executeTakeFirstOrThrow();
  return { ...row, channel: row.channel as ChannelConfig, opened, openCount: Number(openCount.n) };
}
export type DeliveryContext = NonNullable<Awaited<ReturnType<typeof loadDeliveryContext>>>;

/** Marks an attempt as in flight. A retry that finds 'sending' knows the previous attempt was cut off mid-send. */
export async function claimDelivery({ db, deliveryId, now = new Date() }: { db: Conn; deliveryId: string; now?: Date }): Promise<void> {
  await db.updateTable('alert_deliveries')
    .set((eb) => ({ status: 'sending', claimed_at: now, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', deliveryId).where('status', 'in', ['pending', 'sending']).execute();
}

export type AttemptOutcome = 'delivered' | 'retryable' | 'permanent';

/** Records one attempt and moves the delivery on: delivered, failed for good, or pending for the next retry. */
export async function recordAttempt(
  { db, deliveryId, outcome, httpStatus, error, now = new Date() }:
  { db: Conn; deliveryId: string; outcome: AttemptOutcome; httpStatus?: number; error?: string; now?: Date },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('delivery_attempts').values({
      id: newId('attempt'), delivery_id: deliveryId, attempted_at: now, outcome, http_status: httpStatus ?? null, error: error ?? null,
    }).execute();
    await trx.updateTable('alert_deliveries').set({
      status: outcome === 'delivered' ? 'delivered' : outcome === 'permanent' ? 'failed' : 'pending',
      delivered_at: outcome === 'delivered' ? now : null,
      last_error: error ?? null,
      claimed_at: null,
    }).where('id', '=', deliveryId).execute();
  });
}

/** Retries ran out (a day of them): the delivery is failed with its last error. */
export async function giveUpDelivery({ db, deliveryId, reason }: { db: Conn; deliveryId: string; reason: string }): Promise<void> {
  await db.updateTable('alert_deliveries').set((eb) => ({ status: 'failed', claimed_at: null, last_error: eb.fn.coalesce('last_error', eb.val(reason)) }))
    .where('id', '=', deliveryId).where('status', 'in', ['pending', 'sending']).execute();
}

/** The tenant's Slack bot token for a workspace, still sealed. */
export async function findSlackToken({ db, tenantId, teamId }: { db: Conn; tenantId: string; teamId: string }): Promise<string | undefined> {
  const row = await db.selectFrom('slack_installations').select('bot_token_encrypted')
    .where('tenant_id', '=', tenantId).where('team_id', '=', teamId).executeTakeFirst();
  return row?.bot_token_encrypted;
}
