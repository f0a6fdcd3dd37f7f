import type { Kysely } from 'kysely';
import type { MemberAwsStatus, MemberState } from '../../domain/accounts/organizations';
import type { Database } from '../database';
import type { AccountRow } from '../tables/accounts';
import type { OrganizationAccountRow, OrganizationRow } from '../tables/organizations';

type Conn = Kysely<Database>;

export async function insertOrganization({
  db,
  organization,
}: {
  db: Conn;
  organization: {
    id: string;
    tenant_id: string;
    management_account_id: string;
    display_name: string | null;
    tags: string[];
    external_id: string;
    role_name: string;
    workflow_id: string;
  };
}): Promise<void> {
  await db.insertInto('organizations').values(organization).execute();
}

/** The tenant's organizations connected now (PENDING or ACTIVE): what its plan's organization_limit counts. */
export async function countLiveOrganizations({ db, tenantId }: { db: Conn; tenantId: string }): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('status', '!=', 'DISCONNECTED')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Takes back a connect whose workflow could not be started. */
export async function deleteUnstartedOrganization({
  db,
  tenantId,
  orgId,
}: {
  db: Conn;
  tenantId: string;
  orgId: string;
}): Promise<void> {
  await db
    .deleteFrom('organizations')
    .where('id', '=', orgId)
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'PENDING')
    .execute();
}

/** An organization by our id, within one tenant; other tenants' organizations are invisible. */
export async function findOrganization({
  db,
  tenantId,
  orgId,
}: {
  db: Conn;
  tenantId: string;
  orgId: string;
}): Promise<OrganizationRow | undefined> {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', orgId)
    .executeTakeFirst();
}

/** The tenant's organizations, in the order they were connected (disconnected ones included). */
export async function listOrganizations({ db, tenantId }: { db: Conn; tenantId: string }): Promise<OrganizationRow[]> {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** How many member accounts of each of the tenant's organizations are in each state (accounts no longer in it left out). */
export async function countMemberStates({
  db,
  tenantId,
}: {
  db: Conn;
  tenantId: string;
}): Promise<{ organization_id: string; state: MemberState; n: number }[]> {
  const rows = await db
    .selectFrom('organization_accounts')
    .select(['organization_id', 'state', (eb) => eb.fn.countAll<string>().as('n')])
    .where('tenant_id', '=', tenantId)
    .where('aws_status', '!=', 'REMOVED')
    .groupBy(['organization_id', 'state'])
    .execute();
  return rows.map((r) => ({ organization_id: r.organization_id, state: r.state, n: Number(r.n) }));
}

/** PENDING to ACTIVE with the organization's AWS id; a retry changes nothing. */
export async function activateOrganization({
  db,
  tenantId,
  orgId,
  awsOrganizationId,
  at,
}: {
  db: Conn;
  tenantId: string;
  orgId: string;
  awsOrganizationId: string;
  at: Date;
}): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ status: 'ACTIVE', aws_organization_id: awsOrganizationId, updated_at: at })
    .where('id', '=', orgId)
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'PENDING')
    .execute();
}

/** False when the organization was disconnected already. */
export async function setOrganizationDisconnected({
  db,
  tenantId,
  orgId,
  at,
}: {
  db: Conn;
  tenantId: string;
  orgId: string;
  at: Date;
}): Promise<boolean> {
  const result = await db
    .updateTable('organizations')
    .set({ status: 'DISCONNECTED', disconnected_at: at, updated_at: at })
    .where('id', '=', orgId)
    .where('tenant_id', '=', tenantId)
    .where('status', '!=', 'DISCONNECTED')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The outcome of a sync: when it ran and, if it could not read the organization, why. */
export async function recordSync({
  db,
  tenantId,
  orgId,
  at,
  error,
}: {
  db: Conn;
  tenantId: string;
  orgId: string;
  at: Date;
  error: string | null;
}): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ last_sync_at: at, last_sync_error: error, updated_at: at })
    .where('id', '=', orgId)
    .where('tenant_id', '=', tenantId)
    .execute();
}

