import { type Kysely, sql } from 'kysely';
import type { RegionBaseline } from '../../domain/checks/region-baseline';
import type { RoleTarget } from '../../domain/onboarding/role';
import type { PlanId } from '../../domain/tenancy/plans';
import type { Database } from '../database';
import { isoTimestamp } from '../json-sql';
import type { AccountRow } from '../tables/accounts';

type Conn = Kysely<Database>;

/** Every account row of the tenant, disconnected ones included. */
export async function countAccountRows({ db, tenantId }: { db: Conn; tenantId: string }): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countLiveAccounts({ db, tenantId }: { db: Conn; tenantId: string }): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('status', '!=', 'DISCONNECTED')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertAccount({
  db,
  account,
}: {
  db: Conn;
  account: {
    id: string;
    tenant_id: string;
    aws_account_id: string;
    display_name: string | null;
    tags: string[];
    external_id: string;
    role_name: string;
    workflow_id: string;
    organization_id: string | null;
  };
}): Promise<void> {
  await db.insertInto('accounts').values(account).execute();
}

/** A disconnected account connected again: PENDING with a new ExternalId, as if new (signals and scans stay). */
export async function reopenAccount({
  db,
  accountId,
  fields,
}: {
  db: Conn;
  accountId: string;
  fields: {
    display_name: string | null;
    tags: string[];
    external_id: string;
    role_name: string;
    workflow_id: string;
    organization_id: string | null;
  };
}): Promise<void> {
  await db
    .updateTable('accounts')
    .set({
      ...fields,
      status: 'PENDING',
      connected_at: null,
      first_scan_id: null,
      disconnected_at: null,
      updated_at: new Date(),
    })
    .where('id', '=', accountId)
    .execute();
}

export async function listAccounts({ db, tenantId }: { db: Conn; tenantId: string }): Promise<AccountRow[]> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** An account as GET /accounts shows it (core/schemas/accounts.ts `accountSummary`). */
export interface AccountSummaryJson {
  aws_account_id: string;
  cloud_account_id: string;
  display_name: string | null;
  status: AccountRow['status'];
  current_srs: number | null;
  last_scan_at: string | null;
  tags: string[];
  coverage: { evaluated: number; total: number } | null;
  score_complete: boolean | null;
}

/** Which of the tenant's accounts GET /accounts lists, in which order, from where. */
export interface AccountListFilter {
  tenantId: string;
  tag?: string;
  status?: AccountRow['status'];
  /** current_srs below this; unscored accounts never match. */
  srsBelow?: number;
  /** `connected`: (created_at, id); `srs`: worst first, (current_srs nulls last, aws_account_id). */
  sort: 'connected' | 'srs';
  /** Keyset of the previous page's last account, in the page's order. */
  after?:
    | { sort: 'connected'; createdAt: string; id: string }
    | { sort: 'srs'; srs: number | null; awsAccountId: string };
  limit: number;
}

/** One page of account summaries, the number of accounts matching on every page, and the last row's keys when more follow. */
export interface AccountSummaryPage {
  accounts: AccountSummaryJson[];
  total: number;
  /** created_at to the microsecond, as the next page's keyset needs it; null on the last page. */
  next: { created_at: string; id: string; current_srs: number | null; aws_account_id: string } | null;
}

const ORDER = {
  connected: sql`created_at, id`,
  srs: sql`current_srs asc nulls last, aws_account_id`,
};

function keysetAfter(after: NonNullable<AccountListFilter['after']>) {
  if (after.sort === 'connected') return sql`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id})`;
  if (after.srs === null) return sql`(current_srs is null and aws_account_id > ${after.awsAccountId})`;
  return sql`(current_srs > ${after.srs} or (current_srs = ${after.srs} and aws_account_id > ${after.awsAccountId}) or current_srs is null)`;
}

/**
 * A page of the tenant's accounts as their summaries, with the count of all that match, in one statement: PostgreSQL
 * builds the JSON (timestamps formatted as toISOString() writes them, UTC to the millisecond), so the API neither
 * decodes rows and timestamps nor maps them. GET /accounts is the busiest authenticated read. One row more than the
 * page is read to tell whether another page follows.
 */
