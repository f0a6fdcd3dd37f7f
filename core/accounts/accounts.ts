import { randomBytes } from 'node:crypto';
import { isUniqueViolation } from '../../db/errors';
import { findAccount, listAccountSummaries } from '../../db/repositories/accounts';
import type { AccountRow } from '../../db/tables/accounts';
import { cliScript, ROLE_NAME, terraformSnippet } from '../../domain/onboarding/role';
import { getPlan } from '../../domain/tenancy/plans';
import { accountLimitKey, MANUAL_SCAN_WINDOW_SECONDS } from '../../domain/tenancy/limits';
import { findTenant } from '../../db/repositories/tenants';
import { accountWorkflowId, scanNowUpdate, verifyUpdate } from '../../workflows/contracts';
import type { AppDeps, Caller } from '../deps';
import { AppError } from '../errors';
import { requireAccount } from './require-account';
import { readPageThrough } from '../../db/read-cache';
import {
  COMMAND_DEADLINE_MS,
  executionArn,
  lifecycleUpdateError,
  updateFailureType,
  VERIFY_DEADLINE_MS,
  withDeadline,
} from '../temporal/commands';
import type { ConnectAccountInput, ListAccountsQuery } from '../schemas/accounts';
import { afterAccountCursor, encodeAccountCursor } from '../pagination/account-cursor';
import { endLifecycle, isAbandonedConnect, type NewLifecycle, reserveAccount, startLifecycle } from './lifecycle';
import { issueEventKey } from './account-events';
import { audit } from '../audit-log';
import { cloudFormationOnboarding, forwarderCloudFormation } from './cloudformation-onboarding';
import { takeHits } from '../rate-limits';
import { verifyLimit } from './verify-limit';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// Where connect and disconnect keep their shared parts; their tests name these here.
export { ABANDONED_CONNECT_MS, STOPPED_BY_RECONNECT } from './lifecycle';

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
    coverage:
      a.coverage_evaluated === null || a.coverage_total === null
        ? null
        : { evaluated: a.coverage_evaluated, total: a.coverage_total },
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
  const { db, log, cloud } = deps;
  const externalId = randomBytes(24).toString('base64url'); // 32 characters, never client-chosen
  const workflowId = accountWorkflowId(caller.tenantId, input.awsAccountId);
  const sentinelAccountId = await cloud.sentinelAccountId();
  const before = await findAccount({ db, tenantId: caller.tenantId, awsAccountId: input.awsAccountId });
  const abandoned = before && (await isAbandonedConnect(deps, before)) ? before.external_id : undefined;

  const lifecycle: NewLifecycle = {
    tenantId: caller.tenantId,
    awsAccountId: input.awsAccountId,
    displayName: input.displayName,
    tags: input.tags,
    externalId,
    roleName: ROLE_NAME,
    organizationId: null,
    takeOver: abandoned,
  };
  let reserved: Awaited<ReturnType<typeof reserveAccount>>;
  try {
    reserved = await reserveAccount(deps, lifecycle);
  } catch (err) {
    if (isUniqueViolation(err, 'accounts_tenant_aws_account_unique')) {
      throw new AppError('account_exists', `Account ${input.awsAccountId} is already connected to this tenant`);
    }
    throw err;
  }
  if (!reserved.ok)
    throw new AppError(reserved.refusal === 'exists' ? 'account_exists' : 'plan_limit_exceeded', reserved.message);
  const { accountId } = reserved;
  await startLifecycle(deps, lifecycle, reserved);
  // The keys of an earlier connection of the account ended with it (reserveAccount): this one starts afresh.
  const forwarding = input.eventForwarding
    ? (await issueEventKey(deps, { tenantId: caller.tenantId, accountId }, new Date())).forwarding
    : null;
  await audit(db, caller, 'account.connected', `account:${input.awsAccountId}`);
  log.info(
    { tenantId: caller.tenantId, accountId, workflowId, tookOver: abandoned !== undefined },
    'account connected (pending verification)',
  );
  const setup = { sentinelAccountId, externalId };
  // The forwarder's key is in the snippet, the script and the forwarder's quick-create link: all shown once, like the key.
  const forwarder = forwarding ? { endpoint: forwarding.endpoint, apiKey: forwarding.api_key } : undefined;
  const [roleStack, forwarderStack] = await Promise.all([
    cloudFormationOnboarding(deps, setup),
    forwarder ? forwarderCloudFormation(deps, forwarder) : null,
  ]);
  return {
    aws_account_id: input.awsAccountId,
    cloud_account_id: input.awsAccountId,
    external_id: externalId,
    sentinel_account_id: sentinelAccountId,
    status: 'PENDING' as const,
    terraform_snippet: terraformSnippet(setup, { forwarder }),
    fallback_cli_script: cliScript(setup, { forwarder }),
    ...roleStack,
    event_forwarding: forwarding && forwarderStack && { ...forwarding, ...forwarderStack },
  };
}

/**
 * A page of the tenant's accounts (GET /accounts), filtered, in the asked order, with the count of all that match:
 * from this process's cache when it holds that page (db/read-cache.ts forgets the tenant's pages as soon as
 * PostgreSQL announces a change to what they show), else in one statement.
 */
