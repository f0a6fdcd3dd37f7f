import { type Kysely, sql } from 'kysely';

// An acknowledged alert stays quiet only until the account's open findings change. Comparing the current
// findings with the alert's is not enough: findings that resolve and then come back look unchanged. The rule
// state remembers whether any scan since the rule's last alert saw different findings.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('alert_rule_states')
    .addColumn('findings_changed_since_alert', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // States whose last scan already differs from their last alert.
  await sql`update alert_rule_states s set findings_changed_since_alert = true
    from alert_events e where e.id = s.last_alert_id and e.findings_digest <> s.findings_digest`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alert_rule_states').dropColumn('findings_changed_since_alert').execute();
}
