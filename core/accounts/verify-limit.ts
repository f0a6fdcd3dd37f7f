import { accountLimitKey, VERIFIES_PER_ACCOUNT, VERIFY_WINDOW_SECONDS } from '../../domain/tenancy/limits';
import type { WindowLimit } from '../rate-limits';

/**
 * The hourly limit on verifying one AWS account of a tenant. POST /accounts/{account_id}/verify and the syncs of an
 * organization waiting for the account's role share it: asking for syncs buys no more role assumptions.
 */
export const verifyLimit = (tenantId: string, awsAccountId: string): WindowLimit => ({
  key: accountLimitKey('verify', tenantId, awsAccountId),
  limit: VERIFIES_PER_ACCOUNT,
  windowSeconds: VERIFY_WINDOW_SECONDS,
  message: `At most ${VERIFIES_PER_ACCOUNT} verify attempts per account per hour`,
});
