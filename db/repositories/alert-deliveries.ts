import type { Kysely } from 'kysely';
import { severityRank } from '../../domain/checks/types';
import { newId } from '../../domain/ids';
import type { Database } from '../database';

type Conn = Kysely<Database>;

/** Everything a channel message says about one delivery: the alert, its rule, account and new findings. */
export async function loadDeliveryContext({ db, tenantId, deliveryId }: { db: Conn; tenantId: string; deliveryId: string }) {
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
    .where('d.tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) return undefined;
  // "What changed": the findings the alert's scan opened in the scenarios the alert is about, most severe first.
  const opened = row.scenarios.length === 0 ? [] : (await db.selectFrom('signals')
    .select(['id', 'title', 'severity', 'scenario', 'resource', 'region'])
    .where('account_id', '=', row.accountId).where('first_scan_id', '=', row.scanId).where('scenario', 'in', row.scenarios)
    .execute())
    .sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || a.id.localeCompare(b.id));
  const open = await db.selectFrom('signals').select((eb) => ['severity', 'scenario', eb.fn.countAll<string>().as('n')])
    .where('account_id', '=', row.accountId).where('resolved_at', 'is', null).groupBy(['severity', 'scenario']).execute();
  return {
    ...row,
    channel: row.channel,
    opened,
    openCount: open.reduce((sum, o) => sum + Number(o.n), 0),
    /** Severities of the open findings in the alert's scenarios (behind a threshold crossing), most severe first. */
    openSeverities: [...new Set(open.filter((o) => row.scenarios.includes(o.scenario)).map((o) => o.severity))]
      .sort((a, b) => severityRank(a) - severityRank(b)),
  };
}
export type DeliveryContext = NonNullable<Awaited<ReturnType<typeof loadDeliveryContext>>>;

/**
 * Claims the delivery for one attempt and returns the claim (its time), or undefined when there is nothing to
 * send (delivered, failed for good, or not this tenant's). Finding it still 'sending' means the previous attempt
 * was cut off mid-send (its worker died): that attempt is recorded as such first.
 */
export async function claimDelivery(
  { db, tenantId, deliveryId, now = new Date() }: { db: Conn; tenantId: string; deliveryId: string; now?: Date },
): Promise<Date | undefined> {
  return db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('alert_deliveries').select(['status', 'claimed_at'])
      .where('id', '=', deliveryId).where('tenant_id', '=', tenantId).forUpdate().executeTakeFirst();
    if (!current || current.status === 'delivered' || current.status === 'failed') return undefined;
    if (current.status === 'sending') {
      await trx.insertInto('delivery_attempts').values({
        id: newId('attempt'), delivery_id: deliveryId, attempted_at: current.claimed_at ?? now, outcome: 'retryable',
        http_status: null, error: 'the attempt was cut off: the worker stopped while sending',
      }).execute();
    }
    await trx.updateTable('alert_deliveries')
      .set((eb) => ({ status: 'sending', claimed_at: now, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', deliveryId).execute();
    return now;
  });
}

export type AttemptOutcome = 'delivered' | 'retryable' | 'permanent';

/**
 * Records one attempt and moves the delivery on (delivered, failed for good, or pending for the next retry),
 * but only if the attempt still holds the claim: a stale attempt that outlived its timeout never undoes the
 * outcome of a newer one.
 */
export async function recordAttempt(
  { db, deliveryId, claimedAt, outcome, httpStatus, error, now = new Date() }:
  { db: Conn; deliveryId: string; claimedAt: Date; outcome: AttemptOutcome; httpStatus?: number; error?: string; now?: Date },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('delivery_attempts').values({
      id: newId('attempt'), delivery_id: deliveryId, attempted_at: claimedAt, outcome, http_status: httpStatus ?? null, error: error ?? null,
    }).execute();
    await trx.updateTable('alert_deliveries').set({
      status: outcome === 'delivered' ? 'delivered' : outcome === 'permanent' ? 'failed' : 'pending',
      delivered_at: outcome === 'delivered' ? now : null,
      last_error: error ?? null,
      claimed_at: null,
    }).where('id', '=', deliveryId).where('status', '=', 'sending').where('claimed_at', '=', claimedAt).execute();
  });
}

/** A resolve must not overtake its trigger (PagerDuty would reopen the incident): is the trigger still on its way? */
export async function triggerStillPending({ db, deliveryId }: { db: Conn; deliveryId: string }): Promise<boolean> {
  const row = await db.selectFrom('alert_deliveries as r')
    .innerJoin('alert_deliveries as t', (join) => join.onRef('t.alert_id', '=', 'r.alert_id').onRef('t.channel_index', '=', 'r.channel_index'))
    .select('t.status').where('r.id', '=', deliveryId).where('r.kind', '=', 'resolve').where('t.kind', '=', 'trigger')
    .executeTakeFirst();
  return row?.status === 'pending' || row?.status === 'sending';
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
