import { SANDBOX_PARTIAL_ACCOUNT_ID, sandboxInventory } from '../../cloud/sandbox/inventory';
import { internetExposures } from '../../domain/attack-paths/reachability';
import type { InternetExposure } from '../../domain/attack-paths/types';
import {
  type Collected,
  type Instance,
  type Inventory,
  type LoadBalancer,
  PART_NAMES,
  type RdsInstance,
} from '../../domain/scans/inventory';
import type {
  AclEntry,
  GroupRules,
  NetworkTopology,
  RouteTable,
  SecurityGroupRule,
  SubnetAcl,
} from '../../domain/scans/network-topology';

// The internet-exposure analysis on hand-built inventories: one region, two VPCs. vpc-1 has a public subnet
// (associated with a table that routes 0.0.0.0/0 and ::/0 to igw-1) and a private one (on the main table, which routes
// nothing out); vpc-2's main table routes to igw-2, and its subnet has no association of its own. Every subnet starts
// with an ACL that allows everything both ways, as AWS creates it.

const REGION = 'eu-west-1';
const ACCOUNT = '111122223333';
const PROFILE = `arn:aws:iam::${ACCOUNT}:instance-profile/web`;
const ROLE = `arn:aws:iam::${ACCOUNT}:role/web-role`;

const ok = <T>(value: T, unread?: Collected<T>['unread']): Collected<T> =>
  unread ? { status: 'ok', value, unread } : { status: 'ok', value };

const entry = (
  ruleNumber: number,
  egress: boolean,
  action: 'allow' | 'deny',
  protocol: string,
  ports: [number, number] | null,
  cidr = '0.0.0.0/0',
): AclEntry => ({
  ruleNumber,
  egress,
  action,
  protocol,
  fromPort: ports?.[0] ?? null,
  toPort: ports?.[1] ?? null,
  cidr,
});

/** What AWS creates: everything allowed in and out, then the catch-all denies. */
const OPEN_ENTRIES: AclEntry[] = [true, false].flatMap((egress) => [
  entry(100, egress, 'allow', '-1', null),
  entry(101, egress, 'allow', '-1', null, '::/0'),
  entry(32767, egress, 'deny', '-1', null),
  entry(32767, egress, 'deny', '-1', null, '::/0'),
]);

const inbound = (protocol: string, from: number | null, to: number | null, peer = '0.0.0.0/0'): SecurityGroupRule => ({
  direction: 'inbound',
  protocol,
  fromPort: from,
  toPort: to,
  peer,
});
const group = (id: string, ...rules: SecurityGroupRule[]): GroupRules => ({
  id,
  vpcId: 'vpc-1',
  region: REGION,
  rules: [...rules, { direction: 'outbound', protocol: '-1', fromPort: null, toPort: null, peer: '0.0.0.0/0' }],
});

function topology(): NetworkTopology {
  const table = (id: string, vpcId: string, main: boolean, subnetIds: string[], igw?: string): RouteTable => ({
    id,
    vpcId,
    region: REGION,
    main,
    subnetIds,
    internetRoutes: igw
      ? [
          { destination: '0.0.0.0/0', gatewayId: igw },
          { destination: '::/0', gatewayId: igw },
        ]
      : [],
  });
  const acl = (id: string, vpcId: string, subnetIds: string[]): SubnetAcl => ({
    id,
    vpcId,
    region: REGION,
    subnetIds,
    entries: OPEN_ENTRIES,
  });
  return {
    subnets: [
      { id: 'subnet-public', vpcId: 'vpc-1', region: REGION },
      { id: 'subnet-private', vpcId: 'vpc-1', region: REGION },
      { id: 'subnet-other', vpcId: 'vpc-2', region: REGION },
    ],
    routeTables: [
      table('rtb-main', 'vpc-1', true, []),
      table('rtb-public', 'vpc-1', false, ['subnet-public'], 'igw-1'),
      table('rtb-main-2', 'vpc-2', true, [], 'igw-2'),
    ],
    networkAcls: [acl('acl-1', 'vpc-1', ['subnet-public', 'subnet-private']), acl('acl-2', 'vpc-2', ['subnet-other'])],
    securityGroups: [
      group('sg-ssh', inbound('tcp', 22, 22)),
      group('sg-web', inbound('tcp', 443, 443), inbound('tcp', 443, 443, '::/0')),
      group('sg-app', inbound('tcp', 8080, 8080, 'sg-web')),
      group('sg-office', inbound('tcp', 22, 22, '10.0.0.0/8'), inbound('tcp', 22, 22, '198.51.7.10/32')),
      group('sg-wide', inbound('tcp', 22, 22, '52.0.0.0/8')),
      group('sg-db', inbound('tcp', 5432, 5432)),
    ],
    instances: [],
    loadBalancers: [],
    databases: [],
    caches: [],
    searchDomains: [],
  };
}

