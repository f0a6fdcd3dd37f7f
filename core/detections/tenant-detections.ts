import { isUniqueViolation } from '../../db/errors';
import { lockTenant } from '../../db/repositories/tenants';
import {
  countTenantDetections,
  deleteTenantDetection,
  insertTenantDetection,
  listTenantDetections,
  setTenantDetectionEnabled,
} from '../../db/repositories/tenant-detections';
import type { TenantDetectionRow } from '../../db/tables/detections';
import { SEVERITY_OF_LEVEL } from '../../domain/events/sigma/rule';
import { sigmaDetectionId } from '../../domain/events/sigma/ids';
import { newId } from '../../domain/ids';
import { SIGMA_DETECTIONS_PER_TENANT } from '../../domain/tenancy/limits';
import { audit } from '../audit-log';
import type { AppDeps, Caller } from '../deps';
import { AppError, notFound } from '../errors';
import type { CreateDetectionInput, PatchDetectionInput } from '../schemas/detections';
import { compileSigmaYaml } from './sigma-yaml';

// A tenant's own detections (POST/GET/PATCH/DELETE /detections and their tRPC procedures): Sigma rules its admins
// upload, checked and compiled on upload so that what cannot run is refused then, by name, and run on every event
// its accounts forward (core/events/ingestion.ts, through core/detections/tenant-rules.ts).

type Deps = Pick<AppDeps, 'db' | 'log'>;

// Anything else cannot be one of our ids; answering 404 at once also keeps odd bytes away from the query.
const DETECTION_ID = /^det_[0-9A-Z]{26}$/;

function toDetection(row: TenantDetectionRow) {
  return {
    detection_id: row.id,
    name: row.name,
    check_id: sigmaDetectionId(row.id),
    title: row.title,
    level: row.level,
    severity: SEVERITY_OF_LEVEL[row.level],
    enabled: row.enabled,
    sigma: row.sigma,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function listDetections({ db }: Pick<AppDeps, 'db'>, caller: Caller) {
  const rows = await listTenantDetections({ db, tenantId: caller.tenantId });
  return { detections: rows.map(toDetection), count: rows.length };
}

/**
 * Uploads a rule. It is compiled first: every problem is a 400 naming it, in `details` under `sigma`. The tenant's
 * detections are counted under its lock, so parallel uploads cannot pass the cap.
 */
export async function createDetection(deps: Deps, caller: Caller, input: CreateDetectionInput) {
  const compiled = compileSigmaYaml(input.sigma);
  if (!compiled.ok) {
    throw new AppError('validation_failed', `The Sigma rule cannot be used: ${compiled.problems.join('; ')}`, {
      details: compiled.problems.map((message) => ({ field: 'sigma', message })),
    });
  }
  const { rule } = compiled;
  const row = await deps.db
    .transaction()
    .execute(async (trx) => {
      await lockTenant({ db: trx, tenantId: caller.tenantId });
      if ((await countTenantDetections({ db: trx, tenantId: caller.tenantId })) >= SIGMA_DETECTIONS_PER_TENANT) {
        throw new AppError(
          'plan_limit_exceeded',
          `A tenant has at most ${SIGMA_DETECTIONS_PER_TENANT} detections; delete one to upload another`,
        );
      }
      const created = await insertTenantDetection({
        db: trx,
        detection: {
          id: newId('detection'),
          tenant_id: caller.tenantId,
          name: input.name,
          sigma: input.sigma,
          title: rule.title,
          level: rule.level,
          created_by: caller.userId,
        },
      });
      await audit(trx, caller, 'detection.created', `detection:${created.id}`, { name: created.name });
      return created;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'tenant_detections_name_key')) {
        throw new AppError('conflict', `A detection named '${input.name}' exists; choose another name`);
      }
      throw error;
    });
  deps.log.info({ detectionId: row.id }, 'detection created');
  return toDetection(row);
}

/** Enables or disables a detection: a disabled one is kept but runs on no event. */
export async function patchDetection(deps: Deps, caller: Caller, detectionId: string, patch: PatchDetectionInput) {
  const row = await deps.db.transaction().execute(async (trx) => {
    const updated = DETECTION_ID.test(detectionId)
      ? await setTenantDetectionEnabled({ db: trx, tenantId: caller.tenantId, detectionId, enabled: patch.enabled })
      : undefined;
    if (!updated) throw notFound('Detection');
    await audit(trx, caller, 'detection.updated', `detection:${detectionId}`, { enabled: patch.enabled });
    return updated;
  });
  deps.log.info({ detectionId, enabled: patch.enabled }, 'detection updated');
  return toDetection(row);
}

/** Deletes a detection; the signals it opened stay, under its id. */
export async function deleteDetection(deps: Deps, caller: Caller, detectionId: string) {
  await deps.db.transaction().execute(async (trx) => {
    const deleted =
      DETECTION_ID.test(detectionId) &&
      (await deleteTenantDetection({ db: trx, tenantId: caller.tenantId, detectionId }));
    if (!deleted) throw notFound('Detection');
    await audit(trx, caller, 'detection.deleted', `detection:${detectionId}`);
  });
  deps.log.info({ detectionId }, 'detection deleted');
  return { message: `Detection ${detectionId} deleted` };
}
