import { failing, onPart } from './helpers';
import { DELIVERY_MAX_AGE_HOURS, deliveryProblem, recordedEverywhere, trailLogs } from './trails';
import type { Check, CheckResult } from './types';

// Detection checks: whether the account records what happens in it (CloudTrail) and watches it for threats
// (GuardDuty). Without them an incident is found late, or never.

export const DETECTION_CHECKS: readonly Check[] = [
  {
    id: 'detection.no_multi_region_trail',
    service: 'cloudtrail',
    prowler: ['cloudtrail_multi_region_enabled'],
    scenario: 'detection',
    severity: 'HIGH',
    title: 'No multi-region CloudTrail trail logging',
    description:
      'No CloudTrail trail is both multi-region and logging, so API activity in some or all regions is not ' +
      'kept beyond the 90-day event history; attackers favour regions nobody watches. A trail counts as logging only ' +
      `when its logs reach its bucket: its latest delivery did not fail, the bucket exists, and it delivered within ` +
      `${DELIVERY_MAX_AGE_HOURS} hours (or started logging since).`,
    remediation:
      'Create a trail (CloudTrail console > Trails > Create trail) that applies to all regions, logs management events ' +
      '(both Read and Write), writes to a dedicated S3 bucket with log file validation, and make sure its logging is on. ' +
      'If a multi-region trail exists but does not deliver, fix its delivery as the finding "CloudTrail trail not ' +
      'logging or not delivering" describes. With the CLI: aws cloudtrail create-trail --name <trail> --s3-bucket-name <bucket> --is-multi-region-trail --enable-log-file-validation, then aws cloudtrail start-logging --name <trail>.',
    docsUrl:
      'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/receive-cloudtrail-log-files-from-multiple-regions.html',
    controls: { 'cis-aws-7.0': ['4.1'], 'aws-fsbp': ['CloudTrail.1'] },
    // CIS 4.1 also asks that the trail record management events, both read and write.
    evaluate: onPart('cloudtrail', ({ trails }, ctx): CheckResult => {
      const undelivered = trails.filter((t) => t.multiRegion && deliveryProblem(t, ctx.now) !== null);
      return recordedEverywhere(
        trails,
        ctx.now,
        ({ management }) => management.read && management.write,
        (multiRegionLogging) => ({
          resource: 'cloudtrail',
          detail:
            trails.length === 0
              ? 'The account has no trail.'
              : multiRegionLogging.length > 0
                ? `No multi-region trail that is logging records both read and write management events (${multiRegionLogging.map((t) => t.name).join(', ')}).`
                : undelivered.length > 0
                  ? `The multi-region trail(s) ${undelivered.map((t) => t.name).join(', ')} are logging, but their logs do not reach their bucket.`
                  : `None of the ${trails.length} trail(s) is multi-region and logging.`,
        }),
      );
    }),
  },
  {
    id: 'detection.trail_not_logging',
    service: 'cloudtrail',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'CloudTrail trail not logging or not delivering',
    description:
      'A trail exists but its logging is stopped, or it is logging but its log files do not reach its S3 bucket: its ' +
      `latest delivery failed, the bucket does not exist, or nothing was delivered for ${DELIVERY_MAX_AGE_HOURS} hours. ` +
      'Either way nothing is recorded; stopping a trail, or breaking its bucket policy, is a classic step of an ' +
      'attacker covering tracks.',
    remediation:
      'In the CloudTrail console: For a stopped trail, find in CloudTrail event history who called StopLogging and why, then start logging again ' +
      '(CloudTrail > Trails > the trail > Start logging), or delete the trail if it is no longer wanted. For a trail ' +
      'that does not deliver, read the error under CloudTrail > Trails > the trail > Last log file delivery error (or ' +
      'aws cloudtrail get-trail-status --name <trail ARN>): restore the bucket policy that lets cloudtrail.amazonaws.com ' +
      'write (s3:PutObject, s3:GetBucketAcl), the KMS key policy that lets it encrypt, or, when the bucket was deleted, ' +
      'point the trail at a new bucket (CloudTrail > Trails > the trail > Edit, or aws cloudtrail update-trail ' +
      '--s3-bucket-name). Find in the event history who changed the policy or deleted the bucket.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-turning-off-logging.html',
    controls: { 'cis-aws-7.0': ['4.1'], 'aws-fsbp': ['CloudTrail.1'] },
    evaluate: onPart('cloudtrail', ({ trails }, ctx) =>
      failing(
        trails
          .filter((trail) => trailLogs(trail, ctx.now) === false)
          .map((trail) => {
            const problem = deliveryProblem(trail, ctx.now);
            return {
              resource: trail.name,
              region: trail.homeRegion,
              detail:
                problem === null
                  ? `Trail ${trail.name} (${trail.homeRegion}) is not logging.`
                  : `Trail ${trail.name} (${trail.homeRegion}) is logging, but ${problem}.`,
            };
          }),
      ),
    ),
  },
  {
    id: 'detection.guardduty_disabled',
    service: 'guardduty',
    prowler: ['guardduty_is_enabled'],
    scenario: 'detection',
    severity: 'HIGH',
    title: 'GuardDuty off in an enabled region',
    description:
      'GuardDuty has no enabled detector in a region enabled for the account. Attackers launch where nobody ' +
      'watches: compromised credentials, crypto-mining and reconnaissance in that region go unnoticed, even if the ' +
      'account keeps nothing there today.',
    remediation:
      'Enable GuardDuty in every enabled region (GuardDuty console > Get started > Enable), ideally for the whole ' +
      'organization through a delegated administrator with auto-enable, and send its findings to a channel someone reads. ' +
      'Disable the opt-in regions you do not use. With the CLI, in each region: aws guardduty create-detector --enable --region <region>.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_settingup.html',
    controls: { 'aws-fsbp': ['GuardDuty.1'] },
    evaluate: onPart('guardduty', ({ regions }) =>
      failing(
        regions
          .filter((region) => !region.detectorEnabled)
          .map(({ region }) => ({ resource: 'guardduty', region, detail: `GuardDuty is not enabled in ${region}.` })),
      ),
    ),
  },
];
