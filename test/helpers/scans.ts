import type { Client } from '@temporalio/client';
import { parseExecutionArn } from '../../core/temporal/commands';
import type { Db } from '../../db/client';
import { type CompletedScan, stateQuery } from '../../workflows/contracts';
import { waitFor } from './patience';
import type { TestContext } from './context';

/**
 * The outcome of a scan, by the execution ARN the API answered with, once the account workflow has run it to the
 * end (alert rules fired, deliveries started): its state query lists the scans it completed last.
 */
export async function scanResult(temporal: Client, executionArn: string): Promise<CompletedScan> {
  const parsed = parseExecutionArn(executionArn);
  if (!parsed) throw new Error(`not a scan's execution ARN: ${executionArn}`);
  const { workflowId, scanId } = parsed;
  const handle = temporal.workflow.getHandle(workflowId);
  let done: CompletedScan | undefined;
  await waitFor(async () => {
    done = (await handle.query(stateQuery)).recentScans.find((s) => s.scanId === scanId);
    return done !== undefined;
  });
  return done!;
}

/**
 * Waits until the tenant's alerts have deliveries and every one has finished (delivered, failed or held): a scan's
 * alerts are sent by workflows of their own, after the scan's workflow has completed.
 */
export async function deliveriesSettled(db: Db, tenantId: string): Promise<void> {
  await waitFor(async () => {
    const deliveries = await db
      .selectFrom('alert_deliveries')
      .select('status')
      .where('tenant_id', '=', tenantId)
      .execute();
    return (
      deliveries.length > 0 &&
      deliveries.every((d) => d.status === 'delivered' || d.status === 'failed' || d.status === 'held')
    );
  });
}

export interface OpenSignalEntry {
  signal_id: string;
  check_id: string;
  scenario: string;
  severity: string;
  region: string;
  resource: string;
}

/** Every open signal of an account through the API, page after page (a fresh AWS account has one per region for several checks). */
export async function allOpenSignals(
  http: TestContext['http'],
  auth: Record<string, string>,
  awsAccountId: string,
): Promise<OpenSignalEntry[]> {
  const all: OpenSignalEntry[] = [];
  let next: string | null = null;
  do {
    const page: { signals: OpenSignalEntry[]; next_token: string | null } = (
      await http
        .get(`/accounts/${awsAccountId}/signals`)
        .query({ status: 'open', limit: 200, ...(next ? { next_token: next } : {}) })
        .set(auth)
        .expect(200)
    ).body;
    all.push(...page.signals);
    next = page.next_token;
  } while (next);
  return all;
}
