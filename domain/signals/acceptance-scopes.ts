import { isEventSignal } from '../events/catalog';
import { isOccurrenceDetection, scopeCovers } from '../events/occurrences';

// What an acceptance of a signal's risk accepts (docs/decisions.md, "Accepted risk"): the signal alone (the default),
// or, for a signal of an occurrence detection (domain/events/occurrences.ts), a scope with an expiry that also accepts
// the detection's later occurrences: by the signal's principal, or by anyone.

export const ACCEPTANCE_SCOPES = ['signal', 'principal', 'detection'] as const;
export type AcceptanceScope = (typeof ACCEPTANCE_SCOPES)[number];

/** How long a scope may accept later occurrences: it silences what has not happened yet, so never for long. */
export const MAX_SCOPED_ACCEPTANCE_DAYS = 90;

/** Why the signal cannot be accepted with this scope, or null when it can. */
export function scopeProblem(
  scope: AcceptanceScope,
  signal: { checkId: string; principal: string | null },
): string | null {
  if (scope === 'signal') return null;
  if (!isEventSignal(signal.checkId) || !isOccurrenceDetection(signal.checkId))
    return (
      `${signal.checkId} is not an occurrence detection: its signal stands for a state a scan confirms, so only ` +
      'the signal itself can be accepted (scope signal)'
    );
  if (scope === 'principal' && signal.principal === null)
    return 'the signal names no principal: accept it alone (scope signal) or the detection from anyone (scope detection)';
  return null;
}

/** A scope as its acceptance records it: the signal it was made on names the detection, and the principal when scoped by it. */
export interface ScopeRecord {
  scope: Exclude<AcceptanceScope, 'signal'>;
  checkId: string;
  principal: string | null;
}

/** Whether a scoped acceptance covers an open signal of its detection (by the scope's principal, unless it is anyone's). */
export function scopeAccepts(record: ScopeRecord, signal: { checkId: string; principal: string | null }): boolean {
  return scopeCovers(
    { detectionId: record.checkId, principal: record.scope === 'principal' ? record.principal : null },
    { detectionId: signal.checkId, principal: signal.principal },
  );
}
