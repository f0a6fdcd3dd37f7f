import { CATALOG } from '../../../domain/checks/catalog';
import { CONNECTIVITY_CHECK_ID, COVERAGE_LOST_CHECK_ID } from '../../../domain/checks/connectivity';
import {
  ENUMERATION_ACTIONS,
  LLM_JACKING_ACTIONS,
  PRIVILEGE_ESCALATION_ACTIONS,
} from '../../../domain/checks/cloudtrail-threat';
import { type Inventory, PART_NAMES, type PartName, type RiskyPolicy } from '../../../domain/scans/inventory';
import {
  ACCOUNT,
  cleanInventory,
  cleanTrail,
  daysAgo,
  hoursAgo,
  iamUser,
  outcome,
  part,
  reportedKey,
  reportRow,
  setKeyCreated,
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
const INTRUDER = `arn:aws:iam::${ACCOUNT}:user/intruder`;
const AUDITOR = `arn:aws:sts::${ACCOUNT}:assumed-role/auditor/session`;
const RISKY_MANAGED: RiskyPolicy = {
  name: 'deployer',
  arn: `arn:aws:iam::${ACCOUNT}:policy/deployer`,
  kind: 'managed',
  owner: null,
  escalationPaths: ['PassRole+EC2'],
  cloudtrailFullAccess: false,
  assumesAnyRole: false,
};
const RISKY_INLINE: RiskyPolicy = {
  name: 'self-service',
  arn: `${ALICE}/self-service`,
  kind: 'inline',
  owner: ALICE,
  escalationPaths: ['iam:PutUserPolicy'],
  cloudtrailFullAccess: false,
  assumesAnyRole: false,
};
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
  // S3 access, access points and the trail's bucket
  {
    id: 'exposure.s3_bucket_public_write_acl',
    parts: ['s3Buckets', 's3AccountBlockPublicAccess'],
    breaks: (inv) => {
      part(inv.s3AccountBlockPublicAccess).settings = null;
      part(inv.s3Buckets).buckets[0]!.publicAclPermissions = ['READ', 'WRITE'];
    },
    fails: ['acme-assets@us-east-1'],
  },
  {
    id: 'exposure.s3_bucket_public_list_acl',
    parts: ['s3Buckets', 's3AccountBlockPublicAccess'],
    breaks: (inv) => {
      part(inv.s3AccountBlockPublicAccess).settings = null;
      part(inv.s3Buckets).buckets[0]!.publicAclPermissions = ['READ'];
      // Its own block ignores the ACL of the other.
      part(inv.s3Buckets).buckets[1]!.publicAclPermissions = ['FULL_CONTROL'];
    },
    fails: ['acme-assets@us-east-1'],
  },
  {
    id: 'exposure.s3_bucket_public_write_policy',
    parts: ['s3Buckets', 's3AccountBlockPublicAccess'],
    breaks: (inv) => {
      part(inv.s3AccountBlockPublicAccess).settings!.restrictPublicBuckets = false;
      part(inv.s3Buckets).buckets[0]!.publicWriteStatements = ['Statement Upload allows s3:PutObject'];
    },
    fails: ['acme-assets@us-east-1'],
  },
  {
    id: 'exposure.s3_bucket_cross_account_policy',
    parts: ['s3Buckets'],
    breaks: (inv) => {
      part(inv.s3Buckets).buckets[1]!.crossAccountPrincipals = ['999988887777'];
    },
    fails: ['acme-legacy-site@eu-west-1'],
  },
  {
    id: 'exposure.s3_access_point_public_access_block_off',
    parts: ['s3AccessPoints'],
    breaks: (inv) => {
      part(inv.s3AccessPoints).accessPoints[0]!.blockPublicAccess = null;
    },
    fails: ['analytics@us-east-1'],
  },
  {
    id: 'exposure.s3_multi_region_access_point_public_access_block_off',
    parts: ['s3MultiRegionAccessPoints'],
    breaks: (inv) => {
      part(inv.s3MultiRegionAccessPoints).accessPoints[0]!.blockPublicAccess!.restrictPublicBuckets = false;
    },
    fails: ['global-assets@global'],
  },
  {
    id: 'detection.trail_bucket_public',
    parts: ['cloudtrail', 's3Buckets', 's3AccountBlockPublicAccess'],
    breaks: (inv) => {
      const bucket = part(inv.s3Buckets).buckets[0]!;
      part(inv.cloudtrail).trails[0]!.bucket = bucket.name;
      part(inv.s3AccountBlockPublicAccess).settings = null;
      bucket.publicViaAcl = true;
    },
    fails: ['acme-assets@us-east-1'],
  },
  // IAM escalation
  {
    id: 'iam.group_admin_access',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).groups[0]!.managedPolicies.push('AdministratorAccess');
    },
    fails: [`arn:aws:iam::${ACCOUNT}:group/developers@global`],
  },
  {
    id: 'iam.admin_without_mfa',
    parts: ['iamPrincipals', 'credentialReport'],
    breaks: (inv) => {
      iamUser(inv, 'alice').adminAccess = true;
      reportRow(inv, 'alice').mfaActive = false;
    },
    fails: [`${ALICE}@global`],
  },
  {
    id: 'iam.policy_privilege_escalation',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).riskyPolicies.push(RISKY_MANAGED);
    },
    fails: [`${RISKY_MANAGED.arn}@global`],
  },
  {
    id: 'iam.inline_policy_privilege_escalation',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).riskyPolicies.push(RISKY_MANAGED, RISKY_INLINE);
    },
    fails: [`${RISKY_INLINE.arn}@global`],
  },
  {
    id: 'iam.inline_policy_cloudtrail_full_access',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).riskyPolicies.push(RISKY_MANAGED, { ...RISKY_INLINE, cloudtrailFullAccess: true });
    },
    fails: [`${RISKY_INLINE.arn}@global`],
  },
  {
    id: 'iam.policy_assumes_any_role',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).riskyPolicies.push({ ...RISKY_MANAGED, assumesAnyRole: true }, RISKY_INLINE);
    },
    fails: [`${RISKY_MANAGED.arn}@global`],
  },
  {
    id: 'iam.role_cross_account_readonly',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      const [appServer, support] = part(inv.iamPrincipals).roles;
      support!.managedPolicies.push('ReadOnlyAccess');
      support!.trust = { externalPrincipals: ['999988887777'], servicesWithoutSourceCondition: [] };
      // Trusting another account without ReadOnlyAccess is not this check's.
      appServer!.trust = { externalPrincipals: ['999988887777'], servicesWithoutSourceCondition: [] };
    },
    fails: [`arn:aws:iam::${ACCOUNT}:role/incident-support@global`],
  },
  {
    id: 'iam.role_confused_deputy',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).roles[0]!.trust = {
        externalPrincipals: [],
        servicesWithoutSourceCondition: ['config.amazonaws.com'],
      };
    },
    fails: [`arn:aws:iam::${ACCOUNT}:role/app-server@global`],
  },
  {
    id: 'iam.user_virtual_mfa',
    parts: ['credentialReport', 'rootVirtualMfa'],
    breaks: (inv) => {
      // ci-deploy has no MFA at all: a virtual device listed for it is not in use.
      part(inv.rootVirtualMfa).userArns = [ALICE, iamUser(inv, 'ci-deploy').arn];
    },
    fails: [`${ALICE}@global`],
  },
  // Organizations, delegated administrators, GuardDuty's plans
  {
    id: 'iam.organization_delegated_admin',
    parts: ['organization'],
    breaks: (inv) => {
      part(inv.organization).delegatedAdministrators!.push({
        accountId: '999988887777',
        name: 'prod-api',
        services: ['sso.amazonaws.com', 'guardduty.amazonaws.com'],
      });
    },
    fails: ['999988887777@global'],
  },
  {
    id: 'iam.organization_no_region_restriction',
    parts: ['organization'],
    breaks: (inv) => {
      part(inv.organization).serviceControlPolicies!.pop();
    },
    fails: ['o-a1b2c3d4e5@global'],
  },
  {
    id: 'iam.root_credentials_management_off',
    parts: ['organization'],
    breaks: (inv) => {
      part(inv.organization).rootCredentialsManagement = false;
    },
    fails: ['o-a1b2c3d4e5@global'],
  },
  {
    id: 'detection.guardduty_no_delegated_admin',
    parts: ['organization'],
    breaks: (inv) => {
      part(inv.organization).delegatedAdministrators![0]!.services = ['securityhub.amazonaws.com'];
    },
    fails: ['o-a1b2c3d4e5@global'],
  },
  {
    id: 'detection.security_hub_no_delegated_admin',
    parts: ['organization'],
    breaks: (inv) => {
      part(inv.organization).delegatedAdministrators = [];
    },
    fails: ['o-a1b2c3d4e5@global'],
  },
  ...(
    [
      ['detection.guardduty_s3_protection_off', 'S3_DATA_EVENTS'],
      ['detection.guardduty_eks_audit_logs_off', 'EKS_AUDIT_LOGS'],
      ['detection.guardduty_ec2_malware_protection_off', 'EBS_MALWARE_PROTECTION'],
      ['detection.guardduty_lambda_protection_off', 'LAMBDA_NETWORK_LOGS'],
      ['detection.guardduty_rds_protection_off', 'RDS_LOGIN_EVENTS'],
    ] as const
  ).map(
    ([id, feature]): Case => ({
      id,
      parts: ['guardduty'],
      breaks: (inv) => {
        const [east, west, other] = part(inv.guardduty).regions;
        east!.features[feature] = 'DISABLED';
        delete west!.features[feature];
        // A region without a detector has no plans to judge: guardduty_disabled reports it.
        other!.detectorEnabled = false;
        other!.features = {};
      },
      fails: ['guardduty-us-east-1@us-east-1', 'guardduty-eu-west-1@eu-west-1'],
    }),
  ),
  // CloudTrail's recent activity
  {
    id: 'threat.cloudtrail_privilege_escalation',
    parts: ['cloudtrailActivity'],
    breaks: (inv) => {
      // 11 of the 51 names (over 20%), split across two regions.
      const [east, west] = part(inv.cloudtrailActivity).regions;
      east!.identities.push({ arn: INTRUDER, type: 'IAMUser', eventNames: PRIVILEGE_ESCALATION_ACTIONS.slice(0, 6) });
      west!.identities.push({ arn: INTRUDER, type: 'IAMUser', eventNames: PRIVILEGE_ESCALATION_ACTIONS.slice(5, 11) });
    },
    fails: [`${INTRUDER}@global`],
  },
  {
    id: 'threat.cloudtrail_enumeration',
    parts: ['cloudtrailActivity'],
    breaks: (inv) => {
      const [east] = part(inv.cloudtrailActivity).regions;
      east!.identities.push({ arn: INTRUDER, type: 'IAMUser', eventNames: ENUMERATION_ACTIONS.slice(0, 27) });
      // 26 of the 87 names is under 30%.
      east!.identities.push({ arn: AUDITOR, type: 'AssumedRole', eventNames: ENUMERATION_ACTIONS.slice(0, 26) });
    },
    fails: [`${INTRUDER}@global`],
  },
  {
    id: 'threat.cloudtrail_llm_jacking',
    parts: ['cloudtrailActivity'],
    breaks: (inv) => {
      const [east] = part(inv.cloudtrailActivity).regions;
      east!.identities.push({
        arn: INTRUDER,
        type: 'AssumedRole',
        eventNames: [...LLM_JACKING_ACTIONS.slice(0, 6), 'ListUsers'],
      });
    },
    fails: [`${INTRUDER}@global`],
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
