import { evaluateInventory } from '../../../domain/checks/evaluate';
import type { BlockPublicAccess, OpenIngress } from '../../../domain/scans/inventory';
import { checkById } from '../../../domain/checks/catalog';
import { cleanInventory, outcome, part, unreadBy, withoutPart } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';

const bpa = (flags: Partial<BlockPublicAccess>): BlockPublicAccess => ({
  blockPublicAcls: false,
  ignorePublicAcls: false,
  blockPublicPolicy: false,
  restrictPublicBuckets: false,
  ...flags,
});

describe('exposure checks', () => {
  it.each([
    ['missing', null],
    ['all off', bpa({})],
    ['one off', bpa({ blockPublicAcls: true, ignorePublicAcls: true, blockPublicPolicy: true })],
  ])('fails when account Block Public Access is %s', (_, settings) => {
    const inventory = cleanInventory(NOW);
    part(inventory.s3AccountBlockPublicAccess).settings = settings;
    expect(outcome('exposure.s3_account_public_access_block_off', inventory)).toEqual([
      's3-account-public-access-block@global',
    ]);
  });

  describe("Block Public Access on every bucket, the account's or its own (CIS 3.1.4)", () => {
    const CHECK = 'exposure.s3_bucket_public_access_block_off';
    const FULL = bpa({
      blockPublicAcls: true,
      ignorePublicAcls: true,
      blockPublicPolicy: true,
      restrictPublicBuckets: true,
    });
    const withAccount = (settings: BlockPublicAccess | null) => {
      const inventory = cleanInventory(NOW);
      part(inventory.s3AccountBlockPublicAccess).settings = settings;
      return inventory;
    };

    it("passes on the account's four settings, whatever the buckets' own, and needs no bucket read then", () => {
      expect(outcome(CHECK, withAccount(FULL))).toBe('pass');
      expect(outcome(CHECK, withoutPart(withAccount(FULL), 's3Buckets'))).toBe('pass');
    });

    it("passes, without the account's settings, when every bucket has all four of its own", () => {
      const inventory = withAccount(null);
      part(inventory.s3Buckets).buckets[0]!.blockPublicAccess = FULL;
      expect(outcome(CHECK, inventory)).toBe('pass');
      // The account's settings are not needed then, even unread.
      expect(outcome(CHECK, withoutPart(inventory, 's3AccountBlockPublicAccess'))).toBe('pass');
    });

    it('fails each bucket that neither level covers fully, naming the settings off at both', () => {
      const inventory = withAccount(bpa({ blockPublicAcls: true, ignorePublicAcls: true }));
      // acme-assets has none of its own; acme-legacy-site has all four.
      expect(outcome(CHECK, inventory)).toEqual(['acme-assets@us-east-1']);
      expect(checkById(CHECK)!.evaluate(inventory, { now: NOW })).toEqual({
        status: 'fail',
        resources: [
          {
            resource: 'acme-assets',
            region: 'us-east-1',
            detail:
              "Bucket acme-assets in us-east-1 has blockPublicPolicy, restrictPublicBuckets off, in its own Block Public Access and the account's.",
          },
        ],
      });
      // A setting either level turns on counts, as S3 applies it.
      part(inventory.s3Buckets).buckets[0]!.blockPublicAccess = bpa({
        blockPublicPolicy: true,
        restrictPublicBuckets: true,
      });
      expect(outcome(CHECK, inventory)).toBe('pass');
    });

    it("names a bucket without its own settings as unread, never passed, when the account's could not be read", () => {
      const inventory = withoutPart(cleanInventory(NOW), 's3AccountBlockPublicAccess');
      expect(outcome(CHECK, inventory)).toBe('not_evaluated');
      expect(unreadBy(CHECK, inventory)).toEqual(['acme-assets']);
    });

    it("is not evaluated without the buckets when the account's settings do not cover them", () => {
      expect(outcome(CHECK, withoutPart(withAccount(null), 's3Buckets'))).toBe('not_evaluated');
    });
  });

  describe('public buckets', () => {
    it.each([
      ['public ACL, nothing blocks', { publicViaAcl: true }, null, null, true],
      ['public ACL, bucket ignores public ACLs', { publicViaAcl: true }, bpa({ ignorePublicAcls: true }), null, false],
      ['public ACL, only new public ACLs blocked', { publicViaAcl: true }, bpa({ blockPublicAcls: true }), null, true],
      ['public ACL, account ignores public ACLs', { publicViaAcl: true }, null, bpa({ ignorePublicAcls: true }), false],
      [
        'public policy, bucket restricts public buckets',
        { publicViaPolicy: true },
        bpa({ restrictPublicBuckets: true }),
        null,
        false,
      ],
      [
        'public policy, only new public policies blocked',
        { publicViaPolicy: true },
        bpa({ blockPublicPolicy: true }),
        null,
        true,
      ],
      [
        'public policy, account restricts public buckets',
        { publicViaPolicy: true },
        null,
        bpa({ restrictPublicBuckets: true }),
        false,
      ],
      [
        'public policy blocked, public ACL not',
        { publicViaPolicy: true, publicViaAcl: true },
        bpa({ restrictPublicBuckets: true }),
        null,
        true,
      ],
    ])('%s', (_, exposure, bucketBpa, accountBpa, isPublic) => {
      const inventory = cleanInventory(NOW);
      part(inventory.s3AccountBlockPublicAccess).settings = accountBpa;
      Object.assign(part(inventory.s3Buckets).buckets[0]!, exposure, { blockPublicAccess: bucketBpa });
      expect(outcome('exposure.s3_bucket_public', inventory)).toEqual(isPublic ? ['acme-assets@us-east-1'] : 'pass');
    });
  });

  describe('security groups', () => {
    const rule = (
      protocol: string,
      fromPort: number | null,
      toPort: number | null,
      cidr = '0.0.0.0/0',
    ): OpenIngress => ({ protocol, fromPort, toPort, cidr });

    it.each([
      [rule('tcp', 22, 22), ['ssh']],
      [rule('tcp', 22, 22, '::/0'), ['ssh']],
      [rule('tcp', 0, 1024), ['ssh']],
      [rule('6', 22, 22), ['ssh']],
      // CIS 6.3 and 6.4 count UDP as well as TCP, by name or number, and all protocols.
      [rule('udp', 22, 22), ['ssh']],
      [rule('17', 22, 22, '::/0'), ['ssh']],
      [rule('udp', 3300, 3400), ['rdp']],
      [rule('tcp', 20, 21), []],
      [rule('tcp', 22, 22, '10.0.0.0/8'), []],
      [rule('tcp', 3389, 3389), ['rdp']],
      [rule('udp', 3389, 3389), ['rdp']],
      [rule('tcp', 3000, 4000), ['rdp']],
      [rule('icmp', -1, -1), []],
      [rule('-1', null, null), ['ssh', 'rdp', 'all']],
      [rule('tcp', 0, 65535), ['ssh', 'rdp', 'all']],
      [rule('udp', 0, 65535), ['ssh', 'rdp', 'all']],
      [rule('tcp', 1, 65535), ['ssh', 'rdp']],
    ])('%j opens %j', (ingress, opened) => {
      const inventory = cleanInventory(NOW);
      part(inventory.securityGroups).groups[0]!.openIngress = [ingress];
      const checks = { ssh: 'exposure.sg_ssh_open', rdp: 'exposure.sg_rdp_open', all: 'exposure.sg_all_ports_open' };
      const open = Object.entries(checks)
        .filter(([, id]) => outcome(id, inventory) !== 'pass')
        .map(([kind]) => kind);
      expect(open).toEqual(opened);
    });

    it('reports a group once however many of its rules match, per region', () => {
      const inventory = cleanInventory(NOW);
      const groups = part(inventory.securityGroups).groups;
      groups[0]!.openIngress.push(rule('tcp', 22, 22), rule('tcp', 22, 22, '::/0'));
      groups.push({ id: 'sg-0web', name: 'web', region: 'us-west-2', openIngress: [rule('tcp', 22, 22)] });
      expect(outcome('exposure.sg_ssh_open', inventory)).toEqual(['sg-0web@us-east-1', 'sg-0web@us-west-2']);
    });

    it('records which of CIS 6.3 (IPv4) and 6.4 (IPv6) each open group fails', () => {
      const inventory = cleanInventory(NOW);
      const groups = part(inventory.securityGroups).groups;
      groups[0]!.openIngress = [rule('tcp', 22, 22)];
      groups.push(
        { id: 'sg-0v6', name: 'v6', region: 'us-east-1', openIngress: [rule('tcp', 22, 22, '::/0')] },
        {
          id: 'sg-0both',
          name: 'both',
          region: 'us-east-1',
          openIngress: [rule('tcp', 0, 65535), rule('-1', null, null, '::/0')],
        },
      );
      const outcomes = evaluateInventory(inventory, { now: NOW }).outcomes;
      const failingControls = (checkId: string) => outcomes.find((o) => o.checkId === checkId)?.failingControls;
      expect(failingControls('exposure.sg_ssh_open')).toEqual({
        'sg-0web|us-east-1': { 'cis-aws-7.0': ['6.3'] },
        'sg-0v6|us-east-1': { 'cis-aws-7.0': ['6.4'] },
        'sg-0both|us-east-1': { 'cis-aws-7.0': ['6.3', '6.4'] },
      });
      expect(failingControls('exposure.sg_all_ports_open')).toEqual({
        'sg-0both|us-east-1': { 'cis-aws-7.0': ['6.3', '6.4'] },
      });
      // A check whose resources fail all of its controls records none.
      expect(failingControls('exposure.s3_account_public_access_block_off')).toBeUndefined();
    });
  });
});
