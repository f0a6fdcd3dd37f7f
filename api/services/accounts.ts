import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { isUniqueViolation } from '../../db/errors';
import {
  countLiveAccounts, findAccount, insertAccount, listAccounts,
} from '../../db/repositories/accounts';
import type { AccountRow } from '../../db/tables/accounts';
import { newId } from '../../domain/ids';
import { cliScript, ROLE_NAME, terraformSnippet } from '../../domain/onboarding';
import { getPlan, type PlanId } from '../../domain/plans';
import type { AccountWorkflowInput } from '../../workflows/messages';
import { disconnectUpdate } from '../../workflows/messages';
import type { AppDeps, Caller } from '../context';
import { AppError, notFound } from '../errors';
import { COMMAND_DEADLINE_MS, UPDATE_DEADLINE_MS, withDeadline } from '../temporal';
import type { ConnectAccountInput } from '../schemas/accounts';

export function accountWorkflowId(tenantId: string, awsAccountId: string): string {
  return `account:${tenantId}:${awsAccountId}`;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function summary(a: AccountRow) {
  return {
    aws_account_id: a.aws_account_id,
    cloud_account_id: a.aws_account_id,
    display_name: a.display_name,
    status: a.status as 'PENDING' | 'ACTIVE' | 'DISCONNECTED',
    current_srs: a.current_srs,
    last_scan_at: iso(a.last_scan_at),
    tags: a.tags,
  };
}

/**
 * Connects an account: PENDING row plus its entity workflow. Both happen in one transaction so a failure
 * to reach Temporal writes nothing; the tenant row is locked so concurrent connects cannot pass the plan limit.
 */
export async function connectAccount({ db, config, temporal, log }: AppDeps, caller: Caller, input: ConnectAccountInput) {
  const externalId = randomBytes(24).toString('base64url'); // 32 characters, never client-chosen
  const accountId = newId('account');
  const workflowId = accountWorkflowId(caller.tenantId, input.awsAccountId);
  try {
    await db.transaction().execute(async (trx) => {
      const tenant = await trx.selectFrom('tenants').select('plan').where('id', '=', caller.tenantId).forUpdate().executeTakeFirstOrThrow();
      if (await findAccount({ db: trx, tenantId: caller.tenantId, awsAccountId: input.awsAccountId })) {
        throw new AppError('account_exists', `Account ${input.awsAccountId} is already connected to this tenant`);
      }
      const plan = getPlan(tenant.plan as PlanId);
      if ((await countLiveAccounts({ db: trx, tenantId: caller.tenantId })) >= plan.account_limit) {
        throw new AppError('plan_limit_exceeded', `The ${plan.name} plan allows ${plan.account_limit} connected account(s); upgrade to connect more`);
      }
      await insertAccount({
        db: trx,
        account: {
          id: accountId, tenant_id: caller.tenantId, aws_account_id: input.awsAccountId, display_name: input.displayName,
          tags: input.tags, external_id: externalId, role_name: ROLE_NAME, workflow_id: workflowId,
        },
      });
      const args: AccountWorkflowInput = { tenantId: caller.tenantId, accountId, awsAccountId: input.awsAccountId };
      await withDeadline(temporal, COMMAND_DEADLINE_MS, () => temporal.workflow.start('accountWorkflow', {
        workflowId,
        taskQueue: config.temporal.taskQueue,
        args: [args],
        workflowIdConflictPolicy: 'FAIL',
      }));
    });
  } catch (err) {
    if (isUniqueViolation(err, 'accounts_tenant_aws_account_unique')) {
      throw new AppError('account_exists', `Account ${input.awsAccountId} is already connected to this tenant`);
    }
    throw err;
  }
  log.info({ tenantId: caller.tenantId, accountId, workflowId }, 'account connected (pending verification)');
  const setup = { sentinelAccountId: config.aws.sentinelAccountId, externalId };
  return {
    aws_account_id: input.awsAccountId,
    cloud_account_id: input.awsAccountId,
    external_id: externalId,
    sentinel_account_id: setup.sentinelAccountId,
    status: 'PENDING' as const,
    terraform_snippet: terraformSnippet(setup),
    fallback_cli_script: cliScript(setup),
  };
}

export async function listTenantAccounts({ db }: Pick<AppDeps, 'db'>, caller: Caller) {
  const accounts = await listAccounts({ db, tenantId: caller.tenantId });
  return { accounts: accounts.map(summary), total: accounts.length };
}

async function requireAccount(db: AppDeps['db'], caller: Caller, awsAccountId: string): Promise<AccountRow> {
  const account = /^[0-9]{12}$/.test(awsAccountId)
    ? await findAccount({ db, tenantId: caller.tenantId, awsAccountId })
    : undefined;
  if (!account) throw notFound('Account');
  return account;
}

export async function getAccount({ db }: Pick<AppDeps, 'db'>, caller: Caller, awsAccountId: string) {
  const a = await requireAccount(db, caller, awsAccountId);
  return { ...summary(a), connected_at: iso(a.connected_at), last_successful_scan_at: iso(a.last_successful_scan_at) };
}

/** Disconnects through the account workflow, which stops scans and records DISCONNECTED. Idempotent. */
export async function disconnectAccount({ db, temporal }: AppDeps, caller: Caller, awsAccountId: string) {
  const account = await requireAccount(db, caller, awsAccountId);
  if (account.status !== 'DISCONNECTED') {
    try {
      const handle = temporal.workflow.getHandle(account.workflow_id);
      await withDeadline(temporal, UPDATE_DEADLINE_MS, () => handle.executeUpdate(disconnectUpdate));
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      throw new AppError('invalid_state', 'The account workflow is not running; contact support');
    }
  }
  return { message: `Account ${awsAccountId} disconnected; scheduled scans stopped. The role in your AWS account was not removed.` };
}
