// The Prowler checks of HIGH severity that Sentinel leaves out, each with the reason. Every other CRITICAL and HIGH
// Prowler AWS check is named by one of Sentinel's checks (`prowler` in domain/checks/types.ts):
// test/unit/checks/prowler-coverage.test.ts holds the list against Prowler's (test/fixtures/
// prowler-aws-critical-high.tsv), and docs/checks.md shows it. Every CRITICAL check is covered.

export interface LeftOut {
  /** Prowler's check id. */
  prowler: string;
  reason: string;
}

/** Services Sentinel does not read: no collector calls them, and the role's policies are not asked to. */
const notRead = (service: string) =>
  `Sentinel does not read ${service}: no collector reads it, so no check can judge its resources.`;

const ENCLAVE_KEYS =
  'Sentinel reads key policies for whom they open a key to, not for Nitro Enclave attestation conditions, which ' +
  'only keys meant for enclaves need; AWS marks no key as such, and Prowler tells them apart by the word ' +
  '"enclave" in an alias, description or tag, a guess a report should not rest on.';

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
  { prowler: 'waf_global_rulegroup_not_empty', reason: notRead('AWS WAF Classic') },
  { prowler: 'wafv2_webacl_with_rules', reason: notRead("AWS WAF's web ACL rules") },
  { prowler: 'inspector2_active_findings_exist', reason: notRead('Amazon Inspector') },
  { prowler: 'macie_automated_sensitive_data_discovery_enabled', reason: notRead('Amazon Macie') },
  { prowler: 'eventbridge_schema_registry_cross_account_access', reason: notRead('EventBridge schema registries') },
  { prowler: 'kafka_connector_in_transit_encryption_enabled', reason: notRead('MSK Connect') },
  { prowler: 'config_delegated_admin_and_org_aggregator_all_regions', reason: notRead("AWS Config's aggregators") },
  {
    prowler: 'cloudformation_stack_cdktoolkit_bootstrap_version',
    reason:
      "The CDK bootstrap version is an output of the CDKToolkit stack: Sentinel searches stacks' outputs for " +
      'secrets and keeps nothing else of them, and an old bootstrap version is a deployment tool out of date, not ' +
      'an exposure of the account.',
  },
  {
    prowler: 'ssm_managed_compliant_patching',
    reason:
      "Patch compliance is an instance's operating system patch state, which exists only where Patch Manager scans; " +
      'Sentinel judges how the account is configured, not what runs inside instances (Inspector and Patch Manager ' +
      'report that).',
  },
  {
    prowler: 'codebuild_project_uses_allowed_github_organizations',
    reason:
      'Prowler passes only the GitHub organizations listed in its own configuration (none by default, so every ' +
      'GitHub project fails); Sentinel has no per-tenant list of trusted organizations. Which pushes can start a ' +
      'build is judged by exposure.codebuild_webhook_unanchored_filter.',
  },
  {
    prowler: 'eks_cluster_network_policy_enabled',
    reason:
      "Prowler's check passes a cluster that has a cluster security group, which EKS creates for every cluster; " +
      'it does not read network policy, which is a setting inside the cluster. The endpoint checks ' +
      '(exposure.eks_endpoint_public) judge what the cluster exposes.',
  },
  {
    prowler: 'iam_user_with_temporary_credentials',
    reason:
      'It runs an IAM access advisor job per user (GenerateServiceLastAccessedDetails, then polling for it) to fail ' +
      'any user with access keys who used a service other than IAM and STS; the access key checks (age, rotation, ' +
      'disuse, root keys) judge those keys without a job per user.',
  },
  {
    prowler: 'kms_key_enclave_attestation_bypassable_path',
    reason: ENCLAVE_KEYS,
  },
  {
    prowler: 'kms_key_enclave_attestation_not_enforced',
    reason: ENCLAVE_KEYS,
  },
  {
    prowler: 'kms_key_enclave_debug_attestation_detected',
    reason:
      "It reads 90 days of CloudTrail's KMS events (LookupEvents for five event names in every region, at 2 calls a " +
      'second per region) for attestation documents of enclaves in debug mode: a cost per scan out of proportion ' +
      'to keys used by Nitro Enclaves, which few accounts have.',
  },
  {
    prowler: 'ec2_confidential_workload_host_unrestricted_ingress',
    reason:
      'Sentinel judges ports open to the internet on every instance, Nitro Enclave hosts among them ' +
      '(exposure.sg_unauthorized_port_open and the per-port checks); Prowler narrows the same judgement to hosts ' +
      'with enclaves enabled, and also counts a single public address as the internet.',
  },
  {
    prowler: 's3_bucket_shadow_resource_vulnerability',
    reason:
      "It probes other accounts' buckets by the names AWS services would give the account's own (HeadBucket on " +
      'four patterns in every region) and counts any answer but 404 as a name claimed by someone else. Sentinel ' +
      "reads the customer's account through its role, and does not probe others'.",
  },
  {
    prowler: 'secretsmanager_has_restrictive_resource_policy',
    reason:
      'It fails every secret without a resource policy of a prescribed shape (a catch-all Deny naming the allowed ' +
      'principals), which most well-kept secrets do not have. Sentinel judges what a policy opens: ' +
      'exposure.secret_public and exposure.secret_cross_account.',
  },
]);
