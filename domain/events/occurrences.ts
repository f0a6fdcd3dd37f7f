import { boundedResource } from '../signals/bounds';
import { FORWARDING_BLIND_ID, PROBABLE_COMPROMISE_ID } from './catalog';
import { PLAYBOOK_CATALOG, PLAYBOOK_STATE_IDS } from './playbook-catalog';
import { WINDOWS_CATALOG } from './windows-catalog';
import { isSigmaDetection } from './sigma/ids';

// How each event detection's findings are de-duplicated into signals (docs/decisions.md, "Events", the table there):
//
// - A state detection's signal stands for a resource's state (a security group open to the internet, a bucket made
//   public), which a scan confirms: its fingerprint is the resource's, detection + resource + region like a check's,
//   and the same finding again while its signal is open is the same state, left as it is.
// - An occurrence detection's signal stands for something that happened (a root sign-in, a trail stopped, a new access
//   key): each occurrence is news, whoever accepted the one before. Its fingerprint adds the event that opened it, so
//   occurrences open signals of their own; the bound keeps a burst (an attacker's script) from opening one per event:
//   an occurrence within the window of an open signal of the same detection and principal is counted on it (stored as
//   an event naming the detection, no second signal, no second alert), unless that signal's risk was accepted, alone
//   or under a scope that does not cover this occurrence. The window is anchored at the signal's first occurrence, so a
//   long burst opens one signal, and alerts, per window.
//
// An acceptance names what it accepts: one signal (the default), or for an occurrence detection a scope with an expiry,
// this detection by one principal or by anyone. A scope in force accepts each later occurrence it covers as it comes:
// the occurrence is stored, and its signal accepted, so it fires no alert and counts in no score.

export type Deduplication =
  | { kind: 'state' }
  | {
      kind: 'occurrence';
      /** Whose occurrences one signal counts: one principal's (who acted), or the account's (a compound detection). */
      by: 'principal' | 'account';
      windowMinutes: number;
    };

/** At most one signal per detection and principal per this many minutes of the events' own time, unless accepted. */
export const OCCURRENCE_WINDOW_MINUTES = 15;
/** The probable compromise: one per account per day (its evidence window) while the open one is not accepted. */
export const COMPOUND_WINDOW_MINUTES = 24 * 60;

const STATE: Deduplication = { kind: 'state' };
const PER_PRINCIPAL: Deduplication = { kind: 'occurrence', by: 'principal', windowMinutes: OCCURRENCE_WINDOW_MINUTES };

/** Every detection of the catalogue (domain/events/catalog.ts) and how its findings are de-duplicated. */
export const DEDUPLICATION: Readonly<Record<string, Deduplication>> = Object.freeze({
  // Who signed in or acted as root, and when: each time is news.
  'event.root_console_sign_in': PER_PRINCIPAL,
  'event.root_api_call': PER_PRINCIPAL,
  'event.console_sign_in_without_mfa': PER_PRINCIPAL,
  // New identities and credentials: each one is another way in (a script creating fifty keys is one signal a window).
  'event.iam_user_created': PER_PRINCIPAL,
  'event.access_key_created': PER_PRINCIPAL,
  'event.login_profile_created': PER_PRINCIPAL,
  // Who holds administrator access is state: the IAM checks confirm it.
  'event.admin_policy_attached': STATE,
  // Covering tracks: stopped, deleted or weakened again after a fix is a second attempt.
  'event.cloudtrail_logging_stopped': PER_PRINCIPAL,
  'event.cloudtrail_trail_deleted': PER_PRINCIPAL,
  'event.cloudtrail_weakened': PER_PRINCIPAL,
  'event.guardduty_disabled': PER_PRINCIPAL,
  // GuardDuty's own finding id: its updates of one finding are that finding.
  'event.guardduty_high_severity_finding': STATE,
  'event.guardduty_finding': STATE,
  // Exposures: the resource's configuration, which the exposure and suspension checks confirm.
  'event.security_group_admin_port_opened': STATE,
  'event.security_group_database_port_opened': STATE,
  'event.s3_bucket_made_public': STATE,
  'event.s3_account_public_access_block_removed': STATE,
  'event.alternate_contact_deleted': STATE,
  // AWS Health's own event (its ARN): the updates AWS sends of one event are that event, as a GuardDuty finding's are.
  'event.health_risk_event': STATE,
  'event.health_abuse_event': STATE,
  // Launches: each reservation is new compute, by whoever launched it.
  'event.instance_launched_in_unused_region': PER_PRINCIPAL,
  'event.gpu_instance_launched': PER_PRINCIPAL,
  // Blinding Sentinel: each attempt is news, as a trail stopped is; a script changing every region is one a window.
  'event.event_forwarder_changed': PER_PRINCIPAL,
  'event.sentinel_role_changed': PER_PRINCIPAL,
  // A region enabled and not covered is the account's state, one signal per region.
  'event.region_enabled': STATE,
  // A region's forwarder is blind or not: one signal per region while it lasts.
  [FORWARDING_BLIND_ID]: STATE,
  [PROBABLE_COMPROMISE_ID]: { kind: 'occurrence', by: 'account', windowMinutes: COMPOUND_WINDOW_MINUTES },
  // The attacker's playbook: what was done, per principal, except the changes that leave a resource in a state.
  ...Object.fromEntries(
    PLAYBOOK_CATALOG.map((d) => [d.id, PLAYBOOK_STATE_IDS.has(d.id) ? STATE : PER_PRINCIPAL] as const),
  ),
  // The detections with memory: a window reaches its threshold once, and opens one signal (domain/events/windows.ts);
  // a sustained burst crossing again in the next window is counted on it, as an occurrence within its window is.
  ...Object.fromEntries(WINDOWS_CATALOG.map((d) => [d.id, PER_PRINCIPAL] as const)),
});

