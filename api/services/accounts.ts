import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { isUniqueViolation } from '../../db/errors';
import {
  countAccountRows, countLiveAccounts, deleteUnstartedAccount, findAccount, insertAccount, listAccountSummaries, reopenAccount, restoreAccount, setAccountDisconnected,
} from '../../db/repositories/accounts';
import type { AccountRow } from '../../db/tables/accounts';
import { newId } from '../../domain/ids';
import { cliScript, ROLE_NAME, terraformSnippet } from '../../domain/onboarding';
import { getPlan } from '../../domain/plans';
import {
  accountLimitKey, accountRowLimit, MANUAL_SCAN_WINDOW_SECONDS, VERIFIES_PER_ACCOUNT, VERIFY_WINDOW_SECONDS,
} from '../../domain/limits';
import { failRunningScansOfAccount } from '../../db/repositories/scans';
import { findTenant, lockTenant } from '../../db/repositories/tenants';
import { accountWorkflow } from '../../workflows/account';
import {
  accountWorkflowId, disconnectUpdate, INVALID_ACCOUNT_STATE, ROLE_ASSUMPTION_FAILED, scanNowUpdate, VERIFICATION_UNAVAILABLE,
  verifyUpdate,
} from '../../workflows/contracts';
import type { AppDeps, Caller } from '../context';
import { AppError, notFound } from '../errors';
import {
  accountWorkflowStart, COMMAND_DEADLINE_MS, executionArn, UPDATE_DEADLINE_MS, updateFailureType, VERIFY_DEADLINE_MS, withDeadline,
} from '../temporal';
import type { ConnectAccountInput } from '../schemas/accounts';
import { audit } from './audit-log';
import { takeHits } from './rate-limits';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The failure of a scan still running when its account was connected again (scans.failure_reason). */
export const STOPPED_BY_RECONNECT = 'The account was connected again while this scan ran: the scan was stopped.';

function summary(a: AccountRow) {
  return {
    aws_account_id: a.aws_account_id,
    cloud_account_id: a.aws_account_id,
    display_name: a.display_name,
    status: a.status,
    current_srs: a.current_srs,
    last_scan_at: iso(a.last_scan_at),
    tags: a.tags,
    // Of the latest scan that recorded check outcomes; null until one has.
    coverage: a.coverage_evaluated === null || a.coverage_total === null ? null : { evaluated: a.coverage_evaluated, total: a.coverage_total },
    score_complete: a.score_complete,
  };
}

/**
 * Connects an account: a PENDING row, then its entity workflow. The row commits first and the workflow starts
 * after, so no lock is held while Temporal answers (the tenant row is locked only while the plan's limit is
 * checked). If the start fails, the row is taken back and the caller gets the error: nothing is written. If the
 * process stops between the two, the PENDING row has no workflow; after ABANDONED_CONNECT_MS the next connect
 * of the same account takes it over, and a disconnect closes it (docs/architecture.md, "Writes and Temporal").
 */
