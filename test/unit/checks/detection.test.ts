import { checkById } from '../../../domain/checks/catalog';
import type { Inventory, TrailDelivery } from '../../../domain/scans/inventory';
import {
  cleanInventory,
  cleanTrail,
  hoursAgo,
  outcome,
  part,
  unreadBy,
  withoutPart,
  withUnread,
} from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';

const FINDINGS = 'threat.guardduty_high_severity_finding';
const finding = { id: 'gd-1', type: 'CryptoCurrency:EC2/BitcoinTool.B!DNS', severity: 8, title: 'Mining pool' };

/** The trail checks that rely on "a trail logs": each must stop counting a trail that does not deliver. */
const RELYING_ON_A_LOGGING_TRAIL = [
  'detection.no_multi_region_trail',
  'detection.s3_write_events_not_logged',
  'detection.s3_read_events_not_logged',
  'detection.cis_metric_alarms_missing',
] as const;

/** The clean account with its only trail's delivery changed. */
function delivering(changes: Partial<TrailDelivery>): Inventory {
  const inventory = cleanInventory(NOW);
  const trail = part(inventory.cloudtrail).trails[0]!;
  trail.delivery = { ...trail.delivery!, ...changes };
  return inventory;
}

const relying = (inventory: Inventory) =>
  Object.fromEntries(RELYING_ON_A_LOGGING_TRAIL.map((id) => [id, outcome(id, inventory) === 'pass' ? 'pass' : 'fail']));

