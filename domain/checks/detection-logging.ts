import type { ConfigRecorder, ConfigRegion } from '../scans/inventory';
import { failing, onPart, withUnread } from './helpers';
import { bucketsWithoutAccessLogging, failingTrails, recordedEverywhere } from './trails';
import type { Check, CheckResult } from './types';

// Logging checks of the CIS AWS Foundations section 4: whether the trails' logs can be trusted (validated,
// encrypted with a key the account controls, their bucket's access logged), whether S3 object reads and writes
// are recorded, and whether AWS Config and Security Hub record and assess the account in every region.

const CLI_TRAIL = 'aws cloudtrail update-trail --name <trail> --region <home region>';

/**
 * What CIS 4.3 asks of a region's recorder: it records every supported resource type (`allSupported`), it is
 * recording, and its latest delivery did not fail.
 */
const recordsEverything = (r: ConfigRecorder) => r.allSupported && r.recording && r.lastStatus !== 'Failure';

/** A region passes when it has a recorder of the account's and every one records everything. */
const recording = ({ recorders }: ConfigRegion) => recorders.length > 0 && recorders.every(recordsEverything);

function configDetail({ region, recorders }: ConfigRegion): string {
  if (recorders.length === 0) return `AWS Config has no configuration recorder in ${region}.`;
  const names = (of: ConfigRecorder[]) => of.map((r) => r.name).join(', ');
  const notRecording = recorders.filter((r) => !r.recording);
  if (notRecording.length > 0) return `AWS Config's recorder ${names(notRecording)} in ${region} is not recording.`;
  const some = recorders.filter((r) => !r.allSupported);
  if (some.length > 0)
    return `AWS Config's recorder ${names(some)} in ${region} records only some resource types, not all supported ones.`;
  return `AWS Config's recorder in ${region} is recording, but its latest delivery failed.`;
}

const NO_REGION = 'No region was read: AWS Config cannot be said to be on in all of them.';

