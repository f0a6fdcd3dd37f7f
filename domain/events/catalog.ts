import { PROBABLE_COMPROMISE } from './compound';
import { EVENT_DETECTIONS } from './detections';
import type { EventDetection } from './types';

// Every detection by id, the compound one included: what a signal's check id names when an event opened it.

const BY_ID: ReadonlyMap<string, Omit<EventDetection, 'detect'>> = new Map(
  [...EVENT_DETECTIONS, PROBABLE_COMPROMISE].map((d) => [d.id, d]),
);

/** A signal an event opened: its check id is a detection's (`event.*`), never a scan check's. */
export const isEventSignal = (checkId: string): boolean => checkId.startsWith('event.');

export function eventDetection(id: string): Omit<EventDetection, 'detect'> | undefined {
  return BY_ID.get(id);
}