export async function listAccountSummaries({
  db,
  filter,
}: {
  db: Conn;
  filter: AccountListFilter;
}): Promise<AccountSummaryPage> {
  const where = [sql`tenant_id = ${filter.tenantId}`];
  if (filter.tag !== undefined) where.push(sql`${filter.tag} = any(tags)`);
  if (filter.status !== undefined) where.push(sql`status = ${filter.status}`);
  if (filter.srsBelow !== undefined) where.push(sql`current_srs < ${filter.srsBelow}`);
  const order = ORDER[filter.sort];
  const after = filter.after ? keysetAfter(filter.after) : sql`true`;
  const { rows } = await sql<AccountSummaryPage>`
    with matching as (
      select * from accounts where ${sql.join(where, sql` and `)}
    ), page as (
      select matching.*, row_number() over (order by ${order}) as position
      from matching where ${after} order by ${order} limit ${filter.limit + 1}
    )
    select
      (select count(*)::int from matching) as total,
      (select coalesce(json_agg(json_build_object(
        'aws_account_id', aws_account_id,
        'cloud_account_id', aws_account_id,
        'display_name', display_name,
        'status', status,
        'current_srs', current_srs,
        'last_scan_at', ${isoTimestamp(sql.ref('last_scan_at'))},
        'tags', tags,
        'coverage', case when coverage_evaluated is null or coverage_total is null then null
                    else json_build_object('evaluated', coverage_evaluated, 'total', coverage_total) end,
        'score_complete', score_complete
      ) order by position), '[]') from page where position <= ${filter.limit}) as accounts,
      (select json_build_object(
        'created_at', to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'id', id,
        'current_srs', current_srs, 'aws_account_id', aws_account_id)
       from page where position = ${filter.limit} and exists (select 1 from page where position > ${filter.limit})) as next`.execute(
    db,
  );
  return rows[0] ?? { accounts: [], total: 0, next: null };
}

/** Looks an account up by its 12-digit AWS id within one tenant; other tenants' accounts are invisible. */
export async function findAccount({
  db,
  tenantId,
  awsAccountId,
}: {
  db: Conn;
  tenantId: string;
  awsAccountId: string;
}): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('aws_account_id', '=', awsAccountId)
    .executeTakeFirst();
}

/** What the cloud provider needs to reach an account's role, and the tenant's plan (with its revision). */
export async function loadRoleTarget({
  db,
  tenantId,
  accountId,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
}): Promise<{ target: RoleTarget; plan: PlanId; planRevision: number }> {
  const row = await db
    .selectFrom('accounts')
    .innerJoin('tenants', 'tenants.id', 'accounts.tenant_id')
    .select([
      'accounts.aws_account_id',
      'accounts.role_name',
      'accounts.external_id',
      'tenants.plan',
      'tenants.plan_revision',
    ])
    .where('accounts.id', '=', accountId)
    .where('accounts.tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return {
    target: { tenantId, awsAccountId: row.aws_account_id, roleName: row.role_name, externalId: row.external_id },
    plan: row.plan,
    planRevision: row.plan_revision,
  };
}

/**
 * Locks the account's row for the transaction: one writer of its signals, acceptances, score and event keys at a
 * time (a scan saving its results, alert rules firing on it, a tenant accepting a risk, an event opening signals).
 * Undefined when the tenant has no such account. FOR NO KEY UPDATE: lockers exclude each other, while rows that
 * only reference the account (an event being stored) need not wait for them.
 */
export async function lockAccount({ db, tenantId, accountId }: { db: Conn; tenantId: string; accountId: string }) {
  return db
    .selectFrom('accounts')
    .select(['id', 'status', 'current_srs', 'score_complete', 'region_baseline', 'region_baseline_learned_at'])
    .where('id', '=', accountId)
    .where('tenant_id', '=', tenantId)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** The account's score outside a scan (an event opened signals, an acceptance changed): scans keep score history. */
export async function setAccountScore({
  db,
  accountId,
  srs,
  at,
}: {
  db: Conn;
  accountId: string;
  srs: number;
  at: Date;
}): Promise<void> {
  await db.updateTable('accounts').set({ current_srs: srs, updated_at: at }).where('id', '=', accountId).execute();
}

/** An account by our id, within one tenant. */
export async function findAccountById({
  db,
  tenantId,
  accountId,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
}): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', accountId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

export async function noteScanStarted({
  db,
  tenantId,
  accountId,
  at,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  at: Date;
}): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ last_scan_at: at, updated_at: at })
    .where('id', '=', accountId)
    .where('tenant_id', '=', tenantId)
    .execute();
}

/** The account's region baseline from its columns (null regions: none learned or accepted yet). */
export function regionBaselineOf(row: {
  region_baseline: string[] | null;
  region_baseline_learned_at: Date | null;
}): RegionBaseline {
  return {
    regions: row.region_baseline ?? [],
    learnedAt: row.region_baseline_learned_at ? row.region_baseline_learned_at.toISOString() : null,
  };
}

