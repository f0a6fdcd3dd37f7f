// The Prowler checks of HIGH severity that Sentinel leaves out, each with the reason, and the ones it does not cover
// yet. Every other CRITICAL and HIGH Prowler AWS check is named by one of Sentinel's checks (`prowler` in
// domain/checks/types.ts): test/unit/checks/prowler-coverage.test.ts holds the lists against Prowler's (test/fixtures/
// prowler-aws-critical-high.tsv), and docs/checks.md shows them. Every CRITICAL check is covered. A HIGH one not
// covered yet is named in PROWLER_NOT_YET, the scan's remaining breadth, and the test fails the day it is covered and
// still listed, or when anything else goes uncovered.

export interface LeftOut {
  /** Prowler's check id. */
  prowler: string;
  reason: string;
}

/** Services Sentinel does not read: no collector calls them, and the role's policies are not asked to. */
const notRead = (service: string) =>
  `Sentinel does not read ${service}: no collector reads it, so no check can judge its resources.`;

const IMAGE_CONTENTS =
  'Secrets inside container images are data, not configuration: finding them means pulling every image layer ' +
  '(ecr:BatchGetImage, ecr:GetDownloadUrlForLayer), which the read-only role is not given.';

export const PROWLER_LEFT_OUT: readonly LeftOut[] = Object.freeze([
  { prowler: 'amplify_app_no_secrets_in_environment', reason: notRead('AWS Amplify') },
  { prowler: 'appsync_graphql_api_no_api_key_authentication', reason: notRead('AWS AppSync') },
  { prowler: 'codecommit_repository_no_secrets', reason: notRead('AWS CodeCommit') },
  { prowler: 'datapipeline_pipeline_no_secrets_in_definition', reason: notRead('AWS Data Pipeline') },
  { prowler: 'datasync_task_logging_enabled', reason: notRead('AWS DataSync') },
  { prowler: 'elasticbeanstalk_environment_cloudwatch_logging_enabled', reason: notRead('AWS Elastic Beanstalk') },
  { prowler: 'elasticbeanstalk_environment_managed_updates_enabled', reason: notRead('AWS Elastic Beanstalk') },
  { prowler: 'emr_cluster_account_public_block_enabled', reason: notRead('Amazon EMR') },
  { prowler: 'mq_broker_not_publicly_accessible', reason: notRead('Amazon MQ') },
  { prowler: 'networkfirewall_logging_enabled', reason: notRead('AWS Network Firewall') },
  { prowler: 'networkfirewall_multi_az', reason: notRead('AWS Network Firewall') },
  { prowler: 'networkfirewall_policy_default_action_fragmented_packets', reason: notRead('AWS Network Firewall') },
  { prowler: 'networkfirewall_policy_default_action_full_packets', reason: notRead('AWS Network Firewall') },
  { prowler: 'networkfirewall_policy_rule_group_associated', reason: notRead('AWS Network Firewall') },
  { prowler: 'servicecatalog_portfolio_shared_within_organization_only', reason: notRead('AWS Service Catalog') },
  { prowler: 'transfer_server_in_transit_encryption_enabled', reason: notRead('AWS Transfer Family') },
  { prowler: 'workspaces_volume_encryption_enabled', reason: notRead('Amazon WorkSpaces') },
  { prowler: 'workspaces_vpc_2private_1public_subnets_nat', reason: notRead('Amazon WorkSpaces') },
  { prowler: 'ecr_repository_image_no_secrets', reason: IMAGE_CONTENTS },
]);

const notYetRead = (service: string) => `Not covered yet: Sentinel does not read ${service} yet.`;
const notYet = (what: string) => `Not covered yet: ${what}`;

/** Prowler checks Sentinel means to cover and does not yet: the breadth still to build, shown in docs/checks.md. */
export const PROWLER_NOT_YET: readonly LeftOut[] = Object.freeze([
  { prowler: 'waf_global_rulegroup_not_empty', reason: notYetRead('AWS WAF Classic') },
  { prowler: 'wafv2_webacl_with_rules', reason: notYetRead('AWS WAF') },
  { prowler: 'inspector2_active_findings_exist', reason: notYetRead('Amazon Inspector') },
  { prowler: 'macie_automated_sensitive_data_discovery_enabled', reason: notYetRead('Amazon Macie') },
  { prowler: 'eventbridge_schema_registry_cross_account_access', reason: notYetRead('EventBridge schema registries') },
  { prowler: 'kafka_connector_in_transit_encryption_enabled', reason: notYetRead('MSK Connect') },
  { prowler: 'ssm_managed_compliant_patching', reason: notYetRead("Systems Manager's patch compliance") },
  {
    prowler: 'config_delegated_admin_and_org_aggregator_all_regions',
    reason: notYet("the organization part does not read AWS Config's aggregators."),
  },
  { prowler: 'bedrock_agent_role_least_privilege', reason: notYet("the agents' roles are not judged yet.") },
  { prowler: 'bedrock_agent_role_not_shared_across_agents', reason: notYet("the agents' roles are not judged yet.") },
  {
    prowler: 'cloudformation_stack_cdktoolkit_bootstrap_version',
    reason: notYet('the CDK bootstrap stack version is not read.'),
  },
  {
    prowler: 'cloudwatch_alarm_actions_alarm_state_configured',
    reason: notYet("alarms' own actions are not judged yet."),
  },
  { prowler: 'cloudwatch_alarm_actions_enabled', reason: notYet("alarms' own actions are not judged yet.") },
  {
    prowler: 'codebuild_project_uses_allowed_github_organizations',
    reason: notYet('it needs a setting naming the GitHub organizations a tenant allows, which Sentinel does not have.'),
  },
  {
    prowler: 'ec2_confidential_workload_host_imdsv2_not_enforced',
    reason: notYet('confidential-computing hosts are not told apart from other instances yet.'),
  },
  {
    prowler: 'ec2_confidential_workload_host_unrestricted_ingress',
    reason: notYet('confidential-computing hosts are not told apart from other instances yet.'),
  },
  {
    prowler: 'eks_cluster_network_policy_enabled',
    reason: notYet('whether network policy is on is a setting inside the cluster (the VPC CNI add-on), not read.'),
  },
  { prowler: 'iam_user_with_temporary_credentials', reason: notYet('it needs IAM access advisor data, not read.') },
  {
    prowler: 'kms_key_enclave_attestation_bypassable_path',
    reason: notYet('key policies are not read for Nitro Enclave attestation conditions yet.'),
  },
  {
    prowler: 'kms_key_enclave_attestation_not_enforced',
    reason: notYet('key policies are not read for Nitro Enclave attestation conditions yet.'),
  },
  {
    prowler: 'kms_key_enclave_debug_attestation_detected',
    reason: notYet('key policies are not read for Nitro Enclave attestation conditions yet.'),
  },
  {
    prowler: 's3_bucket_shadow_resource_vulnerability',
    reason: notYet('buckets of other accounts named like service buckets are not looked for.'),
  },
  {
    prowler: 'sagemaker_notebook_instance_no_secrets',
    reason: notYet("notebooks' lifecycle scripts are not read for secrets yet."),
  },
  {
    prowler: 'secretsmanager_has_restrictive_resource_policy',
    reason: notYet('it judges how a policy is written (specific Deny statements), not what it opens.'),
  },
]);
