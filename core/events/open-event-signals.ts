import type { Db } from '../../db/client';
import {
  addOccurrences,
  countOpenSignalsOfChecks,
  insertAcceptances,
  insertSignals,
  insertSignalsNotOpen,
  listOpenFingerprints,
  listOpenOccurrences,
  listScopesInForce,
} from '../../db/repositories/signals';
import type { NewSignal } from '../../db/tables/accounts';
import type { Severity } from '../../domain/checks/types';
import {
  boundOpenings,
  decideOccurrences,
  deduplicationOf,
  isOccurrenceDetection,
  type OccurrenceDecision,
  type OpenOccurrence,
} from '../../domain/events/occurrences';
import { newId } from '../../domain/ids';
import { boundSignalText } from '../../domain/signals/bounds';
import { acceptanceInForce } from '../../domain/signals/lifecycle';

// Opening the signals of event detections (and of the probable compromise a scan completes), as
// domain/events/occurrences.ts decides: a state detection's signal unless the same is open; an occurrence
// detection's unless the occurrence is counted on an open one, accepted at once when a scoped acceptance covers it;
// and either only while the account holds fewer than OPEN_SIGNALS_PER_DETECTION open of the detection, the rest
// counted on its newest open signal.

/** A signal a detection's finding would open: an occurrence detection's names its principal and time. */
export type EventSignal = NewSignal & { check_id: string; occurred_at: Date };

export interface OpenedSignal {
  checkId: string;
  severity: Severity;
  /** Accepted at once by a scoped acceptance in force: stored, but it fires no alert and counts in no score. */
  accepted: boolean;
}

/** The longest window an occurrence of these signals is counted in, in milliseconds. */
function longestWindowMs(signals: readonly EventSignal[]): number {
  return Math.max(
    0,
    ...signals.map((s) => {
      const dedup = deduplicationOf(s.check_id);
      return dedup.kind === 'occurrence' ? dedup.windowMinutes * 60_000 : 0;
    }),
  );
}

/** What the occurrence rule decides for the batch's occurrences, from the open signals and scopes it reads. */
async function decide(
  db: Db,
  account: { id: string },
  occurrences: readonly EventSignal[],
  at: Date,
): Promise<{ decisions: OccurrenceDecision[]; scopes: Awaited<ReturnType<typeof listScopesInForce>> }> {
  if (occurrences.length === 0) return { decisions: [], scopes: [] };
  const checkIds = [...new Set(occurrences.map((s) => s.check_id))];
  // Only the open signals an occurrence could be counted on: within the longest window of the batch's times.
  const times = occurrences.map((s) => s.occurred_at.getTime());
  const window = longestWindowMs(occurrences);
  const [open, scopes] = await Promise.all([
    listOpenOccurrences({
      db,
      accountId: account.id,
      checkIds,
      from: new Date(Math.min(...times) - window),
      to: new Date(Math.max(...times) + window),
    }),
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
  return { decisions, scopes };
}

/**
 * Opens what the rules let open of these signals, in the caller's transaction, with the account's row locked (so
 * that the open signals, their counts and the scopes read here are those the decision stands on). An occurrence
 * counted on an open signal adds one to its `occurrences`; its event is stored already, naming the detection.
 */
export async function openEventSignals(
  db: Db,
  account: { tenant_id: string; id: string },
  detected: readonly EventSignal[],
  at: Date,
): Promise<OpenedSignal[]> {
  if (detected.length === 0) return [];
  // Their text within the bounds every signal keeps (a scan's findings are bounded where they are made).
  const signals = detected.map(boundSignalText);
  const states = signals.filter((s) => !isOccurrenceDetection(s.check_id));
  const occurrences = signals.filter((s) => isOccurrenceDetection(s.check_id));
  const [load, openStates, { decisions, scopes }] = await Promise.all([
    countOpenSignalsOfChecks({ db, accountId: account.id, checkIds: [...new Set(signals.map((s) => s.check_id))] }),
    listOpenFingerprints({ db, accountId: account.id, fingerprints: states.map((s) => s.fingerprint) }),
    decide(db, account, occurrences, at),
  ]);
  // A state already open is that state again, left as it is; so is a second finding of it in the batch.
  const seen = new Set(openStates);
  const newStates: EventSignal[] = [];
  for (const state of states) {
    if (seen.has(state.fingerprint)) continue;
    seen.add(state.fingerprint);
    newStates.push(state);
  }
  const candidates = [
    ...newStates.map((signal) => ({ signal, scope: undefined })),
    ...occurrences.flatMap((signal, i) => {
      const decision = decisions[i]!;
      return decision.open ? [{ signal, scope: scopes.find((s) => s.id === decision.scope?.id) }] : [];
    }),
  ];
  const bound = boundOpenings(
    new Map(load.map((l) => [l.checkId, { open: l.open, newest: l.newest }])),
    candidates.map(({ signal }) => ({ signalId: signal.id, detectionId: signal.check_id })),
  );
  const opening = candidates.filter((_, i) => bound[i]!.open);
  const countedOn = [
    ...decisions.flatMap((d) => (d.open ? [] : [d.countedOn])),
    ...bound.flatMap((b) => (b.open ? [] : [b.countedOn])),
  ];

  const openedStates = await insertSignalsNotOpen({
    db,
    signals: opening.filter(({ signal }) => !isOccurrenceDetection(signal.check_id)).map((o) => o.signal),
  });
  const openingOccurrences = opening.filter(({ signal }) => isOccurrenceDetection(signal.check_id));
  await insertSignals({ db, signals: openingOccurrences.map((o) => o.signal) });
  const counts = new Map<string, number>();
  for (const id of countedOn) counts.set(id, (counts.get(id) ?? 0) + 1);
  await addOccurrences({ db, counts: [...counts].map(([signalId, count]) => ({ signalId, count })) });
  await insertAcceptances({
    db,
    acceptances: openingOccurrences.flatMap(({ signal, scope }) =>
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
  // A detection has one severity: the check ids the insert answers name it.
  const severities = new Map(signals.map((s) => [s.check_id, s.severity]));
  return [
    ...openedStates.map((checkId) => ({ checkId, severity: severities.get(checkId)!, accepted: false })),
    ...openingOccurrences.map(({ signal, scope }) => ({
      checkId: signal.check_id,
      severity: signal.severity,
      accepted: scope !== undefined,
    })),
  ];
}