export const DETECTION_LOGGING_CHECKS: readonly Check[] = [
  {
    id: 'detection.trail_log_validation_off',
    service: 'cloudtrail',
    prowler: ['cloudtrail_log_file_validation_enabled'],
    scenario: 'detection',
    severity: 'LOW',
    title: 'CloudTrail log file validation off',
    description:
      'A trail delivers its log files without digest files, so nobody can prove that a log file was not modified ' +
      'or deleted after delivery: an intruder with access to the bucket can erase their tracks unnoticed, and the logs ' +
      'carry less weight in an investigation.',
    remediation:
      'Turn on log file validation: CloudTrail console > Trails > the trail > General details > Edit > Log file ' +
      `validation: Enabled > Save changes. With the CLI: ${CLI_TRAIL} --enable-log-file-validation. Check the digests ` +
      'later with aws cloudtrail validate-logs.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-validation-enabling.html',
    controls: { 'cis-aws-7.0': ['4.2'], 'aws-fsbp': ['CloudTrail.4'] },
    evaluate: onPart('cloudtrail', ({ trails }) =>
      failingTrails(
        trails,
        (t) => !t.logFileValidation,
        (t) => `Trail ${t.name} (${t.homeRegion}) delivers its logs without log file validation.`,
      ),
    ),
  },
  {
    id: 'detection.trail_not_kms_encrypted',
    service: 'cloudtrail',
    prowler: ['cloudtrail_kms_encryption_enabled'],
    scenario: 'detection',
    severity: 'LOW',
    title: 'CloudTrail logs not encrypted with a KMS key',
    description:
      "A trail's log files are encrypted only with S3-managed keys, so anyone allowed to read the bucket reads the " +
      "account's whole API history. With a KMS key, reading the logs also takes kms:Decrypt on that key, which the " +
      'account grants separately and whose use is itself logged.',
    remediation:
      'Create a symmetric customer managed KMS key whose key policy lets cloudtrail.amazonaws.com encrypt (see the ' +
      'linked page) and lets your log readers decrypt, then CloudTrail console > Trails > the trail > General details > ' +
      `Edit > Log file SSE-KMS encryption: Enabled, choose the key > Save changes. With the CLI: ${CLI_TRAIL} --kms-key-id <key ARN>.`,
    docsUrl:
      'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/encrypting-cloudtrail-log-files-with-aws-kms.html',
    controls: { 'cis-aws-7.0': ['4.5'], 'aws-fsbp': ['CloudTrail.2'] },
    evaluate: onPart('cloudtrail', ({ trails }) =>
      failingTrails(
        trails,
        (t) => t.kmsKeyId === null,
        (t) => `Trail ${t.name} (${t.homeRegion}) encrypts its log files with S3-managed keys only, not a KMS key.`,
      ),
    ),
  },
  {
    id: 'detection.trail_bucket_logging_off',
    service: 'cloudtrail',
    prowler: ['cloudtrail_logs_s3_bucket_access_logging_enabled'],
    scenario: 'detection',
    severity: 'LOW',
    title: 'CloudTrail bucket without server access logging',
    description:
      "The S3 bucket that holds a trail's logs does not log the requests made to it, so who read, overwrote or " +
      'deleted the audit logs is not recorded anywhere: the place an intruder goes to cover their tracks is not watched.',
    remediation:
      'Turn on server access logging for the bucket, to another bucket that only a few people can read: S3 console > ' +
      'the bucket > Properties > Server access logging > Edit > Enable, choose the destination > Save changes. With the CLI: ' +
      'aws s3api put-bucket-logging --bucket <trail bucket> --bucket-logging-status ' +
      '\'{"LoggingEnabled":{"TargetBucket":"<log bucket>","TargetPrefix":"<trail bucket>/"}}\'.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/enable-server-access-logging.html',
    controls: { 'cis-aws-7.0': ['4.4'] },
    evaluate: onPart('cloudtrail', ({ trails }) => bucketsWithoutAccessLogging(trails)),
  },
  {
    id: 'detection.s3_write_events_not_logged',
    service: 'cloudtrail',
    prowler: ['cloudtrail_s3_dataevents_write_enabled'],
    scenario: 'detection',
    severity: 'LOW',
    title: 'S3 object writes not logged',
    description:
      'No multi-region trail that is logging records S3 object-level write events (PutObject, DeleteObject, ...) ' +
      'for all buckets, so who changed or deleted which object is not kept: a ransomware-style deletion or a planted ' +
      'file cannot be traced.',
    remediation:
      'Record S3 data events on a multi-region trail: CloudTrail console > Trails > the trail > Data events > Edit > ' +
      'Add data event type: S3, Log selector template: Log all events (or Log writeOnly events) for all current and future ' +
      'buckets > Save changes. With the CLI: aws cloudtrail put-event-selectors --trail-name <trail> --advanced-event-selectors ' +
      '\'[{"Name":"Management events","FieldSelectors":[{"Field":"eventCategory","Equals":["Management"]}]},' +
      '{"Name":"S3 objects","FieldSelectors":[{"Field":"eventCategory","Equals":["Data"]},{"Field":"resources.type","Equals":["AWS::S3::Object"]}]}]\'. ' +
      'Data events are billed per event: see CloudTrail pricing.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/logging-data-events-with-cloudtrail.html',
    controls: { 'cis-aws-7.0': ['4.8'] },
    evaluate: onPart('cloudtrail', ({ trails }, ctx) =>
      recordedEverywhere(
        trails,
        ctx.now,
        (e) => e.s3Objects.write,
        () => ({
          resource: 'cloudtrail',
          detail: 'No multi-region trail that is logging records S3 object-level write events for all buckets.',
        }),
      ),
    ),
  },
  {
    id: 'detection.s3_read_events_not_logged',
    service: 'cloudtrail',
    prowler: ['cloudtrail_s3_dataevents_read_enabled'],
    scenario: 'detection',
    severity: 'LOW',
    title: 'S3 object reads not logged',
    description:
      'No multi-region trail that is logging records S3 object-level read events (GetObject, ...) for all buckets, ' +
      'so who downloaded which object is not kept: after a leak, what was taken and by whom cannot be told.',
    remediation:
      'Record S3 data events on a multi-region trail: CloudTrail console > Trails > the trail > Data events > Edit > ' +
      'Add data event type: S3, Log selector template: Log all events (or Log readOnly events) for all current and future ' +
      'buckets > Save changes. With the CLI: aws cloudtrail put-event-selectors --trail-name <trail> --advanced-event-selectors ' +
      '\'[{"Name":"Management events","FieldSelectors":[{"Field":"eventCategory","Equals":["Management"]}]},' +
      '{"Name":"S3 objects","FieldSelectors":[{"Field":"eventCategory","Equals":["Data"]},{"Field":"resources.type","Equals":["AWS::S3::Object"]}]}]\'. ' +
      'Read events are numerous and billed per event: see CloudTrail pricing.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/logging-data-events-with-cloudtrail.html',
    controls: { 'cis-aws-7.0': ['4.9'] },
    evaluate: onPart('cloudtrail', ({ trails }, ctx) =>
      recordedEverywhere(
        trails,
        ctx.now,
        (e) => e.s3Objects.read,
        () => ({
          resource: 'cloudtrail',
          detail: 'No multi-region trail that is logging records S3 object-level read events for all buckets.',
        }),
      ),
    ),
  },
  {
    id: 'detection.config_off',
    service: 'config',
    prowler: ['config_recorder_all_regions_enabled'],
    scenario: 'detection',
    severity: 'LOW',
    title: 'AWS Config not recording in an enabled region',
    description:
      'AWS Config does not record the configuration changes of every supported resource type in a region enabled ' +
      'for the account (no recorder, a stopped one, one that records only chosen types, or one whose latest delivery ' +
      'failed), so what a resource looked like before an incident, and who changed it, cannot be reconstructed there, ' +
      'and Config rules do not run.',
    remediation:
      'Set up AWS Config in every enabled region: AWS Config console (in that region) > Get started > Record all ' +
      'resource types, choose a delivery bucket > Confirm. With the CLI: aws configservice put-configuration-recorder and ' +
      'put-delivery-channel, then aws configservice start-configuration-recorder --configuration-recorder-name <name> ' +
      '--region <region>. For an organization, deploy it to every account and region with CloudFormation StackSets or ' +
      'AWS Control Tower.',
    docsUrl: 'https://docs.aws.amazon.com/config/latest/developerguide/gs-console.html',
    controls: { 'cis-aws-7.0': ['4.3'], 'aws-fsbp': ['Config.1'] },
    evaluate: onPart(
      'configRecorders',
      ({ regions }): CheckResult =>
        regions.length === 0
          ? { status: 'not_evaluated', reason: NO_REGION }
          : failing(
              regions
                .filter((r) => !recording(r))
                .map((r) => ({ resource: 'config', region: r.region, detail: configDetail(r) })),
            ),
    ),
  },
  {
    id: 'detection.config_global_resources_off',
    service: 'config',
    scenario: 'detection',
    severity: 'LOW',
    title: 'AWS Config records no global resources',
    description:
      "No region's AWS Config recorder that records every supported type, and is recording, includes the global " +
      'resource types (IAM users, groups, roles and customer managed policies), so changes to who may do what in ' +
      'the account are not recorded anywhere. CIS 4.3 asks for them in one region (more would record them twice).',
    remediation:
      'In one region (your main one): AWS Config console > Settings > Edit > tick "Include globally recorded IAM ' +
      'resource types" > Save. With the CLI: aws configservice put-configuration-recorder --region <region> ' +
      '--configuration-recorder name=<name>,roleARN=<role> --recording-group ' +
      'allSupported=true,includeGlobalResourceTypes=true.',
    docsUrl: 'https://docs.aws.amazon.com/config/latest/developerguide/select-resources.html',
    controls: { 'cis-aws-7.0': ['4.3'] },
    // Any region that was not read may hold the one recorder that includes them: unknown then, never failed.
    evaluate: (inventory) => {
      const part = inventory.configRecorders;
      if (part.status !== 'ok') return { status: 'not_evaluated', reason: part.reason, unread: part.unread };
      const { regions } = part.value;
      const global = regions.some((r) => r.recorders.some((c) => recordsEverything(c) && c.includeGlobalResourceTypes));
      if (global) return withUnread({ status: 'pass' }, part.unread);
      const unreadRegions = (part.unread ?? []).filter((u) => u.kind === 'region');
      if (regions.length === 0 || unreadRegions.length > 0) {
        return {
          status: 'not_evaluated',
          reason:
            regions.length === 0
              ? NO_REGION
              : `No recorder in the regions read includes the global resource types; ${unreadRegions.map((u) => u.scope).join(', ')} could not be read.`,
          unread: part.unread,
        };
      }
      return failing([
        {
          resource: 'config-global-resources',
          detail:
            'No recorder that records every supported type, and is recording, includes the global resource types, in any region.',
        },
      ]);
    },
  },
  {
    id: 'detection.security_hub_off',
    service: 'securityhub',
    prowler: ['securityhub_enabled'],
    scenario: 'detection',
    severity: 'LOW',
    title: 'Security Hub off in an enabled region',
    description:
      'AWS Security Hub is not enabled in a region enabled for the account, so the findings of GuardDuty, Inspector, ' +
      "IAM Access Analyzer and the security standards' controls for that region are not gathered and assessed in one place.",
    remediation:
      'Enable Security Hub in every enabled region: Security Hub console (in that region) > Go to Security Hub > ' +
      'Enable Security Hub. With the CLI: aws securityhub enable-security-hub --region <region>. For an organization, ' +
      'designate a delegated administrator and use central configuration to enable it in every account and region.',
    docsUrl: 'https://docs.aws.amazon.com/securityhub/latest/userguide/securityhub-settingup.html',
    controls: { 'cis-aws-7.0': ['5.16'] },
    evaluate: onPart('securityHub', ({ regions }) =>
      failing(
        regions
          .filter((r) => !r.enabled)
          .map(({ region }) => ({
            resource: 'securityhub',
            region,
            detail: `Security Hub is not enabled in ${region}.`,
          })),
      ),
    ),
  },
];
