import type { Kysely } from 'kysely';
import type { Database } from '../database';
import type { AlertRuleStateRow, NewAlertRuleState } from '../tables/alerts';

type Conn = Kysely<Database>;

// What each alert rule remembers per account between scans (domain/alerts/rules.ts RuleMemory).

export async function listRuleStates({
  db,
  accountId,
  ruleIds,
}: {
  db: Conn;
  accountId: string;
  ruleIds: readonly string[];
}): Promise<AlertRuleStateRow[]> {
  if (ruleIds.length === 0) return [];
  return db
    .selectFrom('alert_rule_states')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('rule_id', 'in', [...ruleIds])
    .execute();
}

/** The account's open incidents of rules other than these (rules since disabled or deleted). */
export async function listOpenIncidentsOfOtherRules({
  db,
  accountId,
  ruleIds,
}: {
  db: Conn;
  accountId: string;
  ruleIds: readonly string[];
}) {
  let query = db
    .selectFrom('alert_rule_states')
    .select(['rule_id', 'last_alert_id'])
    .where('account_id', '=', accountId)
    .where('incident_open', '=', true);
  if (ruleIds.length > 0) query = query.where('rule_id', 'not in', [...ruleIds]);
  return query.execute();
}

export async function closeIncident({
  db,
  ruleId,
  accountId,
  at,
}: {
  db: Conn;
  ruleId: string;
  accountId: string;
  at: Date;
}): Promise<void> {
  await db
    .updateTable('alert_rule_states')
    .set({ incident_open: false, alerted_fingerprints: [], updated_at: at })
    .where('rule_id', '=', ruleId)
    .where('account_id', '=', accountId)
    .execute();
}

export async function saveRuleState({ db, state }: { db: Conn; state: NewAlertRuleState }): Promise<void> {
  const { rule_id: _rule, account_id: _account, ...next } = state;
  await db
    .insertInto('alert_rule_states')
    .values(state)
    .onConflict((oc) => oc.columns(['rule_id', 'account_id']).doUpdateSet(next))
    .execute();
}
