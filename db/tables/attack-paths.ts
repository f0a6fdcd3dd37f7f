import type { Selectable } from 'kysely';
import type { AttackPathKind, PathEdge, PathNode } from '../../domain/attack-paths/types';
import type { Severity } from '../../domain/checks/types';
import type { Unread } from '../../domain/scans/inventory';
import type { Json } from './accounts';
import type { Timestamp } from './identity';

/** One attack path of an account, as its latest analysing scan found it (domain/attack-paths/types.ts). */
export interface AttackPathsTable {
  account_id: string;
  fingerprint: string;
  tenant_id: string;
  kind: AttackPathKind;
  rule: string;
  severity: Severity;
  /** Severity first, then kind: lists are read in its order. */
  rank: number;
  certainty: 'certain' | 'possible';
  title: string;
  summary: string;
  source: string;
  target: string;
  region: string | null;
  nodes: Json<PathNode[]>;
  edges: Json<PathEdge[]>;
  first_found_at: Timestamp;
  found_at: Timestamp;
  /** The scan that last found it, or the event batch that joined it to a detection (core/events/live-attack-paths.ts). */
  scan_id: string;
}
export type AttackPathRow = Selectable<AttackPathsTable>;

/** How an account's latest analysis went. */
export interface AttackPathAnalysesTable {
  account_id: string;
  tenant_id: string;
  scan_id: string;
  status: 'complete' | 'partial' | 'not_evaluated';
  reason: string | null;
  unread: Json<Unread[]>;
  analyzed_at: Timestamp;
}
