import {
  AllocateAddressCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import { ChangeResourceRecordSetsCommand, CreateHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import { RegisterDomainCommand, Route53DomainsClient } from '@aws-sdk/client-route-53-domains';
import { PACKAGES_PER_REPOSITORY } from '../../cloud/aws/collectors/codeartifact';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory, PartName } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  jsonError,
  motoDifferences,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { inTwoPages, ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// The CodeArtifact, Route 53 (registered domains, public hosted zones) and Elastic IP parts end to end, collected
// through Sentinel's role and the front and evaluated by their checks.
// - moto 5.2 has no CodeArtifact at all: the front answers ListRepositories, ListPackages and ListPackageVersions
//   itself, in the shapes of AWS's API reference (REST JSON), from the repositories and packages a test describes,
//   filtering packages by their upstream origin control as the API's `upstream` parameter does, and paging
//   `pageSize` items at a time (AWS may answer fewer than maxResults).
// - moto's ListDomains reports every domain locked (it has no DisableDomainTransferLock): the front gives its answer
//   the lock AWS would report, off for the domains a test registers as unlocked-….
// - Route 53 hosted zones and records, Elastic IPs and instances are moto's own.

const OTHER_REGION = 'eu-west-1';
const CHECKS = [
  'exposure.codeartifact_package_upstream_allowed',
  'exposure.route53_domain_transfer_lock_off',
  'exposure.route53_record_dangling_ip',
];
const ROUTE53_PARTS: PartName[] = ['registeredDomains', 'hostedZoneRecords', 'elasticIps', 'instances'];

/** Each check's failing resources as `resource@region`, or its status when it does not fail. */
function outcomes(inventory: Inventory): Record<string, string[] | string> {
  return Object.fromEntries(
    CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail'
          ? result.resources.map((r) => `${r.resource}@${r.region ?? 'global'}`).sort()
          : result.status,
      ];
    }),
  );
}

interface FakePackage {
  name: string;
  namespace?: string;
  format: string;
  upstream: 'ALLOW' | 'BLOCK';
  /** Its latest version's origin; absent: it has no version. */
  origin?: 'INTERNAL' | 'EXTERNAL';
}

interface FakeRepository {
  region: string;
  domain: string;
  name: string;
  packages: FakePackage[];
}

