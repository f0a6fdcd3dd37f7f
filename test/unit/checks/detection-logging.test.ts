import { checkById } from '../../../domain/checks/catalog';
import type { Inventory } from '../../../domain/scans/inventory';
import { cleanInventory, cleanTrail, outcome, part, unreadBy, withoutPart, withUnread } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';
const SCP = { kind: 'region' as const, scope: 'ap-south-1', reason: 'SCP' };

/** The failing resources' details, to read what the customer reads. */
function details(checkId: string, inventory: Inventory): (string | undefined)[] {
  const result = checkById(checkId)!.evaluate(inventory, { now: NOW });
  return result.status === 'fail' ? result.resources.map((r) => r.detail) : [];
}

const trails = (inventory: Inventory) => part(inventory.cloudtrail).trails;

describe('CloudTrail log integrity', () => {
  it('fails each trail without log file validation, in its home region', () => {
    const inventory = cleanInventory(NOW);
    trails(inventory).push(
      cleanTrail({ name: 'audit-eu', homeRegion: 'eu-west-1', multiRegion: false, logFileValidation: false }),
    );
    expect(outcome('detection.trail_log_validation_off', inventory)).toEqual(['audit-eu@eu-west-1']);
    expect(details('detection.trail_log_validation_off', inventory)).toEqual([
      'Trail audit-eu (eu-west-1) delivers its logs without log file validation.',
    ]);
  });

  it('fails each trail encrypted with S3-managed keys only', () => {
    const inventory = cleanInventory(NOW);
    trails(inventory)[0]!.kmsKeyId = null;
    expect(outcome('detection.trail_not_kms_encrypted', inventory)).toEqual(['management@us-east-1']);
  });

  it.each([
    'detection.trail_log_validation_off',
    'detection.trail_not_kms_encrypted',
    'detection.trail_bucket_logging_off',
  ])('%s is not evaluated without the trails, and names the regions it could not read', (id) => {
    expect(outcome(id, withoutPart(cleanInventory(NOW), 'cloudtrail'))).toBe('not_evaluated');
    const inventory = withUnread(cleanInventory(NOW), 'cloudtrail', [SCP]);
    expect(outcome(id, inventory)).toBe('pass');
    expect(unreadBy(id, inventory)).toEqual(['ap-south-1']);
  });
});

describe('CloudTrail bucket access logging', () => {
  it('fails once per bucket, naming every trail that delivers there', () => {
    const inventory = cleanInventory(NOW);
    trails(inventory)[0]!.bucketLogging = { read: true, enabled: false };
    trails(inventory).push(cleanTrail({ name: 'data-events', bucketLogging: { read: true, enabled: false } }));
    expect(outcome('detection.trail_bucket_logging_off', inventory)).toEqual(['acme-cloudtrail-logs@global']);
    expect(details('detection.trail_bucket_logging_off', inventory)).toEqual([
      'Bucket acme-cloudtrail-logs, where trail management and trail data-events deliver their logs, has server access logging off.',
    ]);
  });

  it("leaves unread, never failed, a bucket of another account it may not read (an organization trail's log archive)", () => {
    const inventory = cleanInventory(NOW);
    trails(inventory).push(
      cleanTrail({
        name: 'org-trail',
        bucket: 'org-log-archive',
        bucketLogging: { read: false, reason: "AWS denied Sentinel's role S3 GetBucketLogging (AccessDenied)." },
      }),
    );
    expect(outcome('detection.trail_bucket_logging_off', inventory)).toBe('pass');
    expect(unreadBy('detection.trail_bucket_logging_off', inventory)).toEqual(['org-log-archive']);
    trails(inventory)[0]!.bucketLogging = { read: true, enabled: false };
    expect(outcome('detection.trail_bucket_logging_off', inventory)).toEqual(['acme-cloudtrail-logs@global']);
    expect(unreadBy('detection.trail_bucket_logging_off', inventory)).toEqual(['org-log-archive']);
  });

  it('says nothing of a trail whose home region was not read', () => {
    const inventory = cleanInventory(NOW);
    trails(inventory)[0]!.bucketLogging = null;
    expect(outcome('detection.trail_bucket_logging_off', inventory)).toBe('pass');
  });
});

