import type { Db } from '../../db/client';
import { recentEventsDetecting } from '../../db/repositories/account-events';
import { signalsDetectedSince } from '../../db/repositories/signals';
import { EVENT_INDICATORS, type Indicator, indicatorKind, SCAN_INDICATORS } from '../../domain/events/compound';
import { eventDetection } from '../../domain/events/catalog';

// The evidence of the compound "probable compromise" detection (domain/events/compound.ts), read for both ways it
// can complete: an event bringing an indicator (core/events/ingestion.ts) and a scan opening one
// (core/scans/save-scan.ts).

const DAY_MS = 86_400_000;
/** Indicator events read; far more than a compromise needs, few enough for a burst of them to cost little. */
const EVENTS_READ = 200;

/** The account's indicator events and indicator signals of the day up to `now`. */
export async function indicatorsOfLastDay(db: Db, accountId: string, now: Date): Promise<Indicator[]> {
  const since = new Date(now.getTime() - DAY_MS);
  const [events, signals] = await Promise.all([
    recentEventsDetecting({ db, accountId, since, detections: EVENT_INDICATORS, limit: EVENTS_READ }),
    signalsDetectedSince({ db, accountId, since, checkIds: SCAN_INDICATORS }),
  ]);
  const fromEvents = events.flatMap((e) =>
    e.detections.flatMap((id): Indicator[] => {
      const kind = indicatorKind(id);
      if (!kind) return [];
      const title = eventDetection(id)?.title ?? id;
      return [
        {
          // By who acted: a principal's repeated calls are one indicator.
          kind,
          id,
          resource: e.actor ?? e.event_id,
          region: e.region,
          at: e.event_time.toISOString(),
          summary: `${title}: ${e.event_name ?? 'event'} by ${e.actor ?? 'an unknown principal'} in ${e.region}`,
        },
      ];
    }),
  );
  const fromScans = signals.flatMap((s): Indicator[] => {
    const kind = indicatorKind(s.check_id);
    return kind
      ? [
          {
            kind,
            id: s.check_id,
            resource: s.resource,
            region: s.region,
            at: s.detected_at.toISOString(),
            summary: s.title,
          },
        ]
      : [];
  });
  return [...fromEvents, ...fromScans];
}
