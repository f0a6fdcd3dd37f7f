import type { Db } from '../../db/client';
import {
  insertAcceptances,
  insertSignals,
  insertSignalsNotOpen,
  listOpenOccurrences,
  listScopesInForce,
} from '../../db/repositories/signals';
import type { NewSignal } from '../../db/tables/accounts';
import type { Severity } from '../../domain/checks/types';
import { decideOccurrences, isOccurrenceDetection, type OpenOccurrence } from '../../domain/events/occurrences';
import { newId } from '../../domain/ids';
import { boundSignalText } from '../../domain/signals/bounds';
import { acceptanceInForce } from '../../domain/signals/lifecycle';

// Opening the signals of event detections (and of the probable compromise a scan completes), as
// domain/events/occurrences.ts decides: a state detection's signal unless the same is open; an occurrence
// detection's unless the occurrence is counted on an open one, accepted at once when a scoped acceptance covers it.

/** A signal a detection's finding would open: an occurrence detection's names its principal and time. */
export type EventSignal = NewSignal & { check_id: string; occurred_at: Date };

export interface OpenedSignal {
  checkId: string;
  severity: Severity;
  /** Accepted at once by a scoped acceptance in force: stored, but it fires no alert and counts in no score. */
  accepted: boolean;
}

/**
 * Opens what the bound lets open of these signals, in the caller's transaction, with the account's row locked (so
 * that the open signals and the scopes read here are those the decision stands on). Occurrences counted on an open
 * signal write nothing: their events are stored already, naming the detection.
 */
export async function openEventSignals(
  db: Db,
  account: { tenant_id: string; id: string },
  detected: readonly EventSignal[],
  at: Date,
): Promise<OpenedSignal[]> {
  // Their text within the bounds every signal keeps (a scan's findings are bounded where they are made).
  const signals = detected.map(boundSignalText);
  const states = signals.filter((s) => !isOccurrenceDetection(s.check_id));
  const occurrences = signals.filter((s) => isOccurrenceDetection(s.check_id));
  // A detection has one severity: the check ids the insert answers name it.
  const severities = new Map(signals.map((s) => [s.check_id, s.severity]));
  const opened: OpenedSignal[] = (await insertSignalsNotOpen({ db, signals: states })).map((checkId) => ({
    checkId,
    severity: severities.get(checkId)!,
    accepted: false,
  }));
  if (occurrences.length === 0) return opened;

  const checkIds = [...new Set(occurrences.map((s) => s.check_id))];
  const [open, scopes] = await Promise.all([
    listOpenOccurrences({ db, accountId: account.id, checkIds }),
    listScopesInForce({ db, accountId: account.id, checkIds, at }),
  ]);
  const decisions = decideOccurrences(
    open.map(
      (s): OpenOccurrence => ({
        signalId: s.id,
        detectionId: s.checkId,
        principal: s.principal,
        occurredAt: s.occurredAt,
        acceptance:
          s.acceptance && acceptanceInForce(s.acceptance, at)
            ? {
                scopeId: s.acceptance.scopeAcceptanceId ?? (s.acceptance.scope === 'signal' ? null : s.acceptance.id),
              }
            : null,
      }),
    ),
    scopes.map((scope) => ({
      id: scope.id,
      detectionId: scope.check_id,
      principal: scope.scope === 'principal' ? scope.scope_principal : null,
    })),
    occurrences.map((s) => ({
      signalId: s.id,
      detectionId: s.check_id,
      principal: s.principal ?? null,
      occurredAt: s.occurred_at,
    })),
  );
  const opening = occurrences.flatMap((signal, i) => {
    const decision = decisions[i]!;
    return decision.open ? [{ signal, scope: scopes.find((s) => s.id === decision.scope?.id) }] : [];
  });
  await insertSignals({ db, signals: opening.map((o) => o.signal) });
  await insertAcceptances({
    db,
    acceptances: opening.flatMap(({ signal, scope }) =>
      scope
        ? [
            {
              id: newId('acceptance', at.getTime()),
              tenant_id: account.tenant_id,
              account_id: account.id,
              signal_id: signal.id,
              accepted_by: scope.accepted_by,
              accepted_by_email: scope.accepted_by_email,
              reason: scope.reason,
              accepted_at: at,
              expires_at: scope.expires_at,
              scope: scope.scope,
              scope_principal: scope.scope_principal,
              scope_signal_id: scope.scope_signal_id,
              scope_acceptance_id: scope.id,
            },
          ]
        : [],
    ),
  });
  return [
    ...opened,
    ...opening.map(({ signal, scope }) => ({
      checkId: signal.check_id,
      severity: signal.severity,
      accepted: scope !== undefined,
    })),
  ];
}
