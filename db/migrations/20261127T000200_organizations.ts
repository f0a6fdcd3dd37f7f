import { type Kysely, sql } from 'kysely';

// AWS Organizations connected to a tenant and the member accounts each one reported at its last sync. Accounts an
// organization connected name it (accounts.organization_id); they share its ExternalId (every member role the
// StackSet creates trusts that one value), so the ExternalId is unique only among accounts connected on their own.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('management_account_id', 'text', (c) => c.notNull().check(sql`management_account_id ~ '^[0-9]{12}$'`))
    // Null until verification has read it.
    .addColumn('aws_organization_id', 'text')
    .addColumn('display_name', 'text', (c) => c.check(sql`char_length(display_name) <= 200`))
    // Given to every account the organization connects, with its `ou:` and `name:` tags.
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('external_id', 'text', (c) => c.notNull().unique().check(sql`char_length(external_id) >= 32`))
    .addColumn('role_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('PENDING').check(sql`status in ('PENDING', 'ACTIVE', 'DISCONNECTED')`),
    )
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('last_sync_at', 'timestamptz')
    .addColumn('last_sync_error', 'text')
    .addColumn('disconnected_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One live connection per management account and tenant; a disconnected one stays as history.
  await sql`create unique index organizations_tenant_management_live on organizations (tenant_id, management_account_id)
    where status <> 'DISCONNECTED'`.execute(db);
  await db.schema
    .createIndex('organizations_tenant_idx')
    .on('organizations')
    .columns(['tenant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('organization_accounts')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('aws_account_id', 'text', (c) => c.notNull().check(sql`aws_account_id ~ '^[0-9]{12}$'`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ou_path', 'text', (c) => c.notNull())
    .addColumn('aws_status', 'text', (c) =>
      c.notNull().check(sql`aws_status in ('ACTIVE', 'SUSPENDED', 'PENDING_CLOSURE', 'REMOVED')`),
    )
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`state in ('monitored', 'awaiting_role', 'not_monitored_plan_limit', 'disconnected', 'management_account')`,
        ),
    )
    .addColumn('reason', 'text')
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('organization_accounts_pk', ['organization_id', 'aws_account_id'])
    .execute();
  await db.schema
    .createIndex('organization_accounts_tenant_idx')
    .on('organization_accounts')
    .column('tenant_id')
    .execute();

  await db.schema
    .alterTable('accounts')
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('accounts').dropConstraint('accounts_external_id_key').execute();
  await sql`create unique index accounts_external_id_unique on accounts (external_id) where organization_id is null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index accounts_external_id_unique`.execute(db);
  await db.schema.alterTable('accounts').dropColumn('organization_id').execute();
  await db.schema.alterTable('accounts').addUniqueConstraint('accounts_external_id_key', ['external_id']).execute();
  await db.schema.dropTable('organization_accounts').execute();
  await db.schema.dropTable('organizations').execute();
}
