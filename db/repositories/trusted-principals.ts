import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

// The tenant's trusted principals (core/events/trusted-principals.ts). Ingestion reads those in force for an account
// in one indexed query; the API lists, creates and revokes them.

const COLUMNS = [
  'trusted_principals.id',
  'trusted_principals.principal',
  'trusted_principals.detections',
  'trusted_principals.reason',
  'trusted_principals.expires_at',
  'trusted_principals.created_by',
  'trusted_principals.created_by_email',
  'trusted_principals.created_at',
  'trusted_principals.revoked_at',
  'trusted_principals.revoked_by',
  'accounts.aws_account_id',
] as const;

/** The tenant's trusted principals, newest first: those in force, or also those revoked or expired (at most `limit`). */
export async function listTrustedPrincipals({
  db,
  tenantId,
  inForceOnly,
  limit,
}: {
  db: Conn;
  tenantId: string;
  inForceOnly: boolean;
  limit: number;
}) {
  let query = db
    .selectFrom('trusted_principals')
    .leftJoin('accounts', 'accounts.id', 'trusted_principals.account_id')
    .select(COLUMNS)
    .where('trusted_principals.tenant_id', '=', tenantId);
  if (inForceOnly) {
    query = query
      .where('trusted_principals.revoked_at', 'is', null)
      .where('trusted_principals.expires_at', '>', sql<Date>`now()`);
  }
  return query
    .orderBy('trusted_principals.created_at', 'desc')
    .orderBy('trusted_principals.id', 'desc')
    .limit(limit)
    .execute();
}

export type TrustedPrincipalListed = Awaited<ReturnType<typeof listTrustedPrincipals>>[number];

/** How many of the tenant's trusted principals are in force. */
export async function countTrustedPrincipalsInForce({ db, tenantId }: { db: Conn; tenantId: string }) {
  const row = await db
    .selectFrom('trusted_principals')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertTrustedPrincipal({
  db,
  entry,
}: {
  db: Conn;
  entry: {
    id: string;
    tenant_id: string;
    account_id: string | null;
    principal: string;
    detections: string[] | null;
    reason: string;
    expires_at: Date;
    created_by: string;
    created_by_email: string;
  };
}) {
  await db.insertInto('trusted_principals').values(entry).execute();
}

/** One of the tenant's trusted principals, revoked or not. */
export async function findTrustedPrincipal({ db, tenantId, id }: { db: Conn; tenantId: string; id: string }) {
  return db
    .selectFrom('trusted_principals')
    .leftJoin('accounts', 'accounts.id', 'trusted_principals.account_id')
    .select(COLUMNS)
    .where('trusted_principals.tenant_id', '=', tenantId)
    .where('trusted_principals.id', '=', id)
    .executeTakeFirst();
}

/** Revokes a trusted principal of the tenant not revoked yet; false when there is none. */
export async function revokeTrustedPrincipal({
  db,
  tenantId,
  id,
  userId,
}: {
  db: Conn;
  tenantId: string;
  id: string;
  userId: string;
}): Promise<boolean> {
  const rows = await db
    .updateTable('trusted_principals')
    .set({ revoked_at: sql<Date>`now()`, revoked_by: userId })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/**
 * The trusted principals in force for one account at this moment: the tenant's for every account and this account's
 * own. Read by ingestion, only for a request whose events set off a detection: one query through
 * `trusted_principals_in_force`. An entry revoked or expired is not read from then on.
 */
export async function trustedPrincipalsInForce({
  db,
  tenantId,
  accountId,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
}) {
  return db
    .selectFrom('trusted_principals')
    .select(['id', 'principal', 'detections'])
    .where('tenant_id', '=', tenantId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where((eb) => eb.or([eb('account_id', 'is', null), eb('account_id', '=', accountId)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
