import { type Kysely, sql } from 'kysely';

// An address signs in to one account (one user with a password, in whichever tenant), but may be invited by
// several tenants at once: an invitation to an address that has an account elsewhere is created like any other,
// so the inviter cannot tell a registered address from a fresh one (docs/decisions.md, "Team users and
// invitations"). Within a tenant an address is still one user.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop constraint users_email_key`.execute(db);
  await sql`create unique index users_account_email_key on users (email) where password_hash is not null`.execute(db);
  await sql`create unique index users_tenant_email_key on users (tenant_id, email)`.execute(db);
  // A sign-up removes the address's pending invitees, in every tenant.
  await sql`create index users_invitee_email_idx on users (email) where password_hash is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index users_invitee_email_idx`.execute(db);
  await sql`drop index users_tenant_email_key`.execute(db);
  await sql`drop index users_account_email_key`.execute(db);
  await sql`alter table users add constraint users_email_key unique (email)`.execute(db);
}