/**
 * How a detection's findings are de-duplicated. A tenant's Sigma rule sees one event, as the playbook's do: each
 * match is an occurrence, per principal. Another detection the table does not hold is a state detection.
 */
export function deduplicationOf(detectionId: string): Deduplication {
  return DEDUPLICATION[detectionId] ?? (isSigmaDetection(detectionId) ? PER_PRINCIPAL : STATE);
}

export const isOccurrenceDetection = (detectionId: string): boolean =>
  deduplicationOf(detectionId).kind === 'occurrence';

/**
 * The fingerprint of an event detection's signal. A state's is its resource's (detection + resource + region, like a
 * check's); an occurrence's adds what opened it (the event id, or the scan id for a probable compromise a scan
 * completed), so each occurrence the bound lets through opens its own signal. The resource is named as signals keep
 * it (domain/signals/bounds.ts), so a fingerprint stays within what its index can hold.
 */
export function eventFingerprint(
  detectionId: string,
  finding: { resource: string; region?: string },
  occurrenceId: string,
): string {
  const base = `${detectionId}|${boundedResource(finding.resource)}|${finding.region ?? 'global'}`;
  return isOccurrenceDetection(detectionId) ? `${base}|${occurrenceId}` : base;
}

/**
 * The principal an event signal names (who acted: an IAM ARN, `root`), by which occurrences are counted and a scope
 * accepts them; null for an account-wide detection and for an event that names nobody.
 */
export function signalPrincipal(detectionId: string, actor: string | null): string | null {
  const dedup = deduplicationOf(detectionId);
  return dedup.kind === 'occurrence' && dedup.by === 'account' ? null : actor;
}

/** An open signal of an occurrence detection, as the bound reads it. */
export interface OpenOccurrence {
  signalId: string;
  detectionId: string;
  principal: string | null;
  occurredAt: Date;
  /**
   * The acceptance in force, if any: the scope it comes from (the id of the scoped acceptance), or null when it
   * accepts this signal alone.
   */
  acceptance: { scopeId: string | null } | null;
}

/** A scoped acceptance in force: later occurrences of its detection, by its principal or (null) by anyone. */
export interface OccurrenceScope {
  id: string;
  detectionId: string;
  principal: string | null;
}

/** An occurrence one event (or scan) brings, and the id its signal gets if it opens one. */
export interface NewOccurrence {
  signalId: string;
  detectionId: string;
  principal: string | null;
  occurredAt: Date;
}

export type OccurrenceDecision =
  /** A signal of its own, accepted under `scope` when one covers it. */
  | { open: true; scope: OccurrenceScope | null }
  /** Within the window of an open signal: counted on it, which opens nothing and alerts nobody. */
  | { open: false; countedOn: string };

