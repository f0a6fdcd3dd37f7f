import type { ControlRefs } from '../compliance/types';
import type { Inventory, Unread } from '../scans/inventory';
import type { RegionBaseline } from './region-baseline';
import type { Service } from './services';

export const SCENARIOS = [
  'iam',
  'exposure',
  'detection',
  'threat',
  'billing',
  'suspension',
  'connectivity',
  'attack_path',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** 0 for CRITICAL up to 3 for LOW: sorting by it puts the most severe first. */
export const severityRank = (severity: Severity): number => SEVERITIES.indexOf(severity);

/** One failing resource of a check. Fingerprint = check id + resource + region. */
export interface FailingResource {
  resource: string;
  region?: string; // 'global' when omitted
  /** What exactly is wrong with this resource, for the signal's description. */
  detail?: string;
  /**
   * The resource this one belongs to, when reading the owner is what shows it (an access key's IAM user): a scan
   * that could not read the owner leaves the finding open.
   */
  owner?: string;
  /**
   * For a check supporting several controls of a framework, the ones this resource fails when it fails fewer than
   * all (a group open to 0.0.0.0/0 fails CIS 6.3, to ::/0 CIS 6.4); all of the check's controls in a framework
   * this leaves out.
   */
  controls?: ControlRefs;
}

/**
 * What a check concluded. `unread` names the regions and resources it could not see: a pass or a fail then
 * covers only the rest, and open findings there stay as they are.
 */
export type CheckResult =
  | { status: 'pass'; unread?: Unread[] }
  | { status: 'fail'; resources: FailingResource[]; unread?: Unread[] }
  | { status: 'not_evaluated'; reason: string; unread?: Unread[]; absent?: true };

export interface EvaluationContext {
  /** The scan's time (ISO 8601): ages ("older than 90 days") are measured from it, never from a clock. */
  now: string;
  /**
   * When the previous scan that read every IAM user and access key collected (ISO 8601): what was created after it
   * is new (threat.iam_user_created_recently, threat.access_key_created_recently). Null or absent: no such scan
   * yet, and FIRST_SCAN_IDENTITY_HOURS before `now` stands for it.
   */
  previousScanAt?: string | null;
  /** The regions the account uses (domain/checks/region-baseline.ts); absent: not learned, nothing accepted. */
  regionBaseline?: RegionBaseline;
  /**
   * The principals an event detection saw act in the account in the day before `now` (from its event signals):
   * an escalation path of one of them may be in use (domain/attack-paths/toxic-combinations.ts). Absent: none.
   */
  recentActors?: readonly { principal: string; detection: string; at: string }[];
}

/** What a finding's check says of itself: shown with its signals, in the recovery checklist and the reports. */
export interface CheckDescription {
  id: string; // e.g. 'iam.root_mfa_disabled'
  scenario: Scenario;
  severity: Severity;
  title: string;
  description: string;
  remediation: string;
  docsUrl: string;
}

export interface Check extends CheckDescription {
  /** The AWS service whose resources it judges (domain/checks/services.ts): the dashboard groups checks by it. */
  service: Service;
  /**
   * The ids of Prowler's checks (prowler-cloud/prowler, `prowler/providers/aws/services/`) that detect the same
   * condition as this one, so a tenant who runs both can match findings; none when Prowler has no such check.
   */
  prowler?: readonly string[];
  /** The compliance controls the check supports (domain/compliance/); none for most threat and billing checks. */
  controls?: ControlRefs;
  /**
   * For a check whose failing resources stand for different controls (a metric filter per CIS 5.x control): the
   * control a failing resource belongs to. Each control's status then follows its own findings only.
   */
  controlOfResource?: (resource: string) => string | undefined;
  /**
   * Its signals stand for something that happened (a user created, an instance launched where nobody works), not a
   * state that ends when the resource does: a scan that no longer sees the resource does not resolve the signal
   * until it is reviewed (accepted, or an alert about it acknowledged) or REVIEW_DAYS have passed since it opened
   * (domain/signals/lifecycle.ts; docs/decisions.md, "No clock-based all-clear").
   */
  review?: true;
  evaluate: (inventory: Inventory, context: EvaluationContext) => CheckResult;
}
