import { type Kysely, sql } from 'kysely';

// Event keys end with their account's connection, and a rotation ends the key before the one it replaces
// (docs/decisions.md, "Events", "The key"). Existing keys are brought in line: every key of a disconnected account ends
// now (a later connection of the account no longer brings it back), and of each account's rotated-out keys still
// working only the newest keeps its grace (the one the current key replaced). Nothing to take back on the way down:
// an ended key stays ended.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update account_event_keys k set expires_at = now()
    from accounts a
    where a.id = k.account_id and a.status = 'DISCONNECTED' and (k.expires_at is null or k.expires_at > now())`.execute(
    db,
  );
  await sql`update account_event_keys k set expires_at = now()
    where k.expires_at > now() and exists (
      select 1 from account_event_keys newer
      where newer.account_id = k.account_id and newer.expires_at is not null and newer.created_at > k.created_at)`.execute(
    db,
  );
}

export async function down(): Promise<void> {}
