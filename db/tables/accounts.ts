import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { AccountStatus, ScanStatus, ScanTrigger } from '../../domain/accounts/status';
import type { CheckOutcome } from '../../domain/checks/evaluate';
import type { Scenario, Severity } from '../../domain/checks/types';
import type { ControlRefs } from '../../domain/compliance/types';
import type { CostExplorerPart } from '../../domain/scans/inventory';
import type { Checkpoint } from '../../domain/scans/scan-progress';
import type { AcceptanceScope } from '../../domain/signals/acceptance-scopes';
import type { CreatedAt, Timestamp } from './identity';

/** A jsonb column: read as parsed JSON, written as a JSON string (pg would write an array as a Postgres array). */
export type Json<T> = ColumnType<T, string, string>;

export interface AccountsTable {
  id: string;
  tenant_id: string;
  aws_account_id: string;
  display_name: string | null;
  tags: Generated<string[]>;
  status: Generated<AccountStatus>;
  external_id: string;
  role_name: string;
  workflow_id: string;
  /** The organization that connected the account (null: connected on its own). */
  organization_id: Generated<string | null>;
  current_srs: number | null;
  first_scan_id: string | null;
  connected_at: Timestamp | null;
  last_scan_at: Timestamp | null;
  last_successful_scan_at: Timestamp | null;
  disconnected_at: Timestamp | null;
  /** The scan whose check outcomes are the account's coverage (its latest scan that recorded them). */
  checks_scan_id: string | null;
  coverage_evaluated: number | null;
  coverage_total: number | null;
  /** The latest full scan read every core source (domain/scoring/completeness.ts); null before the first scan. */
  score_complete: boolean | null;
  /**
   * The previous release's regions in use: scans keep it equal to the learned `region_baseline` for processes still
   * reading it during a deploy, until a later release drops it.
   */
  used_regions: Generated<string[] | null>;
  /**
   * The regions the account uses (domain/checks/region-baseline.ts): learned from its first complete scan, then
   * extended only by acceptances; null while neither has happened. Regions accepted before it is learned are kept.
   */
  region_baseline: Generated<string[] | null>;
  /** When a scan learned the baseline; null until one has. */
  region_baseline_learned_at: Generated<Date | null>;
  /** When the latest scan that read every IAM user and key collected: the identity checks' window starts there. */
  identities_scanned_at: Generated<Date | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
export type AccountRow = Selectable<AccountsTable>;

export interface ScansTable {
  id: string;
  tenant_id: string;
  account_id: string;
  trigger: ScanTrigger;
  status: ScanStatus;
  srs: number | null;
  failure_reason: string | null;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  checks: Json<CheckOutcome[] | null> | null;
  /** When the alert rules were evaluated against this scan (once: a retry finds it set). */
  alerts_evaluated_at: Timestamp | null;
}
export type ScanRow = Selectable<ScansTable>;

export interface SignalsTable {
  id: string;
  tenant_id: string;
  account_id: string;
  check_id: string;
  fingerprint: string;
  scenario: Scenario;
  severity: Severity;
  title: string;
  description: string;
  resource: string;
  region: Generated<string>;
  owner: string | null;
  /** The scan that opened it; null once that scan is past its retention. */
  first_scan_id: string | null;
  resolved_scan_id: string | null;
  /** The event batch that opened an event signal (first_scan_id is null then). */
  event_batch_id: Generated<string | null>;
  /** For an event signal that breaks fewer than all of its detection's controls: the ones it breaks; else null. */
  controls: Json<ControlRefs> | null;
  detected_at: Timestamp;
  resolved_at: Timestamp | null;
  /** Who acted in the event that opened an event signal (domain/events/occurrences.ts `signalPrincipal`). */
  principal: string | null;
  /** When that event happened (a probable compromise a scan completed: the scan's time); null for a scan's signal. */
  occurred_at: Timestamp | null;
  /** How many findings it stands for: 1, and one more for each occurrence counted on it (domain/events/occurrences.ts). */
  occurrences: Generated<number>;
}
export type SignalRow = Selectable<SignalsTable>;
export type NewSignal = Insertable<SignalsTable>;

export interface ScoreHistoryTable {
  account_id: string;
  day: string;
  srs: number;
  /** The score read every core source (domain/scoring/completeness.ts); null for points recorded before this was kept. */
  complete: boolean | null;
  scan_id: string;
  recorded_at: Timestamp;
}

export interface SignalAcceptancesTable {
  id: string;
  tenant_id: string;
  account_id: string;
  signal_id: string;
  accepted_by: string | null;
  accepted_by_email: string;
  reason: string;
  accepted_at: Timestamp;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
  expiry_scan_id: string | null;
  /** What it accepts: the signal alone, or also later occurrences (domain/signals/acceptance-scopes.ts). */
  scope: Generated<AcceptanceScope>;
  /** The principal a `principal` scope names. */
  scope_principal: string | null;
  /** The signal a scoped acceptance was made on. */
  scope_signal_id: string | null;
  /** The scoped acceptance that gave this one, to a later occurrence's signal. */
  scope_acceptance_id: string | null;
}
export type SignalAcceptanceRow = Selectable<SignalAcceptancesTable>;
export type NewSignalAcceptance = Insertable<SignalAcceptancesTable>;

export interface ScanCheckpointsTable {
  scan_id: string;
  reads: Json<Checkpoint>;
  updated_at: Timestamp;
}

export interface CostExplorerReadsTable {
  account_id: string;
  part: CostExplorerPart;
  value: Json<unknown>;
  read_at: Timestamp;
}
