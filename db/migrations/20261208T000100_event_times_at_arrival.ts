import { type Kysely, sql } from 'kysely';

// An event is taken to have happened no later than it arrived (domain/events/normalize.ts `arrivedEventTime`). Events
// stored before that with a time after their arrival (a wrong clock, or a body dated years ahead) take their arrival
// as their time, so they no longer lead the account's timeline nor fill the reads of its recent events; the signals
// they opened take their detection's time as their occurrence's. Each event's detail keeps the time it claimed.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update account_events set event_time = received_at where event_time > received_at`.execute(db);
  await sql`update signals set occurred_at = detected_at where occurred_at > detected_at`.execute(db);
}

// The times claimed are in each event's detail; the columns keep the arrival, which the previous release reads as well.
export async function down(): Promise<void> {}
