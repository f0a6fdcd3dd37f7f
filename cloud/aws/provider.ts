import { GetRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetCallerIdentityCommand, STSClient, type STSClientConfig } from '@aws-sdk/client-sts';
import type { Logger } from '../../config/logger';
import type { Inventory } from '../../domain/scans/inventory';
import type { RoleTarget } from '../../domain/onboarding/role';
import type { Checkpoint } from '../../domain/scans/scan-progress';
import {
  type AccessCheck,
  type CloudProvider,
  type CollectOptions,
  type OrganizationDescription,
  RoleUnavailableError,
} from '../types';
import { collectAccountInventory } from './collectors';
import { openSession } from './collectors/session';
import { assumeCustomerRole, renewingCredentials, type TemporaryCredentials } from './credentials';
import { customerSideErrorCode, hasCode } from './errors';
import { readOrganization } from './organizations';
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
  /** Attempts per call to the customer's account, in the SDK's adaptive retry mode (throttling, 5xx, timeouts). */
  maxAttempts?: number;
  /** Calls in flight per collection, all services and regions together. */
  maxConcurrentCalls?: number;
  /** How long before they expire the role's credentials are renewed during a collection. */
  renewBeforeMs?: number;
  log: Logger;
}

const DEFAULT_MAX_ATTEMPTS = 8;

export function createAwsProvider({
  region,
  endpointUrl,
  sentinelAccountId: configured,
  credentials,
  maxAttempts = DEFAULT_MAX_ATTEMPTS,
  maxConcurrentCalls,
  renewBeforeMs,
  log,
}: AwsProviderOptions): CloudProvider {
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
      return { credentials: await assumeCustomerRole({ sts, target }) };
    } catch (err) {
      const refused = customerSideErrorCode(err);
      if (!refused) throw err;
      return { refused };
    }
  }

  /** Checks that the assumed role is set up as our snippets create it: it exists and trusts Sentinel only with the ExternalId. */
  async function checkRole(target: RoleTarget, credentials: TemporaryCredentials): Promise<AccessCheck> {
    const sentinel = await sentinelAccountId();
    const reasons = accessFailureReasons({ target, sentinelAccountId: sentinel });
    const context = { tenantId: target.tenantId, awsAccountId: target.awsAccountId };
    const fail = (code: Exclude<AccessCheck, { ok: true }>['code'], reason: string): AccessCheck => {
      log.info({ ...context, code }, 'customer role check failed');
      return { ok: false, code, reason };
    };
    const iam = new IAMClient({ region, credentials, ...endpoint });
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

  /** Assumes the role and checks it; on success the role's credentials come along. */
  async function assumeChecked(
    target: RoleTarget,
  ): Promise<{ credentials: TemporaryCredentials } | Exclude<AccessCheck, { ok: true }>> {
    const assumed = await assume(target);
    if ('refused' in assumed) {
      log.info(
        { tenantId: target.tenantId, awsAccountId: target.awsAccountId, code: 'access_denied' },
        'customer role check failed',
      );
      const reasons = accessFailureReasons({ target, sentinelAccountId: await sentinelAccountId() });
      return { ok: false, code: 'access_denied', reason: reasons.accessDenied(assumed.refused) };
    }
    const role = await checkRole(target, assumed.credentials);
    return role.ok ? assumed : role;
  }

  async function checkAccess(target: RoleTarget): Promise<AccessCheck> {
    const checked = await assumeChecked(target);
    return 'credentials' in checked ? { ok: true } : checked;
  }

  async function collectInventory(target: RoleTarget, options: CollectOptions = {}): Promise<Inventory> {
    const context = { tenantId: target.tenantId, awsAccountId: target.awsAccountId };
    const assumed = await assume(target);
    if ('refused' in assumed) {
      log.info({ ...context, code: assumed.refused }, 'customer role unavailable for collection');
      const reasons = accessFailureReasons({ target, sentinelAccountId: await sentinelAccountId() });
      throw new RoleUnavailableError(reasons.accessDenied(assumed.refused));
    }
    // Renewed as they near expiry; a renewal the customer's side refuses fails the reads that needed it.
    const renewing = renewingCredentials({
      first: assumed.credentials,
      renewBeforeMs,
      assume: async () => {
        const next = await assume(target);
        if ('refused' in next)
          throw new RoleUnavailableError(`AWS refused renewing the role's session (${next.refused})`);
        log.debug(context, 'customer role session renewed');
        return next.credentials;
      },
    });
    const session = openSession({
      credentials: renewing,
      endpointUrl,
      accountId: target.awsAccountId,
      roleName: target.roleName,
      maxAttempts,
      maxConcurrentCalls,
      signal: options.signal,
    });
    const reused: Checkpoint = Object.fromEntries(
      Object.entries(options.reuse ?? {}).flatMap(([part, collected]) =>
        collected?.status === 'ok' ? [[part, { status: 'ok', value: collected.value }]] : [],
      ),
    );
    try {
      const inventory = await collectAccountInventory({
        session,
        now: new Date(),
        checkpoint: options.checkpoint,
        reuse: reused,
        onRead: options.onRead,
        onProgress: options.onProgress,
        finalAttempt: options.finalAttempt ?? true,
        signal: options.signal,
        parts: options.parts,
        eventForwarder: options.eventForwarder,
      });
      const notEvaluated = Object.entries(inventory)
        .filter(
          ([, part]: [string, unknown]) =>
            typeof part === 'object' && part !== null && 'status' in part && part.status === 'not_evaluated',
        )
        .map(([name]) => name);
      log.info({ ...context, notEvaluated }, 'inventory collected');
      return inventory;
    } finally {
      session.close();
    }
  }

  /** The management role is held to the same setup as an account's: it must require the organization's ExternalId. */
  async function describeOrganization(target: RoleTarget): Promise<OrganizationDescription> {
    const checked = await assumeChecked(target);
    if (!('credentials' in checked)) return checked;
    return readOrganization({ credentials: checked.credentials, endpointUrl, maxAttempts });
  }

  return { kind: 'aws', sentinelAccountId, checkAccess, collectInventory, describeOrganization };
}
