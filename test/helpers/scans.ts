import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Db } from '../../db/client';
import type { ScanOutcome } from '../../workflows/contracts';
import type { scanWorkflow } from '../../workflows/scan';
import { waitFor } from './account-harness';
import type { TestContext } from './context';

/**
 * The outcome of a scan's workflow, by its execution ARN or scan id. Verify and scan-now answer with the scan
 * id once the account workflow has queued the scan; the scan's child workflow starts a moment later (or after
 * the scan running before it), so right after the answer Temporal may not know it yet.
 */
export async function scanWorkflowResult(temporal: Client, executionArnOrScanId: string): Promise<ScanOutcome> {
  const handle = temporal.workflow.getHandle<typeof scanWorkflow>(executionArnOrScanId.split('/').pop() as string);
  await waitFor(() => handle.describe().then(() => true, (err: unknown) => {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }), 60_000);
  return handle.result();
}

/**
 * Waits until the tenant's alerts have deliveries and every one has finished (delivered, failed or held): a scan's
 * alerts are sent by workflows of their own, after the scan's workflow has completed.
 */
export async function deliveriesSettled(db: Db, tenantId: string): Promise<void> {
  await waitFor(async () => {
    const deliveries = await db.selectFrom('alert_deliveries').select('status').where('tenant_id', '=', tenantId).execute();
    return deliveries.length > 0 && deliveries.every((d) => d.status === 'delivered' || d.status === 'failed' || d.status === 'held');
  });
}

export interface OpenSignalEntry { signal_id: string; check_id: string; region: string; resource: string }

/** Every open signal of an account through the API, page after page (a fresh AWS account has one per region for several checks). */
export async function allOpenSignals(http: TestContext['http'], auth: Record<string, string>, awsAccountId: string): Promise<OpenSignalEntry[]> {
  const all: OpenSignalEntry[] = [];
  let next: string | null = null;
  do {
    const page: { signals: OpenSignalEntry[]; next_token: string | null } = (await http.get(`/accounts/${awsAccountId}/signals`)
      .query({ status: 'open', limit: 200, ...(next ? { next_token: next } : {}) }).set(auth).expect(200)).body;
    all.push(...page.signals);
    next = page.next_token;
  } while (next);
  return all;
}
