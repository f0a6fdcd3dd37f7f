import type { NaclIngress, OpenIngress } from '../../../domain/scans/inventory';
import { checkById } from '../../../domain/checks/catalog';
import {
  cleanInventory,
  outcome,
  part,
  unreadBy,
  WELL_RUN_INSTANCE,
  withoutPart,
  withUnread,
} from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';

const entry = (
  ruleNumber: number,
  action: 'allow' | 'deny',
  protocol: string,
  ports: [number, number] | null,
  cidr = '0.0.0.0/0',
): NaclIngress => ({ ruleNumber, action, protocol, fromPort: ports?.[0] ?? null, toPort: ports?.[1] ?? null, cidr });

describe('EC2 and VPC checks', () => {
  describe('network ACLs: the first matching entry decides', () => {
    const NACL = 'exposure.nacl_admin_ports_open';
    const withEntries = (entries: NaclIngress[]) => {
      const inventory = cleanInventory(NOW);
      part(inventory.networkAcls).acls[0]!.internetIngress = entries;
      return inventory;
    };

    it.each([
      ['an allow-all entry', [entry(100, 'allow', '-1', null)], true],
      ['SSH allowed', [entry(100, 'allow', '6', [22, 22])], true],
      ['RDP inside an allowed range', [entry(100, 'allow', '6', [1024, 4000])], true],
      ['SSH allowed from ::/0', [entry(100, 'allow', '6', [22, 22], '::/0')], true],
      // CIS 6.2 counts UDP (17) as well as TCP (6) and all protocols (-1); EC2 also takes the protocols' names.
      ['UDP to every port', [entry(100, 'allow', '17', [0, 65535])], true],
      ['RDP over UDP, by name', [entry(100, 'allow', 'udp', [3389, 3389])], true],
      ['SSH over TCP, by name', [entry(100, 'allow', 'tcp', [22, 22])], true],
      ['ICMP only', [entry(100, 'allow', '1', null)], false],
      ['HTTPS only', [entry(100, 'allow', '6', [443, 443]), entry(32767, 'deny', '-1', null)], false],
      [
        'SSH and RDP denied first over TCP and UDP, then everything allowed',
        [
          entry(10, 'deny', '6', [22, 22]),
          entry(20, 'deny', '6', [3389, 3389]),
          entry(30, 'deny', '17', [22, 22]),
          entry(40, 'deny', '17', [3389, 3389]),
          entry(100, 'allow', '-1', null),
        ],
        false,
      ],
      [
        'SSH and RDP denied first over TCP only, then everything allowed',
        [entry(10, 'deny', '6', [22, 22]), entry(20, 'deny', '6', [3389, 3389]), entry(100, 'allow', '-1', null)],
        true,
      ],
      ['a deny-all ahead of the allow', [entry(1, 'deny', '-1', null), entry(100, 'allow', '6', [22, 22])], false],
      [
        'the deny numbered after the allow',
        [entry(100, 'allow', '6', [22, 22]), entry(200, 'deny', '6', [22, 22])],
        true,
      ],
      [
        'entries listed out of rule order',
        [entry(100, 'allow', '6', [22, 22]), entry(50, 'deny', '6', [0, 65535])],
        false,
      ],
      [
        'an IPv4 deny does not cover IPv6',
        [entry(10, 'deny', '-1', null), entry(100, 'allow', '-1', null, '::/0')],
        true,
      ],
    ])('%s', (_, entries, open) => {
      expect(outcome(NACL, withEntries(entries))).toEqual(open ? ['acl-0web@us-east-1'] : 'pass');
    });

    it('names what is open, and from where, with the deciding rule', () => {
      const inventory = withEntries([
        entry(10, 'deny', '6', [22, 22]),
        entry(20, 'deny', '17', [0, 65535]),
        entry(100, 'allow', '-1', null),
      ]);
      const result = checkById(NACL)!.evaluate(inventory, { now: NOW });
      expect(result).toMatchObject({
        status: 'fail',
        resources: [
          { detail: 'Network ACL acl-0web (vpc-0main) in us-east-1 allows TCP port 3389 from 0.0.0.0/0 (rule 100).' },
        ],
      });
    });

    it('names the UDP traffic a TCP deny leaves to a later allow', () => {
      const inventory = withEntries([
        entry(10, 'deny', '6', [22, 22]),
        entry(20, 'deny', '6', [3389, 3389]),
        entry(100, 'allow', '-1', null),
      ]);
      expect(checkById(NACL)!.evaluate(inventory, { now: NOW })).toMatchObject({
        status: 'fail',
        resources: [
          {
            detail:
              'Network ACL acl-0web (vpc-0main) in us-east-1 allows UDP port 22 from 0.0.0.0/0 (rule 100), UDP port 3389 from 0.0.0.0/0 (rule 100).',
          },
        ],
      });
    });

    it('carries the regions it could not read, and is not evaluated without ACLs', () => {
      const inventory = withUnread(cleanInventory(NOW), 'networkAcls', [
        { kind: 'region', scope: 'ap-south-1', reason: 'SCP' },
      ]);
      expect(outcome(NACL, inventory)).toBe('pass');
      expect(unreadBy(NACL, inventory)).toEqual(['ap-south-1']);
      expect(outcome(NACL, withoutPart(cleanInventory(NOW), 'networkAcls'))).toBe('not_evaluated');
    });
  });

  describe('CIFS', () => {
    const rule = (
      protocol: string,
      fromPort: number | null,
      toPort: number | null,
      cidr = '0.0.0.0/0',
    ): OpenIngress => ({ protocol, fromPort, toPort, cidr });

    it.each([
      [rule('tcp', 445, 445), true],
      [rule('tcp', 445, 445, '::/0'), true],
      [rule('6', 400, 500), true],
      [rule('-1', null, null), true],
      [rule('udp', 445, 445), false],
      [rule('tcp', 139, 139), false],
      [rule('tcp', 445, 445, '10.0.0.0/8'), false],
    ])('%j open: %s', (ingress, open) => {
      const inventory = cleanInventory(NOW);
      part(inventory.securityGroups).groups[0]!.openIngress = [ingress];
      expect(outcome('exposure.sg_cifs_open', inventory)).toEqual(open ? ['sg-0web@us-east-1'] : 'pass');
    });
  });

  describe('default security groups', () => {
    it('fails on a default group with any rule, inbound or outbound, and says what it allows', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.securityGroups).defaultGroups.push({
        id: 'sg-0def',
        vpcId: 'vpc-0main',
        region: 'us-east-1',
        rules: [
          { direction: 'inbound', protocol: '-1', fromPort: null, toPort: null, peer: 'sg-0def' },
          { direction: 'outbound', protocol: 'tcp', fromPort: 443, toPort: 443, peer: '0.0.0.0/0' },
        ],
      });
      const result = checkById('exposure.default_sg_allows_traffic')!.evaluate(inventory, { now: NOW });
      expect(result).toEqual({
        status: 'fail',
        resources: [
          {
            resource: 'sg-0def',
            region: 'us-east-1',
            detail:
              'The default security group sg-0def of vpc-0main in us-east-1 allows inbound all traffic from sg-0def, outbound tcp port 443 to 0.0.0.0/0.',
          },
        ],
      });
    });

    it('passes on a default group without rules', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.securityGroups).defaultGroups.push({
        id: 'sg-0def',
        vpcId: 'vpc-0main',
        region: 'us-east-1',
        rules: [],
      });
      expect(outcome('exposure.default_sg_allows_traffic', inventory)).toBe('pass');
    });
  });

  describe('instances', () => {
    const withInstance = (state: string, changes: object) => {
      const inventory = cleanInventory(NOW);
      part(inventory.instances).instances.push({
        id: 'i-0new',
        region: 'us-west-2',
        type: 't3.micro',
        state,
        launchedAt: NOW,
        ...WELL_RUN_INSTANCE,
        ...changes,
      });
      return inventory;
    };
    const IMDSV1 = { metadata: { httpTokens: 'optional', httpEndpoint: 'enabled' } };

    it.each([
      ['running', IMDSV1, ['i-0new@us-west-2']],
      ['stopped', IMDSV1, ['i-0new@us-west-2']],
      ['pending', IMDSV1, ['i-0new@us-west-2']],
      ['terminated', IMDSV1, 'pass'],
      ['shutting-down', IMDSV1, 'pass'],
      ['running', { metadata: { httpTokens: 'optional', httpEndpoint: 'disabled' } }, 'pass'],
    ])('IMDSv1: a %s instance with %j', (state, changes, expected) => {
      expect(outcome('exposure.imdsv1_allowed', withInstance(state, changes))).toEqual(expected);
    });

    describe('IMDSv1: an instance whose metadata options EC2 did not report', () => {
      it('is unread, never passed: its open finding stays open', () => {
        const inventory = withInstance('running', { metadata: null });
        const result = checkById('exposure.imdsv1_allowed')!.evaluate(inventory, { now: NOW });
        expect(result).toEqual({
          status: 'pass',
          unread: [
            {
              kind: 'resource',
              scope: 'i-0new',
              reason: expect.stringMatching(/^EC2 did not report the instance's metadata options/),
            },
          ],
        });
      });

      it('does not hide another instance that accepts IMDSv1', () => {
        const inventory = withInstance('stopped', { metadata: null });
        part(inventory.instances).instances[0]!.metadata = { httpTokens: 'optional', httpEndpoint: 'enabled' };
        expect(outcome('exposure.imdsv1_allowed', inventory)).toEqual(['i-0web@us-east-1']);
        expect(unreadBy('exposure.imdsv1_allowed', inventory)).toEqual(['i-0new']);
      });

      it('is left out once terminated', () => {
        const inventory = withInstance('terminated', { metadata: null });
        expect(unreadBy('exposure.imdsv1_allowed', inventory)).toEqual([]);
      });

      it('is not evaluated at all when the instances could not be read', () => {
        const inventory = withoutPart(withInstance('running', IMDSV1), 'instances');
        expect(outcome('exposure.imdsv1_allowed', inventory)).toBe('not_evaluated');
      });
    });

    it.each([
      ['running', ['i-0new@us-west-2']],
      ['stopped', ['i-0new@us-west-2']],
      ['pending', 'pass'],
      ['terminated', 'pass'],
    ])('no role: a %s instance', (state, expected) => {
      expect(outcome('iam.instance_without_role', withInstance(state, { instanceProfileArn: null }))).toEqual(expected);
    });

    it('carries the regions whose instances could not be read', () => {
      const inventory = withUnread(cleanInventory(NOW), 'instances', [
        { kind: 'region', scope: 'sa-east-1', reason: 'SCP' },
      ]);
      expect(unreadBy('exposure.imdsv1_allowed', inventory)).toEqual(['sa-east-1']);
      expect(unreadBy('iam.instance_without_role', inventory)).toEqual(['sa-east-1']);
    });
  });

  describe('region settings and VPCs', () => {
    it('fails once per region where EBS encryption by default is off', () => {
      const inventory = cleanInventory(NOW);
      for (const setting of part(inventory.ebsEncryptionByDefault).regions)
        setting.enabled = setting.region === 'us-east-1';
      expect(outcome('exposure.ebs_default_encryption_off', inventory)).toEqual([
        'ebs-encryption-by-default@us-west-2',
        'ebs-encryption-by-default@eu-west-1',
      ]);
    });

    it('fails on each VPC without an active flow log, saying when it is a default VPC', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.vpcFlowLogs).unloggedVpcs.push({ id: 'vpc-0dflt', region: 'us-west-2', isDefault: true });
      const result = checkById('detection.vpc_flow_logs_off')!.evaluate(inventory, { now: NOW });
      expect(result).toEqual({
        status: 'fail',
        resources: [
          {
            resource: 'vpc-0dflt',
            region: 'us-west-2',
            detail: 'The default VPC vpc-0dflt in us-west-2 has no active flow log.',
          },
        ],
      });
    });

    it.each(['ebsEncryptionByDefault', 'vpcFlowLogs'] as const)('carries the unread regions of %s', (name) => {
      const id = name === 'vpcFlowLogs' ? 'detection.vpc_flow_logs_off' : 'exposure.ebs_default_encryption_off';
      const inventory = withUnread(cleanInventory(NOW), name, [{ kind: 'region', scope: 'eu-west-3', reason: 'SCP' }]);
      expect(outcome(id, inventory)).toBe('pass');
      expect(unreadBy(id, inventory)).toEqual(['eu-west-3']);
    });
  });

  describe('instance roles (CIS 2.16)', () => {
    const PROFILE = WELL_RUN_INSTANCE.instanceProfileArn;
    const roleless = (inventory: ReturnType<typeof cleanInventory>) => {
      part(inventory.instanceProfiles).profiles[0]!.roles = [];
      return inventory;
    };

    it('fails an instance whose instance profile holds no role, as one without a profile', () => {
      const inventory = roleless(cleanInventory(NOW));
      expect(outcome('iam.instance_without_role', inventory)).toEqual([
        'i-0web@us-east-1',
        'i-0worker@eu-west-1',
        'i-0worker2@eu-west-1',
      ]);
      const result = checkById('iam.instance_without_role')!.evaluate(inventory, { now: NOW });
      expect(result).toMatchObject({
        status: 'fail',
        resources: expect.arrayContaining([
          {
            resource: 'i-0web',
            region: 'us-east-1',
            detail:
              'Instance i-0web (running) in us-east-1 has the instance profile app-server, which holds no IAM role.',
          },
        ]),
      });
    });

    it('passes an instance whose profile holds a role', () => {
      expect(outcome('iam.instance_without_role', cleanInventory(NOW))).toBe('pass');
    });

    it('names an instance as unread, never passed, when its profile could not be read', () => {
      const refused = withoutPart(roleless(cleanInventory(NOW)), 'instanceProfiles');
      expect(outcome('iam.instance_without_role', refused)).toBe('not_evaluated');
      expect(unreadBy('iam.instance_without_role', refused)).toEqual(['i-0web', 'i-0worker', 'i-0worker2']);
      // A profile IAM did not list (created or deleted while the scan read) is as unknown.
      const missing = cleanInventory(NOW);
      part(missing.instanceProfiles).profiles = [];
      expect(unreadBy('iam.instance_without_role', missing)).toEqual(['i-0web', 'i-0worker', 'i-0worker2']);
      expect(checkById('iam.instance_without_role')!.evaluate(missing, { now: NOW }).unread?.[0]?.reason).toBe(
        `Its instance profile ${PROFILE} is not among those IAM listed (created or deleted while the scan read).`,
      );
    });

    it('still fails an instance without any profile when the profiles could not be read', () => {
      const inventory = withoutPart(cleanInventory(NOW), 'instanceProfiles');
      part(inventory.instances).instances[0]!.instanceProfileArn = null;
      expect(outcome('iam.instance_without_role', inventory)).toEqual(['i-0web@us-east-1']);
      expect(unreadBy('iam.instance_without_role', inventory)).toEqual(['i-0worker', 'i-0worker2']);
    });
  });
});
