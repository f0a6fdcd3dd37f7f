import { ACCESS_ANALYZER_CHECKS } from './access-analyzer';
import { AUTOSCALING_CHECKS } from './autoscaling';
import { BATCH_CHECKS } from './batch';
import { BEDROCK_CHECKS } from './bedrock';
import { BEDROCK_AGENT_ROLE_CHECKS } from './bedrock-agent-roles';
import { ACM_CHECKS } from './acm';
import { API_GATEWAY_CHECKS } from './api-gateway';
import { CLOUDFRONT_CHECKS } from './cloudfront';
import { BILLING_CHECKS } from './billing';
import { CODEBUILD_CHECKS } from './codebuild';
import { CLOUDFORMATION_CHECKS } from './cloudformation';
import { CONNECTIVITY_CHECK, COVERAGE_LOST_CHECK } from './connectivity';
import { DATA_STORE_CHECKS } from './data-stores';
import { DETECTION_CHECKS } from './detection';
import { DETECTION_LOGGING_CHECKS } from './detection-logging';
import { EC2_COMPUTE_CHECKS } from './ec2-compute';
import { ECS_CHECKS } from './ecs';
import { ECS_TASK_DEFINITION_CHECKS } from './ecs-task-definitions';
import { EC2_VPC_CHECKS } from './ec2-vpc';
import { EKS_CHECKS } from './eks';
import { EVENT_FORWARDING_CHECKS } from './event-forwarding';
import { EXPOSURE_CHECKS } from './exposure';
import { GLUE_CHECKS } from './glue';
import { IAM_CHECKS } from './iam';
import { IAM_GOVERNANCE_CHECKS } from './iam-governance';
import { LOAD_BALANCER_CHECKS } from './load-balancers';
import { LAMBDA_CHECKS } from './lambda';
import { MONITORING_CHECKS } from './monitoring';
import { CLOUDWATCH_ALARM_CHECKS } from './cloudwatch-alarms';
import { NETWORK_EXPOSURE_CHECKS } from './network-exposure';
import { SAGEMAKER_CHECKS } from './sagemaker';
import { RESOURCE_POLICY_CHECKS } from './resource-policies';
import { S3_ACCESS_CHECKS } from './s3-access';
import { CLOUDTRAIL_THREAT_CHECKS } from './cloudtrail-threat';
import { IAM_ESCALATION_CHECKS } from './iam-escalation';
import { ATTACK_PATH_CHECKS } from './attack-paths';
import { GOVERNANCE_CHECKS } from './governance';
import { SSM_CHECKS } from './ssm';
import { STEP_FUNCTIONS_CHECKS } from './step-functions';
import { SUSPENSION_CHECKS } from './suspension';
import { THREAT_CHECKS } from './threat';
import { VPC_EDGE_CHECKS } from './vpc-edges';
import type { Check } from './types';
import { DMS_CHECKS } from './dms';
import { DOCUMENTDB_CHECKS } from './documentdb';
import { EBS_STORAGE_CHECKS } from './ebs-storage';
import { ELASTICACHE_CHECKS } from './elasticache';
import { KAFKA_CHECKS } from './kafka';
import { KINESIS_CHECKS } from './kinesis';
import { LIGHTSAIL_CHECKS } from './lightsail';
import { NEPTUNE_CHECKS } from './neptune';
import { OPENSEARCH_CHECKS } from './opensearch';
import { RDS_CHECKS } from './rds';
import { RDS_HARDENING_CHECKS } from './rds-hardening';
import { EC2_BREADTH_CHECKS } from './ec2-breadth';
import { BEDROCK_KEY_CHECKS } from './bedrock-keys';
import { REDSHIFT_CHECKS } from './redshift';
import { CODEARTIFACT_CHECKS } from './codeartifact';
import { ROUTE53_CHECKS } from './route53';

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
  ...CLOUDWATCH_ALARM_CHECKS,
  ...DETECTION_LOGGING_CHECKS,
  ...ACCESS_ANALYZER_CHECKS,
  ...EC2_VPC_CHECKS,
  ...BILLING_CHECKS,
  ...DATA_STORE_CHECKS,
  ...EC2_COMPUTE_CHECKS,
  ...AUTOSCALING_CHECKS,
  ...CODEBUILD_CHECKS,
  ...GLUE_CHECKS,
  ...BATCH_CHECKS,
  ...NETWORK_EXPOSURE_CHECKS,
  ...VPC_EDGE_CHECKS,
  ...LOAD_BALANCER_CHECKS,
  ...RDS_CHECKS,
  ...DOCUMENTDB_CHECKS,
  ...NEPTUNE_CHECKS,
  ...DMS_CHECKS,
  ...REDSHIFT_CHECKS,
  ...OPENSEARCH_CHECKS,
  ...KAFKA_CHECKS,
  ...ELASTICACHE_CHECKS,
  ...KINESIS_CHECKS,
  ...EBS_STORAGE_CHECKS,
  ...BEDROCK_CHECKS,
  ...BEDROCK_AGENT_ROLE_CHECKS,
  ...SAGEMAKER_CHECKS,
  ...EKS_CHECKS,
  ...ECS_CHECKS,
  ...RESOURCE_POLICY_CHECKS,
  ...S3_ACCESS_CHECKS,
  ...IAM_ESCALATION_CHECKS,
  ...ATTACK_PATH_CHECKS,
  ...GOVERNANCE_CHECKS,
  ...CLOUDTRAIL_THREAT_CHECKS,
  ...LAMBDA_CHECKS,
  ...ECS_TASK_DEFINITION_CHECKS,
  ...CLOUDFORMATION_CHECKS,
  ...STEP_FUNCTIONS_CHECKS,
  ...SSM_CHECKS,
  ...API_GATEWAY_CHECKS,
  ...CODEARTIFACT_CHECKS,
  ...ROUTE53_CHECKS,
  ...CLOUDFRONT_CHECKS,
  ...ACM_CHECKS,
  ...LIGHTSAIL_CHECKS,
  ...RDS_HARDENING_CHECKS,
  ...EC2_BREADTH_CHECKS,
  ...BEDROCK_KEY_CHECKS,
]);

const BY_ID = new Map(CATALOG.map((check) => [check.id, check]));

export function checkById(id: string): Check | undefined {
  return BY_ID.get(id);
}
