import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { CloudProvider, OrganizationMember } from '../../cloud/types';
import type { Config } from '../../config/config';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import type { Attempt } from '../deps';
import { isUniqueViolation } from '../../db/errors';
import { findAccount } from '../../db/repositories/accounts';
import {
  activateOrganization,
  findOrganization,
  listMembers,
  recordSync,
  saveMember,
  setAccountLabels,
  setOrganizationDisconnected,
} from '../../db/repositories/organizations';
import type { AccountRow } from '../../db/tables/accounts';
import type { OrganizationAccountRow, OrganizationRow } from '../../db/tables/organizations';
import { ROLE_NAME, type RoleTarget } from '../../domain/onboarding/role';
import {
  isGone,
  type MemberAwsStatus,
  type MemberState,
  mergeTags,
  sameTags,
} from '../../domain/accounts/organizations';
import {
  endLifecycle,
  isAbandonedConnect,
  type NewLifecycle,
  reserveAccount,
  startLifecycle,
} from '../accounts/lifecycle';
import { updateFailureType, VERIFY_DEADLINE_MS, withDeadline } from '../temporal/commands';
import { verifyLimit } from '../accounts/verify-limit';
import { AppError } from '../errors';
import { auditAs } from '../audit-log';
import type { AuditAction } from '../../domain/tenancy/audit';
import { takeHits } from '../rate-limits';
import { VERIFIES_PER_ACCOUNT } from '../../domain/tenancy/limits';
import {
  INVALID_ACCOUNT_STATE,
  type OrganizationSyncOutcome,
  type OrganizationVerifyResult,
  ROLE_ASSUMPTION_FAILED,
  VERIFICATION_UNAVAILABLE,
  verifyUpdate,
} from '../../workflows/contracts';

// The organization workflow's activities. A sync reads the organization, then settles each member account through the
// same lifecycle a user's connect and disconnect use (core/accounts/lifecycle.ts): the plan's limits counted
// under the tenant's lock, the account's own workflow started, verified and disconnected. Every step is idempotent:
// a retried sync finds what the last attempt did and goes on from there.

interface Settled {
  state: MemberState;
  reason: string | null;
}

/** A member as a sync settles it: as the organization reports it now, or as last seen when it has left. */
type Member = Omit<OrganizationMember, 'status'> & { status: MemberAwsStatus };

const MANAGEMENT_ACCOUNT =
  'The StackSet does not deploy to the management account: connect it on its own (POST /accounts) to monitor it.';
const CONNECTED_ON_ITS_OWN =
  'Connected on its own (POST /accounts), not by the organization: the organization leaves it as it is.';
const VERIFY_LIMIT =
  `Waiting for the role; the account's ${VERIFIES_PER_ACCOUNT} verify attempts of the hour (syncs and POST /accounts/{account_id}/verify ` +
  'together) are used: a sync after that tries again.';
const USER_DISCONNECTED =
  'Disconnected in Sentinel: the organization does not connect it again. Connect it on its own (POST /accounts) to monitor it.';

