import { type Kysely, sql } from 'kysely';

// A tenant's own detections: Sigma rules for the CloudTrail log source (domain/events/sigma/), run on every event
// its accounts forward beside the built-in detections. The rule is kept as uploaded; its title and level as read
// then, so the list shows them without reading every rule's YAML. One name per tenant.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tenant_detections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 200`))
    .addColumn('sigma', 'text', (c) => c.notNull().check(sql`octet_length(sigma) between 1 and 65536`))
    .addColumn('title', 'text', (c) => c.notNull().check(sql`char_length(title) between 1 and 256`))
    .addColumn('level', 'text', (c) =>
      c.notNull().check(sql`level in ('informational', 'low', 'medium', 'high', 'critical')`),
    )
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('tenant_detections_name_key', ['tenant_id', 'name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tenant_detections').execute();
}
