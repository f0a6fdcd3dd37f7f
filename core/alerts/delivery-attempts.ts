import type { Db } from '../../db/client';
import {
  findDeliveryView,
  findTriggerStatusOfResolve,
  insertAttempt,
  lockDelivery,
  markSending,
  settleDelivery,
} from '../../db/repositories/alert-deliveries';
import { countOpenSignals, signalsOpenedBy } from '../../db/repositories/signals';
import { severityRank } from '../../domain/checks/types';
import type { AttemptOutcome } from '../../domain/alerts/deliveries';
import { newId } from '../../domain/ids';
import type { HeldRecipient } from '../../domain/alerts/recipients';
import type { DeliveryContext } from '../../notify/alert-message';

// One delivery of an alert to one channel, an attempt at a time: claim, send (core/alerts/deliver.ts), record.

/** What the delivery's message says (undefined when the tenant has no such delivery). */
export async function loadDeliveryContext({
  db,
  tenantId,
  deliveryId,
}: {
  db: Db;
  tenantId: string;
  deliveryId: string;
}): Promise<DeliveryContext | undefined> {
  const view = await findDeliveryView({ db, tenantId, deliveryId });
  if (!view) return undefined;
  const [opened, open] = await Promise.all([
    signalsOpenedBy({
      db,
      accountId: view.accountId,
      scenarios: view.scenarios,
      source:
        view.scanId === null ? { kind: 'events', id: view.eventBatchId ?? '' } : { kind: 'scan', id: view.scanId },
    }),
    countOpenSignals({ db, accountId: view.accountId }),
  ]);
  return {
    ...view,
    // "What changed": the findings the alert's scan opened in the scenarios the alert is about, most severe first.
    opened: opened.sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || a.id.localeCompare(b.id)),
    openCount: open.reduce((sum, o) => sum + o.count, 0),
    openSeverities: [...new Set(open.filter((o) => view.scenarios.includes(o.scenario)).map((o) => o.severity))].sort(
      (a, b) => severityRank(a) - severityRank(b),
    ),
  };
}

/**
 * Claims the delivery for one attempt and returns the claim (its time), or undefined when there is nothing to
 * send (delivered, failed for good, held, or not this tenant's). Finding it still 'sending' means the previous attempt
 * was cut off mid-send (its worker died): that attempt is recorded as such first.
 */
export async function claimDelivery({
  db,
  tenantId,
  deliveryId,
  now = new Date(),
}: {
  db: Db;
  tenantId: string;
  deliveryId: string;
  now?: Date;
}): Promise<Date | undefined> {
  return db.transaction().execute(async (trx) => {
    const current = await lockDelivery({ db: trx, tenantId, deliveryId });
    // Settled for good: delivered, failed, or held (an e-mail that could go to nobody; it is not sent later).
    if (!current || current.status === 'delivered' || current.status === 'failed' || current.status === 'held')
      return undefined;
    if (current.status === 'sending') {
      await insertAttempt({
        db: trx,
        attempt: {
          id: newId('attempt'),
          delivery_id: deliveryId,
          attempted_at: current.claimed_at ?? now,
          outcome: 'retryable',
          http_status: null,
          error: 'the attempt was cut off: the worker stopped while sending',
        },
      });
    }
    await markSending({ db: trx, deliveryId, claimedAt: now });
    return now;
  });
}

/**
 * Records one attempt and moves the delivery on (delivered, failed for good, or pending for the next retry),
 * but only if the attempt still holds the claim (see settleDelivery).
 */
export async function recordAttempt({
  db,
  deliveryId,
  claimedAt,
  outcome,
  httpStatus,
  error,
  held,
  now = new Date(),
}: {
  db: Db;
  deliveryId: string;
  claimedAt: Date;
  outcome: AttemptOutcome;
  httpStatus?: number;
  error?: string;
  held?: readonly HeldRecipient[];
  now?: Date;
}): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertAttempt({
      db: trx,
      attempt: {
        id: newId('attempt'),
        delivery_id: deliveryId,
        attempted_at: claimedAt,
        outcome,
        http_status: httpStatus ?? null,
        error: error ?? null,
      },
    });
    await settleDelivery({ db: trx, deliveryId, claimedAt, outcome, error: error ?? null, at: now, held });
  });
}

/** A resolve must not overtake its trigger (PagerDuty would reopen the incident): is the trigger still on its way? */
export async function triggerStillPending({ db, deliveryId }: { db: Db; deliveryId: string }): Promise<boolean> {
  const status = await findTriggerStatusOfResolve({ db, deliveryId });
  return status === 'pending' || status === 'sending';
}
