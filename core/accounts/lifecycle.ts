import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Config } from '../../config/config';
import type { Db } from '../../db/client';
import {
  countAccountRows,
  countLiveAccounts,
  deleteUnstartedAccount,
  findAccount,
  insertAccount,
  reopenAccount,
  restoreAccount,
  setAccountDisconnected,
} from '../../db/repositories/accounts';
import { expireEventKeys } from '../../db/repositories/account-events';
import { failRunningScansOfAccount } from '../../db/repositories/scans';
import { lockTenant } from '../../db/repositories/tenants';
import type { AccountRow } from '../../db/tables/accounts';
import { newId } from '../../domain/ids';
import { accountRowLimit } from '../../domain/tenancy/limits';
import { getPlan } from '../../domain/tenancy/plans';
import { accountWorkflowId, disconnectUpdate } from '../../workflows/contracts';
import { type AccountWorkflow, WORKFLOW_TYPES } from '../temporal/workflow-types';
import { accountWorkflowStart, COMMAND_DEADLINE_MS, UPDATE_DEADLINE_MS, withDeadline } from '../temporal/commands';

// How an account's lifecycle starts and ends, for both ways an account is connected: by a user (POST /accounts) and by
// an organization's sync (core/organizations/sync.ts). The plan's limits are counted the same way for both, under the
// tenant's row lock, and the workflow is started and taken back the same way (docs/architecture.md, "Writes and Temporal").

/** The failure of a scan still running when its account was connected again (scans.failure_reason). */
export const STOPPED_BY_RECONNECT = 'The account was connected again while this scan ran: the scan was stopped.';

/**
 * How long a connect may take between its commit and its workflow's start (its start's deadline, and taking
 * the row back, take seconds): a PENDING row older than this without a running workflow was left by a connect
 * that stopped half-way.
 */
export const ABANDONED_CONNECT_MS = 60_000;

export interface NewLifecycle {
  tenantId: string;
  awsAccountId: string;
  displayName: string | null;
  tags: string[];
  externalId: string;
  roleName: string;
  /** The organization connecting the account; null when a user connects it on its own. */
  organizationId: string | null;
  /** The ExternalId of a PENDING row left by a connect that stopped half-way: the row is taken over. */
  takeOver?: string;
}

/** A PENDING row written and committed, its workflow not started yet. */
export interface Reserved {
  ok: true;
  accountId: string;
  previous?: AccountRow;
  scanIntervalMinutes: number;
  planRevision: number;
  fairnessWeight: number;
}

/** Why no row was written: the account is connected already, or the plan has no room for it. */
export interface Refused {
  ok: false;
  refusal: 'exists' | 'plan_limit';
  message: string;
}

/**
 * Writes the PENDING row (a new one, or a disconnected row reopened) if the plan leaves room: the tenant row is
 * locked while the limits are counted, so parallel connects cannot both take the last place.
 */
export async function reserveAccount({ db }: { db: Db }, input: NewLifecycle): Promise<Reserved | Refused> {
  const { tenantId, awsAccountId } = input;
  return db.transaction().execute(async (trx): Promise<Reserved | Refused> => {
    const tenant = await lockTenant({ db: trx, tenantId });
    const existing = await findAccount({ db: trx, tenantId, awsAccountId });
    const takeOver =
      existing?.status === 'PENDING' && input.takeOver !== undefined && existing.external_id === input.takeOver;
    if (existing && existing.status !== 'DISCONNECTED' && !takeOver) {
      return { ok: false, refusal: 'exists', message: `Account ${awsAccountId} is already connected to this tenant` };
    }
    const plan = getPlan(tenant.plan);
    const live = (await countLiveAccounts({ db: trx, tenantId })) - (takeOver ? 1 : 0);
    if (live >= plan.account_limit) {
      return {
        ok: false,
        refusal: 'plan_limit',
        message: `The ${plan.name} plan allows ${plan.account_limit} connected account(s); upgrade to connect more`,
      };
    }
    // Churning account ids would otherwise grow rows (and their kept history) without bound.
    const rowLimit = accountRowLimit(plan.account_limit);
    if (!existing && (await countAccountRows({ db: trx, tenantId })) >= rowLimit) {
      return {
        ok: false,
        refusal: 'plan_limit',
        message: `The ${plan.name} plan keeps at most ${rowLimit} accounts, disconnected ones included; connect one of your disconnected accounts again, or upgrade`,
      };
    }
    const fields = {
      display_name: input.displayName,
      tags: input.tags,
      external_id: input.externalId,
      role_name: input.roleName,
      workflow_id: accountWorkflowId(tenantId, awsAccountId),
      organization_id: input.organizationId,
    };
    const accountId = existing?.id ?? newId('account');
    // Connecting a disconnected account again starts a new lifecycle on the same row (its history stays), and never
    // with a key of an earlier one: whoever connects it (a user, with a new key, or an organization's sync, without).
    if (existing) {
      await reopenAccount({ db: trx, accountId, fields });
      await expireEventKeys({ db: trx, tenantId, accountId, at: new Date() });
      // The new workflow replaces (terminates) the old one, and with it any scan it was still running.
      await failRunningScansOfAccount({ db: trx, accountId, reason: STOPPED_BY_RECONNECT, at: new Date() });
    } else {
      await insertAccount({
        db: trx,
        account: { id: accountId, tenant_id: tenantId, aws_account_id: awsAccountId, ...fields },
      });
    }
    return {
      ok: true,
      accountId,
      previous: existing,
      scanIntervalMinutes: plan.scan_interval_minutes,
      planRevision: tenant.plan_revision,
      fairnessWeight: plan.fairness_weight,
    };
  });
}

