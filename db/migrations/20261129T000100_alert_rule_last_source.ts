import { type Kysely, sql } from 'kysely';

// An alert rule's memory names the last source it was evaluated against, a scan or an event batch, in
// alert_rule_states.last_source_id; last_scan_id, which held both, is kept and still written for the previous
// release's processes while they drain (docs/operations.md, "Deploys"), and dropped by a later release.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alert_rule_states').addColumn('last_source_id', 'text').execute();
  await sql`update alert_rule_states set last_source_id = last_scan_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alert_rule_states').dropColumn('last_source_id').execute();
}
