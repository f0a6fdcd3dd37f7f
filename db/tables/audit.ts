import type { ColumnType } from 'kysely';
import type { AuditAction } from '../../domain/tenancy/audit';
import type { CreatedAt } from './identity';

export interface AuditEventsTable {
  id: string;
  tenant_id: string;
  actor_user_id: string | null;
  actor_email: string | null;
  action: AuditAction;
  target: string | null;
  client_address: string | null;
  details: ColumnType<Record<string, string | number | boolean | null>, string | undefined, never>;
  created_at: CreatedAt;
}
