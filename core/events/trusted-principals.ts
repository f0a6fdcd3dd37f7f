import { findAccount } from '../../db/repositories/accounts';
import { lockTenant } from '../../db/repositories/tenants';
import {
  countTrustedPrincipalsInForce,
  findTrustedPrincipal,
  insertTrustedPrincipal,
  listTrustedPrincipals,
  revokeTrustedPrincipal,
  type TrustedPrincipalListed,
} from '../../db/repositories/trusted-principals';
import { newId } from '../../domain/ids';
import { TRUSTED_PRINCIPALS_PER_TENANT } from '../../domain/tenancy/limits';
import { audit } from '../audit-log';
import type { AppDeps, Caller } from '../deps';
import { AppError, notFound } from '../errors';
import type { CreateTrustedPrincipalInput } from '../schemas/trusted-principals';

// The tenant's trusted principals (docs/decisions.md, "Trusted principals"; the matching is
// domain/events/trusted-principals.ts, the suppression core/events/ingestion.ts). Admins name and revoke them, any
// member lists them; each creation and revocation is in the audit log with who did it, in the same transaction.

type Deps = Pick<AppDeps, 'db' | 'log'>;

// Anything else cannot be one of our ids; answering 404 at once also keeps odd bytes away from the query.
const TRUSTED_PRINCIPAL_ID = /^trp_[0-9A-Z]{26}$/;
/** How many entries `status=all` lists at most, newest first. */
const LISTED_AT_MOST = 200;

function toJson(row: TrustedPrincipalListed, now: number) {
  return {
    trusted_principal_id: row.id,
    aws_account_id: row.aws_account_id,
    principal: row.principal,
    detections: row.detections ?? ('all' as const),
    reason: row.reason,
    expires_at: row.expires_at.toISOString(),
    created_by: { user_id: row.created_by, email: row.created_by_email },
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
    revoked_by_user_id: row.revoked_by,
    status: row.revoked_at
      ? ('revoked' as const)
      : row.expires_at.getTime() <= now
        ? ('expired' as const)
        : ('in_force' as const),
  };
}

export async function listTenantTrustedPrincipals(
  { db }: Pick<AppDeps, 'db'>,
  caller: Caller,
  { status }: { status: 'in_force' | 'all' },
) {
  const [rows, inForce] = await Promise.all([
    listTrustedPrincipals({ db, tenantId: caller.tenantId, inForceOnly: status === 'in_force', limit: LISTED_AT_MOST }),
    countTrustedPrincipalsInForce({ db, tenantId: caller.tenantId }),
  ]);
  const now = Date.now();
  return {
    trusted_principals: rows.map((row) => toJson(row, now)),
    in_force: inForce,
    limit: TRUSTED_PRINCIPALS_PER_TENANT,
  };
}

/** Names a trusted principal; the tenant's entries in force are counted under its lock, so parallel creates cannot pass the cap. */
export async function createTrustedPrincipal({ db, log }: Deps, caller: Caller, input: CreateTrustedPrincipalInput) {
  const id = newId('trustedPrincipal');
  await db.transaction().execute(async (trx) => {
    await lockTenant({ db: trx, tenantId: caller.tenantId });
    const account =
      input.aws_account_id === undefined
        ? null
        : await findAccount({ db: trx, tenantId: caller.tenantId, awsAccountId: input.aws_account_id });
    if (account === undefined) {
      const message = 'is not an AWS account of this tenant';
      throw new AppError('validation_failed', `Invalid request body: aws_account_id: ${message}`, {
        details: [{ field: 'aws_account_id', message }],
      });
    }
    if (
      (await countTrustedPrincipalsInForce({ db: trx, tenantId: caller.tenantId })) >= TRUSTED_PRINCIPALS_PER_TENANT
    ) {
      throw new AppError(
        'plan_limit_exceeded',
        `A tenant has at most ${TRUSTED_PRINCIPALS_PER_TENANT} trusted principals in force; revoke one to name another`,
      );
    }
    const detections = input.detections === 'all' ? null : [...new Set(input.detections)];
    await insertTrustedPrincipal({
      db: trx,
      entry: {
        id,
        tenant_id: caller.tenantId,
        account_id: account?.id ?? null,
        principal: input.principal,
        detections,
        reason: input.reason,
        expires_at: new Date(input.expires_at),
        created_by: caller.userId,
        created_by_email: caller.email,
      },
    });
    await audit(trx, caller, 'trusted_principal.created', `trusted_principal:${id}`, {
      principal: input.principal,
      account: input.aws_account_id ?? 'all',
      detections: detections ? detections.join(',') : 'all',
      reason: input.reason,
      expires_at: new Date(input.expires_at).toISOString(),
    });
  });
  log.info({ trustedPrincipalId: id }, 'trusted principal created');
  const row = await findTrustedPrincipal({ db, tenantId: caller.tenantId, id });
  if (!row) throw notFound('Trusted principal');
  return toJson(row, Date.now());
}

/** Revokes a trusted principal: from the commit on, its principal's events open signals again. */
export async function deleteTrustedPrincipal({ db, log }: Deps, caller: Caller, id: string) {
  if (!TRUSTED_PRINCIPAL_ID.test(id)) throw notFound('Trusted principal');
  const revoked = await db.transaction().execute(async (trx) => {
    if (!(await revokeTrustedPrincipal({ db: trx, tenantId: caller.tenantId, id, userId: caller.userId })))
      return false;
    const row = await findTrustedPrincipal({ db: trx, tenantId: caller.tenantId, id });
    await audit(trx, caller, 'trusted_principal.revoked', `trusted_principal:${id}`, {
      principal: row?.principal ?? null,
    });
    return true;
  });
  // Revoked before, or none of this tenant's: either way there is nothing in force to revoke.
  if (!revoked) throw notFound('Trusted principal');
  log.info({ trustedPrincipalId: id }, 'trusted principal revoked');
  return { message: `Trusted principal ${id} revoked` };
}
