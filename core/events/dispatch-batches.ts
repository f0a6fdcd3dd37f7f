import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Config } from '../../config/config';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import {
  listAccountsWithBatchesLeft,
  listUndispatchedBatches,
  markBatchesDispatched,
} from '../../db/repositories/account-events';
import type { AccountStatus } from '../../domain/accounts/status';
import type { ServiceGroup } from '../../domain/events/types';
import { deliveryStart, eventsReceivedMessage } from '../../workflows/contracts';
import { COMMAND_DEADLINE_MS, withDeadline } from '../temporal/commands';
import { type AlertDeliveryWorkflow, WORKFLOW_TYPES } from '../temporal/workflow-types';
import { fireAlertRules } from '../alerts/fire-alert-rules';

// What is left to do once a batch of an account's events is stored (core/events/ingestion.ts): fire the
// tenant's alert rules on the signals it opened, start their deliveries, and tell the account workflow which service
// groups to rescan. The ingesting API process does it right after answering the request; the event-dispatch
// schedule (worker/schedules.ts) does it for every batch left over (an API process that stopped, Temporal out of
// reach). Every step is idempotent per batch: a rule fires once per batch, a delivery's workflow id is its id, and
// a rescan told twice is one rescan.

export interface DispatchDeps {
  db: Db;
  log: Logger;
  temporal: Client;
  config: Readonly<Config>;
}

/** The account of a batch, as dispatching needs it. */
export interface BatchAccount {
  id: string;
  tenant_id: string;
  aws_account_id: string;
  status: AccountStatus;
  workflow_id: string;
}

/** A batch left over this long is the schedule's: the ingesting request's own dispatch has had its chance. */
const BATCH_LEFT_OVER_SECONDS = 30;
/** Accounts one schedule run takes on (the next run, a minute later, takes the rest). */
const ACCOUNTS_PER_RUN = 500;

/** Starts one delivery's workflow, as a scan's alerts start theirs (deliveryStart): started twice, it runs once. */
async function startDelivery(
  { temporal, config }: DispatchDeps,
  account: BatchAccount,
  deliveryId: string,
): Promise<void> {
  try {
    await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
      temporal.workflow.start<AlertDeliveryWorkflow>(WORKFLOW_TYPES.alertDelivery, {
        ...deliveryStart({ tenantId: account.tenant_id, awsAccountId: account.aws_account_id, deliveryId }),
        taskQueue: config.temporal.taskQueue,
        // An event's alert is what events are for: ahead of any backlog of scans, shared fairly between tenants.
        priority: { priorityKey: 1, ...(config.temporal.fairness ? { fairnessKey: account.tenant_id } : {}) },
      }),
    );
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Acts on every batch of the account not acted on yet: the alert rules fire per batch (oldest first), and the account
 * workflow is told once of every group the batches touched. Throws at the first step that fails, marking nothing.
 */
export async function dispatchEventBatches(deps: DispatchDeps, account: BatchAccount): Promise<void> {
  const { db, log, temporal } = deps;
  const batches = await listUndispatchedBatches({ db, accountId: account.id });
  if (batches.length === 0) return;
  for (const batch of batches.filter((b) => b.signals_opened > 0)) {
    const source = { kind: 'events' as const, id: batch.id };
    const deliveries = await fireAlertRules({ db, log, tenantId: account.tenant_id, accountId: account.id, source });
    // Every start ends before the run does, so no call of a run that failed is still going when it is over.
    const started = await Promise.allSettled(deliveries.map((d) => startDelivery(deps, account, d.deliveryId)));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  }
  const groups = [...new Set(batches.flatMap((b) => b.groups as ServiceGroup[]))];
  // Only an active account scans; a pending one is read in full by its first scan anyway.
  if (groups.length > 0 && account.status === 'ACTIVE') {
    const batchId = batches[batches.length - 1]!.id;
    await withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
      temporal.workflow.getHandle(account.workflow_id).signal(eventsReceivedMessage, { batchId, groups }),
    );
  }
  await markBatchesDispatched({ db, batchIds: batches.map((b) => b.id), at: new Date() });
}

export function leftOverBatchUseCases(deps: DispatchDeps) {
  return {
    /**
     * The event-dispatch schedule's run: the batches left over for BATCH_LEFT_OVER_SECONDS, account by account. An
     * account that fails again is left for the next run; the others go ahead.
     */
    async dispatchLeftOverEventBatches(): Promise<{ accounts: number; failed: number }> {
      const accounts = await listAccountsWithBatchesLeft({
        db: deps.db,
        olderThanSeconds: BATCH_LEFT_OVER_SECONDS,
        limit: ACCOUNTS_PER_RUN,
      });
      let failed = 0;
      for (const account of accounts) {
        try {
          await dispatchEventBatches(deps, account);
        } catch (err) {
          failed += 1;
          deps.log.warn(
            { tenantId: account.tenant_id, accountId: account.id, err },
            'left-over event batches not acted on; the next run tries again',
          );
        }
      }
      if (accounts.length > 0) deps.log.info({ accounts: accounts.length, failed }, 'left-over event batches acted on');
      return { accounts: accounts.length, failed };
    },
  };
}
