import { ACCESS_ANALYZER_CHECKS } from './access-analyzer';
import { API_GATEWAY_CHECKS } from './api-gateway';
import { BILLING_CHECKS } from './billing';
import { CLOUDFORMATION_CHECKS } from './cloudformation';
import { CONNECTIVITY_CHECK, COVERAGE_LOST_CHECK } from './connectivity';
import { DATA_STORE_CHECKS } from './data-stores';
import { DETECTION_CHECKS } from './detection';
import { DETECTION_LOGGING_CHECKS } from './detection-logging';
import { ECS_TASK_DEFINITION_CHECKS } from './ecs-task-definitions';
import { EC2_VPC_CHECKS } from './ec2-vpc';
import { EVENT_FORWARDING_CHECKS } from './event-forwarding';
import { EXPOSURE_CHECKS } from './exposure';
import { IAM_CHECKS } from './iam';
import { IAM_GOVERNANCE_CHECKS } from './iam-governance';
import { LAMBDA_CHECKS } from './lambda';
import { MONITORING_CHECKS } from './monitoring';
import { SSM_CHECKS } from './ssm';
import { STEP_FUNCTIONS_CHECKS } from './step-functions';
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
  ...LAMBDA_CHECKS,
  ...ECS_TASK_DEFINITION_CHECKS,
  ...CLOUDFORMATION_CHECKS,
  ...STEP_FUNCTIONS_CHECKS,
  ...SSM_CHECKS,
  ...API_GATEWAY_CHECKS,
]);

const BY_ID = new Map(CATALOG.map((check) => [check.id, check]));

export function checkById(id: string): Check | undefined {
  return BY_ID.get(id);
}
