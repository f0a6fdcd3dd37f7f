import { CATALOG } from '../../../domain/checks/catalog';
import type { EvaluationContext } from '../../../domain/checks/types';
import { ATTACK_PATH_CASES } from './attack-path-cases';
import { CONNECTIVITY_CHECK_ID, COVERAGE_LOST_CHECK_ID } from '../../../domain/checks/connectivity';
import {
  ENUMERATION_ACTIONS,
  LLM_JACKING_ACTIONS,
  PRIVILEGE_ESCALATION_ACTIONS,
} from '../../../domain/checks/cloudtrail-threat';
import { type Inventory, PART_NAMES, type PartName, type RiskyPolicy } from '../../../domain/scans/inventory';
import {
  ACCOUNT,
  ACM_ARN,
  BEDROCK_AGENT_ROLE,
  CLOUDFRONT_ARN,
  cleanInventory,
  cleanTrail,
  CODEARTIFACT_REPOSITORY,
  DEPLOY_PROJECT,
  daysAgo,
  ECS_TASK_ARN,
  ELASTIC_IP,
  hoursAgo,
  iamUser,
  LAMBDA_ARN,
  LAYER_ARN,
  LIGHTSAIL_DATABASE_ARN,
  LIGHTSAIL_INSTANCE_ARN,
  outcome,
  part,
  publicReading,
  reportedKey,
  RENDER_JOB,
  sharedReading,
  reportRow,
  setKeyCreated,
  STACK_ID,
  STATE_MACHINE_ARN,
  WELL_RUN_INSTANCE,
  withoutPart,
  WORKERS_GROUP,
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
  /** What the scan knows beyond the inventory (its previous scan, the actors of the last day). */
  context?: Omit<EvaluationContext, 'now'>;
}

const ALICE = `arn:aws:iam::${ACCOUNT}:user/alice`;
const RDS_ARN = `arn:aws:rds:us-east-1:${ACCOUNT}`;
const ES_ARN = 'arn:aws:es:';
const NOTEBOOK_ARN = (name: string) => `arn:aws:sagemaker:us-east-1:${ACCOUNT}:notebook-instance/${name}`;
const SUPPORT_ROLE = `arn:aws:iam::${ACCOUNT}:role/incident-support`;
const ALARM_ARN = (name: string) => `arn:aws:cloudwatch:us-east-1:${ACCOUNT}:alarm:${name}`;
const KAFKA_ARN = `arn:aws:kafka:us-east-1:${ACCOUNT}:cluster`;
const SESSIONS_ARN = `arn:aws:elasticache:us-east-1:${ACCOUNT}:replicationgroup:sessions`;
const rdsSnapshot = (inv: Inventory, id: string) => {
  const found = part(inv.rdsSnapshots).snapshots.find((s) => s.id === id);
  if (!found) throw new Error(`no snapshot ${id}`);
  return found;
};
const PARTNER = '444455556666';
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

const WEB_ALB = `arn:aws:elasticloadbalancing:us-east-1:${ACCOUNT}:loadbalancer/app/web/0a1b2c3d4e5f6a7b`;
const QUEUE_NLB = `arn:aws:elasticloadbalancing:eu-west-1:${ACCOUNT}:loadbalancer/net/queue/1a2b3c4d5e6f7a8b`;

/** An ingress rule for one TCP port from a whole address family. */
const openTcp = (port: number, cidr: string) => ({ protocol: 'tcp', fromPort: port, toPort: port, cidr });

