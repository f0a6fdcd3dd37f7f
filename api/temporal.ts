import type { Client } from '@temporalio/client';

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