export function listTenantAccounts(
  { db, readCache }: Pick<AppDeps, 'db' | 'readCache'>,
  caller: Caller,
  query: ListAccountsQuery,
) {
  // The parsed query's keys come in the schema's order: the same page, the same name.
  const page = { kind: 'accounts' as const, tenantId: caller.tenantId, query: JSON.stringify(query) };
  return readPageThrough(readCache, page, () => readAccountsPage(db, caller, query));
}

async function readAccountsPage(db: AppDeps['db'], caller: Caller, query: ListAccountsQuery) {
  const { accounts, total, next } = await listAccountSummaries({
    db,
    filter: {
      tenantId: caller.tenantId,
      tag: query.tag,
      status: query.status,
      srsBelow: query.srs_below,
      sort: query.sort,
      after: afterAccountCursor(query.next_token, query.sort),
      limit: query.limit,
    },
  });
  const nextToken =
    next &&
    encodeAccountCursor(
      query.sort === 'connected'
        ? { sort: 'connected', createdAt: next.created_at, id: next.id }
        : { sort: 'srs', srs: next.current_srs, awsAccountId: next.aws_account_id },
    );
  return { accounts, total, next_token: nextToken };
}

export async function getAccount({ db }: Pick<AppDeps, 'db'>, caller: Caller, awsAccountId: string) {
  return accountDetail(await requireAccount(db, caller, awsAccountId));
}

/** The body of GET /accounts/{account_id}. */
export function accountDetail(a: AccountRow) {
  return {
    ...summary(a),
    connected_at: iso(a.connected_at),
    last_successful_scan_at: iso(a.last_successful_scan_at),
    // An addition to the SPEC's fields, as score_complete is (docs/decisions.md, "No clock-based all-clear").
    region_baseline:
      a.region_baseline === null ? null : { regions: a.region_baseline, learned_at: iso(a.region_baseline_learned_at) },
  };
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
  const releaseHits = await takeHits(db, [verifyLimit(caller.tenantId, account.aws_account_id)]);
  const handle = temporal.workflow.getHandle(account.workflow_id);
  try {
    const result = await withDeadline(temporal, VERIFY_DEADLINE_MS, () => handle.executeUpdate(verifyUpdate));
    await audit(db, caller, 'account.verified', `account:${awsAccountId}`);
    return answer(result.firstScanId);
  } catch (err) {
    if (!updateFailureType(err)) await releaseHits();
    throw lifecycleUpdateError(err, { noun: 'account', status: account.status, connectPath: '/accounts' });
  }
}

/** Starts a scan now. Manual scans count toward the plan's hourly limits per account and per tenant (429 past them). */
export async function requestScan({ db, temporal, config }: AppDeps, caller: Caller, awsAccountId: string) {
  const account = await requireAccount(db, caller, awsAccountId);
  if (account.status !== 'ACTIVE') {
    throw new AppError(
      'invalid_state',
      account.status === 'PENDING'
        ? 'The account is not verified yet: POST /accounts/{account_id}/verify first'
        : 'The account is disconnected and is no longer scanned',
    );
  }
  const tenant = await findTenant({ db, tenantId: caller.tenantId });
  const plan = getPlan(tenant?.plan ?? 'solo');
  const tenantAllowance = plan.manual_scans_per_hour * plan.account_limit;
  const releaseHits = await takeHits(db, [
    {
      key: accountLimitKey('scan:manual', caller.tenantId, account.aws_account_id),
      limit: plan.manual_scans_per_hour,
      windowSeconds: MANUAL_SCAN_WINDOW_SECONDS,
      message: `The ${plan.name} plan allows ${plan.manual_scans_per_hour} manual scans per account per hour`,
    },
    {
      key: `scan:manual:${caller.tenantId}`,
      limit: tenantAllowance,
      windowSeconds: MANUAL_SCAN_WINDOW_SECONDS,
      message: `The ${plan.name} plan allows ${tenantAllowance} manual scans per tenant per hour`,
    },
  ]);
  const handle = temporal.workflow.getHandle(account.workflow_id);
  let scanId: string;
  try {
    ({ scanId } = await withDeadline(temporal, COMMAND_DEADLINE_MS, () => handle.executeUpdate(scanNowUpdate)));
  } catch (err) {
    // No scan was queued (or none confirmed): the request does not count toward the hourly limits.
    await releaseHits();
    throw lifecycleUpdateError(err, { noun: 'account', status: account.status, connectPath: '/accounts' });
  }
  await audit(db, caller, 'account.scan_requested', `account:${awsAccountId}`, { scan_id: scanId });
  return {
    message: 'Scan started',
    execution_arn: executionArn(config.temporal.namespace, account.workflow_id, scanId),
  };
}

/**
 * Disconnects through the account workflow, which stops scans and records DISCONNECTED. Idempotent. An account
 * whose connect stopped before its workflow started has no workflow to ask: it is closed here.
 */
export async function disconnectAccount(deps: AppDeps, caller: Caller, awsAccountId: string) {
  const { db } = deps;
  const account = await requireAccount(db, caller, awsAccountId);
  if (account.status !== 'DISCONNECTED') {
    await endLifecycle(deps, account).catch((err: unknown) => {
      throw lifecycleUpdateError(err, { noun: 'account', status: account.status, connectPath: '/accounts' });
    });
    await audit(db, caller, 'account.disconnected', `account:${awsAccountId}`);
  }
  return {
    message: `Account ${awsAccountId} disconnected; scheduled scans stopped. The role in your AWS account was not removed.`,
  };
}
