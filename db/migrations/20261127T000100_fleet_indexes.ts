import { type Kysely, sql } from 'kysely';

// Reads across all of a tenant's accounts (GET /signals, GET /overview), which the per-account indexes cannot serve:
// - a tenant's signals newest first, the keyset of GET /signals (as signals_account_detected_idx is for one account),
//   and the signals detected in the last 24 hours;
// - the signals a tenant resolved recently (signals_resolved_at_idx spans every tenant);
// - the tenant's acceptances in force, which the overview subtracts from its open signals.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('signals_tenant_detected_idx')
    .on('signals')
    .columns(['tenant_id', 'detected_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('signals_tenant_resolved_idx')
    .on('signals')
    .columns(['tenant_id', 'resolved_at'])
    .where(sql.ref('resolved_at'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('signal_acceptances_tenant_idx')
    .on('signal_acceptances')
    .column('tenant_id')
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['signal_acceptances_tenant_idx', 'signals_tenant_resolved_idx', 'signals_tenant_detected_idx']) {
    await db.schema.dropIndex(index).execute();
  }
}
