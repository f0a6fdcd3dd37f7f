import type { Db } from '../../db/client';
import {
  countAndStoreEvents,
  type EventStoreRequest,
  type EventStoreResult,
} from '../../db/repositories/account-events';
import { eventStoreGroupRequests } from '../../observability/metrics';

// Group commit of ingestion's plain requests (docs/decisions.md, "Events"): a request whose events set off nothing
// (nearly all) is counted and stored together with the others that arrive while earlier ones are being written, in
// one statement (its own transaction), and each is answered once that statement has committed. Under a burst the
// database then does one statement and one commit for dozens of requests instead of for each; a request alone is
// written at once.
// Nothing is answered before its commit, so a process that dies has acknowledged nothing it had not stored.
// Requests are grouped in the order they arrived, and within a group one account's requests are counted in that order
// (two groups in flight at once are counted in the order they lock the account's window).

/** The length of the events' rate-limit windows, in seconds. */
export const EVENT_WINDOW_SECONDS = 60;
/** Parameters of one group's statement at most: well under PostgreSQL's 65,535. */
const MAX_GROUP_PARAMETERS = 30_000;
/** Groups written at once: one gathers while the other commits. */
const GROUPS_IN_FLIGHT = 2;

interface Waiting {
  request: EventStoreRequest;
  resolve: (result: EventStoreResult) => void;
  reject: (err: unknown) => void;
}

class EventStoreGroups {
  private readonly waiting: Waiting[] = [];
  private writing = 0;
  private scheduled = false;

  constructor(private readonly db: Db) {}

  store(request: EventStoreRequest): Promise<EventStoreResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.schedule();
    });
  }

  /** Starts the next group once the requests of this turn of the event loop have joined it. */
  private schedule(): void {
    if (this.scheduled || this.writing >= GROUPS_IN_FLIGHT || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.writing >= GROUPS_IN_FLIGHT || this.waiting.length === 0) return;
      this.writing += 1;
      void this.write(this.take()).finally(() => {
        this.writing -= 1;
        this.schedule();
      });
      this.schedule();
    });
  }

  /** The waiting requests, oldest first, up to MAX_GROUP_PARAMETERS (at least one request). */
  private take(): Waiting[] {
    let parameters = 0;
    let count = 0;
    for (const w of this.waiting) {
      const its = parametersOf(w.request);
      if (count > 0 && parameters + its > MAX_GROUP_PARAMETERS) break;
      parameters += its;
      count += 1;
    }
    return this.waiting.splice(0, count);
  }

  private async write(group: Waiting[]): Promise<void> {
    try {
      // One statement: atomic on its own, and one round trip for the whole group.
      const results = await countAndStoreEvents({
        db: this.db,
        windowSeconds: EVENT_WINDOW_SECONDS,
        requests: group.map((w) => w.request),
      });
      eventStoreGroupRequests.observe(group.length);
      group.forEach((w, index) => w.resolve(results[index]!));
    } catch (err) {
      if (group.length === 1) {
        group[0]!.reject(err);
        return;
      }
      // One request's failure is its own: the group rolled back, and each of its requests is written alone.
      for (const w of group) await this.write([w]);
    }
  }
}

/** What a request adds to the statement (db/repositories/account-events.ts): its row, its events' and its touches'. */
const parametersOf = (request: EventStoreRequest) => 7 + 14 * request.events.length + 6 * request.touches.length;

const groupsOf = new WeakMap<Db, EventStoreGroups>();

/** Counts and stores one request in the next group of this process (see the top of this file). */
export function storeInGroup(db: Db, request: EventStoreRequest): Promise<EventStoreResult> {
  let groups = groupsOf.get(db);
  if (!groups) {
    groups = new EventStoreGroups(db);
    groupsOf.set(db, groups);
  }
  return groups.store(request);
}
