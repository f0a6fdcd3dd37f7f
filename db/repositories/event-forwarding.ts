import { type Kysely, type QueryCreator, type RawBuilder, sql } from 'kysely';
import type { Database } from '../database';
import type { RegionTouch } from '../../domain/events/forwarding-health';

type Conn = Kysely<Database>;

// The regions of each account's event forwarder (db/migrations/20261130T000100_event_forwarding.ts): what ingestion
// writes of their heartbeats and events, what GET /accounts/{account_id}/event-forwarding and the watch read.

/**
 * The upsert of one request's touches (one row per region): a heartbeat moves the region's last heartbeat forward
 * only (a retried older beat arriving late changes nothing), sets its first one once; another event moves its last
 * event forward. Ingestion writes many accounts' regions in its own statement (account-events.ts).
 */
function upsertForwardingRegions(
  qc: QueryCreator<Database>,
  { tenantId, accountId, touches }: { tenantId: string; accountId: string; touches: readonly RegionTouch[] },
) {
  const rows = touches.map((t) => sql`(${t.region}, ${t.heartbeatAt}, ${t.eventAt})`);
  const source = rows.length > 0 ? sql`(values ${sql.join(rows)})` : sql`(select null, null, null where false)`;
  return qc
    .insertInto('event_forwarding_regions')
    .columns(['account_id', 'region', 'tenant_id', 'first_heartbeat_at', 'last_heartbeat_at', 'last_event_at'])
    .expression(
      sql`select ${accountId}, v.region, ${tenantId}, v.heartbeat_at::timestamptz, v.heartbeat_at::timestamptz,
        v.event_at::timestamptz
      from ${source} as v(region, heartbeat_at, event_at)`,
    )
    .onConflict((oc) =>
      oc.columns(['account_id', 'region']).doUpdateSet({
        // least and greatest skip nulls: a request without a heartbeat leaves the heartbeat columns as they are.
        first_heartbeat_at: sql`least(event_forwarding_regions.first_heartbeat_at, excluded.first_heartbeat_at)`,
        last_heartbeat_at: sql`greatest(event_forwarding_regions.last_heartbeat_at, excluded.last_heartbeat_at)`,
        last_event_at: sql`greatest(event_forwarding_regions.last_event_at, excluded.last_event_at)`,
      }),
    );
}

/** Records touches outside ingestion's statement (one statement). */
export async function recordForwardingRegions({
  db,
  tenantId,
  accountId,
  touches,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  touches: readonly RegionTouch[];
}): Promise<void> {
  await upsertForwardingRegions(db, { tenantId, accountId, touches }).execute();
}

/** The account's forwarder regions, by name. */
export async function listForwardingRegions({
  db,
  tenantId,
  accountId,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
}) {
  return db
    .selectFrom('event_forwarding_regions')
    .select(['region', 'first_heartbeat_at', 'last_heartbeat_at', 'last_event_at'])
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .orderBy('region')
    .execute();
}

/**
 * The accounts (not disconnected) whose blind-forwarder signals the watch has to change: a watched region late
 * (its last heartbeat before `lateBefore`) without an open signal of `checkId`, or an open one whose region's
 * heartbeat is back (at or after `lateBefore`). An account where nothing changes is not read further.
 */
export async function listAccountsWithForwardingChanges({
  db,
  lateBefore,
  checkId,
}: {
  db: Conn;
  lateBefore: Date;
  checkId: string;
}) {
  const openSignal = (region: RawBuilder<string>, account: RawBuilder<string>) =>
    sql<boolean>`exists (select 1 from signals s where s.account_id = ${account} and s.check_id = ${checkId}
      and s.region = ${region} and s.resolved_at is null)`;
  return db
    .selectFrom('accounts as a')
    .select(['a.id', 'a.tenant_id', 'a.aws_account_id', 'a.status', 'a.workflow_id'])
    .where('a.status', '!=', 'DISCONNECTED')
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('event_forwarding_regions as r')
            .select(sql`1`.as('one'))
            .whereRef('r.account_id', '=', 'a.id')
            .where('r.last_heartbeat_at', '<', lateBefore)
            .where(sql<boolean>`not ${openSignal(sql.ref('r.region'), sql.ref('r.account_id'))}`),
        ),
        eb.exists(
          eb
            .selectFrom('event_forwarding_regions as r')
            .select(sql`1`.as('one'))
            .whereRef('r.account_id', '=', 'a.id')
            .where('r.last_heartbeat_at', '>=', lateBefore)
            .where(openSignal(sql.ref('r.region'), sql.ref('r.account_id'))),
        ),
      ]),
    )
    .orderBy('a.id')
    .execute();
}
