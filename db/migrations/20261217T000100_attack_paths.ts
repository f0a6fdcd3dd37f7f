import { type Kysely, sql } from 'kysely';

// The attack paths of each account (domain/attack-paths/), as its latest full scan that analysed them found them:
// one row per path, keyed by its fingerprint so that a path found again keeps when it was first found. Beside them,
// per account, how that analysis went: complete, partial (what it could not read is listed) or not evaluated.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('attack_paths')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('escalation', 'exposure', 'toxic_combination')`))
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull().check(sql`severity in ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW')`))
    // Severity, then kind (toxic combinations first): the order lists are read in.
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('certainty', 'text', (c) => c.notNull().check(sql`certainty in ('certain', 'possible')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('region', 'text')
    .addColumn('nodes', 'jsonb', (c) => c.notNull())
    .addColumn('edges', 'jsonb', (c) => c.notNull())
    .addColumn('first_found_at', 'timestamptz', (c) => c.notNull())
    // The latest scan that found it: a partial analysis keeps what it could not look at again.
    .addColumn('found_at', 'timestamptz', (c) => c.notNull())
    .addColumn('scan_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('attack_paths_pkey', ['account_id', 'fingerprint'])
    .execute();
  await sql`create index attack_paths_by_tenant on attack_paths (tenant_id, rank, account_id, fingerprint)`.execute(db);

  await db.schema
    .createTable('attack_path_analyses')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('scan_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('complete', 'partial', 'not_evaluated')`))
    .addColumn('reason', 'text')
    // [{ kind, scope, reason }]: what it could not read.
    .addColumn('unread', 'jsonb', (c) => c.notNull())
    .addColumn('analyzed_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attack_path_analyses').execute();
  await db.schema.dropTable('attack_paths').execute();
}