/** What a scan of the account judges against: its region baseline, and where its identity window starts. */
export async function loadScanBaselines({ db, accountId }: { db: Conn; accountId: string }): Promise<{
  regionBaseline: RegionBaseline;
  identitiesScannedAt: Date | null;
}> {
  const row = await db
    .selectFrom('accounts')
    .select(['region_baseline', 'region_baseline_learned_at', 'identities_scanned_at'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { regionBaseline: regionBaselineOf(row), identitiesScannedAt: row.identities_scanned_at };
}

/**
 * Adds a region a member accepted to the account's baseline, in one statement (whatever a scan saving at the same
 * time learns stays). The previous release's `used_regions` follows once the baseline is learned. Answers whether
 * the region was added (false: the baseline held it already).
 */
export async function addBaselineRegion({
  db,
  accountId,
  region,
}: {
  db: Conn;
  accountId: string;
  region: string;
}): Promise<boolean> {
  const baseline = sql<
    string[]
  >`(select array_agg(r order by r) from unnest(array_append(coalesce(region_baseline, '{}'), ${region}::text)) r)`;
  const updated = await db
    .updateTable('accounts')
    .set({
      region_baseline: baseline,
      used_regions: sql<
        string[] | null
      >`case when region_baseline_learned_at is null then used_regions else ${baseline} end`,
      updated_at: new Date(),
    })
    .where('id', '=', accountId)
    .where(sql<boolean>`not (${region}::text = any(coalesce(region_baseline, '{}')))`)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** What a saved scan leaves on the account: its checks and coverage, and (when set) its score and success time. */
export async function noteScanSaved({
  db,
  accountId,
  fields,
}: {
  db: Conn;
  accountId: string;
  fields: {
    checks_scan_id?: string;
    coverage_evaluated?: number;
    coverage_total?: number;
    score_complete?: boolean;
    current_srs?: number;
    last_successful_scan_at?: Date;
    used_regions?: string[];
    region_baseline?: string[];
    region_baseline_learned_at?: Date;
    identities_scanned_at?: Date;
  };
}): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ ...fields, updated_at: new Date() })
    .where('id', '=', accountId)
    .execute();
}

/** PENDING to ACTIVE; connected_at and the first scan's id are set once (a retry changes nothing). */
export async function activateAccount({
  db,
  tenantId,
  accountId,
  firstScanId,
  at,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  firstScanId: string;
  at: Date;
}): Promise<void> {
  await db
    .updateTable('accounts')
    .set((eb) => ({
      status: 'ACTIVE',
      connected_at: eb.fn.coalesce('connected_at', eb.val(at)),
      first_scan_id: eb.fn.coalesce('first_scan_id', eb.val(firstScanId)),
      updated_at: at,
    }))
    .where('id', '=', accountId)
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'PENDING')
    .execute();
}

/** False when the account was disconnected already. */
export async function setAccountDisconnected({
  db,
  tenantId,
  accountId,
  at,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  at: Date;
}): Promise<boolean> {
  const result = await db
    .updateTable('accounts')
    .set({ status: 'DISCONNECTED', disconnected_at: at, updated_at: at })
    .where('id', '=', accountId)
    .where('tenant_id', '=', tenantId)
    .where('status', '!=', 'DISCONNECTED')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Takes back a connect whose workflow could not be started: the row it inserted, if it is still that connect's. */
export async function deleteUnstartedAccount({
  db,
  accountId,
  externalId,
}: {
  db: Conn;
  accountId: string;
  externalId: string;
}): Promise<void> {
  await db
    .deleteFrom('accounts')
    .where('id', '=', accountId)
    .where('external_id', '=', externalId)
    .where('status', '=', 'PENDING')
    .execute();
}

/** Takes back a connect of an existing row whose workflow could not be started: the row as it was before. */
export async function restoreAccount({
  db,
  previous,
  externalId,
}: {
  db: Conn;
  previous: AccountRow;
  externalId: string;
}): Promise<void> {
  const {
    display_name,
    tags,
    external_id,
    role_name,
    workflow_id,
    organization_id,
    status,
    connected_at,
    first_scan_id,
    disconnected_at,
    updated_at,
  } = previous;
  await db
    .updateTable('accounts')
    .set({
      display_name,
      tags,
      external_id,
      role_name,
      workflow_id,
      organization_id,
      status,
      connected_at,
      first_scan_id,
      disconnected_at,
      updated_at,
    })
    .where('id', '=', previous.id)
    .where('external_id', '=', externalId)
    .where('status', '=', 'PENDING')
    .execute();
}
