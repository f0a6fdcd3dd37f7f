import type { Db } from '../../db/client';
import type { DetectionVersion } from '../../db/repositories/account-events';
import { findDetectionRules } from '../../db/repositories/tenant-detections';
import { type TenantSigmaDetection, tenantSigmaDetection } from '../../domain/events/sigma/detection';
import type { AppDeps } from '../deps';
import { compileSigmaYaml } from './sigma-yaml';

// The tenant's enabled Sigma rules as the ingestion path runs them, compiled once per version. Each request reads
// which rules are enabled and when each last changed with the account its event key names (one read for the requests
// of the moment: core/batched-reads.ts); a rule this process has compiled in that version is taken from memory, the
// others are read and compiled. A rule changed, disabled or deleted through any process is seen by the next request
// of every process: nothing to invalidate.

/** Tenants whose compiled rules are held, the least recently used dropped first. */
const TENANTS_HELD = 1_000;

interface Compiled {
  /** When the rule last changed (PostgreSQL's text of the time), as the version it was compiled in. */
  version: string;
  detection: TenantSigmaDetection | null;
}

const held = new Map<string, Map<string, Compiled>>();

function hold(tenantId: string, rules: Map<string, Compiled>): void {
  held.delete(tenantId);
  if (rules.size === 0) return;
  held.set(tenantId, rules);
  if (held.size > TENANTS_HELD) held.delete(held.keys().next().value as string);
}

/** The tenant's enabled rules, compiled: `versions` are the enabled ones, read with the event key's account. */
export async function tenantSigmaRules(
  { db, log }: { db: Db; log: AppDeps['log'] },
  tenantId: string,
  versions: readonly DetectionVersion[],
): Promise<TenantSigmaDetection[]> {
  const known = held.get(tenantId);
  const stale = versions.filter((v) => known?.get(v.id)?.version !== v.version);
  const read = new Map(
    (await findDetectionRules({ db, tenantId, ids: stale.map((v) => v.id) })).map((row) => [row.id, row]),
  );
  const rules = new Map<string, Compiled>();
  for (const { id, version } of versions) {
    const cached = known?.get(id);
    if (cached && cached.version === version) {
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
      version: row.version,
      detection: compiled.ok ? tenantSigmaDetection(id, row.name, compiled.rule) : null,
    });
  }
  hold(tenantId, rules);
  return [...rules.values()].flatMap((r) => (r.detection ? [r.detection] : []));
}
