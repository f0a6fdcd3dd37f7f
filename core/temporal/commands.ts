import {
  type Client,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type WorkflowStartOptions,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Config } from '../../config/config';
import { AppError } from '../errors';
import {
  accountWorkflowId,
  INVALID_ACCOUNT_STATE,
  ROLE_ASSUMPTION_FAILED,
  VERIFICATION_UNAVAILABLE,
} from '../../workflows/contracts';
import { ACCOUNT_STATUS, AWS_ACCOUNT_ID, TENANT_ID } from '../../workflows/search-attributes';
import type { AccountWorkflow } from './workflow-types';

/**
 * Runs a Temporal call with a deadline, so a command fails fast (503) while Temporal is unreachable instead
 * of holding the HTTP request through the client's retries.
 */
export function withDeadline<T>(temporal: Client, ms: number, call: () => Promise<T>): Promise<T> {
  return temporal.connection.withDeadline(Date.now() + ms, call);
}

/** Starting or signalling a workflow: the server answers quickly when it is up. */
export const COMMAND_DEADLINE_MS = 5_000;
/** Updates wait for the workflow to run the handler (and its activities) to completion. */
export const UPDATE_DEADLINE_MS = 30_000;

/** Verification assumes a role in the customer's account before it answers. */
export const VERIFY_DEADLINE_MS = 60_000;

/**
 * The spec's "execution ARN" of a scan: the Temporal namespace, the account workflow that runs the scan, and the
 * scan id, which is the activity id of the scan's runScan activity in that workflow's history. An operator opens
 * the workflow (search `WorkflowId = "<the part after workflow/>"` in the Temporal UI) and finds the scan there;
 * docs/operations.md, "Temporal Web UI".
 */
export function executionArn(namespace: string, accountWorkflowId: string, scanId: string): string {
  return `arn:sentinel:temporal:${namespace}:workflow/${accountWorkflowId}/scan/${scanId}`;
}

/** The account workflow and the scan an execution ARN names (undefined for anything else). */
export function parseExecutionArn(arn: string): { namespace: string; workflowId: string; scanId: string } | undefined {
  const match = /^arn:sentinel:temporal:([^:]+):workflow\/(.+)\/scan\/(scan_[0-9A-Z]+)$/.exec(arn);
  return match ? { namespace: match[1]!, workflowId: match[2]!, scanId: match[3]! } : undefined;
}

/** Maps a failed update (its ApplicationFailure type) to the API error the caller should see. */
export function updateFailureType(err: unknown): { type: string; message: string } | undefined {
  if (!(err instanceof WorkflowUpdateFailedError)) return undefined;
  const cause = err.cause;
  if (cause instanceof ApplicationFailure && cause.type) return { type: cause.type, message: cause.message };
  return undefined;
}

/**
 * An entity workflow's failed Update (an account's or an organization's verify, scan or disconnect) as the error the
 * caller sees; a workflow that is gone is an entity whose connect did not complete (`PENDING`), or a fault of ours.
 */
export function lifecycleUpdateError(
  err: unknown,
  entity: { noun: 'account' | 'organization'; status: string; connectPath: string },
): unknown {
  const failure = updateFailureType(err);
  if (failure?.type === ROLE_ASSUMPTION_FAILED) return new AppError('role_assumption_failed', failure.message);
  if (failure?.type === INVALID_ACCOUNT_STATE) return new AppError('invalid_state', failure.message);
  if (failure?.type === VERIFICATION_UNAVAILABLE)
    return new AppError('verification_unavailable', failure.message, { retryAfterSeconds: 30 });
  if (err instanceof WorkflowNotFoundError) {
    return new AppError(
      'invalid_state',
      entity.status === 'PENDING'
        ? `The connection of this ${entity.noun} did not complete: connect it again (POST ${entity.connectPath})`
        : `The ${entity.noun} workflow is not running; contact support`,
    );
  }
  return err;
}

/**
 * How a connect starts an account's workflow: its id, its input (the plan's interval, revision and fairness
 * weight), its search attributes, and, unless TEMPORAL_FAIRNESS=false, the tenant's fairness key, so the
 * workflow's own tasks (and what it starts) are dispatched fairly across tenants too.
 */
export function accountWorkflowStart(
  { taskQueue, fairness }: Pick<Config['temporal'], 'taskQueue' | 'fairness'>,
  account: {
    tenantId: string;
    accountId: string;
    awsAccountId: string;
    scanIntervalMinutes: number;
    planRevision: number;
    fairnessWeight: number;
  },
): WorkflowStartOptions<AccountWorkflow> {
  return {
    workflowId: accountWorkflowId(account.tenantId, account.awsAccountId),
    taskQueue,
    args: [{ ...account, ...(fairness ? {} : { fairness: false }) }],
    ...(fairness ? { priority: { fairnessKey: account.tenantId, fairnessWeight: account.fairnessWeight } } : {}),
    // Only this connect holds the row now, so a workflow still running under its id is a leftover: of a
    // disconnected account finishing its last scan, or of a connect that was taken back. It must not block.
    workflowIdConflictPolicy: 'TERMINATE_EXISTING',
    typedSearchAttributes: [
      { key: TENANT_ID, value: account.tenantId },
      { key: AWS_ACCOUNT_ID, value: account.awsAccountId },
      { key: ACCOUNT_STATUS, value: 'PENDING' },
    ],
  };
}
