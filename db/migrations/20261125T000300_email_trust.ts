import { type Kysely, sql } from 'kysely';

// Proof of addresses before the service mails anybody on a tenant's behalf:
// - users.email_verified_at: set by the sign-up verification link, an accepted invitation or a password reset
//   (each proves the mailbox). Users who had already signed in before this migration are taken as verified.
// - email_verifications: single-use links, stored as SHA-256 hashes of their tokens.
// - alert_recipients: per tenant, each alert e-mail address that is not a verified user of the tenant: when its
//   single confirmation e-mail went out, when it was confirmed, when it unsubscribed.
// - alert_deliveries: 'held' (nothing was sent, see held_recipients) and, for every e-mail delivery, the
//   addresses held back and why.
// - email_outbox.headers: the List-Unsubscribe headers an alert e-mail carries.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'timestamptz').execute();
  await sql`update users set email_verified_at = created_at where password_hash is not null`.execute(db);

  await db.schema
    .createTable('email_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('email_verifications_user_idx').on('email_verifications').column('user_id').execute();

  await db.schema
    .createTable('alert_recipients')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull().check(sql`address = lower(address)`))
    .addColumn('confirmation_sent_at', 'timestamptz')
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('unsubscribed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('alert_recipients_pkey', ['tenant_id', 'address'])
    .execute();

  await sql`alter table alert_deliveries drop constraint alert_deliveries_status_check`.execute(db);
  await sql`alter table alert_deliveries add constraint alert_deliveries_status_check
    check (status in ('pending', 'sending', 'delivered', 'failed', 'held'))`.execute(db);
  await db.schema.alterTable('alert_deliveries').addColumn('held_recipients', 'jsonb').execute();
  await db.schema.alterTable('email_outbox').addColumn('headers', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('email_outbox').dropColumn('headers').execute();
  await db.schema.alterTable('alert_deliveries').dropColumn('held_recipients').execute();
  await sql`update alert_deliveries set status = 'failed', last_error = 'held' where status = 'held'`.execute(db);
  await sql`alter table alert_deliveries drop constraint alert_deliveries_status_check`.execute(db);
  await sql`alter table alert_deliveries add constraint alert_deliveries_status_check
    check (status in ('pending', 'sending', 'delivered', 'failed'))`.execute(db);
  await db.schema.dropTable('alert_recipients').execute();
  await db.schema.dropTable('email_verifications').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
