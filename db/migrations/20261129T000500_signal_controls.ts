import type { Kysely } from 'kysely';

// signals.controls: for an event signal whose finding breaks fewer than all of its detection's compliance controls
// (SSH opened to ::/0 breaks CIS 6.4, not 6.3), the ones it breaks (`EventFinding.controls`). Null for every other
// signal: a scan records the same for its findings in its check outcomes (`failingControls`). Signals opened before
// it stand for all of their detection's controls.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('signals').addColumn('controls', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('signals').dropColumn('controls').execute();
}
