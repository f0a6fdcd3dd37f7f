import type { Db } from '../../db/client';
import { addEventDetections } from '../../db/repositories/account-events';
import { addToWindows, markWindowsSignalled, recordSensitiveUses } from '../../db/repositories/detection-windows';
import { describedDetection } from '../../domain/events/catalog';
import type { AccountEvent, DetectionContext, DetectionDescription, EventFinding } from '../../domain/events/types';
import {
  crossedWindows,
  DISTINCT_VALUES_CAP,
  FIRST_USE_ID,
  FIRST_USE_MEMORY_DAYS,
  FIRST_USES_PER_ACCOUNT,
  LONGEST_WINDOW_MINUTES,
  WINDOWS_PER_ACCOUNT,
  firstUseFinding,
  isFirstUse,
  type SensitiveUse,
  sensitiveUses,
  tallyWindows,
  type WindowTally,
  windowFinding,
} from '../../domain/events/windows';

// The detections with memory at ingestion (domain/events/windows.ts): what a request's new events add to the account's
// windows and first uses, in the transaction that stores them, and the findings of the windows they take to their
// threshold and of the first uses. Each finding then opens its signal like any event detection's
// (core/events/open-event-signals.ts), once per window and key, never once per event.

/** What the detections with memory will read of a request's events, before they are stored. */
export interface Remembering {
  tallies: (fresh: ReadonlySet<string>) => WindowTally[];
  uses: (fresh: ReadonlySet<string>) => SensitiveUse[];
  /** Whether any event of the request counts in a window or is a sensitive call. */
  any: boolean;
}

export function remembering(events: readonly AccountEvent[], context: DetectionContext, at: Date): Remembering {
  const all = { tallies: tallyWindows(events, context, at), uses: sensitiveUses(events, context) };
  const only = (fresh: ReadonlySet<string>) => events.filter((e) => fresh.has(e.eventId));
  return {
    any: all.tallies.length > 0 || all.uses.length > 0,
    // A redelivered event counted when it first came: only the events stored now count.
    tallies: (fresh) => (fresh.size === events.length ? all.tallies : tallyWindows(only(fresh), context, at)),
    uses: (fresh) => (fresh.size === events.length ? all.uses : sensitiveUses(only(fresh), context)),
  };
}

export interface RememberedFinding {
  event: AccountEvent;
  detection: DetectionDescription;
  finding: EventFinding;
}

/** Counts the new events in their windows and records their sensitive calls; answers the findings that opens. */
export async function rememberEvents(
  db: Db,
  account: { id: string; tenant_id: string },
  what: Remembering,
  fresh: ReadonlySet<string>,
  at: Date,
): Promise<RememberedFinding[]> {
  const owner = { db, tenantId: account.tenant_id, accountId: account.id, at };
  const tallies = what.tallies(fresh);
  // A window is kept for twice the longest one: an event late by up to the longest window still finds it.
  const states = await addToWindows({
    ...owner,
    tallies,
    valueCap: DISTINCT_VALUES_CAP,
    bound: { before: new Date(at.getTime() - 2 * LONGEST_WINDOW_MINUTES * 60_000), rows: WINDOWS_PER_ACCOUNT },
  });
  const marked = await markWindowsSignalled({ db, accountId: account.id, windows: crossedWindows(states) });
  const same = (a: { detectionId: string; key: string; windowStart: Date }) => (b: typeof a) =>
    a.detectionId === b.detectionId && a.key === b.key && a.windowStart.getTime() === b.windowStart.getTime();
  const windows = marked.flatMap((window): RememberedFinding[] => {
    const state = states.find(same(window));
    const tally = tallies.find(same(window));
    if (!state || !tally) return [];
    return [
      {
        event: tally.event,
        detection: describedDetection(window.detectionId),
        finding: windowFinding(state, tally.event),
      },
    ];
  });
  const uses = what.uses(fresh);
  const remembered = await recordSensitiveUses({
    ...owner,
    uses,
    bound: { before: new Date(at.getTime() - FIRST_USE_MEMORY_DAYS * 86_400_000), rows: FIRST_USES_PER_ACCOUNT },
  });
  const firsts = uses.flatMap((use): RememberedFinding[] => {
    const before = remembered.find((r) => r.principal === use.principal && r.api === use.api);
    if (!before || !isFirstUse(use, before, at)) return [];
    return [{ event: use.event, detection: describedDetection(FIRST_USE_ID), finding: firstUseFinding(use) }];
  });
  const found = [...windows, ...firsts];
  await addEventDetections({
    db,
    accountId: account.id,
    found: found.map((f) => ({ eventId: f.event.eventId, detectionId: f.detection.id })),
  });
  return found;
}
