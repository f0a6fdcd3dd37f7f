import type { AccountRow } from '../db/tables/accounts';
import type { RecoveryStep } from '../domain/recovery';

// The column layouts of everything Sentinel exports. The CSV export and the panic package share them, and
// each JSON file holds objects with exactly these keys, so a reader learns one layout per kind of record.

export interface SignalSource {
  id: string;
  check_id: string;
  scenario: string;
  severity: string;
  title: string;
  description: string;
  resource: string;
  region: string;
  detected_at: Date;
  resolved_at: Date | null;
}

export const SIGNAL_COLUMNS = [
  'signal_id', 'aws_account_id', 'check_id', 'scenario', 'severity', 'status', 'title', 'description', 'resource', 'region',
  'detected_at', 'resolved_at',
] as const;
export type SignalRecord = Record<(typeof SIGNAL_COLUMNS)[number], string | null>;

export function signalRecord(awsAccountId: string, s: SignalSource): SignalRecord {
  return {
    signal_id: s.id,
    aws_account_id: awsAccountId,
    check_id: s.check_id,
    scenario: s.scenario,
    severity: s.severity,
    status: s.resolved_at ? 'resolved' : 'open',
    title: s.title,
    description: s.description,
    resource: s.resource,
    region: s.region,
    detected_at: s.detected_at.toISOString(),
    resolved_at: s.resolved_at ? s.resolved_at.toISOString() : null,
  };
}

export const SCORE_COLUMNS = ['date', 'srs', 'scan_id'] as const;
export interface ScoreRecord {
  date: string;
  srs: number;
  scan_id: string;
}

export const CHECKLIST_COLUMNS = ['step', 'title', 'description', 'docs_url'] as const;
export type ChecklistRecord = RecoveryStep;

/** The account as the package records it. The ExternalId is left out, as in GET /accounts/{id}. */
export function accountRecord(a: AccountRow) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    aws_account_id: a.aws_account_id,
    cloud_account_id: a.aws_account_id,
    display_name: a.display_name,
    status: a.status,
    tags: a.tags,
    current_srs: a.current_srs,
    role_name: a.role_name,
    created_at: a.created_at.toISOString(),
    connected_at: iso(a.connected_at),
    last_scan_at: iso(a.last_scan_at),
    last_successful_scan_at: iso(a.last_successful_scan_at),
    disconnected_at: iso(a.disconnected_at),
  };
}
export type AccountRecord = ReturnType<typeof accountRecord>;

export const ACCOUNT_COLUMNS = [
  'aws_account_id', 'cloud_account_id', 'display_name', 'status', 'tags', 'current_srs', 'role_name', 'created_at', 'connected_at',
  'last_scan_at', 'last_successful_scan_at', 'disconnected_at',
] as const satisfies readonly (keyof AccountRecord)[];

/** The account record as one CSV row: the tags as a JSON array, so any tag text survives the cell. */
export function accountCsvRecord(a: AccountRecord) {
  return { ...a, tags: JSON.stringify(a.tags) };
}