describe('S3 object-level logging', () => {
  const CHECKS = [
    ['detection.s3_write_events_not_logged', 'write'],
    ['detection.s3_read_events_not_logged', 'read'],
  ] as const;

  it.each(CHECKS)('%s fails when only a single-region trail, or a stopped one, records them', (id, kind) => {
    const inventory = cleanInventory(NOW);
    trails(inventory)[0]!.events!.s3Objects[kind] = false;
    trails(inventory).push(
      cleanTrail({ name: 'regional', multiRegion: false }),
      cleanTrail({ name: 'stopped', logging: false }),
    );
    expect(outcome(id, inventory)).toEqual(['cloudtrail@global']);
    expect(details(id, inventory)).toEqual([
      `No multi-region trail that is logging records S3 object-level ${kind} events for all buckets.`,
    ]);
  });

  it.each(CHECKS)('%s passes on one multi-region trail that records them, whatever the others', (id) => {
    const inventory = cleanInventory(NOW);
    trails(inventory).push(cleanTrail({ name: 'unknown', homeRegion: 'ap-south-1', logging: null, events: null }));
    expect(outcome(id, inventory)).toBe('pass');
  });

  it.each(CHECKS)("%s cannot tell when the only other multi-region trail's selectors were not read", (id, kind) => {
    const inventory = cleanInventory(NOW);
    trails(inventory)[0]!.events!.s3Objects[kind] = false;
    trails(inventory).push(cleanTrail({ name: 'unknown', homeRegion: 'ap-south-1', logging: null, events: null }));
    expect(outcome(id, inventory)).toBe('not_evaluated');
    expect(outcome(id, withoutPart(cleanInventory(NOW), 'cloudtrail'))).toBe('not_evaluated');
  });

  it.each(CHECKS)('%s carries the regions it could not read', (id) => {
    expect(unreadBy(id, withUnread(cleanInventory(NOW), 'cloudtrail', [SCP]))).toEqual(['ap-south-1']);
  });
});

describe('a multi-region trail (CIS 4.1)', () => {
  it('fails when the only multi-region trail records write management events and not reads', () => {
    const inventory = cleanInventory(NOW);
    trails(inventory)[0]!.events!.management.read = false;
    expect(outcome('detection.no_multi_region_trail', inventory)).toEqual(['cloudtrail@global']);
    expect(details('detection.no_multi_region_trail', inventory)).toEqual([
      'No multi-region trail that is logging records both read and write management events (management).',
    ]);
  });

  it('says when there is no trail, or none multi-region and logging', () => {
    const inventory = cleanInventory(NOW);
    trails(inventory)[0]!.multiRegion = false;
    expect(details('detection.no_multi_region_trail', inventory)).toEqual([
      'None of the 1 trail(s) is multi-region and logging.',
    ]);
    part(inventory.cloudtrail).trails = [];
    expect(details('detection.no_multi_region_trail', inventory)).toEqual(['The account has no trail.']);
  });
});