export async function connectAccount(deps: AppDeps, caller: Caller, input: ConnectAccountInput) {
  const { db, config, temporal, log, cloud } = deps;
  const externalId = randomBytes(24).toString('base64url'); // 32 characters, never client-chosen
  const workflowId = accountWorkflowId(caller.tenantId, input.awsAccountId);
  const sentinelAccountId = await cloud.sentinelAccountId();
  const before = await findAccount({ db, tenantId: caller.tenantId, awsAccountId: input.awsAccountId });
  const abandoned = before && await isAbandonedConnect(deps, before) ? before.external_id : undefined;

  let connected: { accountId: string; previous?: AccountRow; scanIntervalMinutes: number; planRevision: number; fairnessWeight: number };
  try {
    connected = await db.transaction().execute(async (trx) => {
      const tenant = await lockTenant({ db: trx, tenantId: caller.tenantId });
      const existing = await findAccount({ db: trx, tenantId: caller.tenantId, awsAccountId: input.awsAccountId });
      const takeOver = existing?.status === 'PENDING' && existing.external_id === abandoned;
      if (existing && existing.status !== 'DISCONNECTED' && !takeOver) {
        throw new AppError('account_exists', `Account ${input.awsAccountId} is already connected to this tenant`);
      }
      const plan = getPlan(tenant.plan);
      const live = (await countLiveAccounts({ db: trx, tenantId: caller.tenantId })) - (takeOver ? 1 : 0);
      if (live >= plan.account_limit) {
        throw new AppError('plan_limit_exceeded', `The ${plan.name} plan allows ${plan.account_limit} connected account(s); upgrade to connect more`);
      }
      // Churning account ids would otherwise grow rows (and their kept history) without bound.
      const rowLimit = accountRowLimit(plan.account_limit);
      if (!existing && await countAccountRows({ db: trx, tenantId: caller.tenantId }) >= rowLimit) {
        throw new AppError('plan_limit_exceeded', `The ${plan.name} plan keeps at most ${rowLimit} accounts, disconnected ones included; `
          + 'connect one of your disconnected accounts again, or upgrade');
      }
      const fields = { display_name: input.displayName, tags: input.tags, external_id: externalId, role_name: ROLE_NAME, workflow_id: workflowId };
      const accountId = existing?.id ?? newId('account');
      // Connecting a disconnected account again starts a new lifecycle on the same row (its history stays).
      if (existing) {
        await reopenAccount({ db: trx, accountId, fields });
        // The new workflow replaces (terminates) the old one, and with it any scan it was still running.
        await failRunningScansOfAccount({ db: trx, accountId, reason: STOPPED_BY_RECONNECT, at: new Date() });
      }
      else await insertAccount({ db: trx, account: { id: accountId, tenant_id: caller.tenantId, aws_account_id: input.awsAccountId, ...fields } });
      return {
        accountId, previous: existing, scanIntervalMinutes: plan.scan_interval_minutes, planRevision: tenant.plan_revision,
        fairnessWeight: plan.fairness_weight,
      };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'accounts_tenant_aws_account_unique')) {
      throw new AppError('account_exists', `Account ${input.awsAccountId} is already connected to this tenant`);
    }
    throw err;
  }

  const { accountId, previous, scanIntervalMinutes, planRevision, fairnessWeight } = connected;
  try {
    await withDeadline(temporal, COMMAND_DEADLINE_MS, () => temporal.workflow.start(accountWorkflow, accountWorkflowStart(config.temporal, {
      tenantId: caller.tenantId, accountId, awsAccountId: input.awsAccountId, scanIntervalMinutes, planRevision, fairnessWeight,
    })));
  } catch (err) {
    // A start that timed out may still have happened: stop it (best effort), then take the row back.
    await withDeadline(temporal, COMMAND_DEADLINE_MS, () => temporal.workflow.getHandle(workflowId).terminate('its connect was taken back'))
      .catch(() => undefined);
    if (previous) await restoreAccount({ db, previous, externalId });
    else await deleteUnstartedAccount({ db, accountId, externalId });
    throw err;
  }
  await audit(db, caller, 'account.connected', `account:${input.awsAccountId}`);
  log.info({ tenantId: caller.tenantId, accountId, workflowId, tookOver: abandoned !== undefined }, 'account connected (pending verification)');
  const setup = { sentinelAccountId, externalId };
  return {
    aws_account_id: input.awsAccountId,
    cloud_account_id: input.awsAccountId,
    external_id: externalId,
    sentinel_account_id: sentinelAccountId,
    status: 'PENDING' as const,
    terraform_snippet: terraformSnippet(setup),
    fallback_cli_script: cliScript(setup),
  };
}

/**
 * How long a connect may take between its commit and its workflow's start (its start's deadline, and taking
 * the row back, take seconds): a PENDING row older than this without a running workflow was left by a connect
 * that stopped half-way.
 */
export const ABANDONED_CONNECT_MS = 60_000;

/**
 * A PENDING account whose connect stopped between its commit and its workflow's start. When Temporal cannot
 * tell, the account is taken to be in use: the caller gets the answer it would have had without the check.
 */
async function isAbandonedConnect({ temporal }: Pick<AppDeps, 'temporal'>, account: AccountRow): Promise<boolean> {
  if (account.status !== 'PENDING' || Date.now() - account.updated_at.getTime() < ABANDONED_CONNECT_MS) return false;
  try {
    const described = await withDeadline(temporal, COMMAND_DEADLINE_MS, () => temporal.workflow.getHandle(account.workflow_id).describe());
    return described.status.name !== 'RUNNING';
  } catch (err) {
    return err instanceof WorkflowNotFoundError;
  }
}

export async function listTenantAccounts({ db }: Pick<AppDeps, 'db'>, caller: Caller) {
  const accounts = await listAccountSummaries({ db, tenantId: caller.tenantId });
  return { accounts, total: accounts.length };
}

export async function requireAccount(db: AppDeps['db'], caller: Caller, awsAccountId: string): Promise<AccountRow> {
  const account = /^[0-9]{12}$/.test(awsAccountId)
    ? await findAccount({ db, tenantId: caller.tenantId, awsAccountId })
    : undefined;
  if (!account) throw notFound('Account');
  return account;
}

export async function getAccount({ db }: Pick<AppDeps, 'db'>, caller: Caller, awsAccountId: string) {
  return accountDetail(await requireAccount(db, caller, awsAccountId));
}

/** The body of GET /accounts/{account_id}. */
export function accountDetail(a: AccountRow) {
  return { ...summary(a), connected_at: iso(a.connected_at), last_successful_scan_at: iso(a.last_successful_scan_at) };
}

/**
 * Verifies through the account workflow (an Update that assumes the role). Verifying an ACTIVE account again
 * answers from the database with the first scan's execution ARN, without touching the cloud or Temporal.
 */
