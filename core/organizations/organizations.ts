import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { isUniqueViolation } from '../../db/errors';
import {
  countLiveOrganizations,
  countMemberStates,
  deleteUnstartedOrganization,
  findOrganization,
  insertOrganization,
  listLiveAccountsOfOrganization,
  listMemberDetails,
  listOrganizations,
  setMembersDisconnected,
  setOrganizationDisconnected,
} from '../../db/repositories/organizations';
import type { OrganizationRow } from '../../db/tables/organizations';
import { newId } from '../../domain/ids';
import {
  accountLimitKey,
  SYNC_WINDOW_SECONDS,
  SYNCS_PER_ORGANIZATION,
  SYNCS_PER_TENANT,
  VERIFIES_PER_ACCOUNT,
  VERIFY_WINDOW_SECONDS,
} from '../../domain/tenancy/limits';
import { getPlan } from '../../domain/tenancy/plans';
import { lockTenant } from '../../db/repositories/tenants';
import { ROLE_NAME } from '../../domain/onboarding/role';
import { ORGANIZATION_ROLE_NAME, organizationOnboarding } from '../../domain/onboarding/organization';
import type { MemberState } from '../../domain/accounts/organizations';
import {
  disconnectOrganizationUpdate,
  organizationWorkflowId,
  syncOrganizationUpdate,
  verifyOrganizationUpdate,
} from '../../workflows/contracts';
import { TENANT_ID } from '../../workflows/search-attributes';
import { type OrganizationWorkflow, WORKFLOW_TYPES } from '../temporal/workflow-types';
import type { AppDeps, Caller } from '../deps';
import { AppError, notFound } from '../errors';
import type { ConnectOrganizationInput, RemoveOrganizationQuery } from '../schemas/organizations';
import {
  COMMAND_DEADLINE_MS,
  lifecycleUpdateError,
  UPDATE_DEADLINE_MS,
  updateFailureType,
  VERIFY_DEADLINE_MS,
  withDeadline,
} from '../temporal/commands';
import { endLifecycle } from '../accounts/lifecycle';
import { audit } from '../audit-log';
import { takeHits } from '../rate-limits';

// AWS Organizations: connect (a PENDING row and its entity workflow), verify and disconnect through that workflow, as
// accounts are (core/accounts/accounts.ts); the workflow's syncs connect and disconnect the member accounts
// (core/organizations/sync.ts). docs/decisions.md, "Organizations".

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function requireOrganization(db: AppDeps['db'], caller: Caller, orgId: string): Promise<OrganizationRow> {
  const org = await findOrganization({ db, tenantId: caller.tenantId, orgId });
  if (!org) throw notFound('Organization');
  return org;
}

function instructions(org: { id: string; managementAccountId: string; externalId: string }): string[] {
  return [
    `In the management account ${org.managementAccountId}, create the role ${ORGANIZATION_ROLE_NAME}: deploy management_role.cloudformation_template ` +
      `as a stack with the ExternalId "${org.externalId}", or apply management_role.terraform_snippet, or run management_role.cli_script.`,
    `In the management account, deploy member_stackset_template as a service-managed StackSet with the same ExternalId, targeting the ` +
      `organization's root with automatic deployment on: every member account, now and as accounts join, gets the role ${ROLE_NAME}.`,
    `Call POST /organizations/${org.id}/verify. Member accounts are then connected at once and at every sync; after deploying the StackSet, ` +
      `POST /organizations/${org.id}/sync connects the accounts it reached without waiting for the next sync.`,
    `StackSets do not deploy to the management account: to monitor ${org.managementAccountId} itself, connect it on its own (POST /accounts).`,
  ];
}

/**
 * Connects an organization: the PENDING row commits, then its workflow starts. If the start fails, the row is taken
 * back and the caller gets the error: nothing stays written.
 */
