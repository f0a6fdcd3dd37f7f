import { checkById } from '../../../domain/checks/catalog';
import type { Inventory, NaclIngress, OpenIngress } from '../../../domain/scans/inventory';
import { cleanInventory, outcome, part, unreadBy, withUnread } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';
const SSH = 'exposure.instance_ssh_exposed';

const rule = (protocol: string, ports: [number, number] | null, cidr = '0.0.0.0/0'): OpenIngress => ({
  protocol,
  fromPort: ports?.[0] ?? null,
  toPort: ports?.[1] ?? null,
  cidr,
});

/** The clean account with i-0web (us-east-1, in sg-0web) given a public address and sg-0web the rule. */
function webInstanceWith(ingress: OpenIngress, changes: { publicIp?: string | null; state?: string } = {}): Inventory {
  const inventory = cleanInventory(NOW);
  const web = part(inventory.instances).instances[0]!;
  web.publicIp = changes.publicIp === undefined ? '203.0.113.10' : changes.publicIp;
  if (changes.state) web.state = changes.state;
  part(inventory.securityGroups).groups[0]!.openIngress.push(ingress);
  return inventory;
}

describe('network exposure checks', () => {
  describe('an instance is exposed when it has a public address and a group opens the port to the internet', () => {
    it.each([
      ['SSH from 0.0.0.0/0', rule('tcp', [22, 22]), ['i-0web@us-east-1']],
      ['SSH from ::/0', rule('tcp', [22, 22], '::/0'), ['i-0web@us-east-1']],
      ['a range that includes 22', rule('tcp', [0, 1024]), ['i-0web@us-east-1']],
      ['all traffic', rule('-1', null), ['i-0web@us-east-1']],
      ['TCP by its protocol number', rule('6', [22, 22]), ['i-0web@us-east-1']],
      // Prowler's instance checks count TCP only: SSH, like the others, is a TCP service.
      ['UDP 22 only', rule('udp', [22, 22]), 'pass'],
      ['another port', rule('tcp', [2222, 2222]), 'pass'],
    ])('%s', (_, ingress, expected) => {
      expect(outcome(SSH, webInstanceWith(ingress))).toEqual(expected);
    });

    it('passes an instance without a public address, whatever its groups open', () => {
      expect(outcome(SSH, webInstanceWith(rule('-1', null), { publicIp: null }))).toBe('pass');
    });

    it('passes an instance being terminated', () => {
      expect(outcome(SSH, webInstanceWith(rule('tcp', [22, 22]), { state: 'shutting-down' }))).toBe('pass');
    });

    it('names the address and the group in the finding', () => {
      const result = checkById(SSH)!.evaluate(webInstanceWith(rule('tcp', [22, 22])), { now: NOW });
      expect(result).toMatchObject({
        status: 'fail',
        resources: [
          {
            resource: 'i-0web',
            detail: expect.stringMatching(/203\.0\.113\.10.*sg-0web \(web\) allows tcp port 22 from 0\.0\.0\.0\/0/),
          },
        ],
      });
    });

    it('does not take a group of the same id in another region for the instance’s', () => {
      const inventory = webInstanceWith(rule('tcp', [443, 443]));
      part(inventory.securityGroups).groups.push({
        id: 'sg-0web',
        name: 'web',
        region: 'eu-west-1',
        openIngress: [rule('tcp', [22, 22])],
      });
      expect(outcome(SSH, inventory)).toBe('pass');
    });

    it('leaves unread a public instance whose region’s groups could not be read, never clean', () => {
      const inventory = withUnread(webInstanceWith(rule('tcp', [443, 443])), 'securityGroups', [
        { kind: 'region', scope: 'us-east-1', reason: 'AccessDenied' },
      ]);
      part(inventory.securityGroups).groups.splice(0, 1);
      expect(unreadBy(SSH, inventory)).toEqual(['i-0web', 'us-east-1']);
      // Private instances of that region are judged: nothing reaches them from the internet whatever their groups.
      expect(unreadBy(SSH, inventory)).not.toContain('i-0worker');
    });

    it('names a region once when neither its instances nor its groups could be read', () => {
      const denied = [{ kind: 'region' as const, scope: 'eu-west-2', reason: 'AccessDenied' }];
      const inventory = withUnread(
        withUnread(webInstanceWith(rule('tcp', [22, 22])), 'instances', denied),
        'securityGroups',
        denied,
      );
      expect(unreadBy(SSH, inventory).filter((scope) => scope === 'eu-west-2')).toEqual(['eu-west-2']);
      expect(outcome(SSH, inventory)).toEqual(['i-0web@us-east-1']);
    });
  });

  describe('group checks', () => {
    const withGroupRule = (ingress: OpenIngress) => {
      const inventory = cleanInventory(NOW);
      part(inventory.securityGroups).groups[1]!.openIngress.push(ingress);
      return inventory;
    };

    it.each([
      ['exposure.sg_mongodb_open', rule('tcp', [27000, 28000]), ['sg-0default@eu-west-1']],
      ['exposure.sg_redis_open', rule('-1', null), ['sg-0default@eu-west-1']],
      ['exposure.sg_redis_open', rule('udp', [6379, 6379]), 'pass'],
      ['exposure.sg_high_risk_ports_open', rule('tcp', [25, 25]), ['sg-0default@eu-west-1']],
      ['exposure.sg_high_risk_ports_open', rule('tcp', [8443, 8443]), 'pass'],
      // Only TCP 80 and 443 are the web's: anything else open to the internet fails.
      ['exposure.sg_unauthorized_port_open', rule('tcp', [80, 80]), 'pass'],
      ['exposure.sg_unauthorized_port_open', rule('tcp', [80, 443]), ['sg-0default@eu-west-1']],
      ['exposure.sg_unauthorized_port_open', rule('icmp', [-1, -1]), ['sg-0default@eu-west-1']],
      ['exposure.sg_unauthorized_port_open', rule('tcp', [8443, 8443], '::/0'), ['sg-0default@eu-west-1']],
    ])('%s with %j', (id, ingress, expected) => {
      expect(outcome(id, withGroupRule(ingress))).toEqual(expected);
    });

    it('maps to Security Hub EC2.19 only the families whose every port it calls high risk', () => {
      expect(checkById('exposure.sg_mysql_open')!.controls).toEqual({ 'aws-fsbp': ['EC2.19'] });
      expect(checkById('exposure.sg_redis_open')!.controls).toBeUndefined();
    });
  });

  describe('network ACL letting all traffic in', () => {
    const ACL = 'exposure.nacl_all_traffic_open';
    const entry = (ruleNumber: number, action: 'allow' | 'deny', protocol: string, cidr: string): NaclIngress => ({
      ruleNumber,
      action,
      protocol,
      fromPort: null,
      toPort: null,
      cidr,
    });
    const withEntries = (entries: NaclIngress[]) => {
      const inventory = cleanInventory(NOW);
      part(inventory.networkAcls).acls[0]!.internetIngress = entries;
      return inventory;
    };

    it.each([
      ['as AWS creates it', [entry(100, 'allow', '-1', '0.0.0.0/0'), entry(32767, 'deny', '-1', '0.0.0.0/0')], true],
      ['from ::/0 only', [entry(101, 'allow', '-1', '::/0'), entry(32767, 'deny', '-1', '0.0.0.0/0')], true],
      ['a deny-all ahead of it', [entry(50, 'deny', '-1', '0.0.0.0/0'), entry(100, 'allow', '-1', '0.0.0.0/0')], false],
      ['TCP allowed, nothing for all protocols', [{ ...entry(100, 'allow', '6', '0.0.0.0/0') }], false],
    ])('%s', (_, entries, fails) => {
      expect(outcome(ACL, withEntries(entries))).toEqual(fails ? ['acl-0web@us-east-1'] : 'pass');
    });
  });

  describe('VPC edges', () => {
    it('leaves unread an endpoint whose policy is not a document, never clean', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.vpcEndpoints).endpoints[0]!.beyondAccount = null;
      expect(outcome('exposure.vpc_endpoint_policy_open', inventory)).toBe('pass');
      expect(unreadBy('exposure.vpc_endpoint_policy_open', inventory)).toEqual(['vpce-0s3']);
    });

    it('names every AWS account for a wildcard principal, and other accounts by ARN', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.vpcEndpoints).services[0]!.outsidePrincipals = ['*', 'arn:aws:iam::444455556666:root'];
      const result = checkById('exposure.endpoint_service_open')!.evaluate(inventory, { now: NOW });
      expect(result).toMatchObject({
        status: 'fail',
        resources: [{ detail: expect.stringContaining('allows every AWS account, arn:aws:iam::444455556666:root') }],
      });
    });

    it('fails a region whose metadata default is optional as well as one without a default', () => {
      const inventory = cleanInventory(NOW);
      const [east, west] = part(inventory.instanceMetadataDefaults).regions;
      east!.httpTokens = 'optional';
      west!.httpTokens = null;
      expect(outcome('exposure.imds_default_allows_v1', inventory)).toEqual([
        'instance-metadata-defaults@us-east-1',
        'instance-metadata-defaults@us-west-2',
      ]);
    });
  });
});