const CASES: Case[] = [
  ...ATTACK_PATH_CASES,
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
    id: 'detection.cloudwatch_alarm_actions_disabled',
    parts: ['metricAlarms'],
    breaks: (inv) => {
      part(inv.metricAlarms).silentAlarms.push(
        { name: 'billing', arn: ALARM_ARN('billing'), region: 'us-east-1', actionsEnabled: false, alarmActions: 1 },
        { name: 'dashboard', arn: ALARM_ARN('dashboard'), region: 'us-east-1', actionsEnabled: true, alarmActions: 0 },
      );
    },
    fails: [`${ALARM_ARN('billing')}@us-east-1`],
  },
  {
    id: 'detection.cloudwatch_alarm_without_alarm_actions',
    parts: ['metricAlarms'],
    breaks: (inv) => {
      part(inv.metricAlarms).silentAlarms.push(
        { name: 'billing', arn: ALARM_ARN('billing'), region: 'us-east-1', actionsEnabled: false, alarmActions: 1 },
        { name: 'dashboard', arn: ALARM_ARN('dashboard'), region: 'eu-west-1', actionsEnabled: true, alarmActions: 0 },
      );
    },
    fails: [`${ALARM_ARN('dashboard')}@eu-west-1`],
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
  // compute: secrets in configuration, launch settings, build projects, Glue, Batch
  {
    id: 'exposure.instance_user_data_secrets',
    parts: ['instanceUserData'],
    breaks: (inv) => {
      part(inv.instanceUserData).instances[0]!.secrets = [{ line: 4, kind: 'aws_access_key_id' }];
    },
    fails: ['i-0web@us-east-1'],
  },
  {
    id: 'exposure.launch_template_secrets',
    parts: ['launchTemplates'],
    breaks: (inv) => {
      part(inv.launchTemplates).templates[0]!.versions[1]!.secrets = [{ line: 2, kind: 'private_key' }];
    },
    fails: ['lt-0web@us-east-1'],
  },
  {
    id: 'exposure.launch_template_imdsv1_allowed',
    parts: ['launchTemplates'],
    breaks: (inv) => {
      part(inv.launchTemplates).templates[0]!.versions[1]!.metadata = { httpTokens: null, httpEndpoint: null };
    },
    fails: ['lt-0web@us-east-1'],
  },
  {
    id: 'exposure.launch_template_public_ip',
    parts: ['launchTemplates'],
    breaks: (inv) => {
      part(inv.launchTemplates).templates[0]!.versions[0]!.publicIp = true;
    },
    fails: ['lt-0web@us-east-1'],
  },
  {
    id: 'exposure.launch_configuration_secrets',
    parts: ['autoScaling'],
    breaks: (inv) => {
      part(inv.autoScaling).launchConfigurations[0]!.secrets = [{ line: 7, kind: 'named_secret' }];
    },
    fails: ['workers-v2@us-east-1'],
  },
  {
    id: 'exposure.autoscaling_group_public_ip',
    parts: ['autoScaling'],
    breaks: (inv) => {
      part(inv.autoScaling).launchConfigurations[0]!.publicIp = true;
    },
    fails: [`${WORKERS_GROUP}@us-east-1`],
  },
  {
    id: 'exposure.autoscaling_group_imdsv1_allowed',
    parts: ['autoScaling'],
    breaks: (inv) => {
      part(inv.autoScaling).launchConfigurations[0]!.metadata.httpTokens = 'optional';
    },
    fails: [`${WORKERS_GROUP}@us-east-1`],
  },
  {
    id: 'exposure.autoscaling_group_single_az',
    parts: ['autoScaling'],
    breaks: (inv) => {
      part(inv.autoScaling).groups[0]!.availabilityZones = ['us-east-1a'];
    },
    fails: [`${WORKERS_GROUP}@us-east-1`],
  },
  {
    id: 'exposure.autoscaling_group_no_elb_health_check',
    parts: ['autoScaling'],
    breaks: (inv) => {
      part(inv.autoScaling).groups[0]!.healthCheckType = 'EC2';
    },
    fails: [`${WORKERS_GROUP}@us-east-1`],
  },
  {
    id: 'exposure.codebuild_variable_secrets',
    parts: ['codebuildProjects'],
    breaks: (inv) => {
      part(inv.codebuildProjects).projects[0]!.variableSecrets = [{ name: 'NPM_TOKEN', kind: 'npm_token' }];
    },
    fails: [`${DEPLOY_PROJECT}@us-east-1`],
  },
  {
    id: 'exposure.codebuild_source_credentials',
    parts: ['codebuildProjects'],
    breaks: (inv) => {
      part(inv.codebuildProjects).projects[0]!.sourceSecrets = [{ source: 'primary source', kind: 'password_in_url' }];
    },
    fails: [`${DEPLOY_PROJECT}@us-east-1`],
  },
  {
    id: 'exposure.codebuild_project_public',
    parts: ['codebuildProjects'],
    breaks: (inv) => {
      part(inv.codebuildProjects).projects[0]!.visibility = 'PUBLIC_READ';
    },
    fails: [`${DEPLOY_PROJECT}@us-east-1`],
  },
  {
    id: 'exposure.codebuild_webhook_unanchored_filter',
    parts: ['codebuildProjects'],
    breaks: (inv) => {
      part(inv.codebuildProjects).projects[0]!.unanchoredFilters = [{ type: 'HEAD_REF', pattern: 'refs/heads/main' }];
    },
    fails: [`${DEPLOY_PROJECT}@us-east-1`],
  },
  {
    id: 'exposure.glue_job_argument_secrets',
    parts: ['glue'],
    breaks: (inv) => {
      part(inv.glue).jobs[0]!.argumentSecrets = [{ name: '--db_password', kind: 'named_secret' }];
    },
    fails: ['nightly-etl@us-east-1'],
  },
  {
    id: 'exposure.glue_connection_secrets',
    parts: ['glue'],
    breaks: (inv) => {
      part(inv.glue).connections[0]!.propertySecrets = [{ name: 'PASSWORD', kind: 'named_secret' }];
    },
    fails: ['warehouse@us-east-1'],
  },
  {
    id: 'exposure.glue_catalog_public',
    parts: ['glue'],
    breaks: (inv) => {
      part(inv.glue).catalogs[0]!.policy = { read: true, publicStatements: ['A statement allows glue:*'] };
    },
    fails: ['glue-data-catalog@us-east-1'],
  },
  {
    id: 'exposure.glue_connection_passwords_unencrypted',
    parts: ['glue'],
    breaks: (inv) => {
      part(inv.glue).catalogs[0]!.passwordsEncrypted = false;
    },
    fails: ['glue-data-catalog@us-east-1'],
  },
  {
    id: 'exposure.glue_connection_ssl_off',
    parts: ['glue'],
    breaks: (inv) => {
      part(inv.glue).connections[0]!.enforceSsl = false;
    },
    fails: ['warehouse@us-east-1'],
  },
  {
    id: 'exposure.glue_job_s3_unencrypted',
    parts: ['glue'],
    breaks: (inv) => {
      part(inv.glue).securityConfigurations[0]!.s3Encryption = 'DISABLED';
    },
    fails: ['nightly-etl@us-east-1'],
  },
  {
    id: 'exposure.glue_job_logs_unencrypted',
    parts: ['glue'],
    breaks: (inv) => {
      part(inv.glue).jobs[0]!.securityConfiguration = null;
    },
    fails: ['nightly-etl@us-east-1'],
  },
  {
    id: 'exposure.glue_job_bookmarks_unencrypted',
    parts: ['glue'],
    breaks: (inv) => {
      part(inv.glue).securityConfigurations[0]!.bookmarksEncryption = 'DISABLED';
    },
    fails: ['nightly-etl@us-east-1'],
  },
  {
    id: 'exposure.batch_job_definition_secrets',
    parts: ['batchJobDefinitions'],
    breaks: (inv) => {
      part(inv.batchJobDefinitions).jobDefinitions[0]!.secrets = [{ name: 'command', kind: 'github_token' }];
    },
    fails: [`${RENDER_JOB}@us-east-1`],
  },
  // network exposure: each instance check on one of its service's ports, each group check likewise
  ...(
    [
      ['cassandra', 9042],
      ['cifs', 139],
      ['elasticsearch_kibana', 5601],
      ['ftp', 21],
      ['kafka', 9092],
      ['kerberos', 88],
      ['ldap', 636],
      ['memcached', 11211],
      ['mongodb', 27018],
      ['mysql', 3306],
      ['oracle', 2484],
      ['postgresql', 5432],
      ['rdp', 3389],
      ['redis', 6379],
      ['sqlserver', 1434],
      ['ssh', 22],
      ['telnet', 23],
    ] as const
  ).map(
    ([service, port]): Case => ({
      id: `exposure.instance_${service}_exposed`,
      parts: ['instances', 'securityGroups'],
      breaks: (inv) => {
        part(inv.instances).instances[0]!.publicIp = '203.0.113.10';
        part(inv.securityGroups).groups[0]!.openIngress.push(openTcp(port, '0.0.0.0/0'));
      },
      fails: ['i-0web@us-east-1'],
    }),
  ),
  ...(
    [
      ['cassandra', 8888],
      ['elasticsearch_kibana', 9300],
      ['ftp', 20],
      ['kafka', 9092],
      ['memcached', 11211],
      ['mongodb', 27017],
      ['mysql', 3306],
      ['oracle', 1521],
      ['postgresql', 5432],
      ['redis', 6379],
      ['sqlserver', 1433],
      ['telnet', 23],
    ] as const
  ).map(
    ([service, port]): Case => ({
      id: `exposure.sg_${service}_open`,
      parts: ['securityGroups'],
      breaks: (inv) => {
        part(inv.securityGroups).groups[1]!.openIngress.push(openTcp(port, '::/0'));
      },
      fails: ['sg-0default@eu-west-1'],
    }),
  ),
  {
    id: 'exposure.sg_high_risk_ports_open',
    parts: ['securityGroups'],
    breaks: (inv) => {
      part(inv.securityGroups).groups[1]!.openIngress.push(openTcp(8080, '0.0.0.0/0'));
    },
    fails: ['sg-0default@eu-west-1'],
  },
  {
    id: 'exposure.sg_unauthorized_port_open',
    parts: ['securityGroups'],
    breaks: (inv) => {
      part(inv.securityGroups).groups[0]!.openIngress.push({
        protocol: 'udp',
        fromPort: 53,
        toPort: 53,
        cidr: '0.0.0.0/0',
      });
    },
    fails: ['sg-0web@us-east-1'],
  },
  {
    id: 'exposure.nacl_all_traffic_open',
    parts: ['networkAcls'],
    breaks: (inv) => {
      part(inv.networkAcls).acls[0]!.internetIngress.push({
        ruleNumber: 50,
        action: 'allow',
        protocol: '-1',
        fromPort: null,
        toPort: null,
        cidr: '::/0',
      });
    },
    fails: ['acl-0web@us-east-1'],
  },
  {
    id: 'exposure.instance_public_with_role',
    parts: ['instances'],
    breaks: (inv) => {
      part(inv.instances).instances[1]!.publicIp = '198.51.100.7';
    },
    fails: ['i-0worker@eu-west-1'],
  },
  {
    id: 'exposure.imds_default_allows_v1',
    parts: ['instanceMetadataDefaults'],
    breaks: (inv) => {
      part(inv.instanceMetadataDefaults).regions[1]!.httpTokens = null;
    },
    fails: ['instance-metadata-defaults@us-west-2'],
  },
  {
    id: 'exposure.subnet_assigns_public_ip',
    parts: ['publicIpSubnets'],
    breaks: (inv) => {
      part(inv.publicIpSubnets).subnets.push({
        id: 'subnet-0default',
        vpcId: 'vpc-0default',
        region: 'eu-west-1',
        defaultForAz: true,
      });
    },
    fails: ['subnet-0default@eu-west-1'],
  },
  {
    id: 'exposure.transit_gateway_auto_accepts',
    parts: ['transitGateways'],
    breaks: (inv) => {
      part(inv.transitGateways).gateways[0]!.autoAcceptSharedAttachments = true;
    },
    fails: ['tgw-0core@us-east-1'],
  },
  {
    id: 'exposure.vpc_endpoint_policy_open',
    parts: ['vpcEndpoints'],
    breaks: (inv) => {
      part(inv.vpcEndpoints).endpoints[0]!.beyondAccount = ['A statement allows * to every principal'];
    },
    fails: ['vpce-0s3@us-east-1'],
  },
  {
    id: 'exposure.endpoint_service_open',
    parts: ['vpcEndpoints'],
    breaks: (inv) => {
      part(inv.vpcEndpoints).services[0]!.outsidePrincipals = ['*'];
    },
    fails: ['vpce-svc-0api@us-east-1'],
  },
  {
    id: 'exposure.alb_http_not_redirected',
    parts: ['loadBalancers'],
    breaks: (inv) => {
      part(inv.loadBalancers).loadBalancers[0]!.listeners![0]!.redirectsToHttps = false;
    },
    fails: [`${WEB_ALB}@us-east-1`],
  },
  {
    id: 'exposure.elb_outdated_tls_policy',
    parts: ['loadBalancers'],
    breaks: (inv) => {
      part(inv.loadBalancers).loadBalancers[1]!.listeners![0]!.sslPolicy = 'ELBSecurityPolicy-2016-08';
    },
    fails: [`${QUEUE_NLB}@eu-west-1`],
  },
  {
    id: 'exposure.alb_invalid_headers_accepted',
    parts: ['loadBalancers'],
    breaks: (inv) => {
      part(inv.loadBalancers).loadBalancers[0]!.attributes!.dropInvalidHeaderFields = false;
    },
    fails: [`${WEB_ALB}@us-east-1`],
  },
  {
    id: 'exposure.alb_desync_unguarded',
    parts: ['loadBalancers'],
    breaks: (inv) => {
      const web = part(inv.loadBalancers).loadBalancers[0]!;
      web.attributes = { deletionProtection: true, dropInvalidHeaderFields: false, desyncMitigationMode: 'monitor' };
    },
    fails: [`${WEB_ALB}@us-east-1`],
  },
  {
    id: 'exposure.elb_deletion_protection_off',
    parts: ['loadBalancers'],
    breaks: (inv) => {
      part(inv.loadBalancers).loadBalancers[1]!.attributes!.deletionProtection = false;
    },
    fails: [`${QUEUE_NLB}@eu-west-1`],
  },
  // databases, analytics stores and their snapshots
  {
    id: 'exposure.rds_snapshot_public',
    parts: ['rdsSnapshots'],
    breaks: (inv) => {
      rdsSnapshot(inv, 'orders-aurora-release').public = true;
    },
    fails: [`${RDS_ARN}:cluster-snapshot:orders-aurora-release@us-east-1`],
  },
  {
    id: 'exposure.rds_snapshot_unencrypted',
    parts: ['rdsSnapshots'],
    breaks: (inv) => {
      rdsSnapshot(inv, 'rds:orders-db-2026-03-14').encrypted = false;
      // Neptune's snapshots are its own check's.
      rdsSnapshot(inv, 'graph-release').encrypted = false;
    },
    fails: [`${RDS_ARN}:snapshot:rds:orders-db-2026-03-14@us-east-1`],
  },
  {
    id: 'exposure.rds_cluster_unencrypted',
    parts: ['rdsClusters'],
    breaks: (inv) => {
      for (const c of part(inv.rdsClusters).clusters) if (c.id !== 'graph') c.storageEncrypted = false;
    },
    fails: [`${RDS_ARN}:cluster:orders-aurora@us-east-1`],
  },
  {
    id: 'exposure.rds_instance_outside_vpc',
    parts: ['rdsInstances'],
    breaks: (inv) => {
      part(inv.rdsInstances).instances[1]!.vpcId = null;
    },
    fails: ['reporting-replica@eu-west-1'],
  },
  {
    id: 'exposure.rds_certificate_expiring',
    parts: ['rdsInstances'],
    breaks: (inv, now) => {
      part(inv.rdsInstances).instances[0]!.certificateValidTill = daysAgo(now, -60);
    },
    fails: ['orders-db@us-east-1'],
  },
  {
    id: 'exposure.documentdb_snapshot_public',
    parts: ['rdsSnapshots'],
    breaks: (inv) => {
      for (const s of part(inv.rdsSnapshots).snapshots) s.public = true;
    },
    fails: [`${RDS_ARN}:cluster-snapshot:catalog-docs-release@us-east-1`],
  },
  {
    id: 'exposure.documentdb_cluster_unencrypted',
    parts: ['rdsClusters'],
    breaks: (inv) => {
      for (const c of part(inv.rdsClusters).clusters) c.storageEncrypted = false;
    },
    fails: [`${RDS_ARN}:cluster:catalog-docs@us-east-1`],
  },
  {
    id: 'exposure.neptune_snapshot_public',
    parts: ['rdsSnapshots'],
    breaks: (inv) => {
      for (const s of part(inv.rdsSnapshots).snapshots) s.public = true;
    },
    fails: [`${RDS_ARN}:cluster-snapshot:graph-release@us-east-1`],
  },
  {
    id: 'exposure.neptune_cluster_unencrypted',
    parts: ['rdsClusters'],
    breaks: (inv) => {
      for (const c of part(inv.rdsClusters).clusters) c.storageEncrypted = false;
    },
    fails: [`${RDS_ARN}:cluster:graph@us-east-1`],
  },
  {
    id: 'exposure.neptune_snapshot_unencrypted',
    parts: ['rdsSnapshots'],
    breaks: (inv) => {
      for (const s of part(inv.rdsSnapshots).snapshots) s.encrypted = false;
    },
    fails: [`${RDS_ARN}:cluster-snapshot:graph-release@us-east-1`],
  },
  {
    id: 'exposure.dms_instance_public',
    parts: ['dms'],
    breaks: (inv) => {
      part(inv.dms).instances[0]!.publiclyAccessible = true;
    },
    fails: [`arn:aws:dms:us-east-1:${ACCOUNT}:rep:MIGRATION@us-east-1`],
  },
  {
    id: 'exposure.dms_endpoint_without_ssl',
    parts: ['dms'],
    breaks: (inv) => {
      part(inv.dms).endpoints[0]!.sslMode = 'none';
    },
    fails: [`arn:aws:dms:us-east-1:${ACCOUNT}:endpoint:ORDERS@us-east-1`],
  },
  {
    id: 'exposure.dms_minor_upgrades_off',
    parts: ['dms'],
    breaks: (inv) => {
      part(inv.dms).instances[0]!.autoMinorVersionUpgrade = false;
    },
    fails: [`arn:aws:dms:us-east-1:${ACCOUNT}:rep:MIGRATION@us-east-1`],
  },
  {
    id: 'exposure.redshift_public',
    parts: ['redshiftClusters'],
    breaks: (inv) => {
      part(inv.redshiftClusters).clusters[0]!.publiclyAccessible = true;
    },
    fails: ['warehouse@us-east-1'],
  },
  {
    id: 'exposure.redshift_unencrypted',
    parts: ['redshiftClusters'],
    breaks: (inv) => {
      part(inv.redshiftClusters).clusters[0]!.encrypted = false;
    },
    fails: ['warehouse@us-east-1'],
  },
  {
    id: 'exposure.redshift_automated_snapshots_off',
    parts: ['redshiftClusters'],
    breaks: (inv) => {
      part(inv.redshiftClusters).clusters[0]!.automatedSnapshotRetentionDays = 0;
    },
    fails: ['warehouse@us-east-1'],
  },
  {
    id: 'exposure.redshift_ssl_not_required',
    parts: ['redshiftClusters'],
    breaks: (inv) => {
      part(inv.redshiftClusters).clusters[0]!.requireSsl = false;
    },
    fails: ['warehouse@us-east-1'],
  },
  {
    id: 'exposure.redshift_version_upgrades_off',
    parts: ['redshiftClusters'],
    breaks: (inv) => {
      part(inv.redshiftClusters).clusters[0]!.allowVersionUpgrade = false;
    },
    fails: ['warehouse@us-east-1'],
  },
  {
    id: 'exposure.opensearch_public',
    parts: ['opensearchDomains'],
    breaks: (inv) => {
      // The same policy on both: only the domain outside a VPC has an endpoint the internet reaches.
      for (const d of part(inv.opensearchDomains).domains) d.publicStatements = ['A statement allows es:*'];
    },
    fails: [`${ES_ARN}eu-west-1:${ACCOUNT}:domain/logs@eu-west-1`],
  },
  {
    id: 'exposure.opensearch_unencrypted',
    parts: ['opensearchDomains'],
    breaks: (inv) => {
      part(inv.opensearchDomains).domains[0]!.encryptedAtRest = false;
    },
    fails: [`${ES_ARN}us-east-1:${ACCOUNT}:domain/search@us-east-1`],
  },
  {
    id: 'exposure.opensearch_fine_grained_access_off',
    parts: ['opensearchDomains'],
    breaks: (inv) => {
      part(inv.opensearchDomains).domains[1]!.fineGrainedAccessControl = false;
    },
    fails: [`${ES_ARN}eu-west-1:${ACCOUNT}:domain/logs@eu-west-1`],
  },
  {
    id: 'detection.opensearch_audit_logs_off',
    parts: ['opensearchDomains'],
    breaks: (inv) => {
      part(inv.opensearchDomains).domains[0]!.auditLogs = false;
    },
    fails: [`${ES_ARN}us-east-1:${ACCOUNT}:domain/search@us-east-1`],
  },
  {
    id: 'exposure.opensearch_https_not_enforced',
    parts: ['opensearchDomains'],
    breaks: (inv) => {
      part(inv.opensearchDomains).domains[1]!.enforceHttps = false;
    },
    fails: [`${ES_ARN}eu-west-1:${ACCOUNT}:domain/logs@eu-west-1`],
  },
  {
    id: 'exposure.opensearch_node_to_node_unencrypted',
    parts: ['opensearchDomains'],
    breaks: (inv) => {
      part(inv.opensearchDomains).domains[0]!.nodeToNodeEncryption = false;
    },
    fails: [`${ES_ARN}us-east-1:${ACCOUNT}:domain/search@us-east-1`],
  },
  {
    id: 'exposure.opensearch_update_available',
    parts: ['opensearchDomains'],
    breaks: (inv) => {
      part(inv.opensearchDomains).domains[0]!.updateAvailable = true;
    },
    fails: [`${ES_ARN}us-east-1:${ACCOUNT}:domain/search@us-east-1`],
  },
  {
    id: 'exposure.kafka_public',
    parts: ['kafkaClusters'],
    breaks: (inv) => {
      for (const c of part(inv.kafkaClusters).clusters) c.publicAccess = true;
    },
    fails: [`${KAFKA_ARN}/events/1@us-east-1`],
  },
  {
    id: 'exposure.kafka_unauthenticated_access',
    parts: ['kafkaClusters'],
    breaks: (inv) => {
      for (const c of part(inv.kafkaClusters).clusters) c.unauthenticatedAccess = true;
    },
    fails: [`${KAFKA_ARN}/events/1@us-east-1`],
  },
  {
    id: 'exposure.kafka_plaintext_in_transit',
    parts: ['kafkaClusters'],
    breaks: (inv) => {
      part(inv.kafkaClusters).clusters[0]!.clientBrokerEncryption = 'TLS_PLAINTEXT';
    },
    fails: [`${KAFKA_ARN}/events/1@us-east-1`],
  },
  {
    id: 'exposure.kafka_tls_authentication_off',
    parts: ['kafkaClusters'],
    breaks: (inv) => {
      part(inv.kafkaClusters).clusters[0]!.tlsAuthentication = false;
    },
    fails: [`${KAFKA_ARN}/events/1@us-east-1`],
  },
  {
    id: 'exposure.elasticache_backups_off',
    parts: ['elasticacheReplicationGroups'],
    breaks: (inv) => {
      part(inv.elasticacheReplicationGroups).groups[0]!.snapshotRetentionDays = 0;
    },
    fails: [`${SESSIONS_ARN}@us-east-1`],
  },
  {
    id: 'exposure.elasticache_minor_upgrades_off',
    parts: ['elasticacheReplicationGroups'],
    breaks: (inv) => {
      part(inv.elasticacheReplicationGroups).groups[0]!.autoMinorVersionUpgrade = false;
    },
    fails: [`${SESSIONS_ARN}@us-east-1`],
  },
  {
    id: 'exposure.elasticache_unencrypted_at_rest',
    parts: ['elasticacheReplicationGroups'],
    breaks: (inv) => {
      part(inv.elasticacheReplicationGroups).groups[0]!.atRestEncryption = false;
    },
    fails: [`${SESSIONS_ARN}@us-east-1`],
  },
  {
    id: 'exposure.elasticache_unencrypted_in_transit',
    parts: ['elasticacheReplicationGroups'],
    breaks: (inv) => {
      part(inv.elasticacheReplicationGroups).groups[0]!.transitEncryption = false;
    },
    fails: [`${SESSIONS_ARN}@us-east-1`],
  },
  {
    id: 'exposure.kinesis_stream_unencrypted',
    parts: ['kinesisStreams'],
    breaks: (inv) => {
      part(inv.kinesisStreams).streams[0]!.encrypted = false;
    },
    fails: [`arn:aws:kinesis:us-east-1:${ACCOUNT}:stream/clickstream@us-east-1`],
  },
  {
    id: 'exposure.ebs_volume_unencrypted',
    parts: ['ebsVolumes'],
    breaks: (inv) => {
      part(inv.ebsVolumes).unencrypted.push({ id: 'vol-0scratch', region: 'eu-west-1' });
    },
    fails: ['vol-0scratch@eu-west-1'],
  },
  {
    id: 'exposure.ebs_snapshot_unencrypted',
    parts: ['ebsSnapshots'],
    breaks: (inv) => {
      part(inv.ebsSnapshots).unencrypted.push({ id: 'snap-0legacy', region: 'us-east-1' });
    },
    fails: ['snap-0legacy@us-east-1'],
  },
  {
    id: 'exposure.ebs_snapshot_public_sharing_unblocked',
    parts: ['ebsSnapshotBlockPublicAccess', 'ebsSnapshots'],
    breaks: (inv) => {
      part(inv.ebsSnapshotBlockPublicAccess).regions[0]!.state = 'block-new-sharing';
    },
    fails: ['ebs-snapshot-block-public-access@us-east-1'],
  },
  // bedrock
  {
    id: 'exposure.bedrock_custom_model_not_cmk',
    parts: ['bedrockCustomModels'],
    breaks: (inv) => {
      part(inv.bedrockCustomModels).models[0]!.kmsKeyArn = null;
    },
    fails: [`arn:aws:bedrock:us-east-1:${ACCOUNT}:custom-model/support-tuned@us-east-1`],
  },
  {
    id: 'detection.bedrock_invocation_logging_off',
    parts: ['bedrockInvocationLogging'],
    breaks: (inv) => {
      part(inv.bedrockInvocationLogging).regions[1]!.destination = null;
    },
    fails: ['model-invocation-logging@eu-west-1'],
  },
  {
    id: 'detection.bedrock_invocation_logs_unencrypted',
    parts: ['bedrockInvocationLogging'],
    breaks: (inv) => {
      part(inv.bedrockInvocationLogging).regions[0]!.destination!.logGroup!.kmsKeyId = null;
    },
    fails: ['model-invocation-logging@us-east-1'],
  },
  {
    id: 'exposure.bedrock_guardrail_no_prompt_attack_filter',
    parts: ['bedrockGuardrails'],
    breaks: (inv) => {
      part(inv.bedrockGuardrails).guardrails[0]!.promptAttackStrength = 'MEDIUM';
    },
    fails: [`arn:aws:bedrock:us-east-1:${ACCOUNT}:guardrail/gr-support@us-east-1`],
  },
  {
    id: 'exposure.bedrock_guardrail_no_sensitive_info_filter',
    parts: ['bedrockGuardrails'],
    breaks: (inv) => {
      part(inv.bedrockGuardrails).guardrails[0]!.sensitiveInformation = false;
    },
    fails: [`arn:aws:bedrock:us-east-1:${ACCOUNT}:guardrail/gr-support@us-east-1`],
  },
  {
    id: 'exposure.bedrock_guardrail_no_grounding_filter',
    parts: ['bedrockGuardrails'],
    breaks: (inv) => {
      part(inv.bedrockGuardrails).guardrails[0]!.groundingFilters[1]!.action = 'NONE';
    },
    fails: [`arn:aws:bedrock:us-east-1:${ACCOUNT}:guardrail/gr-support@us-east-1`],
  },
  {
    id: 'exposure.bedrock_agent_without_guardrail',
    parts: ['bedrockAgents'],
    breaks: (inv) => {
      part(inv.bedrockAgents).agents[0]!.guardrailId = null;
    },
    fails: ['AGENT12345@us-east-1'],
  },
  {
    id: 'iam.bedrock_agent_role_privileged',
    parts: ['bedrockAgents', 'iamPrincipals'],
    breaks: (inv) => {
      // A second agent on the support role, which can escalate its privileges through an inline policy; the first
      // agent moves to a role with AmazonBedrockFullAccess.
      const { agents } = part(inv.bedrockAgents);
      agents.push({ ...agents[0]!, id: 'AGENT67890', name: 'triage-agent', roleArn: SUPPORT_ROLE });
      part(inv.iamPrincipals).riskyPolicies.push({
        name: 'support-escalation',
        arn: `${SUPPORT_ROLE}/support-escalation`,
        kind: 'inline',
        owner: SUPPORT_ROLE,
        escalationPaths: ['iam:AttachRolePolicy'],
        cloudtrailFullAccess: false,
        assumesAnyRole: false,
      });
      part(inv.iamPrincipals)
        .roles.find((r) => r.arn === BEDROCK_AGENT_ROLE)!
        .managedPolicies.push('AmazonBedrockFullAccess');
    },
    fails: ['AGENT12345@us-east-1', 'AGENT67890@us-east-1'],
  },
  {
    id: 'iam.bedrock_agent_role_shared',
    parts: ['bedrockAgents'],
    breaks: (inv) => {
      const { agents } = part(inv.bedrockAgents);
      agents.push(
        { ...agents[0]!, id: 'AGENT67890', name: 'triage-agent' },
        { ...agents[0]!, id: 'AGENT24680', name: 'sales-agent', roleArn: SUPPORT_ROLE },
        { ...agents[0]!, id: 'AGENT13579', name: 'draft-agent', roleArn: null },
      );
    },
    fails: ['AGENT12345@us-east-1', 'AGENT67890@us-east-1'],
  },
  {
    id: 'exposure.bedrock_knowledge_base_not_cmk',
    parts: ['bedrockAgents'],
    breaks: (inv) => {
      part(inv.bedrockAgents).dataSources[0]!.kmsKeyArn = null;
    },
    fails: ['KB12345678/DS12345678@us-east-1'],
  },
  {
    id: 'iam.bedrock_full_access_attached',
    parts: ['iamPrincipals'],
    breaks: (inv) => {
      part(inv.iamPrincipals).roles[0]!.managedPolicies.push('AmazonBedrockFullAccess');
    },
    fails: [`arn:aws:iam::${ACCOUNT}:role/app-server@global`],
  },
  {
    id: 'iam.bedrock_long_term_api_key',
    parts: ['bedrockApiKeys'],
    breaks: (inv, now) => {
      part(inv.bedrockApiKeys).keys.push(
        {
          id: 'ACCANEVEREXPIRES0001',
          userName: 'alice',
          status: 'Active',
          createdAt: daysAgo(now, 5),
          expiresAt: null,
        },
        // Inactive: it cannot authenticate until someone activates it again.
        {
          id: 'ACCAINACTIVEKEY00001',
          userName: 'alice',
          status: 'Inactive',
          createdAt: daysAgo(now, 5),
          expiresAt: null,
        },
      );
    },
    fails: ['ACCANEVEREXPIRES0001@global'],
  },
  // sagemaker
  {
    id: 'exposure.sagemaker_notebook_direct_internet',
    parts: ['sagemakerNotebooks'],
    breaks: (inv) => {
      part(inv.sagemakerNotebooks).notebooks[0]!.directInternetAccess = true;
    },
    fails: [`arn:aws:sagemaker:us-east-1:${ACCOUNT}:notebook-instance/research@us-east-1`],
  },
  {
    id: 'exposure.sagemaker_notebook_lifecycle_secrets',
    parts: ['sagemakerNotebooks'],
    breaks: (inv) => {
      const { notebooks } = part(inv.sagemakerNotebooks);
      notebooks.push({ ...notebooks[0]!, name: 'shared', arn: NOTEBOOK_ARN('shared') });
      notebooks[0]!.lifecycleSecrets = [{ config: 'setup', script: 'OnStart', line: 3, kind: 'aws_secret_access_key' }];
    },
    fails: [`${NOTEBOOK_ARN('research')}@us-east-1`],
  },
  {
    id: 'exposure.sagemaker_notebook_root_access',
    parts: ['sagemakerNotebooks'],
    breaks: (inv) => {
      part(inv.sagemakerNotebooks).notebooks[0]!.rootAccess = true;
    },
    fails: [`arn:aws:sagemaker:us-east-1:${ACCOUNT}:notebook-instance/research@us-east-1`],
  },
  {
    id: 'exposure.sagemaker_notebook_not_cmk',
    parts: ['sagemakerNotebooks'],
    breaks: (inv) => {
      part(inv.sagemakerNotebooks).notebooks[0]!.kmsKeyId = null;
    },
    fails: [`arn:aws:sagemaker:us-east-1:${ACCOUNT}:notebook-instance/research@us-east-1`],
  },
  {
    id: 'exposure.sagemaker_notebook_outside_vpc',
    parts: ['sagemakerNotebooks'],
    breaks: (inv) => {
      part(inv.sagemakerNotebooks).notebooks[0]!.subnetId = null;
    },
    fails: [`arn:aws:sagemaker:us-east-1:${ACCOUNT}:notebook-instance/research@us-east-1`],
  },
  {
    id: 'exposure.sagemaker_training_job_no_network_isolation',
    parts: ['sagemakerTrainingJobs'],
    breaks: (inv) => {
      part(inv.sagemakerTrainingJobs).jobs[0]!.networkIsolation = false;
    },
    fails: [`arn:aws:sagemaker:us-east-1:${ACCOUNT}:training-job/churn-2026-03@us-east-1`],
  },
  {
    id: 'exposure.sagemaker_training_job_volume_unencrypted',
    parts: ['sagemakerTrainingJobs'],
    breaks: (inv) => {
      part(inv.sagemakerTrainingJobs).jobs[0]!.volumeKmsKeyId = null;
    },
    fails: [`arn:aws:sagemaker:us-east-1:${ACCOUNT}:training-job/churn-2026-03@us-east-1`],
  },
  {
    id: 'exposure.sagemaker_training_job_outside_vpc',
    parts: ['sagemakerTrainingJobs'],
    breaks: (inv) => {
      part(inv.sagemakerTrainingJobs).jobs[0]!.subnets = [];
    },
    fails: [`arn:aws:sagemaker:us-east-1:${ACCOUNT}:training-job/churn-2026-03@us-east-1`],
  },
  {
    id: 'exposure.sagemaker_model_no_network_isolation',
    parts: ['sagemakerModels'],
    breaks: (inv) => {
      part(inv.sagemakerModels).models[0]!.networkIsolation = false;
    },
    fails: [`arn:aws:sagemaker:us-east-1:${ACCOUNT}:model/churn@us-east-1`],
  },
  // eks
  {
    id: 'exposure.eks_endpoint_public',
    parts: ['eksClusters'],
    breaks: (inv) => {
      part(inv.eksClusters).clusters[0]!.publicAccessCidrs = ['0.0.0.0/0'];
    },
    fails: [`arn:aws:eks:us-east-1:${ACCOUNT}:cluster/prod@us-east-1`],
  },
  {
    id: 'exposure.eks_private_endpoint_off',
    parts: ['eksClusters'],
    breaks: (inv) => {
      part(inv.eksClusters).clusters[0]!.endpointPrivateAccess = false;
    },
    fails: [`arn:aws:eks:us-east-1:${ACCOUNT}:cluster/prod@us-east-1`],
  },
  {
    id: 'exposure.eks_deletion_protection_off',
    parts: ['eksClusters'],
    breaks: (inv) => {
      part(inv.eksClusters).clusters[0]!.deletionProtection = false;
    },
    fails: [`arn:aws:eks:us-east-1:${ACCOUNT}:cluster/prod@us-east-1`],
  },
  {
    id: 'exposure.eks_unsupported_version',
    parts: ['eksClusters'],
    breaks: (inv) => {
      Object.assign(part(inv.eksClusters).clusters[0]!, { version: '1.29', versionStatus: 'EXTENDED_SUPPORT' });
    },
    fails: [`arn:aws:eks:us-east-1:${ACCOUNT}:cluster/prod@us-east-1`],
  },
  {
    id: 'detection.eks_audit_logging_off',
    parts: ['eksClusters'],
    breaks: (inv) => {
      part(inv.eksClusters).clusters[0]!.enabledLogTypes = ['api'];
    },
    fails: [`arn:aws:eks:us-east-1:${ACCOUNT}:cluster/prod@us-east-1`],
  },
  {
    id: 'exposure.eks_secrets_not_encrypted',
    parts: ['eksClusters'],
    breaks: (inv) => {
      part(inv.eksClusters).clusters[0]!.secretsEncrypted = false;
    },
    fails: [`arn:aws:eks:us-east-1:${ACCOUNT}:cluster/prod@us-east-1`],
  },
  // ecs
  {
    id: 'exposure.ecs_service_public_ip',
    parts: ['ecsServices'],
    breaks: (inv) => {
      part(inv.ecsServices).services[0]!.assignPublicIp = true;
    },
    fails: [`arn:aws:ecs:us-east-1:${ACCOUNT}:service/prod/web@us-east-1`],
  },
  {
    id: 'exposure.ecs_task_set_public_ip',
    parts: ['ecsServices'],
    breaks: (inv) => {
      part(inv.ecsServices).taskSets[0]!.assignPublicIp = true;
    },
    fails: [`arn:aws:ecs:us-east-1:${ACCOUNT}:task-set/prod/web/ecs-svc/1234567890123456789@us-east-1`],
  },
  {
    id: 'exposure.sqs_queue_public',
    parts: ['sqsQueues'],
    breaks: (inv) => {
      part(inv.sqsQueues).queues[0]!.policy = publicReading('sqs:SendMessage');
    },
    fails: [`arn:aws:sqs:us-east-1:${ACCOUNT}:orders@us-east-1`],
  },
  {
    id: 'exposure.sqs_queue_unencrypted',
    parts: ['sqsQueues'],
    breaks: (inv) => {
      part(inv.sqsQueues).queues[0]!.encrypted = false;
    },
    fails: [`arn:aws:sqs:us-east-1:${ACCOUNT}:orders@us-east-1`],
  },
  {
    id: 'exposure.sqs_queue_cross_account',
    parts: ['sqsQueues'],
    breaks: (inv) => {
      part(inv.sqsQueues).queues[0]!.policy = sharedReading(PARTNER, 'sqs:SendMessage');
    },
    fails: [`arn:aws:sqs:us-east-1:${ACCOUNT}:orders@us-east-1`],
  },
  {
    id: 'exposure.kms_key_public',
    parts: ['kmsKeyPolicies'],
    breaks: (inv) => {
      part(inv.kmsKeyPolicies).keys[0]!.policy = publicReading('kms:Decrypt');
    },
    fails: [`arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab@us-east-1`],
  },
  {
    id: 'threat.kms_key_pending_deletion',
    parts: ['kmsKeyPolicies'],
    breaks: (inv) => {
      Object.assign(part(inv.kmsKeyPolicies).keys[0]!, {
        state: 'PendingDeletion',
        deletionDate: '2026-03-22T00:00:00.000Z',
      });
    },
    fails: [`arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab@us-east-1`],
  },
  {
    id: 'exposure.kms_key_cross_account',
    parts: ['kmsKeyPolicies'],
    breaks: (inv) => {
      part(inv.kmsKeyPolicies).keys[0]!.policy = sharedReading(PARTNER, 'kms:Decrypt');
    },
    fails: [`arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab@us-east-1`],
  },
  {
    id: 'exposure.ecr_repository_public',
    parts: ['ecrRepositories'],
    breaks: (inv) => {
      part(inv.ecrRepositories).repositories[0]!.policy = publicReading('ecr:BatchGetImage');
    },
    fails: [`arn:aws:ecr:us-east-1:${ACCOUNT}:repository/api@us-east-1`],
  },
  {
    id: 'exposure.ecr_repository_cross_account',
    parts: ['ecrRepositories'],
    breaks: (inv) => {
      part(inv.ecrRepositories).repositories[0]!.policy = sharedReading(PARTNER, 'ecr:BatchGetImage');
    },
    fails: [`arn:aws:ecr:us-east-1:${ACCOUNT}:repository/api@us-east-1`],
  },
  {
    id: 'exposure.ecr_scan_on_push_off',
    parts: ['ecrRepositories'],
    breaks: (inv) => {
      part(inv.ecrRepositories).repositories[0]!.scanOnPush = false;
    },
    fails: [`arn:aws:ecr:us-east-1:${ACCOUNT}:repository/api@us-east-1`],
  },
  {
    id: 'exposure.ecr_tags_mutable',
    parts: ['ecrRepositories'],
    breaks: (inv) => {
      part(inv.ecrRepositories).repositories[0]!.tagsImmutable = false;
    },
    fails: [`arn:aws:ecr:us-east-1:${ACCOUNT}:repository/api@us-east-1`],
  },
  {
    id: 'exposure.glacier_vault_public',
    parts: ['glacierVaults'],
    breaks: (inv) => {
      part(inv.glacierVaults).vaults[0]!.policy = publicReading('glacier:InitiateJob');
    },
    fails: [`arn:aws:glacier:us-east-1:${ACCOUNT}:vaults/archives@us-east-1`],
  },
  {
    id: 'exposure.glacier_vault_cross_account',
    parts: ['glacierVaults'],
    breaks: (inv) => {
      part(inv.glacierVaults).vaults[0]!.policy = sharedReading(PARTNER, 'glacier:InitiateJob');
    },
    fails: [`arn:aws:glacier:us-east-1:${ACCOUNT}:vaults/archives@us-east-1`],
  },
  {
    id: 'exposure.sns_topic_public',
    parts: ['snsTopics'],
    breaks: (inv) => {
      part(inv.snsTopics).topics[0]!.policy = publicReading('sns:Publish');
    },
    fails: [`arn:aws:sns:us-east-1:${ACCOUNT}:alerts@us-east-1`],
  },
  {
    id: 'exposure.sns_topic_unencrypted',
    parts: ['snsTopics'],
    breaks: (inv) => {
      part(inv.snsTopics).topics[0]!.encrypted = false;
    },
    fails: [`arn:aws:sns:us-east-1:${ACCOUNT}:alerts@us-east-1`],
  },
  {
    id: 'exposure.sns_http_subscription',
    parts: ['snsTopics'],
    breaks: (inv) => {
      Object.assign(part(inv.snsTopics).subscriptions[0]!, { protocol: 'http' });
    },
    fails: [`arn:aws:sns:us-east-1:${ACCOUNT}:alerts:5f2c8a1e-1111-2222-3333-444455556666@us-east-1`],
  },
  {
    id: 'exposure.sns_topic_cross_account',
    parts: ['snsTopics'],
    breaks: (inv) => {
      part(inv.snsTopics).topics[0]!.policy = sharedReading(PARTNER, 'sns:Subscribe');
    },
    fails: [`arn:aws:sns:us-east-1:${ACCOUNT}:alerts@us-east-1`],
  },
  {
    id: 'exposure.secret_public',
    parts: ['secrets'],
    breaks: (inv) => {
      part(inv.secrets).secrets[0]!.policy = publicReading('secretsmanager:GetSecretValue');
    },
    fails: [`arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:prod/db-AbCdEf@us-east-1`],
  },
  {
    id: 'exposure.secret_cross_account',
    parts: ['secrets'],
    breaks: (inv) => {
      part(inv.secrets).secrets[0]!.policy = sharedReading(PARTNER, 'secretsmanager:GetSecretValue');
    },
    fails: [`arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:prod/db-AbCdEf@us-east-1`],
  },
  {
    id: 'exposure.secret_rotation_off',
    parts: ['secrets'],
    breaks: (inv) => {
      part(inv.secrets).secrets[0]!.rotationEnabled = false;
    },
    fails: [`arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:prod/db-AbCdEf@us-east-1`],
  },
  {
    id: 'exposure.secret_unused',
    parts: ['secrets'],
    breaks: (inv, now) => {
      part(inv.secrets).secrets[0]!.lastAccessedAt = daysAgo(now, 120);
    },
    fails: [`arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:prod/db-AbCdEf@us-east-1`],
  },
  {
    id: 'exposure.ses_identity_public',
    parts: ['sesIdentities'],
    breaks: (inv) => {
      part(inv.sesIdentities).identities[0]!.policy = publicReading('ses:SendEmail');
    },
    fails: [`arn:aws:ses:us-east-1:${ACCOUNT}:identity/example.com@us-east-1`],
  },
  {
    id: 'exposure.ses_identity_cross_account',
    parts: ['sesIdentities'],
    breaks: (inv) => {
      part(inv.sesIdentities).identities[0]!.policy = sharedReading(PARTNER, 'ses:SendEmail');
    },
    fails: [`arn:aws:ses:us-east-1:${ACCOUNT}:identity/example.com@us-east-1`],
  },
  {
    id: 'exposure.eventbridge_bus_public',
    parts: ['eventBuses'],
    breaks: (inv) => {
      part(inv.eventBuses).buses[0]!.policy = publicReading('events:PutEvents');
    },
    fails: [`arn:aws:events:us-east-1:${ACCOUNT}:event-bus/default@us-east-1`],
  },
  {
    id: 'exposure.eventbridge_bus_cross_account',
    parts: ['eventBuses'],
    breaks: (inv) => {
      part(inv.eventBuses).buses[0]!.policy = sharedReading(PARTNER, 'events:PutEvents');
    },
    fails: [`arn:aws:events:us-east-1:${ACCOUNT}:event-bus/default@us-east-1`],
  },
  {
    id: 'exposure.log_resource_policy_public',
    parts: ['logResourcePolicies'],
    breaks: (inv) => {
      part(inv.logResourcePolicies).policies[0]!.policy = publicReading('logs:PutLogEvents');
    },
    fails: ['AWSLogDeliveryWrite@us-east-1'],
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
  {
    id: 'exposure.codeartifact_package_upstream_allowed',
    parts: ['codeartifactPackages'],
    breaks: (inv) => {
      part(inv.codeartifactPackages).packages.push({
        ...part(inv.codeartifactPackages).packages[0]!,
        arn: `${CODEARTIFACT_REPOSITORY}/@acme:billing-client`,
        namespace: '@acme',
        name: 'billing-client',
        latestOrigin: 'INTERNAL',
      });
    },
    fails: [`${CODEARTIFACT_REPOSITORY}/@acme:billing-client@us-east-1`],
  },
  {
    id: 'exposure.route53_domain_transfer_lock_off',
    parts: ['registeredDomains'],
    breaks: (inv) => {
      part(inv.registeredDomains).domains.push({ name: 'example.net', transferLock: false });
    },
    fails: ['example.net@global'],
  },
  {
    id: 'exposure.route53_record_dangling_ip',
    parts: ['hostedZoneRecords', 'elasticIps', 'instances'],
    breaks: (inv) => {
      // The website's Elastic IP was released: the record now names an address another customer may get.
      part(inv.elasticIps).addresses.length = 0;
    },
    fails: [`Z0EXAMPLE/www.example.com./${ELASTIC_IP}@global`],
  },
  {
    id: 'exposure.cloudfront_no_default_root_object',
    parts: ['cloudfrontDistributions'],
    breaks: (inv) => {
      part(inv.cloudfrontDistributions).distributions[0]!.defaultRootObject = '';
    },
    fails: [`${CLOUDFRONT_ARN}@global`],
  },
  {
    id: 'exposure.cloudfront_origin_bucket_missing',
    parts: ['cloudfrontDistributions'],
    breaks: (inv) => {
      part(inv.cloudfrontDistributions).distributions[0]!.s3Origins.push({
        originId: 'old-assets',
        bucket: 'acme-old-assets',
        exists: false,
      });
    },
    fails: [`${CLOUDFRONT_ARN}@global`],
  },
  {
    id: 'exposure.cloudfront_viewer_http_allowed',
    parts: ['cloudfrontDistributions'],
    breaks: (inv) => {
      part(inv.cloudfrontDistributions).distributions[0]!.httpPathPatterns = ['/legacy/*'];
    },
    fails: [`${CLOUDFRONT_ARN}@global`],
  },
  {
    id: 'exposure.cloudfront_origin_http',
    parts: ['cloudfrontDistributions'],
    breaks: (inv) => {
      part(inv.cloudfrontDistributions).distributions[0]!.customOrigins[0]!.protocolPolicy = 'http-only';
    },
    fails: [`${CLOUDFRONT_ARN}@global`],
  },
  {
    id: 'exposure.cloudfront_without_waf',
    parts: ['cloudfrontDistributions'],
    breaks: (inv) => {
      part(inv.cloudfrontDistributions).distributions[0]!.webAclId = null;
    },
    fails: [`${CLOUDFRONT_ARN}@global`],
  },
  {
    id: 'exposure.acm_certificate_expiring',
    parts: ['acmCertificates'],
    breaks: (inv, now) => {
      part(inv.acmCertificates).certificates[0]!.notAfter = daysAgo(now, -5);
    },
    fails: [`${ACM_ARN}@us-east-1`],
  },
  {
    id: 'exposure.acm_certificate_weak_key',
    parts: ['acmCertificates'],
    breaks: (inv) => {
      part(inv.acmCertificates).certificates[0]!.keyAlgorithm = 'RSA-1024';
    },
    fails: [`${ACM_ARN}@us-east-1`],
  },
  {
    id: 'exposure.lightsail_instance_public',
    parts: ['lightsailInstances'],
    breaks: (inv) => {
      part(inv.lightsailInstances).instances[0]!.publicPorts = ['22/tcp'];
    },
    fails: [`${LIGHTSAIL_INSTANCE_ARN}@eu-west-1`],
  },
  {
    id: 'exposure.lightsail_database_public',
    parts: ['lightsailDatabases'],
    breaks: (inv) => {
      part(inv.lightsailDatabases).databases[0]!.publiclyAccessible = true;
    },
    fails: [`${LIGHTSAIL_DATABASE_ARN}@eu-west-1`],
  },
  {
    id: 'exposure.rds_transport_unencrypted',
    parts: ['rdsInstances', 'rdsClusters'],
    breaks: (inv) => {
      part(inv.rdsInstances).instances[1]!.tlsEnforced = false;
      // An Aurora member is judged by its cluster's group, and DocumentDB is another service.
      part(inv.rdsInstances).instances.push({
        ...part(inv.rdsInstances).instances[0]!,
        id: 'orders-aurora-1',
        engine: 'aurora-postgresql',
        clusterId: 'orders-aurora',
        tlsEnforced: false,
      });
      for (const c of part(inv.rdsClusters).clusters) c.tlsEnforced = c.engine === 'docdb';
    },
    fails: ['reporting-replica@eu-west-1', `${RDS_ARN}:cluster:orders-aurora@us-east-1`],
  },
  {
    id: 'exposure.rds_engine_version_deprecated',
    parts: ['rdsInstances'],
    breaks: (inv) => {
      part(inv.rdsInstances).instances[0]!.engineVersionOffered = false;
    },
    fails: ['orders-db@us-east-1'],
  },
  {
    id: 'exposure.rds_instance_no_backup_plan',
    parts: ['rdsInstances', 'backupSelections'],
    breaks: (inv) => {
      // The us-east-1 plan names orders-db by ARN; a plan of another region backs up none of its databases.
      const [home, eu] = part(inv.backupSelections).selections as unknown as [
        { resources: string[] },
        { region: string },
      ];
      home.resources = [`${RDS_ARN}:db:orders-db-old`, 'arn:aws:rds:*:*:cluster:*'];
      eu.region = 'us-west-2';
    },
    fails: ['orders-db@us-east-1', 'reporting-replica@eu-west-1'],
  },
  {
    id: 'exposure.rds_cluster_no_backup_plan',
    parts: ['rdsClusters', 'backupSelections'],
    breaks: (inv) => {
      const [home] = part(inv.backupSelections).selections as unknown as [{ notResources: string[] }];
      home.notResources = [`${RDS_ARN}:cluster:orders-*`];
    },
    fails: [`${RDS_ARN}:cluster:orders-aurora@us-east-1`],
  },
  {
    id: 'exposure.security_group_wide_public_range',
    parts: ['securityGroups'],
    breaks: (inv) => {
      const partner = part(inv.securityGroups).groups.find((g) => g.id === 'sg-0partner')!;
      partner.wideRanges = [{ direction: 'inbound', cidr: '52.94.0.0/16' }];
    },
    fails: ['sg-0partner@us-east-1'],
  },
  {
    id: 'exposure.ebs_volume_without_snapshot',
    parts: ['ebsVolumes', 'ebsSnapshots'],
    breaks: (inv) => {
      // The same id in another region is another volume.
      part(inv.ebsVolumes).volumes.push(
        { id: 'vol-0data', region: 'eu-west-1' },
        { id: 'vol-0scratch', region: 'us-east-1' },
      );
    },
    fails: ['vol-0data@eu-west-1', 'vol-0scratch@us-east-1'],
  },
  {
    id: 'iam.bedrock_api_key_admin_user',
    parts: ['bedrockApiKeys', 'iamPrincipals'],
    breaks: (inv, now) => {
      const key = (id: string, userName: string) => ({
        id,
        userName,
        status: 'Active' as const,
        createdAt: daysAgo(now, 5),
        expiresAt: null,
      });
      // Alice is made an administrator; ci-deploy may escalate through an inline policy of its own.
      iamUser(inv, 'alice').adminAccess = true;
      part(inv.iamPrincipals).riskyPolicies.push({
        ...RISKY_INLINE,
        owner: iamUser(inv, 'ci-deploy').arn,
        arn: `${iamUser(inv, 'ci-deploy').arn}/self-service`,
      });
      part(inv.bedrockApiKeys).keys.push(
        key('ACCAALICEKEY00000001', 'alice'),
        key('ACCACIDEPLOYKEY00001', 'ci-deploy'),
      );
    },
    fails: ['ACCAALICEKEY00000001@global', 'ACCACIDEPLOYKEY00001@global'],
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
    expect(outcome(c.id, broken(c), c.context)).toEqual(c.fails);
  });

  it.each(CASES.flatMap((c) => c.parts.map((name) => ({ id: c.id, name, c }))))(
    '$id is not evaluated without $name, even when broken',
    ({ id, name, c }) => {
      const result = outcome(id, withoutPart(broken(c), name), c.context);
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
