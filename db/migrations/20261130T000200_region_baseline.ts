import { type Kysely, sql } from 'kysely';

// The account's regions in use become a baseline (docs/decisions.md, "No clock-based all-clear"): learned once from
// its first complete scan and extended only by a member's acceptance, where `used_regions` was whatever the latest
// scan saw (an intruder's instance joined it after a week). And the time of the latest scan that read every IAM user
// and key, where the identity checks' window of "created since the previous scan" starts.
//
// Existing accounts take `used_regions` as their baseline, learned when their latest successful scan saw it: the best
// knowledge there is (a region an intruder's week-old instance had already brought in stays in; a member can see the
// baseline on the account). Their identity window starts at their latest successful scan. Nullable: the previous
// release's processes, still draining during the deploy, write none of them; `used_regions` stays, and scans keep it
// equal to the baseline, for them to read until a later release drops it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('region_baseline', sql`text[]`)
    .addColumn('region_baseline_learned_at', 'timestamptz')
    .addColumn('identities_scanned_at', 'timestamptz')
    .execute();
  await sql`update accounts set region_baseline = used_regions,
    region_baseline_learned_at = coalesce(last_successful_scan_at, last_scan_at, now())
    where used_regions is not null`.execute(db);
  await sql`update accounts set identities_scanned_at = last_successful_scan_at`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .dropColumn('identities_scanned_at')
    .dropColumn('region_baseline_learned_at')
    .dropColumn('region_baseline')
    .execute();
}
