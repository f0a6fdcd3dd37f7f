import type { AttackPathWrite } from '../../db/repositories/attack-paths';
import { pathRank } from '../../domain/attack-paths/order';
import type { AttackPath } from '../../domain/attack-paths/types';

/** A path as the row stored for an account, found at `foundAt` by a scan (or an event batch: `scanId`). */
export function attackPathRow(
  path: AttackPath,
  where: { accountId: string; tenantId: string; scanId: string; foundAt: Date },
): AttackPathWrite {
  return {
    account_id: where.accountId,
    tenant_id: where.tenantId,
    fingerprint: path.fingerprint,
    kind: path.kind,
    rule: path.rule,
    severity: path.severity,
    rank: pathRank(path),
    certainty: path.certainty,
    title: path.title,
    summary: path.summary,
    source: path.source,
    target: path.target,
    region: path.region ?? null,
    nodes: path.nodes,
    edges: path.edges,
    found_at: where.foundAt,
    scan_id: where.scanId,
  };
}