/** Whether a scope accepts an occurrence: its detection, and its principal unless it accepts anyone's. */
export function scopeCovers(
  scope: Pick<OccurrenceScope, 'detectionId' | 'principal'>,
  occurrence: { detectionId: string; principal: string | null },
): boolean {
  return (
    scope.detectionId === occurrence.detectionId &&
    (scope.principal === null || scope.principal === occurrence.principal)
  );
}

const windowMs = (detectionId: string): number => {
  const dedup = deduplicationOf(detectionId);
  return dedup.kind === 'occurrence' ? dedup.windowMinutes * 60_000 : 0;
};

/**
 * What each new occurrence does, in the order given: counted on the newest open signal of its detection and principal
 * whose first occurrence is less than the window away (before or after: events may come late), unless that signal is
 * accepted other than by a scope covering this occurrence (accepting one occurrence never silences the next); else it
 * opens a signal of its own, accepted by the first scope in force that covers it (one naming its principal before one
 * naming anyone), and later occurrences of the same batch are counted against it.
 */
export function decideOccurrences(
  open: readonly OpenOccurrence[],
  scopes: readonly OccurrenceScope[],
  occurrences: readonly NewOccurrence[],
): OccurrenceDecision[] {
  const signals = [...open];
  const ranked = [...scopes].sort((a, b) => Number(a.principal === null) - Number(b.principal === null));
  const order = occurrences
    .map((occurrence, index) => ({ occurrence, index }))
    .sort((a, b) => a.occurrence.occurredAt.getTime() - b.occurrence.occurredAt.getTime() || a.index - b.index);
  const decisions: OccurrenceDecision[] = new Array(occurrences.length);
  for (const { occurrence, index } of order) {
    const covering = ranked.filter((scope) => scopeCovers(scope, occurrence));
    const window = windowMs(occurrence.detectionId);
    const onto = signals
      .filter(
        (s) =>
          s.detectionId === occurrence.detectionId &&
          s.principal === occurrence.principal &&
          Math.abs(s.occurredAt.getTime() - occurrence.occurredAt.getTime()) < window &&
          (s.acceptance === null || covering.some((scope) => scope.id === s.acceptance?.scopeId)),
      )
      .sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime())[0];
    if (onto) {
      decisions[index] = { open: false, countedOn: onto.signalId };
      continue;
    }
    const scope = covering[0] ?? null;
    decisions[index] = { open: true, scope };
    signals.push({
      signalId: occurrence.signalId,
      detectionId: occurrence.detectionId,
      principal: occurrence.principal,
      occurredAt: occurrence.occurredAt,
      acceptance: scope && { scopeId: scope.id },
    });
  }
  return decisions;
}

/**
 * At most this many signals of one event detection are open in an account at once. Events come from the account's
 * forwarder, whose key a tenant holds: at the 600 events a minute a key may send, forged findings (a new principal,
 * resource or time each) would otherwise open a signal each, some 864,000 a day, and every read of the account's open
 * signals (its score, compliance, alert rules) would grow with them. A real account reaches this only when a hundred
 * findings of one detection wait unreviewed, each of which alerted.
 */
export const OPEN_SIGNALS_PER_DETECTION = 100;

/** An account's open signals of one detection: how many, and the newest (where findings beyond the bound count). */
export interface DetectionLoad {
  open: number;
  newest: string | null;
}

export type BoundDecision = { open: true } | { open: false; countedOn: string };

/**
 * Which of the signals a batch would open do open, in the order given: each while its detection has fewer than
 * OPEN_SIGNALS_PER_DETECTION open (those opened before it in the batch included); beyond, it is counted on the
 * detection's newest open signal (the latest one the batch opened, if any): it opens and alerts nothing, and its event
 * is stored as every event is.
 */
export function boundOpenings(
  load: ReadonlyMap<string, DetectionLoad>,
  candidates: readonly { signalId: string; detectionId: string }[],
): BoundDecision[] {
  const current = new Map([...load].map(([id, l]) => [id, { ...l }]));
  return candidates.map(({ signalId, detectionId }): BoundDecision => {
    const detection = current.get(detectionId) ?? { open: 0, newest: null };
    current.set(detectionId, detection);
    if (detection.open >= OPEN_SIGNALS_PER_DETECTION && detection.newest !== null) {
      return { open: false, countedOn: detection.newest };
    }
    detection.open += 1;
    detection.newest = signalId;
    return { open: true };
  });
}
