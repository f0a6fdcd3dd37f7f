import { CATALOG } from '../../../domain/checks/catalog';
import { CONNECTIVITY_CHECK_ID, COVERAGE_LOST_CHECK_ID } from '../../../domain/checks/connectivity';
import { type Inventory, PART_NAMES, type PartName } from '../../../domain/scans/inventory';
import {
  ACCOUNT,
  cleanInventory,
  cleanTrail,
  daysAgo,
  ECS_TASK_ARN,
  hoursAgo,
  LAMBDA_ARN,
  LAYER_ARN,
  outcome,
  part,
  reportedKey,
  reportRow,
  setKeyCreated,
  STACK_ID,
  STATE_MACHINE_ARN,
  WELL_RUN_INSTANCE,
  withoutPart,
} from '../../helpers/inventory';

// Every check, three ways: it passes on a clean account, one targeted change makes it fail on exactly the
// expected resource, and it is not evaluated (never a false pass or fail) when a part it reads is unreadable.

const NOW = '2026-03-15T12:00:00.000Z';

interface Case {
  id: string;
  /** The inventory parts the check reads. */
  parts: PartName[];
  breaks: (inventory: Inventory, now: string) => void;
  /** The failing resources, as `resource@region`. */
  fails: string[];
}

const ALICE = `arn:aws:iam::${ACCOUNT}:user/alice`;
const instance = (id: string, region: string, type: string, launchedAt: string) => ({
  id,
  region,
  type,
  state: 'running',
  launchedAt,
  ...WELL_RUN_INSTANCE,
});

