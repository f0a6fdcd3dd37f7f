import { type Client, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';

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
 * The spec's "execution ARN" of a scan: it names the Temporal namespace and the scan workflow's id, so an
 * operator can find the scan in the Temporal UI (search for the part after `workflow/`).
 */
export function executionArn(namespace: string, workflowId: string): string {
  return `arn:sentinel:temporal:${namespace}:workflow/${workflowId}`;
}

/** Maps a failed update (its ApplicationFailure type) to the API error the caller should see. */
export function updateFailureType(err: unknown): { type: string; message: string } | undefined {
  if (!(err instanceof WorkflowUpdateFailedError)) return undefined;
  const cause = err.cause;
  if (cause instanceof ApplicationFailure && cause.type) return { type: cause.type, message: cause.message };
  return undefined;
}
