import { severityRank } from '../checks/types';
import type { AttackPath } from './types';

/** Among equally severe paths: toxic combinations, then escalations, then exposures. */
const KIND_ORDER = { toxic_combination: 0, escalation: 1, exposure: 2 } as const;

/** A path's place in lists, lowest first: its severity, then its kind (stored with it, so pages sort on it). */
export const pathRank = (path: Pick<AttackPath, 'severity' | 'kind'>): number =>
  severityRank(path.severity) * 3 + KIND_ORDER[path.kind];

export const comparePaths = (a: AttackPath, b: AttackPath): number =>
  pathRank(a) - pathRank(b) || a.fingerprint.localeCompare(b.fingerprint);
