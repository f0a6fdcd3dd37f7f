import { failing, failWhen, onPart, withPart } from './helpers';
import type { Check } from './types';

// Detection checks: whether the account records what happens in it (CloudTrail) and watches it for threats
// (GuardDuty). Without them an incident is found late, or never.

export const DETECTION_CHECKS: readonly Check[] = [
  {
    id: 'detection.no_multi_region_trail',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'No multi-region CloudTrail trail logging',
    description: 'No CloudTrail trail is both multi-region and logging, so API activity in some or all regions is not '
      + 'kept beyond the 90-day event history; attackers favour regions nobody watches.',
    remediation: 'Create a trail (CloudTrail > Trails > Create trail) that applies to all regions, logs management events, '
      + 'writes to a dedicated S3 bucket with log file validation, and make sure its logging is on.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/receive-cloudtrail-log-files-from-multiple-regions.html',
    evaluate: onPart('cloudtrail', ({ trails }) => failWhen(!trails.some((trail) => trail.multiRegion && trail.logging), {
      resource: 'cloudtrail',
      detail: trails.length === 0 ? 'The account has no trail.' : `None of the ${trails.length} trail(s) is multi-region and logging.`,
    })),
  },
  {
    id: 'detection.trail_not_logging',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'CloudTrail trail not logging',
    description: 'A trail exists but its logging is stopped; stopping trails is a classic step of an attacker covering tracks.',
    remediation: 'Find in CloudTrail event history who called StopLogging and why, then start logging again '
      + '(CloudTrail > Trails > the trail > Start logging), or delete the trail if it is no longer wanted.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-turning-off-logging.html',
    evaluate: onPart('cloudtrail', ({ trails }) => failing(trails
      .filter((trail) => !trail.logging)
      .map((trail) => ({ resource: trail.name, region: trail.homeRegion, detail: `Trail ${trail.name} (${trail.homeRegion}) is not logging.` })))),
  },
  {
    id: 'detection.guardduty_disabled',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'GuardDuty off in a region in use',
    description: 'GuardDuty has no enabled detector in a region where the account has resources, so compromised '
      + 'credentials, crypto-mining and reconnaissance there go unnoticed.',
    remediation: 'Enable GuardDuty in the region (GuardDuty console > Get started > Enable), ideally in every enabled region '
      + 'through a delegated administrator, and send its findings to a channel someone reads.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_settingup.html',
    evaluate: (inventory) => withPart(inventory.guardduty, ({ regions }) => {
      const enabled = new Set(regions.filter((r) => r.detectorEnabled).map((r) => r.region));
      return failing(inventory.regions.inUse
        .filter((region) => !enabled.has(region))
        .map((region) => ({ resource: 'guardduty', region, detail: `GuardDuty is not enabled in ${region}.` })));
    }),
  },
];