export async function verifyAccount({ db, temporal, config }: AppDeps, caller: Caller, awsAccountId: string) {
  const account = await requireAccount(db, caller, awsAccountId);
  const answer = (firstScanId: string) => ({
    aws_account_id: awsAccountId,
    cloud_account_id: awsAccountId,
    status: 'ACTIVE' as const,
    first_scan_execution_arn: executionArn(config.temporal.namespace, account.workflow_id, firstScanId),
  });
  if (account.status === 'ACTIVE' && account.first_scan_id) return answer(account.first_scan_id);
  if (account.status === 'DISCONNECTED') {
    throw new AppError('invalid_state', 'The account is disconnected; connect it again to verify it');
  }
  // Every attempt the workflow decides costs an sts:AssumeRole and grows its history, failed ones too; one that
  // never reached it (Temporal unreachable, the deadline passed) is taken back.
  const releaseHits = await takeHits(db, [{
    key: accountLimitKey('verify', caller.tenantId, account.aws_account_id), limit: VERIFIES_PER_ACCOUNT,
    windowSeconds: VERIFY_WINDOW_SECONDS, message: `At most ${VERIFIES_PER_ACCOUNT} verify attempts per account per hour`,
  }]);
  const handle = temporal.workflow.getHandle(account.workflow_id);
  try {
    const result = await withDeadline(temporal, VERIFY_DEADLINE_MS, () => handle.executeUpdate(verifyUpdate));
    await audit(db, caller, 'account.verified', `account:${awsAccountId}`);
    return answer(result.firstScanId);
  } catch (err) {
    if (!updateFailureType(err)) await releaseHits();
    throw translateUpdateFailure(err, account);
  }
}

/** Starts a scan now. Manual scans count toward the plan's hourly limits per account and per tenant (429 past them). */
export async function requestScan({ db, temporal, config }: AppDeps, caller: Caller, awsAccountId: string) {
  const account = await requireAccount(db, caller, awsAccountId);
  if (account.status !== 'ACTIVE') {
    throw new AppError('invalid_state', account.status === 'PENDING'
      ? 'The account is not verified yet: POST /accounts/{account_id}/verify first'
      : 'The account is disconnected and is no longer scanned');
  }
  const tenant = await findTenant({ db, tenantId: caller.tenantId });
  const plan = getPlan(tenant?.plan ?? 'solo');
  const tenantAllowance = plan.manual_scans_per_hour * plan.account_limit;
  const releaseHits = await takeHits(db, [
    {
      key: accountLimitKey('scan:manual', caller.tenantId, account.aws_account_id), limit: plan.manual_scans_per_hour,
      windowSeconds: MANUAL_SCAN_WINDOW_SECONDS,
      message: `The ${plan.name} plan allows ${plan.manual_scans_per_hour} manual scans per account per hour`,
    },
    {
      key: `scan:manual:${caller.tenantId}`, limit: tenantAllowance, windowSeconds: MANUAL_SCAN_WINDOW_SECONDS,
      message: `The ${plan.name} plan allows ${tenantAllowance} manual scans per tenant per hour`,
    },
  ]);
  const handle = temporal.workflow.getHandle(account.workflow_id);
  try {
    const { scanId } = await withDeadline(temporal, COMMAND_DEADLINE_MS, () => handle.executeUpdate(scanNowUpdate));
    return { message: 'Scan started', execution_arn: executionArn(config.temporal.namespace, account.workflow_id, scanId) };
  } catch (err) {
    // No scan was queued (or none confirmed): the request does not count toward the hourly limits.
    await releaseHits();
    throw translateUpdateFailure(err, account);
  }
}

function translateUpdateFailure(err: unknown, account: AccountRow): unknown {
  const failure = updateFailureType(err);
  if (failure?.type === ROLE_ASSUMPTION_FAILED) return new AppError('role_assumption_failed', failure.message);
  if (failure?.type === INVALID_ACCOUNT_STATE) return new AppError('invalid_state', failure.message);
  if (failure?.type === VERIFICATION_UNAVAILABLE) return new AppError('verification_unavailable', failure.message, { retryAfterSeconds: 30 });
  if (err instanceof WorkflowNotFoundError) {
    return new AppError('invalid_state', account.status === 'PENDING'
      ? 'The connection of this account did not complete: connect it again (POST /accounts)'
      : 'The account workflow is not running; contact support');
  }
  return err;
}

/**
 * Disconnects through the account workflow, which stops scans and records DISCONNECTED. Idempotent. An account
 * whose connect stopped before its workflow started has no workflow to ask: it is closed here.
 */
export async function disconnectAccount(deps: AppDeps, caller: Caller, awsAccountId: string) {
  const { db, temporal } = deps;
  const account = await requireAccount(db, caller, awsAccountId);
  if (account.status !== 'DISCONNECTED') {
    try {
      const handle = temporal.workflow.getHandle(account.workflow_id);
      await withDeadline(temporal, UPDATE_DEADLINE_MS, () => handle.executeUpdate(disconnectUpdate));
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError && await isAbandonedConnect(deps, account))) throw translateUpdateFailure(err, account);
      await setAccountDisconnected({ db, tenantId: caller.tenantId, accountId: account.id, at: new Date() });
    }
    await audit(db, caller, 'account.disconnected', `account:${awsAccountId}`);
  }
  return { message: `Account ${awsAccountId} disconnected; scheduled scans stopped. The role in your AWS account was not removed.` };
}
