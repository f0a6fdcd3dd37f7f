import type { Db } from '../../db/client';
import { insertEventBatch, noteBatchSignals } from '../../db/repositories/account-events';
import { lockAccount } from '../../db/repositories/accounts';
import { listAccountsWithForwardingChanges, listForwardingRegions } from '../../db/repositories/event-forwarding';
import { listOpenSignalsOfCheck, resolveSignalsWithoutScan } from '../../db/repositories/signals';
import { describedDetection, FORWARDING_BLIND_ID } from '../../domain/events/catalog';
import { heartbeatRuleArn, lateBefore } from '../../domain/events/forwarding-health';
import { eventFingerprint } from '../../domain/events/occurrences';
import { newId } from '../../domain/ids';
import { forwardingBlindChanges } from '../../domain/signals/lifecycle';
import { eventSignalsOpened } from '../../observability/metrics';
import { rescoreAccount } from '../signals/rescore';
import { type BatchAccount, type DispatchDeps, dispatchEventBatches } from './dispatch-batches';
import { type EventSignal, openEventSignals } from './open-event-signals';

// The forwarding watch (docs/event-forwarding.md, "Heartbeat"), started every HEARTBEAT_INTERVAL_MINUTES by the
// schedule `sentinel-forwarding-watch-<task queue>` (worker/schedules.ts): every region of a connected account that
// sent a heartbeat at least once and has been silent past the bound gets a HIGH signal (event.forwarding_blind),
// resolved once its heartbeat is back (domain/signals/lifecycle.ts `forwardingBlindChanges`). The signals open as an
// event's do: in an event batch, through open-event-signals.ts, the account rescored, then the batch dispatched
// (core/events/dispatch-batches.ts: the alert rules fire, the deliveries start). Each account is one transaction
// under its row's lock, decided on what it reads there: a retried run, or two at once, opens nothing twice and
// resolves nothing twice; a batch whose dispatch failed is the event-dispatch schedule's.

const MINUTE_MS = 60_000;

interface AccountChanges {
  opened: number;
  resolved: number;
  /** The batch the opened signals belong to, to dispatch after the commit. */
  batchId: string | null;
}

function blindSignal(account: BatchAccount, batchId: string, region: string, lastHeartbeatAt: Date, at: Date) {
  const detection = describedDetection(FORWARDING_BLIND_ID);
  const resource = heartbeatRuleArn(region, account.aws_account_id);
  const silentMinutes = Math.floor((at.getTime() - lastHeartbeatAt.getTime()) / MINUTE_MS);
  const signal: EventSignal = {
    id: newId('signal', at.getTime()),
    tenant_id: account.tenant_id,
    account_id: account.id,
    check_id: detection.id,
    // One per region while it lasts (a state detection: detection + resource + region).
    fingerprint: eventFingerprint(detection.id, { resource, region }, ''),
    scenario: detection.scenario,
    severity: detection.severity,
    title: `Real-time detection is blind in ${region}`,
    description:
      `${detection.description} No heartbeat from ${region} since ${lastHeartbeatAt.toISOString()} ` +
      `(${silentMinutes} minutes at ${at.toISOString()}).`,
    resource,
    region,
    owner: null,
    first_scan_id: null,
    event_batch_id: batchId,
    controls: null,
    detected_at: at,
    principal: null,
    occurred_at: at,
  };
  return signal;
}

/** Opens and resolves one account's blind-forwarder signals as its regions stand at `at`, in one transaction. */
async function watchAccount(db: Db, account: BatchAccount, at: Date): Promise<AccountChanges> {
  return db.transaction().execute(async (trx): Promise<AccountChanges> => {
    // The account's row first, as ingestion and a scan's save do: one writer of its signals and score at a time.
    const locked = await lockAccount({ db: trx, tenantId: account.tenant_id, accountId: account.id });
    if (!locked || locked.status === 'DISCONNECTED') return { opened: 0, resolved: 0, batchId: null };
    const regions = await listForwardingRegions({ db: trx, tenantId: account.tenant_id, accountId: account.id });
    const open = await listOpenSignalsOfCheck({ db: trx, accountId: account.id, checkId: FORWARDING_BLIND_ID });
    const { blind, resolved } = forwardingBlindChanges(
      open,
      regions.map((r) => ({ region: r.region, lastHeartbeatAt: r.last_heartbeat_at })),
      at,
    );
    let opened = 0;
    let batchId: string | null = null;
    if (blind.length > 0) {
      const id = newId('eventBatch', at.getTime());
      batchId = id;
      await insertEventBatch({
        db: trx,
        batch: {
          id,
          tenant_id: account.tenant_id,
          account_id: account.id,
          groups: [],
          signals_opened: 0,
          received_at: at,
        },
      });
      // A late region has a last heartbeat: only those are watched.
      const signals = regions.flatMap((r) =>
        blind.includes(r.region) && r.last_heartbeat_at
          ? [blindSignal(account, id, r.region, r.last_heartbeat_at, at)]
          : [],
      );
      opened = (await openEventSignals(trx, account, signals, at)).length;
      await noteBatchSignals({ db: trx, batchId: id, opened });
    }
    const resolvedCount = await resolveSignalsWithoutScan({ db: trx, signalIds: resolved.map((s) => s.id), at });
    if (opened > 0 || resolvedCount > 0) await rescoreAccount({ db: trx, account: locked, at });
    return { opened, resolved: resolvedCount, batchId };
  });
}

export function forwardingWatchUseCases(deps: DispatchDeps) {
  return {
    /**
     * One run of the watch at `at` (the workflow's time, so the test server's clock is the one that counts). An account
     * that fails is left for the next run; the others go ahead.
     */
    async watchEventForwarding({
      at,
    }: {
      at: number;
    }): Promise<{ accounts: number; opened: number; resolved: number; failed: number }> {
      const now = new Date(at);
      const accounts = await listAccountsWithForwardingChanges({
        db: deps.db,
        lateBefore: lateBefore(now),
        checkId: FORWARDING_BLIND_ID,
      });
      const totals = { accounts: accounts.length, opened: 0, resolved: 0, failed: 0 };
      for (const account of accounts) {
        try {
          const changes = await watchAccount(deps.db, account, now);
          totals.opened += changes.opened;
          totals.resolved += changes.resolved;
          if (changes.opened > 0) eventSignalsOpened.inc({ detection: FORWARDING_BLIND_ID }, changes.opened);
          // Alerts and deliveries of the new batch (and of any an earlier attempt left); if this fails, the
          // event-dispatch schedule takes the batch within a minute or two.
          if (changes.batchId) await dispatchEventBatches(deps, account);
        } catch (err) {
          totals.failed += 1;
          deps.log.warn(
            { tenantId: account.tenant_id, accountId: account.id, err },
            'event forwarding not watched for the account; the next run tries again',
          );
        }
      }
      if (totals.opened + totals.resolved + totals.failed > 0) deps.log.info(totals, 'event forwarding watched');
      return totals;
    },
  };
}