export function organizationUseCases({
  db,
  log,
  cloud,
  config,
  temporal,
}: {
  db: Db;
  log: Logger;
  cloud: CloudProvider;
  config: Readonly<Config>;
  temporal: Client;
}) {
  const lifecycleDeps = { db, temporal, config };
  const target = (org: OrganizationRow): RoleTarget => ({
    tenantId: org.tenant_id,
    awsAccountId: org.management_account_id,
    roleName: org.role_name,
    externalId: org.external_id,
  });

  /** Records what a sync did to an account in the audit log: nobody signed in did it, the organization did. */
  const auditSync = (org: OrganizationRow, action: AuditAction, awsAccountId: string) =>
    auditAs(db, {
      tenantId: org.tenant_id,
      action,
      target: `account:${awsAccountId}`,
      details: { organization_id: org.id },
    });

  /**
   * Verifies the account's role through its workflow: monitored once it is ACTIVE, awaiting_role while the role is not
   * there. Each attempt counts toward the account's hourly verify limit, as POST /accounts/{account_id}/verify does;
   * past it the member waits for a later sync without an attempt.
   */
  async function verifyMember(org: OrganizationRow, account: AccountRow, member: Member): Promise<Settled> {
    let releaseHits: () => Promise<void>;
    try {
      releaseHits = await takeHits(db, [verifyLimit(org.tenant_id, account.aws_account_id)]);
    } catch (err) {
      if (err instanceof AppError && err.code === 'rate_limited')
        return { state: 'awaiting_role', reason: VERIFY_LIMIT };
      throw err;
    }
    try {
      await withDeadline(temporal, VERIFY_DEADLINE_MS, () =>
        temporal.workflow.getHandle(account.workflow_id).executeUpdate(verifyUpdate),
      );
      await auditSync(org, 'account.verified', account.aws_account_id);
      return { state: 'monitored', reason: null };
    } catch (err) {
      const failure = updateFailureType(err);
      // An attempt that never reached the workflow assumed no role.
      if (!failure) await releaseHits();
      if (failure?.type === ROLE_ASSUMPTION_FAILED) return { state: 'awaiting_role', reason: failure.message };
      if (failure?.type === VERIFICATION_UNAVAILABLE)
        return { state: 'awaiting_role', reason: `${failure.message}; the next sync tries again.` };
      // Disconnected meanwhile (never verified within its timeout): the next sync connects it again.
      if (failure?.type === INVALID_ACCOUNT_STATE)
        return { state: 'awaiting_role', reason: 'Waiting for the role; the next sync connects the account again.' };
      if (err instanceof WorkflowNotFoundError && (await isAbandonedConnect({ temporal }, account))) {
        return connectMember(org, member, account, account.external_id);
      }
      throw err;
    }
  }

  /** Connects the member account (a new row, or its disconnected or abandoned row again), then verifies it. */
  async function connectMember(
    org: OrganizationRow,
    member: Member,
    account: AccountRow | undefined,
    takeOver?: string,
  ): Promise<Settled> {
    const lifecycle: NewLifecycle = {
      tenantId: org.tenant_id,
      awsAccountId: member.awsAccountId,
      displayName: member.name,
      tags: mergeTags({ current: account?.tags ?? [], extra: org.tags, ouPath: member.ouPath, name: member.name }),
      externalId: org.external_id,
      roleName: ROLE_NAME,
      organizationId: org.id,
      takeOver,
    };
    let reserved: Awaited<ReturnType<typeof reserveAccount>>;
    try {
      reserved = await reserveAccount(lifecycleDeps, lifecycle);
    } catch (err) {
      // A user connected the same account at the same moment: theirs stands.
      if (isUniqueViolation(err, 'accounts_tenant_aws_account_unique'))
        return { state: 'awaiting_role', reason: CONNECTED_ON_ITS_OWN };
      throw err;
    }
    if (!reserved.ok) {
      return reserved.refusal === 'plan_limit'
        ? { state: 'not_monitored_plan_limit', reason: reserved.message }
        : { state: 'awaiting_role', reason: CONNECTED_ON_ITS_OWN };
    }
    await startLifecycle(lifecycleDeps, lifecycle, reserved);
    await auditSync(org, 'account.connected', member.awsAccountId);
    log.info(
      { tenantId: org.tenant_id, orgId: org.id, awsAccountId: member.awsAccountId },
      'member account connected by its organization',
    );
    const connected = await findAccount({ db, tenantId: org.tenant_id, awsAccountId: member.awsAccountId });
    return connected ? verifyMember(org, connected, member) : { state: 'awaiting_role', reason: null };
  }

  /** Decides, and does, what the member account needs now (docs/decisions.md, "Organizations"). */
  async function settle(
    org: OrganizationRow,
    member: Member,
    previous: OrganizationAccountRow | undefined,
    managementAccountId: string,
  ): Promise<Settled> {
    if (member.awsAccountId === managementAccountId) return { state: 'management_account', reason: MANAGEMENT_ACCOUNT };
    const account = await findAccount({ db, tenantId: org.tenant_id, awsAccountId: member.awsAccountId });
    const ours = account?.organization_id === org.id;
    const live = account !== undefined && account.status !== 'DISCONNECTED';
    if (isGone(member.status)) {
      if (account && ours && live) {
        await endLifecycle(lifecycleDeps, account);
        await auditSync(org, 'account.disconnected', account.aws_account_id);
      }
      return {
        state: 'disconnected',
        reason:
          member.status === 'REMOVED' ? 'No longer in the organization.' : `The account is ${member.status} in AWS.`,
      };
    }
    if (account && live && !ours)
      return { state: account.status === 'ACTIVE' ? 'monitored' : 'awaiting_role', reason: CONNECTED_ON_ITS_OWN };
    if (account && live) {
      const tags = mergeTags({ current: account.tags, extra: org.tags, ouPath: member.ouPath, name: member.name });
      if (!sameTags(tags, account.tags) || account.display_name !== member.name) {
        await setAccountLabels({ db, tenantId: org.tenant_id, accountId: account.id, displayName: member.name, tags });
      }
      return account.status === 'ACTIVE' ? { state: 'monitored', reason: null } : verifyMember(org, account, member);
    }
    // A monitored account of ours found disconnected, while AWS still runs it: a user disconnected it, and it stays so.
    const userDisconnected =
      ours &&
      (previous?.state === 'monitored' || (previous?.state === 'disconnected' && previous.aws_status === 'ACTIVE'));
    if (userDisconnected) return { state: 'disconnected', reason: USER_DISCONNECTED };
    return connectMember(org, member, account);
  }

  return {
    /** Reads the organization through its management role; on success the organization is ACTIVE. Idempotent. */
    async verifyOrganization({
      tenantId,
      orgId,
    }: {
      tenantId: string;
      orgId: string;
    }): Promise<OrganizationVerifyResult> {
      const org = await findOrganization({ db, tenantId, orgId });
      if (!org) return { ok: false, code: 'not_found', reason: 'The organization no longer exists' };
      const described = await cloud.describeOrganization(target(org));
      if (!described.ok) {
        log.info({ tenantId, orgId, code: described.code }, 'organization verification failed');
        return { ok: false, reason: described.reason, code: described.code };
      }
      await activateOrganization({ db, tenantId, orgId, awsOrganizationId: described.organization.id, at: new Date() });
      log.info({ tenantId, orgId, accounts: described.accounts.length }, 'organization verified');
      return {
        ok: true,
        awsOrganizationId: described.organization.id,
        accountsFound: described.accounts.length,
        syncIntervalMinutes: config.organizations.syncMinutes,
      };
    },

    /**
     * Reads the organization and settles every member account, in OU-path order (so which accounts a full plan leaves
     * out does not change from one sync to the next), then those no longer in it. An organization that cannot be read
     * is recorded (last_sync_error) and nothing else changes.
     */
    async syncOrganization(
      { tenantId, orgId }: { tenantId: string; orgId: string },
      attempt: Attempt,
    ): Promise<OrganizationSyncOutcome> {
      const syncIntervalMinutes = config.organizations.syncMinutes;
      const org = await findOrganization({ db, tenantId, orgId });
      if (!org || org.status !== 'ACTIVE')
        return { ok: false, error: 'The organization is not active', syncIntervalMinutes };
      const described = await cloud.describeOrganization(target(org));
      const at = new Date();
      if (!described.ok) {
        await recordSync({ db, tenantId, orgId, at, error: described.reason });
        log.warn({ tenantId, orgId, code: described.code }, 'organization could not be read');
        return { ok: false, error: described.reason, syncIntervalMinutes };
      }
      const previous = new Map((await listMembers({ db, tenantId, orgId })).map((m) => [m.aws_account_id, m]));
      const present = [...described.accounts].sort(
        (a, b) =>
          a.ouPath.localeCompare(b.ouPath) ||
          a.name.localeCompare(b.name) ||
          a.awsAccountId.localeCompare(b.awsAccountId),
      );
      const seen = new Set(present.map((m) => m.awsAccountId));
      const left: Member[] = [...previous.values()]
        .filter((m) => !seen.has(m.aws_account_id))
        .map((m) => ({ awsAccountId: m.aws_account_id, name: m.name, ouPath: m.ou_path, status: 'REMOVED' }));
      const states: Partial<Record<MemberState, number>> = {};
      for (const member of [...present, ...left]) {
        attempt.heartbeat(member.awsAccountId);
        const before = previous.get(member.awsAccountId);
        const { state, reason } = await settle(org, member, before, described.organization.managementAccountId).catch(
          (err: unknown) => {
            // One account's workflow that cannot be reached must not hold up the others: it keeps its state until the next sync.
            log.warn(
              { tenantId, orgId, awsAccountId: member.awsAccountId, error: String(err) },
              'member account not settled',
            );
            return {
              state: before?.state ?? 'awaiting_role',
              reason: `Not settled by the last sync (${String(err)}); the next sync tries again.`,
            };
          },
        );
        await saveMember({
          db,
          member: {
            tenant_id: tenantId,
            organization_id: orgId,
            aws_account_id: member.awsAccountId,
            name: member.name,
            ou_path: member.ouPath,
            aws_status: member.status,
            state,
            reason,
            last_seen_at: seen.has(member.awsAccountId) ? at : (before?.last_seen_at ?? at),
          },
        });
        states[state] = (states[state] ?? 0) + 1;
      }
      await recordSync({ db, tenantId, orgId, at, error: null });
      log.info({ tenantId, orgId, states }, 'organization synced');
      return { ok: true, states, syncIntervalMinutes };
    },

    /** Idempotent: a retry finds the organization already disconnected and changes nothing. */
    async markOrganizationDisconnected({ tenantId, orgId }: { tenantId: string; orgId: string }): Promise<void> {
      if (await setOrganizationDisconnected({ db, tenantId, orgId, at: new Date() }))
        log.info({ tenantId, orgId }, 'organization disconnected');
    },
  };
}