const reply = (body: unknown): CannedAnswer => ({
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

/** One page of `items` from the request's next-token (an offset), at most `pageSize` of them. */
function paged<T>(request: AwsRequest, items: T[], pageSize: number): { page: T[]; nextToken?: string } {
  const query = new URLSearchParams(request.query);
  const from = Number(query.get('next-token') ?? 0);
  const size = Math.min(pageSize, Number(query.get('max-results') ?? pageSize));
  const page = items.slice(from, from + size);
  return from + size < items.length ? { page, nextToken: String(from + size) } : { page };
}

/** CodeArtifact as AWS answers it, for the account's repositories (moto has none). */
function codeartifact(accountId: string, repositories: FakeRepository[], pageSize: number) {
  const arn = (r: FakeRepository) => `arn:aws:codeartifact:${r.region}:${accountId}:repository/${r.domain}/${r.name}`;
  return (request: AwsRequest): CannedAnswer | undefined => {
    if (request.service !== 'codeartifact') return undefined;
    const query = new URLSearchParams(request.query);
    const here = repositories.filter((r) => r.region === request.region);
    if (request.path === '/v1/repositories') {
      const { page, nextToken } = paged(request, here, pageSize);
      return reply({
        repositories: page.map((r) => ({
          name: r.name,
          administratorAccount: accountId,
          domainName: r.domain,
          domainOwner: accountId,
          arn: arn(r),
          createdTime: 1_700_000_000,
        })),
        nextToken,
      });
    }
    const repository = here.find(
      (r) =>
        r.domain === query.get('domain') &&
        r.name === query.get('repository') &&
        query.get('domain-owner') === accountId,
    );
    if (!repository) return jsonError(404, 'ResourceNotFoundException', 'The repository does not exist.');
    if (request.path === '/v1/packages') {
      const upstream = query.get('upstream');
      const matching = repository.packages.filter((p) => !upstream || p.upstream === upstream);
      const { page, nextToken } = paged(request, matching, pageSize);
      return reply({
        packages: page.map((p) => ({
          format: p.format,
          namespace: p.namespace,
          package: p.name,
          originConfiguration: {
            restrictions: { publish: p.origin === 'EXTERNAL' ? 'BLOCK' : 'ALLOW', upstream: p.upstream },
          },
        })),
        nextToken,
      });
    }
    if (request.path === '/v1/package/versions') {
      const found = repository.packages.find(
        (p) =>
          p.name === query.get('package') &&
          p.format === query.get('format') &&
          (p.namespace ?? null) === query.get('namespace'),
      );
      if (!found) return jsonError(404, 'ResourceNotFoundException', 'The package does not exist.');
      return reply({
        defaultDisplayVersion: found.origin ? '1.4.0' : undefined,
        format: found.format,
        namespace: found.namespace,
        package: found.name,
        versions: found.origin
          ? [
              {
                version: '1.4.0',
                revision: 'REVISION-1',
                status: 'Published',
                origin: {
                  domainEntryPoint:
                    found.origin === 'INTERNAL'
                      ? { repositoryName: repository.name }
                      : { externalConnectionName: 'public:npmjs' },
                  originType: found.origin,
                },
              },
            ]
          : [],
      });
    }
    return undefined;
  };
}

/** ListDomains with the transfer lock off for the domains registered as unlocked-… (moto reports all locked). */
function withTransferLocks(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
  if (request.operation !== 'ListDomains' || answer.status !== 200) return motoDifferences(request, answer);
  const body = JSON.parse(answer.body) as { Domains?: { DomainName: string; TransferLock?: boolean }[] };
  const domains = (body.Domains ?? []).map((d) => ({ ...d, TransferLock: !d.DomainName.startsWith('unlocked-') }));
  return { ...answer, body: JSON.stringify({ ...body, Domains: domains }) };
}

const CONTACT = {
  FirstName: 'Ada',
  LastName: 'Lovelace',
  ContactType: 'PERSON' as const,
  CountryCode: 'GB' as const,
  Email: 'ada@example.com',
  PhoneNumber: '+44.2071234567',
};

describe('CodeArtifact, Route 53 and Elastic IP collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;
  beforeEach(() => {
    suite.front.rewrite = withTransferLocks;
  });
  const collect = (target: Parameters<typeof suite.provider.collectInventory>[0], parts: PartName[]) =>
    suite.provider.collectInventory(target, { parts });
  /** Answers CodeArtifact for the customer, then `refuse` (when it returns an answer), then moto's gaps. */
  const answering = (
    customer: CustomerAccount,
    repositories: FakeRepository[],
    {
      pageSize = 2,
      refuse = () => undefined,
    }: { pageSize?: number; refuse?: (r: AwsRequest) => CannedAnswer | undefined } = {},
  ) => {
    const fake = codeartifact(customer.accountId, repositories, pageSize);
    suite.front.answer = (request) => refuse(request) ?? fake(request) ?? motoGaps(request);
  };
  const packageArn = (customer: CustomerAccount, region: string, repository: string, name: string) =>
    `arn:aws:codeartifact:${region}:${customer.accountId}:repository/acme/${repository}/${name}`;

  it('finds internal packages that take upstream versions, page after page, and passes blocked and public ones', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });
    answering(customer, [
      {
        region: REGION,
        domain: 'acme',
        name: 'npm-internal',
        packages: [
          { name: 'billing-client', namespace: 'acme', format: 'npm', upstream: 'ALLOW', origin: 'INTERNAL' },
          { name: 'auth-sdk', format: 'npm', upstream: 'BLOCK', origin: 'INTERNAL' },
          { name: 'lodash', format: 'npm', upstream: 'ALLOW', origin: 'EXTERNAL' },
          { name: 'react', format: 'npm', upstream: 'ALLOW', origin: 'EXTERNAL' },
          { name: 'placeholder', format: 'npm', upstream: 'ALLOW' },
        ],
      },
      { region: REGION, domain: 'acme', name: 'pypi-store', packages: [] },
      {
        region: OTHER_REGION,
        domain: 'acme',
        name: 'pypi-internal',
        packages: [{ name: 'etl-tools', format: 'pypi', upstream: 'ALLOW', origin: 'INTERNAL' }],
      },
    ]);

    const inventory = await collect(target, ['codeartifactPackages']);

    expect(outcomes(inventory)['exposure.codeartifact_package_upstream_allowed']).toEqual([
      `${packageArn(customer, OTHER_REGION, 'pypi-internal', 'etl-tools')}@${OTHER_REGION}`,
      `${packageArn(customer, REGION, 'npm-internal', 'acme:billing-client')}@${REGION}`,
      `${packageArn(customer, REGION, 'npm-internal', 'placeholder')}@${REGION}`,
    ]);
    expect(ok(inventory.codeartifactPackages).packages.find((p) => p.name === 'lodash')).toEqual({
      arn: packageArn(customer, REGION, 'npm-internal', 'lodash'),
      domain: 'acme',
      repository: 'npm-internal',
      format: 'npm',
      namespace: null,
      name: 'lodash',
      region: REGION,
      latestOrigin: 'EXTERNAL',
    });
    const calls = (path: string) =>
      suite.front.requests.filter((r) => r.service === 'codeartifact' && r.region === REGION && r.path === path);
    // Two repositories a page, two packages a page: every page is read, and only packages that allow upstream
    // versions are listed and asked for their latest version.
    expect(calls('/v1/repositories')).toHaveLength(1);
    const listed = calls('/v1/packages').filter((r) => r.query.includes('repository=npm-internal'));
    expect(listed).toHaveLength(2);
    expect(listed.every((r) => new URLSearchParams(r.query).get('upstream') === 'ALLOW')).toBe(true);
    expect(
      calls('/v1/package/versions')
        .map((r) => new URLSearchParams(r.query))
        .map((q) => `${q.get('package')}:${q.get('sortBy')}:${q.get('max-results')}`)
        .sort(),
    ).toEqual([
      'billing-client:PUBLISHED_TIME:1',
      'lodash:PUBLISHED_TIME:1',
      'placeholder:PUBLISHED_TIME:1',
      'react:PUBLISHED_TIME:1',
    ]);
    expect(inventory.codeartifactPackages.unread).toBeUndefined();
  });

  it('leaves unread a region, a repository and a package AWS refuses, and a repository past the bound', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });
    const many = Array.from({ length: PACKAGES_PER_REPOSITORY + 1 }, (_, i) => ({
      name: `lib-${String(i).padStart(3, '0')}`,
      format: 'npm',
      upstream: 'ALLOW' as const,
      origin: 'EXTERNAL' as const,
    }));
    answering(
      customer,
      [
        {
          region: REGION,
          domain: 'acme',
          name: 'npm-internal',
          packages: [
            { name: 'billing-client', format: 'npm', upstream: 'ALLOW', origin: 'INTERNAL' },
            { name: 'secret-sauce', format: 'npm', upstream: 'ALLOW', origin: 'INTERNAL' },
          ],
        },
        { region: REGION, domain: 'acme', name: 'locked', packages: [] },
        { region: REGION, domain: 'acme', name: 'mirror', packages: many },
        { region: OTHER_REGION, domain: 'acme', name: 'elsewhere', packages: [] },
      ],
      {
        pageSize: 100,
        refuse: (request) => {
          if (request.service !== 'codeartifact') return undefined;
          if (request.region === OTHER_REGION) return accessDenied(request);
          if (request.path === '/v1/packages' && request.query.includes('repository=locked'))
            return accessDenied(request);
          if (request.path === '/v1/package/versions' && request.query.includes('package=secret-sauce'))
            return accessDenied(request);
          return undefined;
        },
      },
    );

    const inventory = await collect(target, ['codeartifactPackages']);

    const repository = (name: string) => `arn:aws:codeartifact:${REGION}:${customer.accountId}:repository/acme/${name}`;
    expect(inventory.codeartifactPackages.unread).toHaveLength(4);
    expect(inventory.codeartifactPackages.unread).toEqual(
      expect.arrayContaining([
        { kind: 'resource', scope: repository('locked'), reason: expect.stringContaining('CodeArtifact ListPackages') },
        {
          kind: 'resource',
          scope: repository('mirror'),
          reason: `More than ${PACKAGES_PER_REPOSITORY} of its packages allow upstream versions: the first ${PACKAGES_PER_REPOSITORY} were read.`,
        },
        {
          kind: 'resource',
          scope: `${repository('npm-internal')}/secret-sauce`,
          reason: expect.stringContaining('CodeArtifact ListPackageVersions'),
        },
        { kind: 'region', scope: OTHER_REGION, reason: expect.stringContaining('CodeArtifact ListRepositories') },
      ]),
    );
    expect(outcomes(inventory)['exposure.codeartifact_package_upstream_allowed']).toEqual([
      `${repository('npm-internal')}/billing-client@${REGION}`,
    ]);
    // The bound holds the calls: the mirror's versions are asked for its first packages only.
    const versions = suite.front.requests.filter(
      (r) => r.path === '/v1/package/versions' && r.query.includes('repository=mirror'),
    );
    expect(versions).toHaveLength(PACKAGES_PER_REPOSITORY);
  });

  it('finds an unlocked domain and a record naming an address the account does not hold, page after page', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const ec2 = client(new EC2Client(customerConfig(customer)));
    const other = client(new EC2Client(customerConfig(customer, OTHER_REGION)));
    const { PublicIp: held } = await other.send(new AllocateAddressCommand({ Domain: 'vpc' }));
    const { Subnets = [] } = await ec2.send(
      new DescribeSubnetsCommand({ Filters: [{ Name: 'default-for-az', Values: ['true'] }] }),
    );
    const { Instances = [] } = await ec2.send(
      new RunInstancesCommand({
        ImageId: 'ami-12c6146b',
        InstanceType: 't3.micro',
        MinCount: 1,
        MaxCount: 1,
        NetworkInterfaces: [{ DeviceIndex: 0, SubnetId: Subnets[0]!.SubnetId!, AssociatePublicIpAddress: true }],
      }),
    );
    const web = Instances[0]!.PublicIpAddress!;
    const route53 = client(new Route53Client(customerConfig(customer)));
    const zoneName = `${uniqueName('shop')}.com`;
    const { HostedZone } = await route53.send(
      new CreateHostedZoneCommand({ Name: zoneName, CallerReference: uniqueName('public') }),
    );
    const zoneId = HostedZone!.Id!.replace('/hostedzone/', '');
    const a = (name: string, ...addresses: string[]) => ({
      Action: 'CREATE' as const,
      ResourceRecordSet: {
        Name: `${name}.${zoneName}`,
        Type: 'A' as const,
        TTL: 300,
        ResourceRecords: addresses.map((Value) => ({ Value })),
      },
    });
    // More records than Route 53's page of 300: the dangling one is past the first page.
    const internal = Array.from({ length: 320 }, (_, i) =>
      a(`host-${String(i).padStart(3, '0')}`, `10.0.${i % 250}.${i % 7}`),
    );
    await route53.send(
      new ChangeResourceRecordSetsCommand({
        HostedZoneId: zoneId,
        ChangeBatch: {
          Changes: [
            ...internal,
            a('www', held!),
            a('app', web),
            a('zz-old-api', '3.14.15.92'),
            {
              Action: 'CREATE',
              ResourceRecordSet: {
                Name: `cdn.${zoneName}`,
                Type: 'A',
                AliasTarget: {
                  HostedZoneId: 'Z2FDTNDATAQYW2',
                  DNSName: 'd111111abcdef8.cloudfront.net',
                  EvaluateTargetHealth: false,
                },
              },
            },
          ],
        },
      }),
    );
    // A private zone answers inside its VPC only: its records are not read.
    const { Vpcs = [] } = await ec2.send(new DescribeVpcsCommand({}));
    await route53.send(
      new CreateHostedZoneCommand({
        Name: `internal.${zoneName}`,
        CallerReference: uniqueName('private'),
        HostedZoneConfig: { PrivateZone: true },
        VPC: { VPCRegion: REGION, VPCId: Vpcs[0]!.VpcId! },
      }),
    );
    const domains = client(new Route53DomainsClient(customerConfig(customer)));
    const register = (name: string) =>
      domains.send(
        new RegisterDomainCommand({
          DomainName: name,
          DurationInYears: 2,
          AdminContact: CONTACT,
          RegistrantContact: CONTACT,
          TechContact: CONTACT,
        }),
      );
    const locked = `${uniqueName('locked')}.com`;
    const unlocked = `${uniqueName('unlocked')}.com`;
    await register(locked);
    await register(unlocked);
    await createSentinelRole({ customer, externalId: target.externalId });
    inTwoPages(suite, {
      is: (r) => r.operation === 'ListDomains',
      items: 'Domains',
      token: 'NextPageMarker',
      rewrite: withTransferLocks,
    });

    const inventory = await collect(target, ROUTE53_PARTS);

    expect(outcomes(inventory)).toEqual({
      'exposure.codeartifact_package_upstream_allowed': 'not_evaluated',
      'exposure.route53_domain_transfer_lock_off': [`${unlocked}@global`],
      'exposure.route53_record_dangling_ip': [`${zoneId}/zz-old-api.${zoneName}./3.14.15.92@global`],
    });
    expect(ok(inventory.registeredDomains).domains).toEqual(
      expect.arrayContaining([
        { name: locked, transferLock: true },
        { name: unlocked, transferLock: false },
      ]),
    );
    const records = ok(inventory.hostedZoneRecords).records;
    expect(records).toHaveLength(internal.length + 3);
    expect(records.find((r) => r.name === `www.${zoneName}.`)).toEqual({
      zoneId,
      zoneName: `${zoneName}.`,
      name: `www.${zoneName}.`,
      addresses: [held],
    });
    expect(records.some((r) => r.name.startsWith('cdn.') || r.name.includes('internal.'))).toBe(false);
    expect(ok(inventory.elasticIps).addresses).toContainEqual({ publicIp: held, region: OTHER_REGION });
    const pages = suite.front.requests.filter(
      (r) => r.service === 'route53' && r.method === 'GET' && r.path.endsWith(`${zoneId}/rrset`),
    );
    expect(pages).toHaveLength(2);
    expect(suite.front.requests.filter((r) => r.operation === 'ListDomains')).toHaveLength(2);
    expect([inventory.hostedZoneRecords.unread, inventory.elasticIps.unread]).toEqual([undefined, undefined]);
  });

  it('leaves unread a zone AWS refuses, and a record whose address a refused region may hold; refused domains are not evaluated', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const route53 = client(new Route53Client(customerConfig(customer)));
    const zone = async (prefix: string, address: string) => {
      const name = `${uniqueName(prefix)}.com`;
      const { HostedZone } = await route53.send(
        new CreateHostedZoneCommand({ Name: name, CallerReference: uniqueName(prefix) }),
      );
      const id = HostedZone!.Id!.replace('/hostedzone/', '');
      await route53.send(
        new ChangeResourceRecordSetsCommand({
          HostedZoneId: id,
          ChangeBatch: {
            Changes: [
              {
                Action: 'CREATE',
                ResourceRecordSet: { Name: `api.${name}`, Type: 'A', TTL: 60, ResourceRecords: [{ Value: address }] },
              },
            ],
          },
        }),
      );
      return { id, name };
    };
    const hidden = await zone('hidden', '3.1.1.1');
    const shown = await zone('shown', '3.2.2.2');
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) => {
      if (request.service === 'route53' && request.path.includes(`${hidden.id}/rrset`)) return accessDenied(request);
      if (request.operation === 'DescribeAddresses' && request.region === OTHER_REGION) return accessDenied(request);
      if (request.operation === 'ListDomains') return accessDenied(request);
      return motoGaps(request);
    };

    const inventory = await collect(target, ROUTE53_PARTS);

    expect(inventory.hostedZoneRecords.unread).toEqual([
      { kind: 'resource', scope: hidden.id, reason: expect.stringContaining('ListResourceRecordSets') },
    ]);
    expect(inventory.elasticIps.unread).toEqual([
      { kind: 'region', scope: OTHER_REGION, reason: expect.stringContaining('DescribeAddresses') },
    ]);
    expect(inventory.registeredDomains).toEqual({
      status: 'not_evaluated',
      reason: expect.stringContaining('ListDomains'),
    });
    const dangling = checkById('exposure.route53_record_dangling_ip')!.evaluate(inventory, {
      now: inventory.collectedAt,
    });
    // The address may be an Elastic IP of the region that could not be read: unread, neither failing nor passing.
    expect(dangling).toEqual({
      status: 'pass',
      unread: expect.arrayContaining([
        { kind: 'resource', scope: hidden.id, reason: expect.any(String) },
        { kind: 'region', scope: OTHER_REGION, reason: expect.any(String) },
        {
          kind: 'resource',
          scope: `${shown.id}/api.${shown.name}./3.2.2.2`,
          reason: expect.stringContaining('may hold it'),
        },
      ]),
    });
    expect(outcomes(inventory)['exposure.route53_domain_transfer_lock_off']).toBe('not_evaluated');
  });
});
