import { GetRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetCallerIdentityCommand, STSClient, type STSClientConfig } from '@aws-sdk/client-sts';
import type { Logger } from '../../config/logger';
import type { Inventory } from '../../domain/inventory';
import { type AccessCheck, type CloudProvider, type CollectOptions, RoleUnavailableError, type RoleTarget } from '../types';
import { collectAccountInventory } from './collectors';
import { assumeCustomerRole, type TemporaryCredentials } from './credentials';
import { customerSideErrorCode, hasCode } from './errors';
import { accessFailureReasons } from './reasons';
import { evaluateTrustPolicy, parsePolicyDocument } from './trust-policy';

export interface AwsProviderOptions {
  region: string;
  /** Sends every AWS call there (an emulator in tests). */
  endpointUrl?: string;
  /** Looked up with STS GetCallerIdentity when not configured. */
  sentinelAccountId?: string;
  /** Sentinel's own credentials; the SDK's default provider chain when omitted. */
  credentials?: STSClientConfig['credentials'];
  log: Logger;
}

export function createAwsProvider({ region, endpointUrl, sentinelAccountId: configured, credentials, log }: AwsProviderOptions): CloudProvider {
  const endpoint = endpointUrl ? { endpoint: endpointUrl } : {};
  const sts = new STSClient({ region, credentials, ...endpoint });
  let lookup: Promise<string> | undefined;

  function sentinelAccountId(): Promise<string> {
    if (configured) return Promise.resolve(configured);
    if (!lookup) {
      const attempt = sts.send(new GetCallerIdentityCommand({})).then(({ Account }) => {
        if (!Account) throw new Error('STS GetCallerIdentity returned no account');
        return Account;
      });
      // Forget a failure, so that the next caller asks again instead of inheriting it.
      attempt.catch(() => {
        if (lookup === attempt) lookup = undefined;
      });
      lookup = attempt;
    }
    return lookup;
  }

  /** Assumes the customer's role; a refusal on the customer's side is returned, anything else thrown (retried). */
  async function assume(target: RoleTarget): Promise<{ credentials: TemporaryCredentials } | { refused: string }> {
    try {
      // The STS client's own provider is memoized: the default chain is resolved once, not per call.
      return { credentials: await assumeCustomerRole({ target, region, endpointUrl, credentials: sts.config.credentials }) };
    } catch (err) {
      const refused = customerSideErrorCode(err);
      if (!refused) throw err;
      return { refused };
    }
  }

  async function checkAccess(target: RoleTarget): Promise<AccessCheck> {
    const sentinel = await sentinelAccountId();
    const reasons = accessFailureReasons({ target, sentinelAccountId: sentinel });
    const context = { tenantId: target.tenantId, awsAccountId: target.awsAccountId };
    const fail = (code: Exclude<AccessCheck, { ok: true }>['code'], reason: string): AccessCheck => {
      log.info({ ...context, code }, 'customer role check failed');
      return { ok: false, code, reason };
    };

    const assumed = await assume(target);
    if ('refused' in assumed) return fail('access_denied', reasons.accessDenied(assumed.refused));

    const iam = new IAMClient({ region, credentials: assumed.credentials, ...endpoint });
    try {
      const { Role } = await iam.send(new GetRoleCommand({ RoleName: target.roleName }));
      const verdict = evaluateTrustPolicy({
        document: parsePolicyDocument(Role?.AssumeRolePolicyDocument ?? ''),
        sentinelAccountId: sentinel,
        externalId: target.externalId,
      });
      if (verdict === 'trust_policy_wrong') return fail(verdict, reasons.trustPolicyWrong);
      if (verdict === 'external_id_mismatch') return fail(verdict, reasons.externalIdMismatch);
    } catch (err) {
      if (hasCode(err, 'NoSuchEntity')) return fail('role_missing', reasons.roleMissing);
      // The role works but may not read itself: that is its owner's choice, and AssumeRole has already succeeded.
      if (!hasCode(err, 'AccessDenied')) throw err;
      log.info(context, 'customer role cannot read itself; trust policy not verified');
    } finally {
      iam.destroy();
    }
    log.debug(context, 'customer role check passed');
    return { ok: true };
  }

  async function collectInventory(target: RoleTarget, { onProgress }: CollectOptions = {}): Promise<Inventory> {
    const context = { tenantId: target.tenantId, awsAccountId: target.awsAccountId };
    // One session for the whole collection: every group's clients sign with it.
    const assumed = await assume(target);
    if ('refused' in assumed) {
      log.info({ ...context, code: assumed.refused }, 'customer role unavailable for collection');
      const reasons = accessFailureReasons({ target, sentinelAccountId: await sentinelAccountId() });
      throw new RoleUnavailableError(reasons.accessDenied(assumed.refused));
    }
    const inventory = await collectAccountInventory({
      credentials: assumed.credentials, endpointUrl, accountId: target.awsAccountId, roleName: target.roleName, now: new Date(), onProgress,
    });
    const notEvaluated = Object.entries(inventory)
      .filter(([, part]: [string, unknown]) => typeof part === 'object' && part !== null && 'status' in part && part.status === 'not_evaluated')
      .map(([name]) => name);
    log.info({ ...context, notEvaluated }, 'inventory collected');
    return inventory;
  }

  return { kind: 'aws', sentinelAccountId, checkAccess, collectInventory };
}
