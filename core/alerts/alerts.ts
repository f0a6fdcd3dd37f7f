import { acknowledgeAlertEvent, findAlertAcknowledgement, listAlertEvents } from '../../db/repositories/alert-events';
import type { AppDeps, Caller } from '../deps';
import { afterCursor, keysetPage } from '../pagination/cursor';
import { notFound } from '../errors';
import { audit } from '../audit-log';
import type { ListAlertsQuery } from '../schemas/alerts';

// Anything else cannot be one of our ids; answering 404 at once also keeps odd bytes away from the query.
const ALERT_ID = /^[A-Za-z0-9_]{1,64}$/;

export async function listTenantAlerts({ db }: Pick<AppDeps, 'db'>, caller: Caller, query: ListAlertsQuery) {
  const rows = await listAlertEvents({
    db,
    tenantId: caller.tenantId,
    after: afterCursor(query.next_token),
    limit: query.limit + 1,
  });
  const { page, nextToken } = keysetPage(rows, query.limit, (e) => e.fired_at);
  return {
    alerts: page.map((e) => ({
      alert_id: e.id,
      aws_account_id: e.aws_account_id,
      cloud_account_id: e.aws_account_id,
      rule_id: e.rule_id,
      srs_at_trigger: e.srs_at_trigger,
      srs_complete_at_trigger: e.srs_complete,
      scenarios_triggered: e.scenarios_triggered,
      fired_at: e.fired_at.toISOString(),
      acknowledged_at: e.acknowledged_at ? e.acknowledged_at.toISOString() : null,
    })),
    count: page.length,
    next_token: nextToken,
  };
}

/**
 * Idempotent: the first acknowledgement wins and later ones read it back, so concurrent requests all answer the
 * same time.
 */
export async function acknowledgeAlert({ db, log }: Pick<AppDeps, 'db' | 'log'>, caller: Caller, alertId: string) {
  if (!ALERT_ID.test(alertId)) throw notFound('Alert');
  const alert = { tenantId: caller.tenantId, alertId };
  // The acknowledgement and its audit event commit together; a repeated one changes nothing and records nothing.
  const acked =
    (await db.transaction().execute(async (trx) => {
      const first = await acknowledgeAlertEvent({ db: trx, ...alert, userId: caller.userId });
      if (first) await audit(trx, caller, 'alert.acknowledged', `alert:${alertId}`);
      return first;
    })) ?? (await findAlertAcknowledgement({ db, ...alert }));
  // The read finds only alerts the update skipped, that is alerts acknowledged already (nothing clears it).
  if (!acked?.acknowledged_at) throw notFound('Alert');
  log.info({ alertId }, 'alert acknowledged');
  return { alert_id: acked.id, acknowledged_at: acked.acknowledged_at.toISOString() };
}
