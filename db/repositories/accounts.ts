import type { Kysely } from 'kysely';
import type { RoleTarget } from '../../cloud/types';
import type { PlanId } from '../../domain/plans';
import type { Database } from '../database';
import type { AccountRow } from '../tables/accounts';

type Conn = Kysely<Database>;

export async function countLiveAccounts({ db, tenantId }: { db: Conn; tenantId: string }): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('status', '!=', 'DISCONNECTED')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertAccount({ db, account }: {
  db: Conn;
  account: { id: string; tenant_id: string; aws_account_id: string; display_name: string | null; tags: string[]; external_id: string; role_name: string; workflow_id: string };
}): Promise<void> {
  await db.insertInto('accounts').values(account).execute();
}

/** A disconnected account connected again: PENDING with a new ExternalId, as if new (signals and scans stay). */
export async function reopenAccount({ db, accountId, fields }: {
  db: Conn;
  accountId: string;
  fields: { display_name: string | null; tags: string[]; external_id: string; role_name: string; workflow_id: string };
}): Promise<void> {
  await db.updateTable('accounts').set({
    ...fields, status: 'PENDING', connected_at: null, first_scan_id: null, disconnected_at: null, updated_at: new Date(),
  }).where('id', '=', accountId).execute();
}

export async function listAccounts({ db, tenantId }: { db: Conn; tenantId: string }): Promise<AccountRow[]> {
  return db.selectFrom('accounts').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}

/** Looks an account up by its 12-digit AWS id within one tenant; other tenants' accounts are invisible. */
export async function findAccount({ db, tenantId, awsAccountId }: { db: Conn; tenantId: string; awsAccountId: string }): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('aws_account_id', '=', awsAccountId)
    .executeTakeFirst();
}

/** What the cloud provider needs to reach an account's role, and the tenant's plan. */
export async function loadRoleTarget(
  { db, tenantId, accountId }: { db: Conn; tenantId: string; accountId: string },
): Promise<{ target: RoleTarget; plan: PlanId }> {
  const row = await db
    .selectFrom('accounts')
    .innerJoin('tenants', 'tenants.id', 'accounts.tenant_id')
    .select(['accounts.aws_account_id', 'accounts.role_name', 'accounts.external_id', 'tenants.plan'])
    .where('accounts.id', '=', accountId)
    .where('accounts.tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return {
    target: { tenantId, awsAccountId: row.aws_account_id, roleName: row.role_name, externalId: row.external_id },
    plan: row.plan,
  };
}
