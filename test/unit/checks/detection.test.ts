import { cleanInventory, cleanTrail, outcome, part, unreadBy, withoutPart, withUnread } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';

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
