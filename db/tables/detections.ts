import type { Generated, Selectable } from 'kysely';
import type { SigmaLevel } from '../../domain/events/sigma/rule';
import type { CreatedAt, Timestamp } from './identity';

/** A tenant's own detection: a Sigma rule as uploaded, with its title and level as read then. */
export interface TenantDetectionsTable {
  id: string;
  tenant_id: string;
  name: string;
  sigma: string;
  title: string;
  level: SigmaLevel;
  enabled: Generated<boolean>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
export type TenantDetectionRow = Selectable<TenantDetectionsTable>;
