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
