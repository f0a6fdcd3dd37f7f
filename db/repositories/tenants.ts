import type { Kysely } from 'kysely';
import type { Database } from '../database';
import type { NewTenant, TenantRow } from '../tables/identity';

type Conn = Kysely<Database>;

export async function insertTenant({ db, tenant }: { db: Conn; tenant: NewTenant }): Promise<void> {
  await db.insertInto('tenants').values(tenant).execute();
}

export async function findTenant({ db, tenantId }: { db: Conn; tenantId: string }): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', tenantId).executeTakeFirst();
}

/** Locks the tenant's row for the transaction (connects counted against its plan's limit one at a time). */
export async function lockTenant({ db, tenantId }: { db: Conn; tenantId: string }) {
  return db
    .selectFrom('tenants')
    .select(['plan', 'plan_revision'])
    .where('id', '=', tenantId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}