/**
 * Starts the account's workflow for a reserved row. If the start fails, the row is taken back (deleted, or restored as
 * it was) and the error thrown: nothing stays written. A start that timed out may still have happened: it is stopped.
 */
export async function startLifecycle(
  { db, temporal, config }: { db: Db; temporal: Client; config: Readonly<Config> },
  input: NewLifecycle,
  reserved: Reserved,
): Promise<void> {
  const { tenantId, awsAccountId, externalId } = input;
  const { accountId, previous, scanIntervalMinutes, planRevision, fairnessWeight } = reserved;
  try {
    await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
      temporal.workflow.start<AccountWorkflow>(
        WORKFLOW_TYPES.account,
        accountWorkflowStart(config.temporal, {
          tenantId,
          accountId,
          awsAccountId,
          scanIntervalMinutes,
          planRevision,
          fairnessWeight,
        }),
      ),
    );
  } catch (err) {
    await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
      temporal.workflow.getHandle(accountWorkflowId(tenantId, awsAccountId)).terminate('its connect was taken back'),
    ).catch(() => undefined);
    if (previous) await restoreAccount({ db, previous, externalId });
    else await deleteUnstartedAccount({ db, accountId, externalId });
    throw err;
  }
}

/**
 * A PENDING account whose connect stopped between its commit and its workflow's start. When Temporal cannot
 * tell, the account is taken to be in use: the caller gets the answer it would have had without the check.
 */
export async function isAbandonedConnect({ temporal }: { temporal: Client }, account: AccountRow): Promise<boolean> {
  if (account.status !== 'PENDING' || Date.now() - account.updated_at.getTime() < ABANDONED_CONNECT_MS) return false;
  try {
    const described = await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
      temporal.workflow.getHandle(account.workflow_id).describe(),
    );
    return described.status.name !== 'RUNNING';
  } catch (err) {
    return err instanceof WorkflowNotFoundError;
  }
}

/**
 * Ends the account's lifecycle through its workflow, which stops scans and records DISCONNECTED. An account whose
 * connect stopped before its workflow started has no workflow to ask: it is closed here. Other failures are thrown.
 */
export async function endLifecycle({ db, temporal }: { db: Db; temporal: Client }, account: AccountRow): Promise<void> {
  if (account.status === 'DISCONNECTED') return;
  try {
    const handle = temporal.workflow.getHandle(account.workflow_id);
    await withDeadline(temporal, UPDATE_DEADLINE_MS, () => handle.executeUpdate(disconnectUpdate));
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError && (await isAbandonedConnect({ temporal }, account)))) throw err;
    await recordDisconnected({ db }, { tenantId: account.tenant_id, accountId: account.id });
  }
}

/**
 * Records the account DISCONNECTED and ends its event keys, together: a disconnected account's key works for nobody,
 * and no later connection brings it back. False when it was disconnected already (its keys are ended all the same).
 */
export async function recordDisconnected(
  { db }: { db: Db },
  { tenantId, accountId }: { tenantId: string; accountId: string },
): Promise<boolean> {
  const at = new Date();
  return db.transaction().execute(async (trx) => {
    const changed = await setAccountDisconnected({ db: trx, tenantId, accountId, at });
    await expireEventKeys({ db: trx, tenantId, accountId, at });
    return changed;
  });
}
