import { type Kysely, sql } from 'kysely';

// What one tenant's events can make an account keep (docs/decisions.md, "Events", "A bound on what events open"):
// - signals.occurrences: how many findings a signal stands for: 1 when it opens, one more for each occurrence counted
//   on it (within its window, or beyond the bound on a detection's open signals). Existing signals stand for one.
// - signals_open_check_idx: an account's open signals of one check or detection, newest first. The bound counts a
//   detection's open signals and finds its newest (where the rest are counted) through it, and filtered reads of open
//   signals (`check_id`, compliance's evidence) read only those.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('signals')
    .addColumn('occurrences', 'integer', (c) => c.notNull().defaultTo(1).check(sql`occurrences >= 1`))
    .execute();
  await sql`create index signals_open_check_idx on signals (account_id, check_id, detected_at desc, id desc)
    where resolved_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('signals_open_check_idx').execute();
  await db.schema.alterTable('signals').dropColumn('occurrences').execute();
}