describe('AWS Config in every enabled region', () => {
  it('fails a region without a recorder, one not recording, and one whose latest delivery failed', () => {
    const inventory = cleanInventory(NOW);
    const [east, west, eu] = part(inventory.configRecorders).regions;
    east!.recorders = [];
    west!.recorders[0]!.recording = false;
    eu!.recorders[0]!.lastStatus = 'Failure';
    expect(outcome('detection.config_off', inventory)).toEqual([
      'config@us-east-1',
      'config@us-west-2',
      'config@eu-west-1',
    ]);
    expect(details('detection.config_off', inventory)).toEqual([
      'AWS Config has no configuration recorder in us-east-1.',
      "AWS Config's recorder default in us-west-2 is not recording.",
      "AWS Config's recorder in eu-west-1 is recording, but its latest delivery failed.",
    ]);
  });

  it('passes a recorder that has not delivered yet', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.configRecorders).regions[0]!.recorders[0]!.lastStatus = null;
    expect(outcome('detection.config_off', inventory)).toBe('pass');
  });

  it('is not evaluated without the recorders, and names the regions it could not read', () => {
    expect(outcome('detection.config_off', withoutPart(cleanInventory(NOW), 'configRecorders'))).toBe('not_evaluated');
    expect(unreadBy('detection.config_off', withUnread(cleanInventory(NOW), 'configRecorders', [SCP]))).toEqual([
      'ap-south-1',
    ]);
  });

  it('fails a region whose recorder records only chosen resource types (CIS 4.3: all supported ones)', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.configRecorders).regions[1]!.recorders[0]!.allSupported = false;
    expect(outcome('detection.config_off', inventory)).toEqual(['config@us-west-2']);
    expect(details('detection.config_off', inventory)).toEqual([
      "AWS Config's recorder default in us-west-2 records only some resource types, not all supported ones.",
    ]);
  });

  it('never passes on nothing: no region read is not evaluated', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.configRecorders).regions = [];
    expect(outcome('detection.config_off', inventory)).toBe('not_evaluated');
    expect(outcome('detection.config_global_resources_off', inventory)).toBe('not_evaluated');
  });

  describe('global resource types, recorded in one region', () => {
    const GLOBAL = 'detection.config_global_resources_off';

    it('passes when one region records them, by a recorder of every supported type that is recording', () => {
      // The clean account records them in us-east-1 only, as AWS advises (more would record them twice).
      expect(outcome(GLOBAL, cleanInventory(NOW))).toBe('pass');
      const everywhere = cleanInventory(NOW);
      for (const region of part(everywhere.configRecorders).regions)
        region.recorders[0]!.includeGlobalResourceTypes = true;
      expect(outcome(GLOBAL, everywhere)).toBe('pass');
    });

    it.each([
      ['no recorder includes them', { includeGlobalResourceTypes: false }],
      ['the one that does is stopped', { recording: false }],
      ['the one that does records only chosen types', { allSupported: false }],
      ['the one that does failed its latest delivery', { lastStatus: 'Failure' }],
    ])('fails once for the account when %s', (_, change) => {
      const inventory = cleanInventory(NOW);
      Object.assign(part(inventory.configRecorders).regions[0]!.recorders[0]!, change);
      expect(outcome(GLOBAL, inventory)).toEqual(['config-global-resources@global']);
    });

    it('cannot tell when a region it could not read may be the one that records them', () => {
      const inventory = withUnread(cleanInventory(NOW), 'configRecorders', [SCP]);
      expect(outcome(GLOBAL, inventory)).toBe('pass');
      part(inventory.configRecorders).regions[0]!.recorders[0]!.includeGlobalResourceTypes = false;
      expect(checkById(GLOBAL)!.evaluate(inventory, { now: NOW })).toMatchObject({
        status: 'not_evaluated',
        reason: 'No recorder in the regions read includes the global resource types; ap-south-1 could not be read.',
      });
      expect(outcome(GLOBAL, withoutPart(cleanInventory(NOW), 'configRecorders'))).toBe('not_evaluated');
    });
  });
});

describe('Security Hub in every enabled region', () => {
  it('fails each region where the account is not subscribed', () => {
    const inventory = cleanInventory(NOW);
    for (const region of part(inventory.securityHub).regions.slice(1)) region.enabled = false;
    expect(outcome('detection.security_hub_off', inventory)).toEqual([
      'securityhub@us-west-2',
      'securityhub@eu-west-1',
    ]);
    expect(details('detection.security_hub_off', inventory)[0]).toBe('Security Hub is not enabled in us-west-2.');
  });

  it('is not evaluated without the part, and names the regions it could not read', () => {
    expect(outcome('detection.security_hub_off', withoutPart(cleanInventory(NOW), 'securityHub'))).toBe(
      'not_evaluated',
    );
    const inventory = withUnread(cleanInventory(NOW), 'securityHub', [SCP]);
    expect(outcome('detection.security_hub_off', inventory)).toBe('pass');
    expect(unreadBy('detection.security_hub_off', inventory)).toEqual(['ap-south-1']);
  });
});