/** The member accounts the organization's syncs have seen, removed ones included. */
export async function listMembers({
  db,
  tenantId,
  orgId,
}: {
  db: Conn;
  tenantId: string;
  orgId: string;
}): Promise<OrganizationAccountRow[]> {
  return db
    .selectFrom('organization_accounts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('organization_id', '=', orgId)
    .execute();
}

/** A member account as a sync found it and what Sentinel did with it. */
export async function saveMember({
  db,
  member,
}: {
  db: Conn;
  member: {
    tenant_id: string;
    organization_id: string;
    aws_account_id: string;
    name: string;
    ou_path: string;
    aws_status: MemberAwsStatus;
    state: MemberState;
    reason: string | null;
    last_seen_at: Date;
  };
}): Promise<void> {
  const { name, ou_path, aws_status, state, reason, last_seen_at } = member;
  await db
    .insertInto('organization_accounts')
    .values(member)
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'aws_account_id'])
        .doUpdateSet({ name, ou_path, aws_status, state, reason, last_seen_at, updated_at: new Date() }),
    )
    .execute();
}

/** Member accounts whose Sentinel account was disconnected with the organization. */
export async function setMembersDisconnected({
  db,
  tenantId,
  orgId,
  awsAccountIds,
  reason,
}: {
  db: Conn;
  tenantId: string;
  orgId: string;
  awsAccountIds: string[];
  reason: string;
}): Promise<void> {
  if (awsAccountIds.length === 0) return;
  await db
    .updateTable('organization_accounts')
    .set({ state: 'disconnected', reason, updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('organization_id', '=', orgId)
    .where('aws_account_id', 'in', awsAccountIds)
    .execute();
}

/** A member account as GET /organizations/{org_id} lists it: its Sentinel account's status and score beside it. */
export interface MemberDetailRow
  extends Pick<OrganizationAccountRow, 'aws_account_id' | 'name' | 'ou_path' | 'aws_status' | 'state' | 'reason'> {
  account_status: AccountRow['status'] | null;
  current_srs: number | null;
  score_complete: boolean | null;
}

/** The organization's member accounts (those no longer in it included), by OU path then name: the order of a tree. */
export async function listMemberDetails({
  db,
  tenantId,
  orgId,
}: {
  db: Conn;
  tenantId: string;
  orgId: string;
}): Promise<MemberDetailRow[]> {
  return db
    .selectFrom('organization_accounts as m')
    .leftJoin('accounts as a', (join) =>
      join.onRef('a.tenant_id', '=', 'm.tenant_id').onRef('a.aws_account_id', '=', 'm.aws_account_id'),
    )
    .select([
      'm.aws_account_id',
      'm.name',
      'm.ou_path',
      'm.aws_status',
      'm.state',
      'm.reason',
      'a.status as account_status',
      'a.current_srs',
      'a.score_complete',
    ])
    .where('m.tenant_id', '=', tenantId)
    .where('m.organization_id', '=', orgId)
    .orderBy('m.ou_path')
    .orderBy('m.name')
    .orderBy('m.aws_account_id')
    .execute();
}

/** The accounts the organization connected that are not disconnected yet. */
export async function listLiveAccountsOfOrganization({
  db,
  tenantId,
  orgId,
}: {
  db: Conn;
  tenantId: string;
  orgId: string;
}): Promise<AccountRow[]> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('organization_id', '=', orgId)
    .where('status', '!=', 'DISCONNECTED')
    .orderBy('aws_account_id')
    .execute();
}

/** The display name and tags a sync keeps in line with the organization (an account moved to another OU, renamed). */
export async function setAccountLabels({
  db,
  tenantId,
  accountId,
  displayName,
  tags,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  displayName: string | null;
  tags: string[];
}): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ display_name: displayName, tags, updated_at: new Date() })
    .where('id', '=', accountId)
    .where('tenant_id', '=', tenantId)
    .execute();
}
