import type { Generated, Selectable } from 'kysely';
import type { MemberAwsStatus, MemberState, OrganizationStatus } from '../../domain/accounts/organizations';
import type { CreatedAt, Timestamp } from './identity';

export interface OrganizationsTable {
  id: string;
  tenant_id: string;
  management_account_id: string;
  aws_organization_id: string | null;
  display_name: string | null;
  tags: Generated<string[]>;
  external_id: string;
  role_name: string;
  status: Generated<OrganizationStatus>;
  workflow_id: string;
  last_sync_at: Timestamp | null;
  last_sync_error: string | null;
  disconnected_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
export type OrganizationRow = Selectable<OrganizationsTable>;

export interface OrganizationAccountsTable {
  tenant_id: string;
  organization_id: string;
  aws_account_id: string;
  name: string;
  /** Where the account sits, from the root: `Root/Workloads/Prod`. */
  ou_path: string;
  aws_status: MemberAwsStatus;
  state: MemberState;
  reason: string | null;
  last_seen_at: Timestamp;
  updated_at: Timestamp;
}
export type OrganizationAccountRow = Selectable<OrganizationAccountsTable>;
