import type { Db } from '../../db/client';
import { findDetectionRules, listEnabledDetectionVersions } from '../../db/repositories/tenant-detections';
import { type TenantSigmaDetection, tenantSigmaDetection } from '../../domain/events/sigma/detection';
import { batchedReadOf } from '../batched-reads';
import type { AppDeps } from '../deps';
import { compileSigmaYaml } from './sigma-yaml';

// The tenant's enabled Sigma rules as the ingestion path runs them, compiled once per version. Each request reads
// which rules are enabled and when each last changed (one small indexed query, whatever the events, shared by the
// requests of the moment: core/batched-reads.ts); a rule this
// process has compiled in that version is taken from memory, the others are read and compiled. A rule changed,
// disabled or deleted through any process is seen by the next request of every process: nothing to invalidate.

/** Tenants whose compiled rules are held, the least recently used dropped first. */
const TENANTS_HELD = 1_000;

interface Compiled {
  /** When the rule last changed, as the version it was compiled in. */
  version: number;
  detection: TenantSigmaDetection | null;
}

const held = new Map<string, Map<string, Compiled>>();

function hold(tenantId: string, rules: Map<string, Compiled>): void {
  held.delete(tenantId);
  if (rules.size === 0) return;
  held.set(tenantId, rules);
  if (held.size > TENANTS_HELD) held.delete(held.keys().next().value as string);
}

/** The ids and versions of each tenant's enabled rules (a tenant without any is left out). */
const enabledVersions = batchedReadOf(async (db: Db, tenantIds: string[]) => {
  const byTenant = new Map<string, { id: string; updated_at: Date }[]>();
  for (const row of await listEnabledDetectionVersions({ db, tenantIds })) {
    byTenant.set(row.tenant_id, [...(byTenant.get(row.tenant_id) ?? []), row]);
  }
  return byTenant;
});

/** The tenant's enabled rules, compiled. */
export async function tenantSigmaRules(
  { db, log }: { db: Db; log: AppDeps['log'] },
  tenantId: string,
): Promise<TenantSigmaDetection[]> {
  const versions = (await enabledVersions(db, tenantId)) ?? [];
  const known = held.get(tenantId);
  const stale = versions.filter((v) => known?.get(v.id)?.version !== v.updated_at.getTime());
  const read = new Map(
    (await findDetectionRules({ db, tenantId, ids: stale.map((v) => v.id) })).map((row) => [row.id, row]),
  );
  const rules = new Map<string, Compiled>();
  for (const { id, updated_at } of versions) {
    const cached = known?.get(id);
    if (cached && cached.version === updated_at.getTime()) {
      rules.set(id, cached);
      continue;
    }
    const row = read.get(id);
    if (!row) continue;
    const compiled = compileSigmaYaml(row.sigma);
    // Every stored rule compiled when it was uploaded; one that no longer does (a bound since lowered) runs on no
    // event, and says so once per version rather than failing the account's ingestion.
    if (!compiled.ok) log.warn({ tenantId, detectionId: id, problems: compiled.problems }, 'Sigma rule skipped');
    rules.set(id, {
      version: row.updated_at.getTime(),
      detection: compiled.ok ? tenantSigmaDetection(id, row.name, compiled.rule) : null,
    });
  }
  hold(tenantId, rules);
  return [...rules.values()].flatMap((r) => (r.detection ? [r.detection] : []));
}