function instance(id: string, overrides: Partial<Instance> = {}): Instance {
  return {
    id,
    region: REGION,
    type: 't3.micro',
    state: 'running',
    launchedAt: '2026-01-01T00:00:00.000Z',
    metadata: { httpTokens: 'optional', httpEndpoint: 'enabled' },
    instanceProfileArn: PROFILE,
    publicIp: '52.1.2.3',
    securityGroupIds: ['sg-ssh'],
    ...overrides,
  };
}

interface Scene {
  network: NetworkTopology;
  instances: Instance[];
  loadBalancers: LoadBalancer[];
  databases: RdsInstance[];
  inventory(): Inventory;
}

/** An inventory with every part unread but those the analysis reads, which hold the scene's resources. */
function scene(): Scene {
  const s: Scene = {
    network: topology(),
    instances: [],
    loadBalancers: [],
    databases: [],
    inventory: () => {
      const unread = Object.fromEntries(PART_NAMES.map((p) => [p, { status: 'not_evaluated', reason: 'Not read.' }]));
      return {
        ...(unread as unknown as Inventory),
        collectedAt: '2026-03-01T00:00:00.000Z',
        regions: { enabled: [REGION] },
        networkTopology: ok(s.network),
        instances: ok({ instances: s.instances }),
        loadBalancers: ok({ loadBalancers: s.loadBalancers }),
        rdsInstances: ok({ instances: s.databases }),
        opensearchDomains: ok({ domains: [] }),
        lambdaFunctions: ok({ functions: [], layers: [] }),
        apiGatewayStages: ok({ stages: [] }),
        instanceProfiles: ok({ profiles: [{ name: 'web', arn: PROFILE, roles: ['web-role'] }] }),
      };
    },
  };
  return s;
}

/** Places an instance in a subnet, in the scene's instances and topology alike. */
function launch(s: Scene, subnetId: string, id: string, overrides: Partial<Instance> = {}, ipv6 = false): Instance {
  const launched = instance(id, overrides);
  s.instances.push(launched);
  s.network.instances.push({ id, region: REGION, subnetId, ipv6 });
  return launched;
}

function exposureOf(inventory: Inventory, resource: string): InternetExposure | undefined {
  return internetExposures(inventory).exposures.find((e) => e.resource === resource);
}

const summary = (e: InternetExposure | undefined) => e && { ports: e.ports, certainty: e.certainty };

const aclOf = (s: Scene, id: string) => s.network.networkAcls.find((a) => a.id === id)!;

