// The Prowler checks of HIGH severity that Sentinel leaves out, each with the reason. Every other CRITICAL and HIGH
// Prowler AWS check is named by one of Sentinel's checks (`prowler` in domain/checks/types.ts):
// test/unit/checks/prowler-coverage.test.ts holds the two lists against Prowler's (test/fixtures/
// prowler-aws-critical-high.tsv), and docs/checks.md shows this one. A CRITICAL check is never left out.

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
