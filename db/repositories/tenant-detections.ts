import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import type { TenantDetectionRow, TenantDetectionsTable } from '../tables/detections';

type Conn = Kysely<Database>;

/** The tenant's detections, oldest first. */
export async function listTenantDetections({ db, tenantId }: { db: Conn; tenantId: string }) {
  return db
    .selectFrom('tenant_detections')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** How many detections the tenant has. */
export async function countTenantDetections({ db, tenantId }: { db: Conn; tenantId: string }): Promise<number> {
  const row = await db
    .selectFrom('tenant_detections')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertTenantDetection({
  db,
  detection,
}: {
  db: Conn;
  detection: Insertable<TenantDetectionsTable>;
}): Promise<TenantDetectionRow> {
  return db.insertInto('tenant_detections').values(detection).returningAll().executeTakeFirstOrThrow();
}

/** Enables or disables a detection of the tenant; undefined when it has none of that id. */
export async function setTenantDetectionEnabled({
  db,
  tenantId,
  detectionId,
  enabled,
}: {
  db: Conn;
  tenantId: string;
  detectionId: string;
  enabled: boolean;
}): Promise<TenantDetectionRow | undefined> {
  return db
    .updateTable('tenant_detections')
    .set({ enabled, updated_at: new Date() })
    .where('id', '=', detectionId)
    .where('tenant_id', '=', tenantId)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes a detection of the tenant; false when it has none of that id. */
export async function deleteTenantDetection({
  db,
  tenantId,
  detectionId,
}: {
  db: Conn;
  tenantId: string;
  detectionId: string;
}): Promise<boolean> {
  const result = await db
    .deleteFrom('tenant_detections')
    .where('id', '=', detectionId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The rules of these detections of the tenant, to compile. */
export async function findDetectionRules({
  db,
  tenantId,
  ids,
}: {
  db: Conn;
  tenantId: string;
  ids: readonly string[];
}) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('tenant_detections')
    .select(['id', 'name', 'sigma', sql<string>`updated_at::text`.as('version')])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute();
}