const CASES: Case[] = [
  // iam
  {
    id: 'iam.root_mfa_disabled',
    parts: ['iamSummary'],
    breaks: (inv) => {
      part(inv.iamSummary).rootMfaEnabled = false;
    },
    fails: ['root@global'],
  },
  {
    id: 'iam.root_access_keys_present',
    parts: ['iamSummary'],
    breaks: (inv) => {
      part(inv.iamSummary).rootAccessKeysPresent = true;
    },
    fails: ['root@global'],
  },
  {
    id: 'iam.root_recently_used',
    parts: ['credentialReport'],
    breaks: (inv, now) => {
      part(inv.credentialReport).root = { lastUsedAt: daysAgo(now, 3) };
    },
    fails: ['root@global'],
  },
  {
    id: 'iam.console_user_without_mfa',
    parts: ['credentialReport'],
    breaks: (inv) => {
      reportRow(inv, 'alice').mfaActive = false;
    },
    fails: [`${ALICE}@global`],
  },
  {
    id: 'iam.access_key_not_rotated',
    parts: ['iamPrincipals'],
    breaks: (inv, now) => {
      setKeyCreated(inv, 'AKIAALICE0000000001', daysAgo(now, 120));
    },
    fails: ['AKIAALICE0000000001@global'],
  },
  {
    id: 'iam.access_key_unused',
    parts: ['iamPrincipals', 'credentialReport'],
    breaks: (inv, now) => {
      reportedKey(inv, 'AKIACIDEPLOY00000001').lastUsedAt = daysAgo(now, 50);
    },
    fails: ['AKIACIDEPLOY00000001@global'],
  },
  {
    id: 'iam.console_password_unused',
    parts: ['credentialReport'],
    breaks: (inv, now) => {
      reportRow(inv, 'alice').passwordLastUsedAt = daysAgo(now, 50);
    },
    fails: [`${ALICE}@global`],
  },
  {
    id: 'iam.user_admin_access',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).users[0]!.adminAccess = true;
    },
    fails: [`${ALICE}@global`],
  },
  {
    id: 'iam.role_admin_access',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).roles[0]!.adminAccess = true;
    },
    fails: [`arn:aws:iam::${ACCOUNT}:role/app-server@global`],
  },
  {
    id: 'iam.password_policy_missing',
    parts: ['passwordPolicy'],
    breaks: (inv) => {
      part(inv.passwordPolicy).policy = null;
    },
    fails: ['password-policy@global'],
  },
  {
    id: 'iam.password_policy_weak',
    parts: ['passwordPolicy'],
    breaks: (inv) => {
      part(inv.passwordPolicy).policy!.requireSymbols = false;
    },
    fails: ['password-policy@global'],
  },
  {
    id: 'iam.password_policy_short',
    parts: ['passwordPolicy'],
    breaks: (inv) => {
      part(inv.passwordPolicy).policy!.minimumLength = 8;
    },
    fails: ['password-policy@global'],
  },
  {
    id: 'iam.password_policy_reuse_allowed',
    parts: ['passwordPolicy'],
    breaks: (inv) => {
      part(inv.passwordPolicy).policy!.reusePrevention = 5;
    },
    fails: ['password-policy@global'],
  },
  {
    id: 'iam.user_direct_policies',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).users[0]!.directPolicies.push('s3-uploads');
    },
    fails: [`${ALICE}@global`],
  },
  {
    id: 'iam.full_admin_policy_attached',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).groups[0]!.fullAdminPolicies.push('break-glass');
    },
    fails: [`arn:aws:iam::${ACCOUNT}:group/developers@global`],
  },
  {
    id: 'iam.no_support_role',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).roles[1]!.managedPolicies = [];
    },
    fails: ['support-role@global'],
  },
  {
    id: 'iam.cloudshell_full_access',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).groups[0]!.managedPolicies.push('AWSCloudShellFullAccess');
    },
    fails: [`arn:aws:iam::${ACCOUNT}:group/developers@global`],
  },
  {
    id: 'iam.expired_server_certificates',
    parts: ['serverCertificates'],
    breaks: (inv, now) => {
      part(inv.serverCertificates).certificates[0]!.expiresAt = daysAgo(now, 2);
    },
    fails: [`arn:aws:iam::${ACCOUNT}:server-certificate/legacy-elb@global`],
  },
  {
    id: 'iam.root_virtual_mfa',
    parts: ['iamSummary', 'rootVirtualMfa'],
    breaks: (inv) => {
      part(inv.rootVirtualMfa).serialNumber = `arn:aws:iam::${ACCOUNT}:mfa/root-account-mfa-device`;
    },
    fails: ['root@global'],
  },
  // exposure
  {
    id: 'exposure.s3_account_public_access_block_off',
    parts: ['s3AccountBlockPublicAccess'],
    breaks: (inv) => {
      part(inv.s3AccountBlockPublicAccess).settings!.restrictPublicBuckets = false;
    },
    fails: ['s3-account-public-access-block@global'],
  },
  {
    id: 'exposure.s3_bucket_public_access_block_off',
    parts: ['s3Buckets', 's3AccountBlockPublicAccess'],
    breaks: (inv) => {
      part(inv.s3AccountBlockPublicAccess).settings!.restrictPublicBuckets = false;
    },
    fails: ['acme-assets@us-east-1'],
  },
  {
    id: 'exposure.s3_bucket_public',
    parts: ['s3Buckets', 's3AccountBlockPublicAccess'],
    breaks: (inv) => {
      part(inv.s3AccountBlockPublicAccess).settings = null;
      part(inv.s3Buckets).buckets[0]!.publicViaAcl = true;
    },
    fails: ['acme-assets@us-east-1'],
  },
  {
    id: 'exposure.sg_ssh_open',
    parts: ['securityGroups'],
    breaks: (inv) => {
      part(inv.securityGroups).groups[1]!.openIngress.push({
        protocol: 'tcp',
        fromPort: 22,
        toPort: 22,
        cidr: '0.0.0.0/0',
      });
    },
    fails: ['sg-0default@eu-west-1'],
  },
  {
    id: 'exposure.sg_rdp_open',
    parts: ['securityGroups'],
    breaks: (inv) => {
      part(inv.securityGroups).groups[0]!.openIngress.push({
        protocol: 'tcp',
        fromPort: 3389,
        toPort: 3389,
        cidr: '::/0',
      });
    },
    fails: ['sg-0web@us-east-1'],
  },
  {
    id: 'exposure.sg_all_ports_open',
    parts: ['securityGroups'],
    breaks: (inv) => {
      part(inv.securityGroups).groups[1]!.openIngress.push({
        protocol: '-1',
        fromPort: null,
        toPort: null,
        cidr: '0.0.0.0/0',
      });
    },
    fails: ['sg-0default@eu-west-1'],
  },
  {
    id: 'exposure.ebs_snapshot_public',
    parts: ['publicSnapshots'],
    breaks: (inv) => {
      part(inv.publicSnapshots).snapshots.push({ id: 'snap-0public', region: 'us-west-2' });
    },
    fails: ['snap-0public@us-west-2'],
  },
  {
    id: 'exposure.ami_public',
    parts: ['publicImages'],
    breaks: (inv) => {
      part(inv.publicImages).images.push({ id: 'ami-0public', region: 'us-east-1' });
    },
    fails: ['ami-0public@us-east-1'],
  },
  // detection
  {
    id: 'detection.no_multi_region_trail',
    parts: ['cloudtrail'],
    breaks: (inv) => {
      part(inv.cloudtrail).trails[0]!.multiRegion = false;
    },
    fails: ['cloudtrail@global'],
  },
  {
    id: 'detection.trail_not_logging',
    parts: ['cloudtrail'],
    breaks: (inv) => {
      part(inv.cloudtrail).trails.push(
        cleanTrail({ name: 'old-audit', homeRegion: 'eu-west-1', multiRegion: false, logging: false }),
      );
    },
    fails: ['old-audit@eu-west-1'],
  },
  {
    id: 'detection.trail_log_validation_off',
    parts: ['cloudtrail'],
    breaks: (inv) => {
      part(inv.cloudtrail).trails[0]!.logFileValidation = false;
    },
    fails: ['management@us-east-1'],
  },
  {
    id: 'detection.trail_not_kms_encrypted',
    parts: ['cloudtrail'],
    breaks: (inv) => {
      part(inv.cloudtrail).trails[0]!.kmsKeyId = null;
    },
    fails: ['management@us-east-1'],
  },
  {
    id: 'detection.trail_bucket_logging_off',
    parts: ['cloudtrail'],
    breaks: (inv) => {
      part(inv.cloudtrail).trails[0]!.bucketLogging = { read: true, enabled: false };
    },
    fails: ['acme-cloudtrail-logs@global'],
  },
  {
    id: 'detection.s3_write_events_not_logged',
    parts: ['cloudtrail'],
    breaks: (inv) => {
      part(inv.cloudtrail).trails[0]!.events!.s3Objects.write = false;
    },
    fails: ['cloudtrail@global'],
  },
  {
    id: 'detection.s3_read_events_not_logged',
    parts: ['cloudtrail'],
    breaks: (inv) => {
      part(inv.cloudtrail).trails[0]!.events!.s3Objects.read = false;
    },
    fails: ['cloudtrail@global'],
  },
  {
    id: 'detection.config_off',
    parts: ['configRecorders'],
    breaks: (inv) => {
      part(inv.configRecorders).regions[1]!.recorders = [];
    },
    fails: ['config@us-west-2'],
  },
  {
    id: 'detection.config_global_resources_off',
    parts: ['configRecorders'],
    breaks: (inv) => {
      part(inv.configRecorders).regions[0]!.recorders[0]!.includeGlobalResourceTypes = false;
    },
    fails: ['config-global-resources@global'],
  },
  {
    id: 'detection.security_hub_off',
    parts: ['securityHub'],
    breaks: (inv) => {
      part(inv.securityHub).regions[2]!.enabled = false;
    },
    fails: ['securityhub@eu-west-1'],
  },
  {
    id: 'iam.access_analyzer_off',
    parts: ['accessAnalyzers'],
    breaks: (inv) => {
      part(inv.accessAnalyzers).regions[0]!.analyzers.shift();
    },
    fails: ['access-analyzer@us-east-1'],
  },
  {
    id: 'detection.cis_metric_alarms_missing',
    parts: ['cloudtrail', 'metricAlarms'],
    breaks: (inv) => {
      part(inv.metricAlarms).alarmedMetrics.splice(2, 1);
    },
    fails: ['cis-5.3-root-usage@global'],
  },
  {
    id: 'detection.guardduty_disabled',
    parts: ['guardduty'],
    breaks: (inv) => {
      part(inv.guardduty).regions[1]!.detectorEnabled = false;
    },
    fails: ['guardduty@eu-west-1'],
  },
  {
    id: 'detection.event_forwarder_broken',
    parts: ['eventForwarder'],
    breaks: (inv) => {
      part(inv.eventForwarder).regions[2]!.rules[0]!.state = 'DISABLED';
    },
    fails: ['event-forwarder@eu-west-1'],
  },
  {
    id: 'detection.management_events_not_logged',
    parts: ['eventForwarder', 'cloudtrail'],
    breaks: (inv) => {
      part(inv.cloudtrail).trails[0]!.multiRegion = false;
    },
    // The trail, homed in us-east-1, now records that region's events alone.
    fails: ['cloudtrail-management-events@us-west-2', 'cloudtrail-management-events@eu-west-1'],
  },
  // threat
  {
    id: 'threat.guardduty_high_severity_finding',
    parts: ['guardduty'],
    breaks: (inv) => {
      part(inv.guardduty).regions[0]!.highSeverityFindings.push({
        id: 'gd-finding-1',
        type: 'CryptoCurrency:EC2/BitcoinTool.B!DNS',
        severity: 8,
        title: 'EC2 instance querying a mining pool',
      });
    },
    fails: ['gd-finding-1@us-east-1'],
  },
  {
    id: 'threat.gpu_instance_running',
    parts: ['instances'],
    breaks: (inv, now) => {
      part(inv.instances).instances.push(instance('i-0gpu', 'us-east-1', 'p4d.24xlarge', daysAgo(now, 20)));
    },
    fails: ['i-0gpu@us-east-1'],
  },
  {
    id: 'threat.instance_in_unused_region',
    parts: ['instances', 'cloudtrail'],
    breaks: (inv, now) => {
      part(inv.instances).instances.push(instance('i-0far', 'ap-southeast-3', 't3.micro', hoursAgo(now, 6)));
    },
    fails: ['i-0far@ap-southeast-3'],
  },
  {
    id: 'threat.iam_user_created_recently',
    parts: ['iamPrincipals'],
    breaks: (inv, now) => {
      part(inv.iamPrincipals).users.push({
        name: 'backup-svc',
        arn: `arn:aws:iam::${ACCOUNT}:user/backup-svc`,
        createdAt: hoursAgo(now, 2),
        accessKeys: [],
        adminAccess: false,
        managedPolicies: [],
        directPolicies: [],
        fullAdminPolicies: [],
      });
    },
    fails: [`arn:aws:iam::${ACCOUNT}:user/backup-svc@global`],
  },
  {
    id: 'threat.access_key_created_recently',
    parts: ['iamPrincipals'],
    breaks: (inv, now) => {
      part(inv.iamPrincipals).users[0]!.accessKeys.push({
        id: 'AKIAALICE0000000003',
        status: 'Active',
        createdAt: hoursAgo(now, 5),
      });
    },
    fails: ['AKIAALICE0000000003@global'],
  },
  // billing
  {
    id: 'billing.daily_spend_spike',
    parts: ['costs'],
    breaks: (inv) => {
      part(inv.costs).daily[2]!.amountUsd = 400;
    },
    fails: ['daily-spend@global'],
  },
  {
    id: 'billing.cost_anomaly',
    parts: ['anomalies'],
    breaks: (inv) => {
      part(inv.anomalies).anomalies.push({
        id: 'anomaly-ec2',
        impactUsd: 812,
        startDate: '2026-03-13',
        service: 'Amazon EC2',
      });
    },
    fails: ['anomaly-ec2@global'],
  },
  {
    id: 'billing.no_cost_anomaly_monitor',
    parts: ['anomalyMonitors'],
    breaks: (inv) => {
      part(inv.anomalyMonitors).monitors = [];
    },
    fails: ['cost-anomaly-detection@global'],
  },
  {
    id: 'billing.no_budget',
    parts: ['budgets'],
    breaks: (inv) => {
      part(inv.budgets).budgets = [];
    },
    fails: ['budgets@global'],
  },
  {
    id: 'billing.budget_forecast_exceeded',
    parts: ['budgets'],
    breaks: (inv) => {
      part(inv.budgets).budgets[0]!.forecastedSpendUsd = 1200;
    },
    fails: ['monthly@global'],
  },
  {
    id: 'billing.budget_exceeded',
    parts: ['budgets'],
    breaks: (inv) => {
      part(inv.budgets).budgets[0]!.actualSpendUsd = 1001;
    },
    fails: ['monthly@global'],
  },
  // suspension
  {
    id: 'suspension.security_contact_missing',
    parts: ['alternateContacts'],
    breaks: (inv) => {
      part(inv.alternateContacts).security = false;
    },
    fails: ['security-contact@global'],
  },
  {
    id: 'suspension.billing_contact_missing',
    parts: ['alternateContacts'],
    breaks: (inv) => {
      part(inv.alternateContacts).billing = false;
    },
    fails: ['billing-contact@global'],
  },
  {
    id: 'suspension.operations_contact_missing',
    parts: ['alternateContacts'],
    breaks: (inv) => {
      part(inv.alternateContacts).operations = false;
    },
    fails: ['operations-contact@global'],
  },
  {
    id: 'suspension.health_abuse_event',
    parts: ['health'],
    breaks: (inv) => {
      part(inv.health).events[0]!.statusCode = 'open';
    },
    fails: [`arn:aws:health:us-east-1:${ACCOUNT}:event/ABUSE/AWS_ABUSE_DOS_REPORT/old@us-east-1`],
  },
  {
    id: 'suspension.health_credentials_exposed',
    parts: ['health'],
    breaks: (inv, now) => {
      part(inv.health).events.push({
        arn: 'arn:aws:health:global::event/RISK/AWS_RISK_CREDENTIALS_EXPOSED/1',
        eventTypeCode: 'AWS_RISK_CREDENTIALS_EXPOSED',
        service: 'RISK',
        region: 'global',
        startTime: hoursAgo(now, 1),
        statusCode: 'open',
      });
    },
    fails: ['arn:aws:health:global::event/RISK/AWS_RISK_CREDENTIALS_EXPOSED/1@global'],
  },
  {
    id: 'suspension.compromised_key_quarantine',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).users[1]!.managedPolicies.push('AWSCompromisedKeyQuarantineV3');
    },
    fails: [`arn:aws:iam::${ACCOUNT}:user/ci-deploy@global`],
  },
  // EC2 and VPC
  {
    id: 'exposure.ebs_default_encryption_off',
    parts: ['ebsEncryptionByDefault'],
    breaks: (inv) => {
      part(inv.ebsEncryptionByDefault).regions[1]!.enabled = false;
    },
    fails: ['ebs-encryption-by-default@us-west-2'],
  },
  {
    id: 'exposure.sg_cifs_open',
    parts: ['securityGroups'],
    breaks: (inv) => {
      part(inv.securityGroups).groups[0]!.openIngress.push({
        protocol: 'tcp',
        fromPort: 445,
        toPort: 445,
        cidr: '::/0',
      });
    },
    fails: ['sg-0web@us-east-1'],
  },
  {
    id: 'exposure.nacl_admin_ports_open',
    parts: ['networkAcls'],
    breaks: (inv) => {
      part(inv.networkAcls).acls[0]!.internetIngress.splice(1, 1);
    },
    fails: ['acl-0web@us-east-1'],
  },
  {
    id: 'exposure.default_sg_allows_traffic',
    parts: ['securityGroups'],
    breaks: (inv) => {
      part(inv.securityGroups).defaultGroups.push({
        id: 'sg-0default',
        vpcId: 'vpc-0eu',
        region: 'eu-west-1',
        rules: [{ direction: 'outbound', protocol: '-1', fromPort: null, toPort: null, peer: '0.0.0.0/0' }],
      });
    },
    fails: ['sg-0default@eu-west-1'],
  },
  {
    id: 'exposure.imdsv1_allowed',
    parts: ['instances'],
    breaks: (inv) => {
      part(inv.instances).instances[0]!.metadata = { httpTokens: 'optional', httpEndpoint: 'enabled' };
    },
    fails: ['i-0web@us-east-1'],
  },
  {
    id: 'iam.instance_without_role',
    parts: ['instances'],
    breaks: (inv) => {
      part(inv.instances).instances[1]!.instanceProfileArn = null;
    },
    fails: ['i-0worker@eu-west-1'],
  },
  {
    id: 'detection.vpc_flow_logs_off',
    parts: ['vpcFlowLogs'],
    breaks: (inv) => {
      part(inv.vpcFlowLogs).unloggedVpcs.push({ id: 'vpc-0staging', region: 'eu-west-1', isDefault: false });
    },
    fails: ['vpc-0staging@eu-west-1'],
  },
  // data stores
  {
    id: 'exposure.s3_bucket_allows_http',
    parts: ['s3Buckets'],
    breaks: (inv) => {
      part(inv.s3Buckets).buckets[0]!.deniesInsecureTransport = false;
    },
    fails: ['acme-assets@us-east-1'],
  },
  {
    id: 'exposure.rds_public',
    parts: ['rdsInstances'],
    breaks: (inv) => {
      part(inv.rdsInstances).instances[0]!.publiclyAccessible = true;
    },
    fails: ['orders-db@us-east-1'],
  },
  {
    id: 'exposure.rds_unencrypted',
    parts: ['rdsInstances'],
    breaks: (inv) => {
      part(inv.rdsInstances).instances[1]!.storageEncrypted = false;
    },
    fails: ['reporting-replica@eu-west-1'],
  },
  {
    id: 'exposure.rds_minor_upgrades_off',
    parts: ['rdsInstances'],
    breaks: (inv) => {
      part(inv.rdsInstances).instances[0]!.autoMinorVersionUpgrade = false;
    },
    fails: ['orders-db@us-east-1'],
  },
  {
    id: 'exposure.efs_unencrypted',
    parts: ['efsFileSystems'],
    breaks: (inv) => {
      part(inv.efsFileSystems).fileSystems[0]!.encrypted = false;
    },
    fails: ['fs-0shared@us-east-1'],
  },
  {
    id: 'detection.kms_rotation_off',
    parts: ['kmsKeys'],
    breaks: (inv) => {
      part(inv.kmsKeys).keys[0]!.rotationEnabled = false;
    },
    fails: [`arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab@us-east-1`],
  },
  // lambda
  {
    id: 'exposure.lambda_secrets_in_variables',
    parts: ['lambdaFunctions'],
    breaks: (inv) => {
      part(inv.lambdaFunctions).functions[0]!.environment = {
        read: true,
        secrets: [{ name: 'DB_PASSWORD', kind: 'named_secret' }],
      };
    },
    fails: [`${LAMBDA_ARN}@us-east-1`],
  },
  {
    id: 'exposure.lambda_secrets_in_code',
    parts: ['lambdaFunctions'],
    breaks: (inv) => {
      part(inv.lambdaFunctions).functions[0]!.code = {
        read: true,
        secrets: [{ file: 'config.js', line: 3, kind: 'aws_access_key_id' }],
      };
    },
    fails: [`${LAMBDA_ARN}@us-east-1`],
  },
  {
    id: 'exposure.lambda_public_policy',
    parts: ['lambdaFunctions'],
    breaks: (inv) => {
      part(inv.lambdaFunctions).functions[0]!.policy = {
        read: true,
        publicStatements: ['Statement open allows lambda:InvokeFunction'],
      };
    },
    fails: [`${LAMBDA_ARN}@us-east-1`],
  },
  {
    id: 'exposure.lambda_url_public',
    parts: ['lambdaFunctions'],
    breaks: (inv) => {
      part(inv.lambdaFunctions).functions[0]!.urls = {
        read: true,
        urls: [{ url: 'https://abc123.lambda-url.us-east-1.on.aws/', authType: 'NONE' }],
      };
    },
    fails: [`${LAMBDA_ARN}@us-east-1`],
  },
  {
    id: 'exposure.lambda_cross_account_layers',
    parts: ['lambdaFunctions'],
    breaks: (inv) => {
      part(inv.lambdaFunctions).functions[0]!.layers.push('arn:aws:lambda:us-east-1:999988887777:layer:tools:1');
    },
    fails: [`${LAMBDA_ARN}@us-east-1`],
  },
  {
    id: 'exposure.lambda_runtime_deprecated',
    parts: ['lambdaFunctions'],
    breaks: (inv) => {
      part(inv.lambdaFunctions).functions[0]!.runtime = 'python3.8';
    },
    fails: [`${LAMBDA_ARN}@us-east-1`],
  },
  {
    id: 'exposure.lambda_layer_secrets',
    parts: ['lambdaFunctions'],
    breaks: (inv) => {
      part(inv.lambdaFunctions).layers[0]!.content = {
        read: true,
        secrets: [{ file: 'python/settings.py', line: 7, kind: 'github_token' }],
      };
    },
    fails: [`${LAYER_ARN}@us-east-1`],
  },
  // ecs task definitions
  {
    id: 'exposure.ecs_secrets_in_environment',
    parts: ['ecsTaskDefinitions'],
    breaks: (inv) => {
      part(inv.ecsTaskDefinitions).taskDefinitions[0]!.containers[0]!.environmentSecrets = [
        { name: 'STRIPE_KEY', kind: 'stripe_key' },
      ];
    },
    fails: [`${ECS_TASK_ARN}@us-east-1`],
  },
  {
    id: 'exposure.ecs_privileged_container',
    parts: ['ecsTaskDefinitions'],
    breaks: (inv) => {
      part(inv.ecsTaskDefinitions).taskDefinitions[0]!.containers[0]!.privileged = true;
    },
    fails: [`${ECS_TASK_ARN}@us-east-1`],
  },
  {
    id: 'exposure.ecs_host_network_root',
    parts: ['ecsTaskDefinitions'],
    breaks: (inv) => {
      const td = part(inv.ecsTaskDefinitions).taskDefinitions[0]!;
      td.networkMode = 'host';
      td.containers[0]!.user = null;
    },
    fails: [`${ECS_TASK_ARN}@us-east-1`],
  },
  {
    id: 'exposure.ecs_host_namespace_shared',
    parts: ['ecsTaskDefinitions'],
    breaks: (inv) => {
      part(inv.ecsTaskDefinitions).taskDefinitions[0]!.pidMode = 'host';
    },
    fails: [`${ECS_TASK_ARN}@us-east-1`],
  },
  {
    id: 'exposure.ecs_writable_root_filesystem',
    parts: ['ecsTaskDefinitions'],
    breaks: (inv) => {
      part(inv.ecsTaskDefinitions).taskDefinitions[0]!.containers[0]!.readonlyRootFilesystem = false;
    },
    fails: [`${ECS_TASK_ARN}@us-east-1`],
  },
  {
    id: 'detection.ecs_container_logging_off',
    parts: ['ecsTaskDefinitions'],
    breaks: (inv) => {
      part(inv.ecsTaskDefinitions).taskDefinitions[0]!.containers[0]!.logDriver = null;
    },
    fails: [`${ECS_TASK_ARN}@us-east-1`],
  },
  // cloudformation, step functions, ssm, api gateway
  {
    id: 'exposure.cloudformation_secrets_in_outputs',
    parts: ['cloudformationStacks'],
    breaks: (inv) => {
      part(inv.cloudformationStacks).stacks[0]!.outputSecrets = [{ name: 'AdminPassword', kind: 'named_secret' }];
    },
    fails: [`${STACK_ID}@us-east-1`],
  },
  {
    id: 'exposure.cloudformation_termination_protection_off',
    parts: ['cloudformationStacks'],
    breaks: (inv) => {
      part(inv.cloudformationStacks).stacks[0]!.terminationProtection = false;
    },
    fails: [`${STACK_ID}@us-east-1`],
  },
  {
    id: 'exposure.stepfunctions_secrets_in_definition',
    parts: ['stateMachines'],
    breaks: (inv) => {
      part(inv.stateMachines).machines[0]!.definitionSecrets = [
        { name: 'States.Notify.Parameters.Headers.Authorization', kind: 'slack_token' },
      ];
    },
    fails: [`${STATE_MACHINE_ARN}@us-east-1`],
  },
  {
    id: 'detection.stepfunctions_logging_off',
    parts: ['stateMachines'],
    breaks: (inv) => {
      part(inv.stateMachines).machines[0]!.logLevel = 'OFF';
    },
    fails: [`${STATE_MACHINE_ARN}@us-east-1`],
  },
  {
    id: 'exposure.ssm_document_secrets',
    parts: ['ssmDocuments'],
    breaks: (inv) => {
      part(inv.ssmDocuments).documents[0]!.contentSecrets = [
        { name: 'mainSteps[0].inputs.runCommand[2]', kind: 'github_token' },
      ];
    },
    fails: ['Patch-Fleet@us-east-1'],
  },
  {
    id: 'exposure.ssm_document_public',
    parts: ['ssmDocuments'],
    breaks: (inv) => {
      part(inv.ssmDocuments).documents[0]!.public = true;
    },
    fails: ['Patch-Fleet@us-east-1'],
  },
  {
    id: 'exposure.apigateway_secrets_in_stage_variables',
    parts: ['apiGatewayStages'],
    breaks: (inv) => {
      part(inv.apiGatewayStages).stages[0]!.variableSecrets = [{ name: 'backendApiKey', kind: 'named_secret' }];
    },
    fails: ['arn:aws:apigateway:us-east-1::/restapis/a1b2c3d4e5/stages/prod@us-east-1'],
  },
  {
    id: 'detection.apigateway_stage_logging_off',
    parts: ['apiGatewayStages'],
    breaks: (inv) => {
      part(inv.apiGatewayStages).stages[0]!.logging = false;
    },
    fails: ['arn:aws:apigateway:us-east-1::/restapis/a1b2c3d4e5/stages/prod@us-east-1'],
  },
  {
    id: 'exposure.apigateway_stage_without_waf',
    parts: ['apiGatewayStages'],
    breaks: (inv) => {
      part(inv.apiGatewayStages).stages[0]!.webAclArn = null;
    },
    fails: ['arn:aws:apigateway:us-east-1::/restapis/a1b2c3d4e5/stages/prod@us-east-1'],
  },
];
const META_CHECKS = [CONNECTIVITY_CHECK_ID, COVERAGE_LOST_CHECK_ID];

