import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

/** States live ten minutes, measured on the database clock (the same clock that consumes them). */
const STATE_TTL = sql<Date>`now() + interval '10 minutes'`;

export async function insertOauthState({
  db,
  tenantId,
  userId,
  stateHash,
}: {
  db: Conn;
  tenantId: string;
  userId: string;
  stateHash: string;
}): Promise<void> {
  await db
    .insertInto('oauth_states')
    .values({ state_hash: stateHash, provider: 'slack', tenant_id: tenantId, user_id: userId, expires_at: STATE_TTL })
    .execute();
}

export async function deleteExpiredOauthStates({ db, tenantId }: { db: Conn; tenantId: string }): Promise<void> {
  await db
    .deleteFrom('oauth_states')
    .where('tenant_id', '=', tenantId)
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
}

/**
 * Marks a live state used and returns who started the flow. One statement, so two callbacks racing with the
 * same state cannot both win. Not scoped by tenant: the state itself is what names the tenant.
 */
export async function consumeOauthState({ db, stateHash }: { db: Conn; stateHash: string }) {
  return db
    .updateTable('oauth_states')
    .set({ used_at: sql<Date>`now()` })
    .where('state_hash', '=', stateHash)
    .where('provider', '=', 'slack')
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['tenant_id', 'user_id'])
    .executeTakeFirst();
}

/** Installing a workspace the tenant already has replaces its token (the row and its id stay). */
export async function upsertSlackInstallation({
  db,
  installation,
}: {
  db: Conn;
  installation: {
    id: string;
    tenant_id: string;
    team_id: string;
    team_name: string | null;
    bot_user_id: string | null;
    bot_token_encrypted: string;
    installed_by: string;
  };
}): Promise<void> {
  await db
    .insertInto('slack_installations')
    .values(installation)
    .onConflict((oc) =>
      oc.constraint('slack_installations_tenant_team').doUpdateSet((eb) => ({
        team_name: eb.ref('excluded.team_name'),
        bot_user_id: eb.ref('excluded.bot_user_id'),
        bot_token_encrypted: eb.ref('excluded.bot_token_encrypted'),
        installed_by: eb.ref('excluded.installed_by'),
        created_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

export async function listSlackInstallations({ db, tenantId }: { db: Conn; tenantId: string }) {
  return db
    .selectFrom('slack_installations')
    .select(['team_id', 'team_name', 'bot_user_id', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('team_id')
    .execute();
}

/** True when the tenant had that workspace installed. */
export async function deleteSlackInstallation({
  db,
  tenantId,
  teamId,
}: {
  db: Conn;
  tenantId: string;
  teamId: string;
}): Promise<boolean> {
  const result = await db
    .deleteFrom('slack_installations')
    .where('tenant_id', '=', tenantId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The tenant's Slack bot token for a workspace, still sealed. */
export async function findSlackToken({
  db,
  tenantId,
  teamId,
}: {
  db: Conn;
  tenantId: string;
  teamId: string;
}): Promise<string | undefined> {
  const row = await db
    .selectFrom('slack_installations')
    .select('bot_token_encrypted')
    .where('tenant_id', '=', tenantId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row?.bot_token_encrypted;
}
