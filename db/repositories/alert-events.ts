import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import type { AlertSource } from '../../domain/alerts/rules';
import type { NewAlertEvent } from '../tables/alerts';

type Conn = Kysely<Database>;

export interface AlertEventListing {
  id: string;
  aws_account_id: string;
  rule_id: string;
  srs_at_trigger: number;
  srs_complete: boolean | null;
  scenarios_triggered: string[];
  fired_at: Date;
  acknowledged_at: Date | null;
}

/**
 * The tenant's alerts, newest first by (fired_at, id), on the index alert_events_tenant_fired_idx. Keyset
 * pagination: `after` is the last row of the previous page.
 */
export async function listAlertEvents({
  db,
  tenantId,
  after,
  limit,
}: {
  db: Conn;
  tenantId: string;
  after?: { at: Date; id: string };
  limit: number;
}): Promise<AlertEventListing[]> {
  let query = db
    .selectFrom('alert_events as e')
    .innerJoin('accounts as a', (join) =>
      join.onRef('a.id', '=', 'e.account_id').onRef('a.tenant_id', '=', 'e.tenant_id'),
    )
    .select([
      'e.id',
      'a.aws_account_id',
      'e.rule_id',
      'e.srs_at_trigger',
      'e.srs_complete',
      'e.scenarios_triggered',
      'e.fired_at',
      'e.acknowledged_at',
    ])
    .where('e.tenant_id', '=', tenantId);
  if (after) query = query.where(sql<boolean>`(e.fired_at, e.id) < (${after.at}, ${after.id})`);
  return query.orderBy('e.fired_at', 'desc').orderBy('e.id', 'desc').limit(limit).execute();
}

/** Acknowledges an alert not acknowledged yet; undefined when there is none such (unknown, or acknowledged already). */
export async function acknowledgeAlertEvent({
  db,
  tenantId,
  alertId,
  userId,
}: {
  db: Conn;
  tenantId: string;
  alertId: string;
  userId: string;
}): Promise<{ id: string; acknowledged_at: Date | null } | undefined> {
  return db
    .updateTable('alert_events')
    .set({ acknowledged_at: sql<Date>`now()`, acknowledged_by: userId })
    .where('id', '=', alertId)
    .where('tenant_id', '=', tenantId)
    .where('acknowledged_at', 'is', null)
    .returning(['id', 'acknowledged_at'])
    .executeTakeFirst();
}

export async function findAlertAcknowledgement({
  db,
  tenantId,
  alertId,
}: {
  db: Conn;
  tenantId: string;
  alertId: string;
}) {
  return db
    .selectFrom('alert_events')
    .select(['id', 'acknowledged_at'])
    .where('id', '=', alertId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

/** The rule's latest alert for the account. */
export async function findLastAlert({ db, ruleId, accountId }: { db: Conn; ruleId: string; accountId: string }) {
  return db
    .selectFrom('alert_events')
    .select(['id', 'acknowledged_at', 'findings_digest'])
    .where('rule_id', '=', ruleId)
    .where('account_id', '=', accountId)
    .orderBy('fired_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertAlertEvent({ db, event }: { db: Conn; event: NewAlertEvent }): Promise<void> {
  await db.insertInto('alert_events').values(event).execute();
}

/** Whether the alert rules were evaluated against this scan or event batch already. */
export async function alertsEvaluated({ db, source }: { db: Conn; source: AlertSource }): Promise<boolean> {
  const row = await (source.kind === 'scan'
    ? db.selectFrom('scans').select('alerts_evaluated_at as at').where('id', '=', source.id)
    : db.selectFrom('event_batches').select('alerts_evaluated_at as at').where('id', '=', source.id)
  ).executeTakeFirst();
  return row?.at != null;
}

export async function noteAlertsEvaluated({
  db,
  source,
  at,
}: {
  db: Conn;
  source: AlertSource;
  at: Date;
}): Promise<void> {
  await (source.kind === 'scan'
    ? db.updateTable('scans').set({ alerts_evaluated_at: at }).where('id', '=', source.id)
    : db.updateTable('event_batches').set({ alerts_evaluated_at: at }).where('id', '=', source.id)
  ).execute();
}
