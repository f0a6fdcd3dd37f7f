import { type Kysely, type Selectable, sql } from 'kysely';
import type { AuditAction } from '../../domain/tenancy/audit';
import type { Database } from '../database';
import type { AuditEventsTable } from '../tables/audit';

type Conn = Kysely<Database>;

/** An event as written: every column but the time, which the database sets. */
export type NewAuditEvent = Omit<Selectable<AuditEventsTable>, 'created_at'>;

export async function insertAuditEvent({ db, event }: { db: Conn; event: NewAuditEvent }): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({ ...event, details: JSON.stringify(event.details) })
    .execute();
}

/** A page of the tenant's events, newest first, after a keyset (time, id); optionally one action or one user's. */
export async function listAuditEvents({
  db,
  tenantId,
  after,
  limit,
  action,
  userId,
}: {
  db: Conn;
  tenantId: string;
  after?: { at: Date; id: string };
  limit: number;
  action?: AuditAction;
  userId?: string;
}) {
  let query = db.selectFrom('audit_events').selectAll().where('tenant_id', '=', tenantId);
  if (action) query = query.where('action', '=', action);
  if (userId) query = query.where('actor_user_id', '=', userId);
  if (after) query = query.where(sql<boolean>`(created_at, id) < (${after.at}, ${after.id})`);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The events about one AWS account of the tenant (its target, or the account a signal event names), oldest first. */
export async function accountAuditEvents({
  db,
  tenantId,
  awsAccountId,
}: {
  db: Conn;
  tenantId: string;
  awsAccountId: string;
}) {
  return db
    .selectFrom('audit_events')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([
        eb('target', '=', `account:${awsAccountId}`),
        eb(sql<string>`details->>'aws_account_id'`, '=', awsAccountId),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