export async function connectOrganization(deps: AppDeps, caller: Caller, input: ConnectOrganizationInput) {
  const { db, config, temporal, log, cloud } = deps;
  const externalId = randomBytes(24).toString('base64url'); // 32 characters, never client-chosen
  const orgId = newId('organization');
  const workflowId = organizationWorkflowId(caller.tenantId, orgId);
  const sentinelAccountId = await cloud.sentinelAccountId();
  try {
    // Under the tenant's lock, so parallel connects cannot both take the plan's last place.
    await db.transaction().execute(async (trx) => {
      const plan = getPlan((await lockTenant({ db: trx, tenantId: caller.tenantId })).plan);
      if ((await countLiveOrganizations({ db: trx, tenantId: caller.tenantId })) >= plan.organization_limit) {
        throw new AppError(
          'plan_limit_exceeded',
          `The ${plan.name} plan allows ${plan.organization_limit} connected organization(s); disconnect one or upgrade to connect more`,
        );
      }
      await insertOrganization({
        db: trx,
        organization: {
          id: orgId,
          tenant_id: caller.tenantId,
          management_account_id: input.managementAccountId,
          display_name: input.displayName,
          tags: input.tags,
          external_id: externalId,
          role_name: ORGANIZATION_ROLE_NAME,
          workflow_id: workflowId,
        },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'organizations_tenant_management_live')) {
      throw new AppError(
        'conflict',
        `The organization managed from account ${input.managementAccountId} is already connected to this tenant`,
      );
    }
    throw err;
  }
  try {
    await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
      temporal.workflow.start<OrganizationWorkflow>(WORKFLOW_TYPES.organization, {
        workflowId,
        taskQueue: config.temporal.taskQueue,
        args: [{ tenantId: caller.tenantId, orgId, syncIntervalMinutes: config.organizations.syncMinutes }],
        typedSearchAttributes: [{ key: TENANT_ID, value: caller.tenantId }],
      }),
    );
  } catch (err) {
    // A start that timed out may still have happened: stop it (best effort), then take the row back.
    await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
      temporal.workflow.getHandle(workflowId).terminate('its connect was taken back'),
    ).catch(() => undefined);
    await deleteUnstartedOrganization({ db, tenantId: caller.tenantId, orgId });
    throw err;
  }
  await audit(db, caller, 'organization.connected', `organization:${orgId}`, {
    management_account_id: input.managementAccountId,
  });
  log.info({ tenantId: caller.tenantId, orgId, workflowId }, 'organization connected (pending verification)');
  return {
    org_id: orgId,
    management_account_id: input.managementAccountId,
    external_id: externalId,
    sentinel_account_id: sentinelAccountId,
    status: 'PENDING' as const,
    ...organizationOnboarding({ sentinelAccountId, externalId }),
    instructions: instructions({ id: orgId, managementAccountId: input.managementAccountId, externalId }),
  };
}

/**
 * Verifies through the organization's workflow (an Update that reads the organization through the management role);
 * the first sync then runs at once. Attempts count toward the same hourly limit as an account's verifications.
 */
export async function verifyOrganization({ db, temporal }: AppDeps, caller: Caller, orgId: string) {
  const org = await requireOrganization(db, caller, orgId);
  if (org.status === 'DISCONNECTED')
    throw new AppError('invalid_state', 'The organization is disconnected; connect it again to verify it');
  // Verifying an ACTIVE organization again answers at once from its workflow: no AWS call, nothing to count.
  const releaseHits =
    org.status === 'ACTIVE'
      ? async () => undefined
      : await takeHits(db, [
          {
            key: accountLimitKey('verify:organization', caller.tenantId, org.management_account_id),
            limit: VERIFIES_PER_ACCOUNT,
            windowSeconds: VERIFY_WINDOW_SECONDS,
            message: `At most ${VERIFIES_PER_ACCOUNT} verify attempts per organization per hour`,
          },
        ]);
  const handle = temporal.workflow.getHandle(org.workflow_id);
  try {
    const result = await withDeadline(temporal, VERIFY_DEADLINE_MS, () =>
      handle.executeUpdate(verifyOrganizationUpdate),
    );
    if (org.status === 'PENDING') await audit(db, caller, 'organization.verified', `organization:${orgId}`);
    return {
      org_id: orgId,
      status: 'ACTIVE' as const,
      aws_organization_id: result.awsOrganizationId,
      accounts_found: result.accountsFound,
    };
  } catch (err) {
    if (!updateFailureType(err)) await releaseHits();
    throw lifecycleUpdateError(err, { noun: 'organization', status: org.status, connectPath: '/organizations' });
  }
}

/**
 * Asks the organization's workflow to sync now (after a StackSet deployment, say); requests made before it runs make one
 * sync. Requests count toward hourly limits per organization and per tenant (429 past them); one that never reached the
 * workflow is taken back.
 */
export async function syncOrganizationNow({ db, temporal }: AppDeps, caller: Caller, orgId: string) {
  const org = await requireOrganization(db, caller, orgId);
  if (org.status !== 'ACTIVE') {
    throw new AppError(
      'invalid_state',
      org.status === 'PENDING'
        ? 'The organization is not verified yet: POST /organizations/{org_id}/verify first'
        : 'The organization is disconnected and is no longer synced',
    );
  }
  const releaseHits = await takeHits(db, [
    {
      key: accountLimitKey('sync:organization', caller.tenantId, org.management_account_id),
      limit: SYNCS_PER_ORGANIZATION,
      windowSeconds: SYNC_WINDOW_SECONDS,
      message: `At most ${SYNCS_PER_ORGANIZATION} syncs per organization per hour (and one runs every hour anyway)`,
    },
    {
      key: `sync:organization:${caller.tenantId}`,
      limit: SYNCS_PER_TENANT,
      windowSeconds: SYNC_WINDOW_SECONDS,
      message: `At most ${SYNCS_PER_TENANT} organization syncs per tenant per hour`,
    },
  ]);
  try {
    await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
      temporal.workflow.getHandle(org.workflow_id).executeUpdate(syncOrganizationUpdate),
    );
  } catch (err) {
    if (!updateFailureType(err)) await releaseHits();
    throw lifecycleUpdateError(err, { noun: 'organization', status: org.status, connectPath: '/organizations' });
  }
  return { message: 'Sync started', org_id: orgId };
}