function broken({ breaks }: Case): Inventory {
  const inventory = cleanInventory(NOW);
  breaks(inventory, NOW);
  return inventory;
}

describe('check catalog behaviour', () => {
  it('has a case for every check but the two about the role itself', () => {
    const covered = CASES.map((c) => c.id).sort();
    expect(covered).toEqual(
      CATALOG.map((check) => check.id)
        .filter((id) => !META_CHECKS.includes(id))
        .sort(),
    );
  });

  it.each(CATALOG.map((check) => check.id))('%s passes on a clean account', (id) => {
    expect(outcome(id, cleanInventory(NOW))).toBe('pass');
  });

  it.each(CASES)('$id fails on $fails', (c) => {
    expect(outcome(c.id, broken(c))).toEqual(c.fails);
  });

  it.each(CASES.flatMap((c) => c.parts.map((name) => ({ id: c.id, name, c }))))(
    '$id is not evaluated without $name, even when broken',
    ({ id, name, c }) => {
      const result = outcome(id, withoutPart(broken(c), name));
      expect(result).toBe('not_evaluated');
    },
  );

  it(`${CONNECTIVITY_CHECK_ID} passes whenever there is an inventory, however incomplete`, () => {
    const bare = PART_NAMES.reduce(
      (inventory: Inventory, name: PartName) => withoutPart(inventory, name),
      cleanInventory(NOW),
    );
    expect(outcome(CONNECTIVITY_CHECK_ID, bare)).toBe('pass');
  });
});
