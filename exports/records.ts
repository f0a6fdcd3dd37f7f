import type { AccountRow } from '../db/tables/accounts';
import { mitreOf } from '../domain/events/catalog';
import { mitreText } from '../domain/events/mitre';
import type { AcceptanceSource } from '../domain/records/exports';
import type { RecoveryStep } from '../domain/signals/recovery';

// The column layouts of everything Sentinel exports. The CSV export and the panic package share them, and
// each JSON file holds objects with exactly these keys, so a reader learns one layout per kind of record.

export interface SignalSource {
  /** Every acceptance of the signal's risk, oldest first. */
  acceptances: AcceptanceSource[];
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

export const ACCEPTANCE_COLUMNS = [
  'acceptance_id',
  'signal_id',
  'status',
  'accepted_by',
  'reason',
  'accepted_at',
  'expires_at',
  'ended_at',
  'ended_by',
] as const;
export type AcceptanceRecord = Record<(typeof ACCEPTANCE_COLUMNS)[number], string | null>;

/** in_force, expired, or ended (undone, or replaced by a later acceptance: ended_by says who). */
export function acceptanceRecord(a: AcceptanceSource, at: Date): AcceptanceRecord {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const status = a.revoked_at ? 'ended' : a.expires_at && a.expires_at <= at ? 'expired' : 'in_force';
  return {
    acceptance_id: a.id,
    signal_id: a.signal_id,
    status,
    accepted_by: a.accepted_by_email,
    reason: a.reason,
    accepted_at: a.accepted_at.toISOString(),
    expires_at: iso(a.expires_at),
    ended_at: iso(a.revoked_at),
    ended_by: a.revoked_by_email,
  };
}

export const SIGNAL_COLUMNS = [
  'signal_id',
  'aws_account_id',
  'check_id',
  'scenario',
  'severity',
  'status',
  'title',
  'description',
  'resource',
  'region',
  'detected_at',
  'resolved_at',
  'accepted',
  'acceptances',
  'mitre',
] as const;

/** A signal as the JSON files hold it; `at` decides whether an acceptance is still in force. */
export function signalRecord(awsAccountId: string, s: SignalSource, at: Date) {
  const acceptances = s.acceptances.map((a) => acceptanceRecord(a, at));
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
    accepted: acceptances.some((a) => a.status === 'in_force'),
    acceptances,
    mitre: mitreText(mitreOf(s.check_id)),
  };
}
export type SignalRecord = ReturnType<typeof signalRecord>;

/** The signal as one CSV row: `accepted` as true/false, every acceptance as a JSON array (so no text is lost). */
export function signalCsvRecord(record: SignalRecord): Record<(typeof SIGNAL_COLUMNS)[number], string | null> {
  return { ...record, accepted: String(record.accepted), acceptances: JSON.stringify(record.acceptances) };
}

export const SCORE_COLUMNS = ['date', 'srs', 'complete', 'scan_id'] as const;
export interface ScoreRecord {
  date: string;
  srs: number;
  /** The score read every core source of the account; null for points recorded before this was kept. */
  complete: boolean | null;
  scan_id: string;
}

/** A true/false cell, empty when not known. */
const booleanCell = (value: boolean | null): string | null => (value === null ? null : String(value));

/** A score-history point as one CSV row: `complete` as true/false, empty when not known. */
export function scoreCsvRecord(record: ScoreRecord) {
  return { ...record, complete: booleanCell(record.complete) };
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
    score_complete: a.score_complete,
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
  'aws_account_id',
  'cloud_account_id',
  'display_name',
  'status',
  'tags',
  'current_srs',
  'score_complete',
  'role_name',
  'created_at',
  'connected_at',
  'last_scan_at',
  'last_successful_scan_at',
  'disconnected_at',
] as const satisfies readonly (keyof AccountRecord)[];

/** The account record as one CSV row: the tags as a JSON array, so any tag text survives the cell. */
export function accountCsvRecord(a: AccountRecord) {
  return { ...a, tags: JSON.stringify(a.tags), score_complete: booleanCell(a.score_complete) };
}

export const ACTIVITY_COLUMNS = [
  'event_id',
  'action',
  'actor_email',
  'target',
  'client_address',
  'details',
  'created_at',
] as const;

/** What the audit log holds about an account, as the package's account-activity files list it. */
export interface ActivitySource {
  id: string;
  action: string;
  actor_email: string | null;
  target: string | null;
  client_address: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

export function activityRecord(e: ActivitySource) {
  return {
    event_id: e.id,
    action: e.action,
    actor_email: e.actor_email,
    target: e.target,
    client_address: e.client_address,
    details: e.details,
    created_at: e.created_at.toISOString(),
  };
}

/** The CSV row: details as JSON text. */
export function activityCsvRecord(
  r: ReturnType<typeof activityRecord>,
): Record<(typeof ACTIVITY_COLUMNS)[number], string | null> {
  return { ...r, details: JSON.stringify(r.details) };
}

export const ATTACK_PATH_COLUMNS = [
  'path_id',
  'kind',
  'rule',
  'severity',
  'certainty',
  'title',
  'summary',
  'source',
  'target',
  'region',
  'steps',
  'nodes',
  'edges',
  'first_found_at',
  'found_at',
] as const;

/** An attack path as the package holds it (the row of db/tables/attack-paths.ts). */
export interface AttackPathSource {
  fingerprint: string;
  kind: string;
  rule: string;
  severity: string;
  certainty: string;
  title: string;
  summary: string;
  source: string;
  target: string;
  region: string | null;
  nodes: unknown[];
  edges: { from: string; to: string; label: string }[];
  first_found_at: Date;
  found_at: Date;
}

export function attackPathRecord(p: AttackPathSource) {
  return {
    path_id: p.fingerprint,
    kind: p.kind,
    rule: p.rule,
    severity: p.severity,
    certainty: p.certainty,
    title: p.title,
    summary: p.summary,
    source: p.source,
    target: p.target,
    region: p.region,
    // The chain read left to right, for a reader without a graph viewer.
    steps: p.edges.map((e) => `${e.from} -[${e.label}]-> ${e.to}`).join(' ; '),
    nodes: p.nodes,
    edges: p.edges,
    first_found_at: p.first_found_at.toISOString(),
    found_at: p.found_at.toISOString(),
  };
}

/** The CSV row: nodes and edges as JSON text. */
export function attackPathCsvRecord(
  r: ReturnType<typeof attackPathRecord>,
): Record<(typeof ATTACK_PATH_COLUMNS)[number], string | null> {
  return { ...r, nodes: JSON.stringify(r.nodes), edges: JSON.stringify(r.edges) };
}