const COUNTED: readonly MemberState[] = ['monitored', 'awaiting_role', 'not_monitored_plan_limit', 'disconnected'];

function counts(states: { state: MemberState; n: number }[]) {
  const of = (state: MemberState) => states.find((s) => s.state === state)?.n ?? 0;
  return {
    total: states.reduce((sum, s) => sum + s.n, 0),
    ...(Object.fromEntries(COUNTED.map((state) => [state, of(state)])) as Record<
      Exclude<MemberState, 'management_account'>,
      number
    >),
  };
}

function summary(org: OrganizationRow) {
  return {
    org_id: org.id,
    management_account_id: org.management_account_id,
    aws_organization_id: org.aws_organization_id,
    display_name: org.display_name,
    status: org.status,
    last_sync_at: iso(org.last_sync_at),
    last_sync_error: org.last_sync_error,
  };
}

export async function listTenantOrganizations({ db }: Pick<AppDeps, 'db'>, caller: Caller) {
  const [orgs, states] = await Promise.all([
    listOrganizations({ db, tenantId: caller.tenantId }),
    countMemberStates({ db, tenantId: caller.tenantId }),
  ]);
  return {
    organizations: orgs.map((org) => ({
      ...summary(org),
      accounts: counts(states.filter((s) => s.organization_id === org.id)),
    })),
  };
}

export async function getOrganization({ db }: Pick<AppDeps, 'db'>, caller: Caller, orgId: string) {
  const org = await requireOrganization(db, caller, orgId);
  const [states, members] = await Promise.all([
    countMemberStates({ db, tenantId: caller.tenantId }),
    listMemberDetails({ db, tenantId: caller.tenantId, orgId }),
  ]);
  return {
    ...summary(org),
    account_counts: counts(states.filter((s) => s.organization_id === orgId)),
    accounts: members,
  };
}

/**
 * Stops the organization's syncs (its workflow ends; a sync under way finishes first). The accounts it connected stay
 * connected unless `disconnect_accounts=true`: then each is disconnected through its own workflow. Idempotent: a second call
 * disconnects whatever the first left connected.
 */
export async function removeOrganization(deps: AppDeps, caller: Caller, orgId: string, query: RemoveOrganizationQuery) {
  const { db, temporal } = deps;
  const disconnectAccounts = query.disconnect_accounts === 'true';
  const org = await requireOrganization(db, caller, orgId);
  if (org.status !== 'DISCONNECTED') {
    try {
      await withDeadline(temporal, UPDATE_DEADLINE_MS, () =>
        temporal.workflow.getHandle(org.workflow_id).executeUpdate(disconnectOrganizationUpdate),
      );
    } catch (err) {
      // A connect that stopped before its workflow started has no workflow to ask.
      if (!(err instanceof WorkflowNotFoundError && org.status === 'PENDING'))
        throw lifecycleUpdateError(err, { noun: 'organization', status: org.status, connectPath: '/organizations' });
      await setOrganizationDisconnected({ db, tenantId: caller.tenantId, orgId, at: new Date() });
    }
    await audit(db, caller, 'organization.disconnected', `organization:${orgId}`, {
      disconnect_accounts: disconnectAccounts,
    });
  }
  if (!disconnectAccounts) {
    return {
      message: `Organization ${orgId} disconnected; syncs stopped. The accounts it connected stay connected.`,
      accounts_disconnected: 0,
    };
  }
  const accounts = await listLiveAccountsOfOrganization({ db, tenantId: caller.tenantId, orgId });
  for (const account of accounts) {
    await endLifecycle(deps, account).catch((err: unknown) => {
      throw err instanceof WorkflowNotFoundError
        ? new AppError('invalid_state', `Account ${account.aws_account_id}'s workflow is not running; contact support`)
        : err;
    });
    await audit(db, caller, 'account.disconnected', `account:${account.aws_account_id}`, { organization_id: orgId });
  }
  await setMembersDisconnected({
    db,
    tenantId: caller.tenantId,
    orgId,
    awsAccountIds: accounts.map((a) => a.aws_account_id),
    reason: 'Disconnected with the organization.',
  });
  return {
    message:
      `Organization ${orgId} disconnected; syncs stopped, and the ${accounts.length} account(s) it had connected were disconnected. ` +
      'The roles in your AWS accounts were not removed.',
    accounts_disconnected: accounts.length,
  };
}
