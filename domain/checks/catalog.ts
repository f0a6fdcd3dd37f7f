import { ACCESS_ANALYZER_CHECKS } from './access-analyzer';
import { BILLING_CHECKS } from './billing';
import { CONNECTIVITY_CHECK, COVERAGE_LOST_CHECK } from './connectivity';
import { DATA_STORE_CHECKS } from './data-stores';
import { DETECTION_CHECKS } from './detection';
import { DETECTION_LOGGING_CHECKS } from './detection-logging';
import { EC2_VPC_CHECKS } from './ec2-vpc';
import { EVENT_FORWARDING_CHECKS } from './event-forwarding';
import { EXPOSURE_CHECKS } from './exposure';
import { IAM_CHECKS } from './iam';
import { IAM_GOVERNANCE_CHECKS } from './iam-governance';
import { MONITORING_CHECKS } from './monitoring';
import { S3_ACCESS_CHECKS } from './s3-access';
import { CLOUDTRAIL_THREAT_CHECKS } from './cloudtrail-threat';
import { IAM_ESCALATION_CHECKS } from './iam-escalation';
import { GOVERNANCE_CHECKS } from './governance';
import { SUSPENSION_CHECKS } from './suspension';
import { THREAT_CHECKS } from './threat';
import type { Check } from './types';

// Every check Sentinel runs. A check's id is part of its signals' fingerprints: renaming one reopens them all.

export const CATALOG: readonly Check[] = Object.freeze([
  CONNECTIVITY_CHECK,
  COVERAGE_LOST_CHECK,
  ...THREAT_CHECKS,
  ...IAM_CHECKS,
  ...IAM_GOVERNANCE_CHECKS,
  ...EXPOSURE_CHECKS,
  ...SUSPENSION_CHECKS,
  ...DETECTION_CHECKS,
  ...EVENT_FORWARDING_CHECKS,
  ...MONITORING_CHECKS,
  ...DETECTION_LOGGING_CHECKS,
  ...ACCESS_ANALYZER_CHECKS,
  ...EC2_VPC_CHECKS,
  ...BILLING_CHECKS,
  ...DATA_STORE_CHECKS,
  ...S3_ACCESS_CHECKS,
  ...IAM_ESCALATION_CHECKS,
  ...GOVERNANCE_CHECKS,
  ...CLOUDTRAIL_THREAT_CHECKS,
]);

const BY_ID = new Map(CATALOG.map((check) => [check.id, check]));

export function checkById(id: string): Check | undefined {
  return BY_ID.get(id);
}
