import { type Kysely, sql } from 'kysely';

// The state of the detections with memory (domain/events/windows.ts, docs/decisions.md "Detections with memory"),
// bounded per account:
// - detection_windows: per detection, key (a source address, a principal, a role session) and window, how many events
//   counted and a few distinct values (at most domain/events/windows.ts DISTINCT_VALUES_CAP), and whether the window
//   opened its signal. Windows older than the longest window are deleted, and at most WINDOWS_PER_ACCOUNT are kept
//   (the least recently updated go first): `detection_windows_account_updated_idx` finds both.
// - principal_api_uses: when each principal last made each sensitive call, for "first use in 90 days"; older uses are
//   deleted and at most FIRST_USES_PER_ACCOUNT kept (the least recently used go first).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('detection_windows')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('detection_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('count', 'integer', (c) => c.notNull().check(sql`count >= 1`))
    .addColumn('distinct_values', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('signalled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('detection_windows_pkey', ['account_id', 'detection_id', 'key', 'window_start'])
    .execute();
  await sql`create index detection_windows_account_updated_idx on detection_windows (account_id, updated_at desc)`.execute(
    db,
  );
  await db.schema
    .createTable('principal_api_uses')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('principal', 'text', (c) => c.notNull())
    .addColumn('api', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('principal_api_uses_pkey', ['account_id', 'principal', 'api'])
    .execute();
  await sql`create index principal_api_uses_account_used_idx on principal_api_uses (account_id, last_used_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('principal_api_uses').execute();
  await db.schema.dropTable('detection_windows').execute();
}
