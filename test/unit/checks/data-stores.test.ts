import { checkById } from '../../../domain/checks/catalog';
import type { Inventory } from '../../../domain/scans/inventory';
import { cleanInventory, outcome, part, unreadBy, withoutPart, withUnread } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';

describe('data store checks', () => {
  describe('buckets that accept HTTP', () => {
    it('fails on each bucket whose policy does not deny requests without TLS, in its region', () => {
      const inventory = cleanInventory(NOW);
      for (const bucket of part(inventory.s3Buckets).buckets) bucket.deniesInsecureTransport = false;
      expect(outcome('exposure.s3_bucket_allows_http', inventory)).toEqual([
        'acme-assets@us-east-1',
        'acme-legacy-site@eu-west-1',
      ]);
    });

    it('does not depend on Block Public Access: a blocked bucket still takes HTTP', () => {
      const inventory = withoutPart(cleanInventory(NOW), 's3AccountBlockPublicAccess');
      part(inventory.s3Buckets).buckets[1]!.deniesInsecureTransport = false;
      expect(outcome('exposure.s3_bucket_allows_http', inventory)).toEqual(['acme-legacy-site@eu-west-1']);
    });

    it('passes on the buckets it read and names the one it could not', () => {
      const inventory = withUnread(cleanInventory(NOW), 's3Buckets', [
        { kind: 'resource', scope: 'acme-private', reason: 'bucket policy' },
      ]);
      expect(outcome('exposure.s3_bucket_allows_http', inventory)).toBe('pass');
      expect(unreadBy('exposure.s3_bucket_allows_http', inventory)).toEqual(['acme-private']);
    });

    it('is not evaluated when the buckets could not be listed', () => {
      expect(outcome('exposure.s3_bucket_allows_http', withoutPart(cleanInventory(NOW), 's3Buckets'))).toBe(
        'not_evaluated',
      );
    });
  });

  describe('RDS instances', () => {
    const checks = {
      public: 'exposure.rds_public',
      unencrypted: 'exposure.rds_unencrypted',
      upgrades: 'exposure.rds_minor_upgrades_off',
    } as const;
    const failingChecks = (inventory: Inventory) =>
      Object.entries(checks)
        .filter(([, id]) => outcome(id, inventory) !== 'pass')
        .map(([name]) => name);

    it.each([
      [{ publiclyAccessible: true }, ['public']],
      [{ storageEncrypted: false }, ['unencrypted']],
      [{ autoMinorVersionUpgrade: false }, ['upgrades']],
      [{ multiAz: false }, []],
      [
        { publiclyAccessible: true, storageEncrypted: false, autoMinorVersionUpgrade: false },
        ['public', 'unencrypted', 'upgrades'],
      ],
    ])('%j fails %j', (settings, failed) => {
      const inventory = cleanInventory(NOW);
      Object.assign(part(inventory.rdsInstances).instances[0]!, settings);
      expect(failingChecks(inventory)).toEqual(failed);
    });

    it('names the instance and its region, with the engine in the detail', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.rdsInstances).instances[1]!.publiclyAccessible = true;
      const check = 'exposure.rds_public';
      expect(outcome(check, inventory)).toEqual(['reporting-replica@eu-west-1']);
      const result = checkById(check)!.evaluate(inventory, { now: NOW });
      expect(result).toMatchObject({
        resources: [{ detail: 'DB instance reporting-replica (mysql) in eu-west-1 is publicly accessible.' }],
      });
    });

    describe('an instance whose public accessibility RDS did not report', () => {
      const unknown = () => {
        const inventory = cleanInventory(NOW);
        part(inventory.rdsInstances).instances[1]!.publiclyAccessible = null;
        return inventory;
      };

      it('is unread, never private: the check passes only on the others and names it', () => {
        const result = checkById('exposure.rds_public')!.evaluate(unknown(), { now: NOW });
        expect(result).toEqual({
          status: 'pass',
          unread: [
            {
              kind: 'resource',
              scope: 'reporting-replica',
              reason: 'RDS did not report whether the DB instance is publicly accessible (PubliclyAccessible).',
            },
          ],
        });
      });

      it('does not hide a public one next to it', () => {
        const inventory = unknown();
        part(inventory.rdsInstances).instances[0]!.publiclyAccessible = true;
        expect(outcome('exposure.rds_public', inventory)).toEqual(['orders-db@us-east-1']);
        expect(unreadBy('exposure.rds_public', inventory)).toEqual(['reporting-replica']);
      });

      it('passes on instances known to be private', () => {
        const result = checkById('exposure.rds_public')!.evaluate(cleanInventory(NOW), { now: NOW });
        expect(result).toEqual({ status: 'pass' });
      });
    });

    it('carries the regions it could not read, and is not evaluated when none was read', () => {
      const partial = withUnread(cleanInventory(NOW), 'rdsInstances', [
        { kind: 'region', scope: 'ap-south-1', reason: 'SCP' },
      ]);
      for (const id of Object.values(checks)) {
        expect(outcome(id, partial)).toBe('pass');
        expect(unreadBy(id, partial)).toEqual(['ap-south-1']);
        expect(outcome(id, withoutPart(cleanInventory(NOW), 'rdsInstances'))).toBe('not_evaluated');
      }
    });
  });

  describe('EFS file systems', () => {
    it('fails on an unencrypted file system, naming it', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.efsFileSystems).fileSystems.push({
        id: 'fs-0scratch',
        region: 'us-west-2',
        name: null,
        encrypted: false,
      });
      expect(outcome('exposure.efs_unencrypted', inventory)).toEqual(['fs-0scratch@us-west-2']);
    });

    it('passes on an account without file systems, and carries unread regions', () => {
      const inventory = withUnread(cleanInventory(NOW), 'efsFileSystems', [
        { kind: 'region', scope: 'eu-west-3', reason: 'SCP' },
      ]);
      part(inventory.efsFileSystems).fileSystems = [];
      expect(outcome('exposure.efs_unencrypted', inventory)).toBe('pass');
      expect(unreadBy('exposure.efs_unencrypted', inventory)).toEqual(['eu-west-3']);
      expect(outcome('exposure.efs_unencrypted', withoutPart(inventory, 'efsFileSystems'))).toBe('not_evaluated');
    });
  });

  describe('KMS key rotation', () => {
    const arn = (region: string, id: string) => `arn:aws:kms:${region}:111122223333:key/${id}`;

    it('fails on each key that does not rotate, by ARN', () => {
      const inventory = cleanInventory(NOW);
      const keys = part(inventory.kmsKeys).keys;
      keys[0]!.rotationEnabled = false;
      keys.push({ id: 'k-2', arn: arn('eu-west-1', 'k-2'), region: 'eu-west-1', rotationEnabled: false });
      expect(outcome('detection.kms_rotation_off', inventory)).toEqual([
        `${keys[0]!.arn}@us-east-1`,
        `${arn('eu-west-1', 'k-2')}@eu-west-1`,
      ]);
    });

    it('names a key whose policy hid it, so its open finding stays as it is', () => {
      const hidden = arn('us-east-1', 'k-hidden');
      const inventory = withUnread(cleanInventory(NOW), 'kmsKeys', [
        { kind: 'resource', scope: hidden, reason: 'key policy' },
      ]);
      expect(outcome('detection.kms_rotation_off', inventory)).toBe('pass');
      expect(unreadBy('detection.kms_rotation_off', inventory)).toEqual([hidden]);
    });

    it("is not evaluated when no region's keys could be listed", () => {
      expect(outcome('detection.kms_rotation_off', withoutPart(cleanInventory(NOW), 'kmsKeys'))).toBe('not_evaluated');
    });
  });
});
