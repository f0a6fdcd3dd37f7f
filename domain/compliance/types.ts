// Compliance frameworks: their controls as data, and which checks of the catalogue support each control.

export const FRAMEWORK_IDS = ['cis-aws-7.0'] as const;
export type FrameworkId = (typeof FRAMEWORK_IDS)[number];

/**
 * The controls a check supports, by framework. `aws-fsbp` cross-references the AWS Foundational Security Best
 * Practices control with the same intent (shown on the control, not offered as a framework: Sentinel covers
 * only part of it).
 */
export interface ControlRefs {
  'cis-aws-7.0'?: readonly string[];
  'aws-fsbp'?: readonly string[];
}

export interface Control {
  id: string;
  section: string;
  profile: 'Level 1' | 'Level 2';
  /** The framework's own assessment status: automated, or manual. */
  automated: boolean;
  title: string;
  /** For a control no check evaluates: what the tenant must attest to meet it. */
  attestation?: string;
}

export interface Framework {
  id: FrameworkId;
  name: string;
  version: string;
  url: string;
  controls: readonly Control[];
}

/**
 * A control's status in one account: `passed` when every check behind it read everything and passed; `partial` when
 * everything they read passed but part of it (a region, a resource) could not be read; `accepted` when it fails only
 * on findings whose risk is accepted (shown apart, never as a pass); `manual` when no check evaluates it (the tenant
 * attests). `partial` came after the others: clients that list the values should expect more to come.
 */
export const CONTROL_STATUSES = ['passed', 'partial', 'failed', 'accepted', 'not_evaluated', 'manual'] as const;
export type ControlStatus = (typeof CONTROL_STATUSES)[number];
