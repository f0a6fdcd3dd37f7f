import { findAccount } from '../../db/repositories/accounts';
import type { AccountRow } from '../../db/tables/accounts';
import type { AppDeps, Caller } from '../deps';
import { notFound } from '../errors';

/** The caller's tenant's account with this AWS account id, or 404 (another tenant's account is not found either). */
export async function requireAccount(db: AppDeps['db'], caller: Caller, awsAccountId: string): Promise<AccountRow> {
  const account = /^[0-9]{12}$/.test(awsAccountId)
    ? await findAccount({ db, tenantId: caller.tenantId, awsAccountId })
    : undefined;
  if (!account) throw notFound('Account');
  return account;
}
