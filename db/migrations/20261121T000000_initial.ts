import { type Kysely, sql } from 'kysely';

// The whole data model the spec needs. Frozen in time: later changes get a migration of their own.
// Enumerations are CHECK constraints (not Postgres enums) so adding a value is a plain migration.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 200`))
    .addColumn('plan', 'text', (c) =>
      c.notNull().defaultTo('solo').check(sql`plan in ('solo', 'team', 'agency', 'enterprise')`),
    )
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('active').check(sql`status in ('active', 'past_due', 'canceled', 'suspended')`),
    )
    .addColumn('stripe_customer_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) =>
      c.notNull().unique().check(sql`email = lower(email) and position('@' in email) > 1`),
    )
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 200`))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member', 'viewer')`))
    // Null until an invited user accepts the invitation and sets a password.
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('users_tenant_idx').on('users').column('tenant_id').execute();
  // Exactly one owner per tenant.
  await sql`create unique index users_one_owner_per_tenant on users (tenant_id) where role = 'owner'`.execute(db);

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').column('user_id').execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Fixed-window counters shared by every API instance (login failures, manual scans).
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().check(sql`count >= 0`))
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('aws_account_id', 'text', (c) => c.notNull().check(sql`aws_account_id ~ '^[0-9]{12}$'`))
    .addColumn('display_name', 'text', (c) => c.check(sql`char_length(display_name) <= 200`))
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('PENDING').check(sql`status in ('PENDING', 'ACTIVE', 'DISCONNECTED')`),
    )
    .addColumn('external_id', 'text', (c) => c.notNull().unique().check(sql`char_length(external_id) >= 32`))
    .addColumn('role_name', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('current_srs', 'integer', (c) => c.check(sql`current_srs between 0 and 100`))
    // The scan started by verification; verifying an ACTIVE account again answers with it.
    .addColumn('first_scan_id', 'text')
    .addColumn('connected_at', 'timestamptz')
    .addColumn('last_scan_at', 'timestamptz')
    .addColumn('last_successful_scan_at', 'timestamptz')
    .addColumn('disconnected_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('accounts_tenant_aws_account_unique', ['tenant_id', 'aws_account_id'])
    .execute();

  await db.schema
    .createTable('scans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('initial', 'scheduled', 'manual')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'succeeded', 'failed')`))
    .addColumn('srs', 'integer', (c) => c.check(sql`srs between 0 and 100`))
    .addColumn('failure_reason', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('scans_account_started_idx')
    .on('scans')
    .columns(['account_id', 'started_at desc'])
    .execute();

  await db.schema
    .createTable('signals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('check_id', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('scenario', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull().check(sql`severity in ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull().defaultTo('global'))
    .addColumn('first_scan_id', 'text', (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('last_seen_scan_id', 'text', (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('resolved_scan_id', 'text', (c) => c.references('scans.id').onDelete('cascade'))
    .addColumn('detected_at', 'timestamptz', (c) => c.notNull())
    .addColumn('resolved_at', 'timestamptz')
    .execute();
  // A finding is open at most once per account; when it returns after being resolved a new signal opens.
  await sql`create unique index signals_open_fingerprint on signals (account_id, fingerprint) where resolved_at is null`.execute(
    db,
  );
  // Keyset pagination: newest first.
  await db.schema
    .createIndex('signals_account_detected_idx')
    .on('signals')
    .columns(['account_id', 'detected_at desc', 'id desc'])
    .execute();

  await db.schema
    .createTable('score_history')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('srs', 'integer', (c) => c.notNull().check(sql`srs between 0 and 100`))
    .addColumn('scan_id', 'text', (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('score_history_pk', ['account_id', 'day'])
    .execute();

  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 200`))
    .addColumn('min_srs', 'integer', (c) => c.notNull().defaultTo(40).check(sql`min_srs between 0 and 100`))
    .addColumn('scenarios', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('channels', 'jsonb', (c) =>
      c.notNull().check(sql`jsonb_typeof(channels) = 'array' and jsonb_array_length(channels) >= 1`),
    )
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    // Bumped on every change: the first scan after a change counts as a threshold crossing.
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('alert_rules_tenant_idx').on('alert_rules').column('tenant_id').execute();

  // Edge-trigger memory per rule and account.
  await db.schema
    .createTable('alert_rule_states')
    .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('rule_version', 'integer', (c) => c.notNull())
    .addColumn('below_threshold', 'boolean', (c) => c.notNull())
    .addColumn('findings_digest', 'text', (c) => c.notNull())
    .addColumn('last_scan_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('alert_rule_states_pk', ['rule_id', 'account_id'])
    .execute();

  await db.schema
    .createTable('alert_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    .addColumn('scan_id', 'text', (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('srs_at_trigger', 'integer', (c) => c.notNull().check(sql`srs_at_trigger between 0 and 100`))
    .addColumn('scenarios_triggered', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('findings_digest', 'text', (c) => c.notNull())
    .addColumn('fired_at', 'timestamptz', (c) => c.notNull())
    .addColumn('acknowledged_at', 'timestamptz')
    .addColumn('acknowledged_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addUniqueConstraint('alert_events_one_per_rule_scan', ['rule_id', 'account_id', 'scan_id'])
    .execute();
  await db.schema
    .createIndex('alert_events_tenant_fired_idx')
    .on('alert_events')
    .columns(['tenant_id', 'fired_at desc', 'id desc'])
    .execute();

  await db.schema
    .createTable('alert_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('alert_id', 'text', (c) => c.notNull().references('alert_events.id').onDelete('cascade'))
    .addColumn('channel_index', 'integer', (c) => c.notNull().check(sql`channel_index >= 0`))
    .addColumn('channel_type', 'text', (c) => c.notNull().check(sql`channel_type in ('email', 'slack', 'pagerduty')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'sending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('alert_deliveries_one_per_channel', ['alert_id', 'channel_index'])
    .execute();

  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('alert_deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('delivered', 'retryable', 'permanent')`))
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .execute();

  // Embedded default for e-mail: with no SMTP server configured, messages land here for the operator.
  await db.schema
    .createTable('email_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('to_addresses', sql`text[]`, (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('requested_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'ready', 'failed')`))
    .addColumn('storage_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('slack_installations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('team_name', 'text')
    .addColumn('bot_user_id', 'text')
    // AES-256-GCM ciphertext; the key is configuration, never stored beside it.
    .addColumn('bot_token_encrypted', 'text', (c) => c.notNull())
    .addColumn('installed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('slack_installations_tenant_team', ['tenant_id', 'team_id'])
    .execute();

  await db.schema
    .createTable('oauth_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('slack')`))
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('stripe_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('solo', 'team', 'agency', 'enterprise')`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Processed webhook events, so a replayed delivery changes nothing.
  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'stripe_events',
    'stripe_subscriptions',
    'oauth_states',
    'slack_installations',
    'exports',
    'email_outbox',
    'delivery_attempts',
    'alert_deliveries',
    'alert_events',
    'alert_rule_states',
    'alert_rules',
    'score_history',
    'signals',
    'scans',
    'accounts',
    'rate_limits',
    'invitations',
    'refresh_tokens',
    'users',
    'tenants',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