describe('internetExposures', () => {
  describe('instances', () => {
    it('reaches a running instance with a public address through its route, ACL and open group, and says why', () => {
      const s = scene();
      launch(s, 'subnet-public', 'i-web');

      const result = internetExposures(s.inventory());

      expect(result.unread).toEqual([]);
      expect(result.exposures).toHaveLength(1);
      const exposure = result.exposures[0]!;
      expect(exposure).toMatchObject({
        resource: 'i-web',
        kind: 'instance',
        region: REGION,
        ports: ['tcp/22'],
        roleArn: ROLE,
        imdsV1: true,
        certainty: 'certain',
      });
      expect(exposure.possiblePorts).toBeUndefined();
      expect(exposure.nodes.map((n) => `${n.kind}:${n.id}`)).toEqual([
        'internet:internet',
        'instance:i-web',
        'subnet:subnet-public',
        'internet_gateway:igw-1',
        'security_group:sg-ssh',
      ]);
      expect(exposure.edges).toEqual([
        {
          from: 'internet',
          to: 'igw-1',
          label: 'route 0.0.0.0/0',
          evidence: ['rtb-public (associated with subnet-public): 0.0.0.0/0 -> igw-1'],
          certainty: 'certain',
        },
        {
          from: 'igw-1',
          to: 'subnet-public',
          label: 'network ACL acl-1',
          evidence: [
            'acl-1 inbound rule 100: allow all traffic from 0.0.0.0/0',
            'acl-1 outbound rule 100: allow all traffic to 0.0.0.0/0',
          ],
          certainty: 'certain',
        },
        {
          from: 'subnet-public',
          to: 'sg-ssh',
          label: 'tcp/22 open',
          evidence: ['sg-ssh inbound: tcp 22 from 0.0.0.0/0'],
          certainty: 'certain',
        },
        {
          from: 'sg-ssh',
          to: 'i-web',
          label: 'protects',
          evidence: ['sg-ssh attached to i-web'],
          certainty: 'certain',
        },
      ]);
    });

    it('does not reach an instance whose subnet has no route to an internet gateway', () => {
      const s = scene();
      launch(s, 'subnet-private', 'i-private');
      expect(exposureOf(s.inventory(), 'i-private')).toBeUndefined();
    });

    it("uses the VPC's main table for a subnet without an association, and an association over the main table", () => {
      const s = scene();
      launch(s, 'subnet-other', 'i-main-routed');
      expect(exposureOf(s.inventory(), 'i-main-routed')?.edges[0]?.evidence).toEqual([
        'rtb-main-2 (main table of vpc-2): 0.0.0.0/0 -> igw-2',
      ]);

      // Associated with a table that routes nothing out, the main table's route no longer applies.
      s.network.routeTables.push({
        id: 'rtb-isolated',
        vpcId: 'vpc-2',
        region: REGION,
        main: false,
        subnetIds: ['subnet-other'],
        internetRoutes: [],
      });
      expect(exposureOf(s.inventory(), 'i-main-routed')).toBeUndefined();
    });

    it('stops at a network ACL deny numbered before the allow, and not at one numbered after it', () => {
      const s = scene();
      launch(s, 'subnet-public', 'i-web');
      const acl = aclOf(s, 'acl-1');
      acl.entries = [entry(90, false, 'deny', '6', [22, 22]), ...OPEN_ENTRIES];
      expect(exposureOf(s.inventory(), 'i-web')).toBeUndefined();

      acl.entries = [entry(110, false, 'deny', '6', [22, 22]), ...OPEN_ENTRIES];
      expect(summary(exposureOf(s.inventory(), 'i-web'))).toEqual({ ports: ['tcp/22'], certainty: 'certain' });
    });

    it('needs the ACL to let the answers out to the clients ports: none is closed, some is possible', () => {
      const s = scene();
      launch(s, 'subnet-public', 'i-web');
      const acl = aclOf(s, 'acl-1');
      const inboundOnly = OPEN_ENTRIES.filter((e) => !e.egress);
      acl.entries = [
        ...inboundOnly,
        entry(100, true, 'allow', '6', [443, 443]),
        entry(32767, true, 'deny', '-1', null),
      ];
      expect(exposureOf(s.inventory(), 'i-web')).toBeUndefined();

      acl.entries = [...inboundOnly, entry(100, true, 'allow', '6', [32768, 65535])];
      const partly = exposureOf(s.inventory(), 'i-web');
      expect(summary(partly)).toEqual({ ports: ['tcp/22'], certainty: 'possible' });
      expect(partly?.possiblePorts).toEqual(['tcp/22']);
      expect(partly?.edges.find((e) => e.to === 'subnet-public')).toMatchObject({
        certainty: 'possible',
        evidence: [
          'acl-1 inbound rule 100: allow all traffic from 0.0.0.0/0',
          'acl-1 outbound rule 100: allow tcp 32768-65535 to 0.0.0.0/0',
        ],
      });
    });

    it('reaches only what a group opens to the internet and the ACL lets in', () => {
      const s = scene();
      launch(s, 'subnet-public', 'i-office', { securityGroupIds: ['sg-office'] });
      launch(s, 'subnet-other', 'i-web', { securityGroupIds: ['sg-web'] });
      expect(exposureOf(s.inventory(), 'i-office')).toBeUndefined();
      expect(summary(exposureOf(s.inventory(), 'i-web'))).toEqual({ ports: ['tcp/443'], certainty: 'certain' });

      // The ACL lets in SSH only: the group's HTTPS does not get through it.
      aclOf(s, 'acl-2').entries = [
        entry(100, false, 'allow', '6', [22, 22]),
        ...OPEN_ENTRIES.filter((e) => e.egress || e.action === 'deny'),
      ];
      expect(exposureOf(s.inventory(), 'i-web')).toBeUndefined();
    });

    it('reaches the ports of an all-traffic group that the ACL lets through, range by range', () => {
      const s = scene();
      s.network.securityGroups.push(group('sg-all', inbound('-1', null, null)));
      launch(s, 'subnet-public', 'i-all', { securityGroupIds: ['sg-all'] });
      expect(exposureOf(s.inventory(), 'i-all')?.ports).toEqual(['all']);

      aclOf(s, 'acl-1').entries = [
        entry(10, false, 'deny', '6', [22, 22]),
        entry(20, false, 'allow', '6', [0, 1023]),
        ...OPEN_ENTRIES.filter((e) => e.egress || e.action === 'deny'),
      ];
      expect(exposureOf(s.inventory(), 'i-all')?.ports).toEqual(['tcp/0-21', 'tcp/23-1023']);
    });

    it('takes a wide public range as part of the internet: possible', () => {
      const s = scene();
      launch(s, 'subnet-public', 'i-partner', { securityGroupIds: ['sg-wide', 'sg-web'] });
      const exposure = exposureOf(s.inventory(), 'i-partner');
      expect(exposure).toMatchObject({ ports: ['tcp/22', 'tcp/443'], possiblePorts: ['tcp/22'], certainty: 'certain' });
      expect(exposure?.edges.find((e) => e.to === 'sg-wide')).toMatchObject({
        certainty: 'possible',
        evidence: ['sg-wide inbound: tcp 22 from 52.0.0.0/8'],
      });
    });

    it('does not reach a stopped instance, nor one without a public address', () => {
      const s = scene();
      launch(s, 'subnet-public', 'i-stopped', { state: 'stopped' });
      launch(s, 'subnet-public', 'i-no-address', { publicIp: null });
      expect(internetExposures(s.inventory()).exposures).toEqual([]);
    });

    it('reaches an instance over IPv6 alone where its subnet routes ::/0 out', () => {
      const s = scene();
      launch(s, 'subnet-public', 'i-v6', { publicIp: null, securityGroupIds: ['sg-web'] }, true);
      const exposure = exposureOf(s.inventory(), 'i-v6');
      expect(summary(exposure)).toEqual({ ports: ['tcp/443'], certainty: 'certain' });
      expect(exposure?.edges[0]).toMatchObject({ label: 'route ::/0' });
    });

    it('says IMDSv1 is off when the instance requires tokens, and names no role without a profile', () => {
      const s = scene();
      launch(s, 'subnet-public', 'i-v2', {
        metadata: { httpTokens: 'required', httpEndpoint: 'enabled' },
        instanceProfileArn: null,
      });
      expect(exposureOf(s.inventory(), 'i-v2')).toMatchObject({ imdsV1: false, roleArn: null });
    });
  });

  describe('load balancers', () => {
    function withBalancer(s: Scene, internetFacing: boolean, health: string | null): string {
      const arn = `arn:aws:elasticloadbalancing:${REGION}:${ACCOUNT}:loadbalancer/app/web/0123456789abcdef`;
      s.loadBalancers.push({
        arn,
        name: 'web',
        region: REGION,
        type: 'application',
        internetFacing,
        attributes: null,
        listeners: [{ arn: `${arn}/443`, port: 443, protocol: 'HTTPS', sslPolicy: null, redirectsToHttps: false }],
      });
      launch(s, 'subnet-private', 'i-app', { publicIp: null, securityGroupIds: ['sg-app'] });
      if (internetFacing)
        s.network.loadBalancers.push({
          arn,
          region: REGION,
          subnetIds: ['subnet-public'],
          securityGroupIds: ['sg-web'],
          ipv6: false,
          targetGroups: [
            {
              arn: `arn:aws:elasticloadbalancing:${REGION}:${ACCOUNT}:targetgroup/app/0a1b`,
              name: 'app',
              protocol: 'HTTP',
              port: 8080,
              targets: [{ id: 'i-app', port: null, health }],
            },
          ],
        });
      return arn;
    }

    it('reaches an internet-facing load balancer on its listener, and a private instance behind it on its target port', () => {
      const s = scene();
      const arn = withBalancer(s, true, 'healthy');
      const inventory = s.inventory();

      expect(summary(exposureOf(inventory, arn))).toEqual({ ports: ['tcp/443'], certainty: 'certain' });
      const app = exposureOf(inventory, 'i-app');
      expect(app).toMatchObject({ ports: ['tcp/8080'], certainty: 'certain', roleArn: ROLE });
      expect(app?.nodes.map((n) => n.id)).toEqual(['internet', arn, 'subnet-public', 'igw-1', 'sg-web', 'i-app']);
      expect(app?.edges.at(-1)).toEqual({
        from: arn,
        to: 'i-app',
        label: 'forwards tcp/8080',
        evidence: [
          `target group app (arn:aws:elasticloadbalancing:${REGION}:${ACCOUNT}:targetgroup/app/0a1b)`,
          'health: healthy',
        ],
        certainty: 'certain',
      });
    });

    it('reaches a target whose health is failing or unknown possibly, and one not in use not at all', () => {
      for (const [health, expected] of [
        ['unhealthy', 'possible'],
        [null, 'possible'],
        ['unused', undefined],
      ] as const) {
        const s = scene();
        withBalancer(s, true, health);
        expect([health, exposureOf(s.inventory(), 'i-app')?.certainty]).toEqual([health, expected]);
      }
    });

    it('does not reach an internal load balancer nor what it forwards to', () => {
      const s = scene();
      withBalancer(s, false, 'healthy');
      expect(internetExposures(s.inventory()).exposures).toEqual([]);
    });
  });

  describe('databases', () => {
    function database(s: Scene, subnetIds: string[], publiclyAccessible: boolean | null): void {
      s.databases.push({
        id: 'orders',
        region: REGION,
        engine: 'postgres',
        storageEncrypted: true,
        autoMinorVersionUpgrade: true,
        publiclyAccessible,
        multiAz: false,
        vpcId: 'vpc-1',
        certificateValidTill: null,
        arn: `arn:aws:rds:${REGION}:${ACCOUNT}:db:orders`,
        engineVersion: '16.3',
        clusterId: null,
        tlsEnforced: true,
        engineVersionOffered: true,
      });
      s.network.databases.push({ id: 'orders', region: REGION, subnetIds, securityGroupIds: ['sg-db'], port: 5432 });
    }

    it('reaches a publicly accessible database in a public subnet on its port, not in a private one', () => {
      const open = scene();
      database(open, ['subnet-public'], true);
      expect(summary(exposureOf(open.inventory(), 'orders'))).toEqual({ ports: ['tcp/5432'], certainty: 'certain' });

      const hidden = scene();
      database(hidden, ['subnet-private'], true);
      expect(exposureOf(hidden.inventory(), 'orders')).toBeUndefined();

      const flagOff = scene();
      database(flagOff, ['subnet-public'], false);
      expect(exposureOf(flagOff.inventory(), 'orders')).toBeUndefined();
    });

    it('reaches it possibly when only some subnets of its group are public, and leaves an unreported flag unread', () => {
      const mixed = scene();
      database(mixed, ['subnet-public', 'subnet-private'], true);
      expect(summary(exposureOf(mixed.inventory(), 'orders'))).toEqual({ ports: ['tcp/5432'], certainty: 'possible' });

      const unknown = scene();
      database(unknown, ['subnet-public'], null);
      const result = internetExposures(unknown.inventory());
      expect(result.exposures).toEqual([]);
      expect(result.unread).toEqual([
        { kind: 'resource', scope: 'orders', reason: expect.stringContaining('publicly accessible') },
      ]);
    });
  });

  describe('what was not read', () => {
    it('takes an instance in a region whose network was not read as possibly reached on anything, and names the region', () => {
      const s = scene();
      launch(s, 'subnet-private', 'i-somewhere');
      const inventory = {
        ...s.inventory(),
        networkTopology: ok(topology(), [{ kind: 'region' as const, scope: REGION, reason: 'AccessDenied' }]),
      };
      const result = internetExposures(inventory);
      expect(summary(result.exposures[0])).toEqual({ ports: ['all'], certainty: 'possible' });
      expect(result.exposures[0]?.edges).toEqual([
        {
          from: 'internet',
          to: 'i-somewhere',
          label: 'network not read',
          evidence: ['AccessDenied'],
          certainty: 'possible',
        },
      ]);
      expect(result.unread).toEqual([{ kind: 'region', scope: REGION, reason: 'Network topology: AccessDenied' }]);

      const none = internetExposures({
        ...s.inventory(),
        networkTopology: { status: 'not_evaluated', reason: 'Denied.' },
      });
      expect(summary(none.exposures[0])).toEqual({ ports: ['all'], certainty: 'possible' });
      expect(none.unread).toEqual([{ kind: 'resource', scope: 'Network topology', reason: 'Denied.' }]);
    });

    it('takes a missing ACL or group rules as possibly letting through, never as closed', () => {
      const s = scene();
      launch(s, 'subnet-public', 'i-web', { securityGroupIds: ['sg-ssh', 'sg-gone'] });
      s.network.networkAcls = s.network.networkAcls.filter((a) => a.id !== 'acl-1');
      const exposure = exposureOf(s.inventory(), 'i-web');
      expect(summary(exposure)).toEqual({ ports: ['all'], certainty: 'possible' });
      expect(exposure?.edges.find((e) => e.to === 'subnet-public')).toMatchObject({
        label: 'network ACL not read',
        certainty: 'possible',
      });
      expect(exposure?.edges.find((e) => e.to === 'sg-gone')).toMatchObject({
        label: 'rules not read',
        certainty: 'possible',
      });
    });

    it('names a part not read at all and the functions whose URLs were not read', () => {
      const s = scene();
      const inventory: Inventory = {
        ...s.inventory(),
        instances: { status: 'not_evaluated', reason: 'EC2 DescribeInstances denied.' },
        lambdaFunctions: ok({
          functions: [
            {
              name: 'hidden',
              arn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:hidden`,
              region: REGION,
              runtime: 'nodejs22.x',
              roleArn: null,
              environment: { read: true, secrets: [] },
              code: null,
              policy: { read: true, publicStatements: [] },
              urls: { read: false, reason: 'Lambda ListFunctionUrlConfigs denied.' },
              layers: [],
              eventSources: { read: true, mappings: [] },
            },
          ],
          layers: [],
        }),
      };
      expect(internetExposures(inventory).unread).toEqual([
        { kind: 'resource', scope: 'EC2 instances', reason: 'EC2 DescribeInstances denied.' },
        {
          kind: 'resource',
          scope: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:hidden`,
          reason: 'Its function URLs could not be read: Lambda ListFunctionUrlConfigs denied.',
        },
      ]);
    });
  });

  describe('managed endpoints', () => {
    it('reaches a function URL without authentication, an open search domain outside a VPC, and an API possibly', () => {
      const s = scene();
      const fn = (name: string, authType: string) => ({
        name,
        arn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${name}`,
        region: REGION,
        runtime: 'nodejs22.x',
        roleArn: `arn:aws:iam::${ACCOUNT}:role/${name}`,
        environment: { read: true as const, secrets: [] },
        code: null,
        policy: { read: true as const, publicStatements: [] },
        urls: { read: true as const, urls: [{ url: `https://${name}.lambda-url.${REGION}.on.aws/`, authType }] },
        layers: [],
        eventSources: { read: true as const, mappings: [] },
      });
      const domain = (name: string, inVpc: boolean, publicStatements: string[] | null) => ({
        name,
        arn: `arn:aws:es:${REGION}:${ACCOUNT}:domain/${name}`,
        region: REGION,
        inVpc,
        publicStatements,
        encryptedAtRest: true,
        nodeToNodeEncryption: true,
        enforceHttps: true,
        fineGrainedAccessControl: false,
        auditLogs: false,
        updateAvailable: false,
      });
      const inventory: Inventory = {
        ...s.inventory(),
        lambdaFunctions: ok({ functions: [fn('open', 'NONE'), fn('signed', 'AWS_IAM')], layers: [] }),
        opensearchDomains: ok({
          domains: [
            domain('public', false, ['A statement allows es:* to every principal']),
            domain('private', true, ['A statement allows es:* to every principal']),
            domain('unparsed', false, null),
            domain('restricted', false, []),
          ],
        }),
        apiGatewayStages: ok({
          stages: ['prod', 'test'].map((stage) => ({
            apiId: 'a1b2c3',
            apiName: 'orders',
            stage,
            region: REGION,
            variableSecrets: [],
            logging: true,
            webAclArn: null,
          })),
        }),
      };
      // In the order of their ids: the API's, then the ARNs.
      const found = internetExposures(inventory).exposures.map((e) => [e.label, e.kind, e.ports, e.certainty]);
      expect(found).toEqual([
        ['orders', 'api', ['tcp/443'], 'possible'],
        ['public', 'search_domain', ['tcp/443'], 'certain'],
        ['unparsed', 'search_domain', ['tcp/443'], 'possible'],
        ['open', 'function', ['tcp/443'], 'certain'],
      ]);
    });
  });

  describe('the sandbox', () => {
    const AT = new Date('2025-06-10T09:00:00.000Z');
    const accounts = Array.from({ length: 30 }, (_, i) =>
      sandboxInventory({ awsAccountId: String(100000000000 + i * 7919), at: AT }),
    );

    it('shows an instance the internet reaches that holds a role and answers IMDSv1, in some accounts', () => {
      const risky = accounts.flatMap((inventory) =>
        internetExposures(inventory).exposures.filter(
          (e) => e.kind === 'instance' && e.imdsV1 === true && e.roleArn !== null && e.certainty === 'certain',
        ),
      );
      expect(risky.length).toBeGreaterThan(0);
      expect(risky.length).toBeLessThan(accounts.length);
      expect(risky[0]?.nodes.map((n) => n.kind)).toEqual(
        expect.arrayContaining(['internet', 'internet_gateway', 'subnet', 'security_group', 'instance']),
      );
    });

    it('keeps instances in private subnets in every account: reached through the load balancer, or not at all', () => {
      for (const inventory of accounts) {
        const { exposures, unread } = internetExposures(inventory);
        expect(unread).toEqual([]);
        const exposed = new Map(exposures.map((e) => [e.resource, e]));
        const instances = inventory.instances.status === 'ok' ? inventory.instances.value.instances : [];
        const privately = instances.filter((i) => i.publicIp === null);
        expect(privately.some((i) => !exposed.has(i.id))).toBe(true);
        for (const i of privately)
          if (exposed.has(i.id)) expect(exposed.get(i.id)?.nodes.map((n) => n.kind)).toContain('load_balancer');
      }
    });

    it('names the regions of the partial-coverage demo it cannot read', () => {
      const { unread } = internetExposures(sandboxInventory({ awsAccountId: SANDBOX_PARTIAL_ACCOUNT_ID, at: AT }));
      expect(unread.filter((u) => u.reason.startsWith('Network topology: '))).toHaveLength(2);
    });
  });
});
