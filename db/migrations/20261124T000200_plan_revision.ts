import type { Kysely } from 'kysely';

// A tenant's plan carries a revision, bumped on every change. Account workflows keep the newest revision they
// were told, so plan changes reach them in any order: the API signals after its commit, holding no lock.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tenants')
    .addColumn('plan_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tenants').dropColumn('plan_revision').execute();
}
