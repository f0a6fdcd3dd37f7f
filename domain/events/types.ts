import type { PartName } from '../scans/inventory';
import type { CheckDescription } from '../checks/types';
import type { ControlRefs } from '../compliance/types';
import type { Mitre } from './mitre';

// Real-time detection from the account's own event stream (docs/decisions.md, "Events"): the customer's
// EventBridge forwards CloudTrail management events, GuardDuty findings and AWS Health events to POST /ingest/aws/events; each
// event is stored, run through the detections below, and what they find opens signals at once.

/** An EventBridge event as AWS delivers it to an API destination (the envelope; `detail` is the service's own). */
export interface AwsEventEnvelope {
  version: string;
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

/** What Sentinel keeps of an event and what detections read: the envelope's fields, and the actor's where it has one. */
export interface AccountEvent {
  eventId: string;
  /** The AWS account the event is of (the envelope's; the ingesting key's account, checked). */
  account: string;
  source: string;
  detailType: string;
  region: string;
  /** When the event happened (ISO 8601), as the envelope says. */
  time: string;
  /** CloudTrail's `eventName`, a GuardDuty finding's type, or an AWS Health event's type code; null for other events. */
  eventName: string | null;
  /** Who acted: an IAM ARN, `root`, or null when the event names nobody. */
  actor: string | null;
  sourceIp: string | null;
  detail: Record<string, unknown>;
}

/**
 * The services a targeted rescan reads after an event, and the inventory parts each needs: an event names its
 * group, and the rescan reads only those parts (its other checks are not evaluated, so their signals stay open).
 */
export const SERVICE_GROUPS = {
  iam: [
    'iamSummary',
    'passwordPolicy',
    'credentialReport',
    'iamPrincipals',
    'iamAuthorization',
    'rootVirtualMfa',
    'awsManagedPolicies',
    'instanceProfiles',
  ],
  logging: ['cloudtrail', 'metricAlarms'],
  guardduty: ['guardduty'],
  // What the internet reaches on an instance is its address and its groups: a change to either is judged with both,
  // and with the routes, ACLs and placements the internet-exposure analysis follows (networkTopology).
  network: ['securityGroups', 'networkAcls', 'instances', 'networkTopology'],
  compute: ['instances', 'cloudtrail', 'instanceProfiles', 'securityGroups', 'networkTopology'],
  s3: ['s3AccountBlockPublicAccess', 's3Buckets'],
  account: ['alternateContacts'],
  health: ['health'],
  // The event forwarder and the trails whose management events it forwards: a change to either (a rule deleted or
  // disabled, an API destination retargeted) is confirmed, or cleared, by reading both.
  forwarder: ['eventForwarder', 'cloudtrail'],
} as const satisfies Record<string, readonly PartName[]>;
export type ServiceGroup = keyof typeof SERVICE_GROUPS;
export const SERVICE_GROUP_NAMES = Object.keys(SERVICE_GROUPS) as ServiceGroup[];

/** The inventory parts a targeted rescan of these groups reads. */
export function partsOfGroups(groups: readonly ServiceGroup[]): PartName[] {
  return [...new Set(groups.flatMap((g) => SERVICE_GROUPS[g]))];
}

/** What the detections may know of the account beyond the event itself. */
export interface DetectionContext {
  /**
   * Regions the account uses: its region baseline (domain/checks/region-baseline.ts). Null until a scan has learned
   * it (an instance launched then is not judged by its region).
   */
  usedRegions: readonly string[] | null;
  /** The name of the role Sentinel scans the account with; null when unknown. */
  roleName: string | null;
  /** The account's current event key replaced another less than a day ago: the connections are being updated with it. */
  eventKeyRotating: boolean;
}

/** One thing a detection found in an event. Fingerprint = detection id + resource + region, like a check's. */
export interface EventFinding {
  resource: string;
  /** 'global' when omitted. */
  region?: string;
  /** What happened, for the signal's description (the actor, source IP and time are added by the caller). */
  detail: string;
  /**
   * For a detection evidencing several controls of a framework, the ones this finding breaks when it breaks fewer
   * than all (SSH opened to ::/0 breaks CIS 6.4, not 6.3); all of the detection's controls in a framework this leaves
   * out. Kept on the signal (`signals.controls`).
   */
  controls?: ControlRefs;
}

/**
 * A detection: described like a check (domain/checks/types.ts), but it reads one event instead of an inventory. Its
 * id is `event.<name>`: never a check id, so a scan never mistakes its signals for its own.
 */
/** What a detection is (domain/events/catalog.ts), apart from how it detects. */
export interface DetectionDescription extends CheckDescription {
  /**
   * The MITRE ATT&CK tactics and techniques of what it sees (domain/events/mitre.ts), shown with its signals and in the
   * exports. Empty only where ATT&CK names no technique (a GuardDuty finding carries its own, by finding type).
   */
  mitre: readonly Mitre[];
  /** The services a rescan reads to confirm or clear what the event changed; null when no state can (a sign-in). */
  group: ServiceGroup | null;
  /**
   * The scan checks that see the state the event changed (a security group opened: the exposure.sg_* checks). A
   * scan that evaluated all of them resolves the event's signal: the scan's own signal stands for the state from
   * then on, or there is none because the state is gone. Absent: the signal stays open for EVENT_REVIEW_DAYS.
   */
  confirmedBy?: readonly string[];
  /**
   * The compliance controls the change breaks (domain/compliance/): while the detection's signal is open and not
   * accepted it fails them, whatever the last scan saw. None for what no control forbids (a user created).
   */
  controls?: ControlRefs;
}

/** The findings a detection makes in one event (none for nearly every event). */
export type Detect = (event: AccountEvent, context: DetectionContext) => EventFinding[];

/** A detection: its description, and its logic (domain/events/detections.ts). */
export interface EventDetection extends DetectionDescription {
  detect: Detect;
}

/** How long a signal no scan can confirm (a root sign-in) stays open for review, unless accepted sooner. */
export const EVENT_REVIEW_DAYS = 7;