describe('detection checks', () => {
  describe('GuardDuty in every enabled region', () => {
    it('fails for an enabled region without resources whose detector is off: attackers launch where nobody looks', () => {
      const inventory = cleanInventory(NOW);
      // us-west-2 holds no instance, group or trail of the clean account.
      expect(part(inventory.instances).instances.some((i) => i.region === 'us-west-2')).toBe(false);
      part(inventory.guardduty).regions.find((r) => r.region === 'us-west-2')!.detectorEnabled = false;
      expect(outcome('detection.guardduty_disabled', inventory)).toEqual(['guardduty@us-west-2']);
    });

    it('does not depend on EC2 being read (it used to pass when no region looked in use)', () => {
      const inventory = withoutPart(cleanInventory(NOW), 'instances');
      part(inventory.guardduty).regions[0]!.detectorEnabled = false;
      expect(outcome('detection.guardduty_disabled', inventory)).toEqual(['guardduty@us-east-1']);
    });

    it('says nothing of a region it could not read, and names it', () => {
      const inventory = withUnread(cleanInventory(NOW), 'guardduty', [
        { kind: 'region', scope: 'ap-south-1', reason: 'SCP' },
      ]);
      expect(outcome('detection.guardduty_disabled', inventory)).toBe('pass');
      expect(unreadBy('detection.guardduty_disabled', inventory)).toEqual(['ap-south-1']);
    });
  });

  describe('GuardDuty findings: only where a detector watches', () => {
    it('fails on a finding of a region whose detector is enabled', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.guardduty).regions[1]!.highSeverityFindings.push(finding);
      expect(outcome(FINDINGS, inventory)).toEqual(['gd-1@eu-west-1']);
    });

    it('passes where every region has an enabled detector without findings', () => {
      expect(checkById(FINDINGS)!.evaluate(cleanInventory(NOW), { now: NOW })).toEqual({ status: 'pass' });
    });

    it('does not read a region without a detector as "no findings": it is unread, for the findings it may hide', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.guardduty).regions.find((r) => r.region === 'us-west-2')!.detectorEnabled = false;
      const result = checkById(FINDINGS)!.evaluate(inventory, { now: NOW });
      expect(result).toEqual({
        status: 'pass',
        unread: [
          {
            kind: 'region',
            scope: 'us-west-2',
            reason: expect.stringMatching(/^GuardDuty has no enabled detector/),
            absent: true,
          },
        ],
      });
      // The region itself is the GuardDuty-off finding's.
      expect(outcome('detection.guardduty_disabled', inventory)).toEqual(['guardduty@us-west-2']);
    });

    it('is not evaluated, not passed, when no region has an enabled detector', () => {
      const inventory = cleanInventory(NOW);
      for (const region of part(inventory.guardduty).regions) region.detectorEnabled = false;
      expect(checkById(FINDINGS)!.evaluate(inventory, { now: NOW })).toMatchObject({
        status: 'not_evaluated',
        reason: expect.stringContaining('no enabled detector in any region'),
      });
    });

    it('still fails on the findings a suspended detector keeps', () => {
      const inventory = cleanInventory(NOW);
      for (const region of part(inventory.guardduty).regions) region.detectorEnabled = false;
      part(inventory.guardduty).regions[0]!.highSeverityFindings.push(finding);
      expect(outcome(FINDINGS, inventory)).toEqual(['gd-1@us-east-1']);
      expect(unreadBy(FINDINGS, inventory).sort()).toEqual(['eu-west-1', 'us-east-1', 'us-west-2']);
    });

    it('never passes on a region or a part it could not read', () => {
      const partly = withUnread(cleanInventory(NOW), 'guardduty', [
        { kind: 'region', scope: 'ap-south-1', reason: 'SCP' },
      ]);
      expect(unreadBy(FINDINGS, partly)).toEqual(['ap-south-1']);
      expect(outcome(FINDINGS, withoutPart(cleanInventory(NOW), 'guardduty'))).toBe('not_evaluated');
    });
  });

  describe('a logging trail is one whose logs reach its bucket', () => {
    it('counts a trail that delivered minutes ago, and one that started logging since its last delivery', () => {
      expect(relying(cleanInventory(NOW))).toEqual(
        Object.fromEntries(RELYING_ON_A_LOGGING_TRAIL.map((id) => [id, 'pass'])),
      );
      expect(outcome('detection.trail_not_logging', cleanInventory(NOW))).toBe('pass');
      const restarted = delivering({
        lastDeliveredAt: hoursAgo(NOW, 100),
        lastDigestDeliveredAt: null,
        loggingStartedAt: hoursAgo(NOW, 2),
      });
      expect(outcome('detection.no_multi_region_trail', restarted)).toBe('pass');
    });

    it.each([
      [
        'its latest delivery failed',
        { error: 'AccessDenied' },
        'its latest delivery of log files to acme-cloudtrail-logs failed (AccessDenied)',
      ],
      [
        'its bucket does not exist',
        { bucketMissing: true },
        'its bucket acme-cloudtrail-logs does not exist (S3 answered NoSuchBucket)',
      ],
      [
        'nothing reached the bucket for more than 24 hours',
        { lastDeliveredAt: hoursAgo(NOW, 25), lastDigestDeliveredAt: hoursAgo(NOW, 24.5) },
        `it has delivered nothing to acme-cloudtrail-logs since ${hoursAgo(NOW, 24.5)}, more than 24 hours ago`,
      ],
      [
        'it never delivered, a day after it started logging',
        { lastDeliveredAt: null, lastDigestDeliveredAt: null, loggingStartedAt: hoursAgo(NOW, 30) },
        'it has never delivered a log file to acme-cloudtrail-logs',
      ],
    ])('does not count a trail that is logging when %s', (_, changes, problem) => {
      const inventory = delivering(changes);
      expect(relying(inventory)).toEqual(Object.fromEntries(RELYING_ON_A_LOGGING_TRAIL.map((id) => [id, 'fail'])));
      expect(checkById('detection.trail_not_logging')!.evaluate(inventory, { now: NOW })).toEqual({
        status: 'fail',
        resources: [
          {
            resource: 'management',
            region: 'us-east-1',
            detail: `Trail management (us-east-1) is logging, but ${problem}.`,
          },
        ],
      });
      expect(checkById('detection.no_multi_region_trail')!.evaluate(inventory, { now: NOW })).toMatchObject({
        resources: [
          { detail: 'The multi-region trail(s) management are logging, but their logs do not reach their bucket.' },
        ],
      });
    });

    it('counts a trail whose log files are older than a day while its hourly digests arrive (a quiet account)', () => {
      const inventory = delivering({ lastDeliveredAt: hoursAgo(NOW, 40), lastDigestDeliveredAt: hoursAgo(NOW, 1) });
      expect(relying(inventory)).toEqual(Object.fromEntries(RELYING_ON_A_LOGGING_TRAIL.map((id) => [id, 'pass'])));
    });

    it('counts a trail that delivered exactly 24 hours ago, not one that did 24 hours and a minute ago', () => {
      const at = (hours: number) => delivering({ lastDeliveredAt: hoursAgo(NOW, hours), lastDigestDeliveredAt: null });
      expect(outcome('detection.trail_not_logging', at(24))).toBe('pass');
      expect(outcome('detection.trail_not_logging', at(24 + 1 / 60))).toEqual(['management@us-east-1']);
    });

    it('does not count the log group of a trail whose delivery to CloudWatch Logs fails', () => {
      const inventory = delivering({ cloudWatchLogsError: 'Access denied. Verify the IAM role policy.' });
      expect(outcome('detection.no_multi_region_trail', inventory)).toBe('pass');
      expect(outcome('detection.cis_metric_alarms_missing', inventory)).toHaveLength(15);
    });

    it('cannot tell, and says so, when the status was not read: never a pass', () => {
      const inventory = cleanInventory(NOW);
      Object.assign(part(inventory.cloudtrail).trails[0]!, { logging: null, delivery: null, events: null });
      for (const id of RELYING_ON_A_LOGGING_TRAIL) expect(outcome(id, inventory)).toBe('not_evaluated');
      expect(outcome('detection.trail_not_logging', inventory)).toBe('pass');
    });
  });

  describe('trails', () => {
    it('cannot tell whether a multi-region trail logs when its home region was not read', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.cloudtrail).trails[0]!.logging = null;
      expect(outcome('detection.no_multi_region_trail', inventory)).toBe('not_evaluated');
      expect(outcome('detection.trail_not_logging', inventory)).toBe('pass');
    });

    it('passes when one multi-region trail logs, whatever the status of the others', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.cloudtrail).trails.push(
        cleanTrail({ name: 'unknown', homeRegion: 'ap-south-1', logging: null, events: null }),
      );
      expect(outcome('detection.no_multi_region_trail', inventory)).toBe('pass');
    });
  });
});
