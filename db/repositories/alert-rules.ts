import { type Kysely, sql } from 'kysely';
import type { ChannelConfig } from '../../domain/alerts/channels';
import type { Scenario } from '../../domain/checks/types';
import type { Database } from '../database';
import type { AlertRuleRow } from '../tables/alerts';

type Conn = Kysely<Database>;

/** What a rule says; the row adds id, tenant, version and timestamps. */
export interface RuleFields {
  name: string;
  min_srs: number;
  scenarios: Scenario[];
  channels: ChannelConfig[];
  enabled: boolean;
}

// jsonb needs JSON text: node-postgres would send a JS array as a PostgreSQL array literal.
const jsonb = (channels: ChannelConfig[]) => JSON.stringify(channels);

export async function insertAlertRule({
  db,
  rule,
}: {
  db: Conn;
  rule: RuleFields & { id: string; tenant_id: string };
}): Promise<AlertRuleRow> {
  return db
    .insertInto('alert_rules')
    .values({ ...rule, channels: jsonb(rule.channels) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The tenant's live rules, oldest first. */
export async function listAlertRules({ db, tenantId }: { db: Conn; tenantId: string }): Promise<AlertRuleRow[]> {
  return db
    .selectFrom('alert_rules')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A live rule of the tenant. */
export async function findAlertRule({
  db,
  tenantId,
  ruleId,
}: {
  db: Conn;
  tenantId: string;
  ruleId: string;
}): Promise<AlertRuleRow | undefined> {
  return db
    .selectFrom('alert_rules')
    .selectAll()
    .where('id', '=', ruleId)
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** How many live rules the tenant has. */
export async function countAlertRules({ db, tenantId }: { db: Conn; tenantId: string }): Promise<number> {
  const row = await db
    .selectFrom('alert_rules')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The tenant's rules that fire: live and enabled, by id. */
export async function listEnabledRules({ db, tenantId }: { db: Conn; tenantId: string }) {
  return db
    .selectFrom('alert_rules')
    .select(['id', 'version', 'min_srs', 'scenarios', 'channels'])
    .where('tenant_id', '=', tenantId)
    .where('enabled', '=', true)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** A live rule of the tenant, locked until the transaction ends so concurrent changes apply one after the other. */
export async function lockAlertRule({
  db,
  tenantId,
  ruleId,
}: {
  db: Conn;
  tenantId: string;
  ruleId: string;
}): Promise<AlertRuleRow | undefined> {
  return db
    .selectFrom('alert_rules')
    .selectAll()
    .where('id', '=', ruleId)
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** Every change bumps `version`: the first scan after it evaluates the rule as if the threshold had just been crossed. */
export async function updateAlertRule({
  db,
  tenantId,
  ruleId,
  fields,
}: {
  db: Conn;
  tenantId: string;
  ruleId: string;
  fields: RuleFields;
}): Promise<AlertRuleRow> {
  return db
    .updateTable('alert_rules')
    .set({
      ...fields,
      channels: jsonb(fields.channels),
      version: sql<number>`version + 1`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', ruleId)
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Soft delete: alert events keep pointing at the rule. False when there is no live rule to delete. */
export async function softDeleteAlertRule({
  db,
  tenantId,
  ruleId,
}: {
  db: Conn;
  tenantId: string;
  ruleId: string;
}): Promise<boolean> {
  const result = await db
    .updateTable('alert_rules')
    .set({ deleted_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', ruleId)
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Which of these Slack workspaces the tenant has installed the app in. */
export async function installedSlackTeams({
  db,
  tenantId,
  teamIds,
}: {
  db: Conn;
  tenantId: string;
  teamIds: string[];
}): Promise<Set<string>> {
  if (teamIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('slack_installations')
    .select('team_id')
    .where('tenant_id', '=', tenantId)
    .where('team_id', 'in', teamIds)
    .execute();
  return new Set(rows.map((r) => r.team_id));
}
