import type { Generated, Selectable } from 'kysely';
import type { CreatedAt, Timestamp } from './identity';

export interface AccountsTable {
  id: string;
  tenant_id: string;
  aws_account_id: string;
  display_name: string | null;
  tags: Generated<string[]>;
  status: Generated<string>;
  external_id: string;
  role_name: string;
  workflow_id: string;
  current_srs: number | null;
  first_scan_id: string | null;
  connected_at: Timestamp | null;
  last_scan_at: Timestamp | null;
  last_successful_scan_at: Timestamp | null;
  disconnected_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
export type AccountRow = Selectable<AccountsTable>;

export interface ScansTable {
  id: string;
  tenant_id: string;
  account_id: string;
  trigger: string;
  status: string;
  srs: number | null;
  failure_reason: string | null;
  started_at: Timestamp;
  finished_at: Timestamp | null;
}
export type ScanRow = Selectable<ScansTable>;

export interface SignalsTable {
  id: string;
  tenant_id: string;
  account_id: string;
  check_id: string;
  fingerprint: string;
  scenario: string;
  severity: string;
  title: string;
  description: string;
  resource: string;
  region: Generated<string>;
  first_scan_id: string;
  last_seen_scan_id: string;
  resolved_scan_id: string | null;
  detected_at: Timestamp;
  resolved_at: Timestamp | null;
}
export type SignalRow = Selectable<SignalsTable>;

export interface ScoreHistoryTable {
  account_id: string;
  day: string;
  srs: number;
  scan_id: string;
  recorded_at: Timestamp;
}
