import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ACMClient, ImportCertificateCommand } from '@aws-sdk/client-acm';
import { CloudFrontClient, CreateDistributionCommand, type Origin } from '@aws-sdk/client-cloudfront';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  motoDifferences,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { inTwoPages, ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// The CloudFront, ACM and Lightsail parts end to end: distributions, buckets and certificates seeded in moto
// through the SDK, collected through Sentinel's role and the front, and evaluated by the checks.
// - moto's ListDistributions leaves out an origin's S3OriginConfig: the front puts it back in the origins of S3
//   buckets (DomainName BUCKET.s3.amazonaws.com), as AWS answers an origin created with one.
// - moto marks an ACM certificate in use only when a Classic Load Balancer's listener names it: the front marks the
//   certificates these tests put in service (every one but those of spare.* domains) InUse in ListCertificates's
//   answer, as AWS does for a certificate a load balancer or distribution serves.
// - moto has no Lightsail: the front answers GetInstances and GetRelationalDatabases in Lightsail's documented shape
//   (https://docs.aws.amazon.com/lightsail/2016-11-28/api-reference/API_GetInstances.html), with the instances and
//   databases each test names.

const OTHER_REGION = 'eu-west-1';
const EDGE_CHECKS = [
  'exposure.cloudfront_no_default_root_object',
  'exposure.cloudfront_origin_bucket_missing',
  'exposure.cloudfront_viewer_http_allowed',
  'exposure.cloudfront_origin_http',
  'exposure.cloudfront_without_waf',
  'exposure.acm_certificate_expiring',
  'exposure.acm_certificate_weak_key',
  'exposure.lightsail_instance_public',
  'exposure.lightsail_database_public',
];

/** Each edge check's failing resources as `resource@region`, or its status when it does not fail. */
function outcomes(inventory: Inventory): Record<string, string[] | string> {
  return Object.fromEntries(
    EDGE_CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail' ? result.resources.map((r) => `${r.resource}@${r.region}`).sort() : result.status,
      ];
    }),
  );
}

/** A self-signed certificate and its key (PEM), of an RSA key of `bits`, valid for `days`. */
function selfSigned(domain: string, bits: number, days: number): { certificate: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'acm-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        `rsa:${bits}`,
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        String(days),
        '-subj',
        `/CN=${domain}`,
      ],
      { stdio: 'ignore' },
    );
    return { certificate: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A ListDistributions request (CloudFront's REST API names no operation). */
const listsDistributions = (r: AwsRequest) =>
  r.service === 'cloudfront' && r.method === 'GET' && /\/distribution$/.test(r.path);

/** ListDistributions with the S3OriginConfig of its S3 origins (see above). */
function withS3Origins(answer: CannedAnswer): CannedAnswer {
  const body = answer.body.replace(
    /(<DomainName>[^<]*\.s3\.amazonaws\.com<\/DomainName>)/g,
    '$1<S3OriginConfig><OriginAccessIdentity></OriginAccessIdentity></S3OriginConfig>',
  );
  return { ...answer, body };
}

/** moto's answers as AWS gives them: S3 origins with their S3OriginConfig, the certificates in service in use. */
function inService(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
  if (listsDistributions(request) && answer.status === 200) return withS3Origins(answer);
  if (request.operation !== 'ListCertificates' || answer.status !== 200) return motoDifferences(request, answer);
  const body = JSON.parse(answer.body) as { CertificateSummaryList?: { DomainName?: string }[] };
  const list = (body.CertificateSummaryList ?? []).map((c) => ({ ...c, InUse: !c.DomainName?.startsWith('spare.') }));
  return { ...answer, body: JSON.stringify({ ...body, CertificateSummaryList: list }) };
}

const lightsailJson = (body: unknown): CannedAnswer => ({
  status: 200,
  contentType: 'application/x-amz-json-1.1',
  body: JSON.stringify(body),
});

interface SeededInstance {
  name: string;
  region: string;
  publicIp?: string;
  ports: { fromPort: number; toPort: number; accessType: 'Public' | 'Private'; cidrs?: string[] }[];
}

/** GetInstances's answer for a region: Lightsail's instance shape, with its firewall's ports. */
function instancesIn(account: string, region: string, seeded: SeededInstance[]) {
  return seeded
    .filter((i) => i.region === region)
    .map((i) => ({
      name: i.name,
      arn: `arn:aws:lightsail:${region}:${account}:Instance/${i.name}`,
      supportCode: `${account}/i-${i.name}`,
      location: { availabilityZone: `${region}a`, regionName: region },
      resourceType: 'Instance',
      blueprintId: 'wordpress',
      bundleId: 'small_3_0',
      state: { code: 16, name: 'running' },
      privateIpAddress: '172.26.3.4',
      ...(i.publicIp ? { publicIpAddress: i.publicIp } : {}),
      isStaticIp: false,
      networking: {
        ports: i.ports.map((p) => ({
          fromPort: p.fromPort,
          toPort: p.toPort,
          protocol: 'tcp',
          accessFrom: p.accessType === 'Public' ? 'Anywhere (0.0.0.0/0 and ::/0)' : 'Custom',
          accessType: p.accessType,
          accessDirection: 'inbound',
          cidrs: p.cidrs ?? ['0.0.0.0/0'],
          ipv6Cidrs: p.cidrs ? [] : ['::/0'],
        })),
      },
    }));
}

/** GetRelationalDatabases's answer for a region. */
function databasesIn(account: string, region: string, seeded: { name: string; region: string; public: boolean }[]) {
  return seeded
    .filter((d) => d.region === region)
    .map((d) => ({
      name: d.name,
      arn: `arn:aws:lightsail:${region}:${account}:RelationalDatabase/${d.name}`,
      location: { availabilityZone: `${region}a`, regionName: region },
      resourceType: 'RelationalDatabase',
      engine: 'mysql',
      engineVersion: '8.0.40',
      state: 'available',
      masterUsername: 'dbmasteruser',
      publiclyAccessible: d.public,
    }));
}

describe('CloudFront, ACM and Lightsail collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;
  beforeEach(() => {
    suite.front.rewrite = inService;
  });

  const cloudfront = (customer: CustomerAccount) => client(new CloudFrontClient(customerConfig(customer)));
  const s3 = (customer: CustomerAccount) => client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
  const acm = (customer: CustomerAccount, region: string) => client(new ACMClient(customerConfig(customer, region)));

  const s3Origin = (id: string, bucket: string): Origin => ({
    Id: id,
    DomainName: `${bucket}.s3.amazonaws.com`,
    S3OriginConfig: { OriginAccessIdentity: '' },
  });
  const customOrigin = (id: string, protocol: 'https-only' | 'http-only' = 'https-only'): Origin => ({
    Id: id,
    DomainName: 'app.example.com',
    CustomOriginConfig: { HTTPPort: 80, HTTPSPort: 443, OriginProtocolPolicy: protocol },
  });

  /** A distribution; without `sound`, it has no default root object, and no web ACL. */
  const distribution = async (
    customer: CustomerAccount,
    origins: Origin[],
    {
      sound = false,
      viewers = 'redirect-to-https',
    }: { sound?: boolean; viewers?: 'redirect-to-https' | 'allow-all' } = {},
  ) => {
    const { Distribution } = await cloudfront(customer).send(
      new CreateDistributionCommand({
        DistributionConfig: {
          CallerReference: uniqueName('ref'),
          Comment: '',
          Enabled: true,
          DefaultRootObject: sound ? 'index.html' : undefined,
          WebACLId: sound ? `arn:aws:wafv2:us-east-1:${customer.accountId}:global/webacl/site/0a1b2c3d` : undefined,
          Origins: { Quantity: origins.length, Items: origins },
          DefaultCacheBehavior: {
            TargetOriginId: origins[0]!.Id,
            ViewerProtocolPolicy: viewers,
            ForwardedValues: { QueryString: false, Cookies: { Forward: 'none' } },
            TrustedSigners: { Enabled: false, Quantity: 0 },
            MinTTL: 0,
          },
        },
      }),
    );
    return Distribution!.ARN!;
  };

  const certificate = async (customer: CustomerAccount, region: string, domain: string, bits: number, days: number) => {
    const { certificate: pem, key } = selfSigned(domain, bits, days);
    const { CertificateArn } = await acm(customer, region).send(
      new ImportCertificateCommand({ Certificate: Buffer.from(pem), PrivateKey: Buffer.from(key) }),
    );
    return CertificateArn!;
  };

  /** The front answers Lightsail with these instances and databases (moto has none). */
  const lightsail = (
    customer: CustomerAccount,
    instances: SeededInstance[],
    databases: { name: string; region: string; public: boolean }[],
  ) => {
    suite.front.answer = (request) => {
      if (request.service === 'lightsail' && request.operation === 'GetInstances')
        return lightsailJson({ instances: instancesIn(customer.accountId, request.region, instances) });
      if (request.service === 'lightsail' && request.operation === 'GetRelationalDatabases')
        return lightsailJson({ relationalDatabases: databasesIn(customer.accountId, request.region, databases) });
      return motoGaps(request);
    };
  };

  it('finds distributions without a root object or a web ACL, with a deleted origin bucket or on HTTP, an expiring or weak certificate and open Lightsail resources, and passes the sound ones', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const site = uniqueName('site');
    await s3(customer).send(new CreateBucketCommand({ Bucket: site }));
    const rootless = await distribution(customer, [s3Origin('site', site)]);
    const dangling = await distribution(customer, [s3Origin('site', site), s3Origin('old', uniqueName('gone'))], {
      sound: true,
    });
    await distribution(customer, [s3Origin('site', site), customOrigin('app')], { sound: true });
    const plain = await distribution(customer, [customOrigin('app', 'http-only')], {
      sound: true,
      viewers: 'allow-all',
    });
    const weak = await certificate(customer, REGION, 'weak.example.com', 1024, 365);
    const expiring = await certificate(customer, OTHER_REGION, 'expiring.example.com', 2048, 3);
    await certificate(customer, REGION, 'www.example.com', 2048, 365);
    await certificate(customer, OTHER_REGION, 'spare.example.com', 1024, 3);
    lightsail(
      customer,
      [
        {
          name: 'blog',
          region: REGION,
          publicIp: '203.0.113.7',
          ports: [{ fromPort: 22, toPort: 22, accessType: 'Public' }],
        },
        {
          name: 'shop',
          region: OTHER_REGION,
          publicIp: '203.0.113.8',
          ports: [
            { fromPort: 22, toPort: 22, accessType: 'Public', cidrs: ['198.51.100.10/32'] },
            { fromPort: 3306, toPort: 3306, accessType: 'Private', cidrs: ['172.26.0.0/16'] },
          ],
        },
      ],
      [
        { name: 'blog-db', region: REGION, public: true },
        { name: 'shop-db', region: OTHER_REGION, public: false },
      ],
    );
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.cloudfrontDistributions).distributions.find((d) => d.arn === dangling)).toEqual({
      id: expect.any(String),
      arn: dangling,
      domainName: expect.stringMatching(/\.cloudfront\.net$/),
      defaultRootObject: 'index.html',
      customOrigins: [],
      viewerProtocolPolicy: 'redirect-to-https',
      httpPathPatterns: [],
      webAclId: `arn:aws:wafv2:us-east-1:${customer.accountId}:global/webacl/site/0a1b2c3d`,
      s3Origins: [
        { originId: 'site', bucket: site, exists: true },
        { originId: 'old', bucket: expect.stringMatching(/^gone-/), exists: false },
      ],
    });
    expect(ok(inventory.acmCertificates).certificates.find((c) => c.arn === weak)).toEqual({
      arn: weak,
      domainName: 'weak.example.com',
      region: REGION,
      keyAlgorithm: 'RSA_1024',
      notAfter: expect.any(String),
      inUse: true,
    });
    expect(ok(inventory.lightsailInstances).instances.find((i) => i.name === 'shop')).toEqual({
      name: 'shop',
      arn: `arn:aws:lightsail:${OTHER_REGION}:${customer.accountId}:Instance/shop`,
      region: OTHER_REGION,
      publicIp: '203.0.113.8',
      publicPorts: [],
    });
    expect(outcomes(inventory)).toEqual({
      'exposure.cloudfront_no_default_root_object': [`${rootless}@undefined`],
      'exposure.cloudfront_origin_bucket_missing': [`${dangling}@undefined`],
      'exposure.cloudfront_viewer_http_allowed': [`${plain}@undefined`],
      'exposure.cloudfront_origin_http': [`${plain}@undefined`],
      'exposure.cloudfront_without_waf': [`${rootless}@undefined`],
      'exposure.acm_certificate_expiring': [`${expiring}@${OTHER_REGION}`],
      'exposure.acm_certificate_weak_key': [`${weak}@${REGION}`],
      'exposure.lightsail_instance_public': [
        `arn:aws:lightsail:${REGION}:${customer.accountId}:Instance/blog@${REGION}`,
      ],
      'exposure.lightsail_database_public': [
        `arn:aws:lightsail:${REGION}:${customer.accountId}:RelationalDatabase/blog-db@${REGION}`,
      ],
    });
    // One HeadBucket per bucket, however many origins name it; every key type is listed, the weak ones included.
    const heads = suite.front.requests.filter((r) => r.service === 's3' && r.method === 'HEAD');
    expect(heads).toHaveLength(2);
    const listed = suite.front.requests.find((r) => r.operation === 'ListCertificates');
    expect(JSON.parse(listed!.body)).toMatchObject({ Includes: { keyTypes: expect.arrayContaining(['RSA_1024']) } });
    expect([
      inventory.cloudfrontDistributions.unread,
      inventory.acmCertificates.unread,
      inventory.lightsailInstances.unread,
      inventory.lightsailDatabases.unread,
    ]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("takes a bucket S3 refuses as another account's, and leaves unread a distribution whose configuration or a region AWS refuses", async () => {
    const { customer, target } = await suite.connectedCustomer();
    const theirs = uniqueName('theirs');
    const hidden = await distribution(customer, [s3Origin('theirs', theirs)], { sound: true });
    const shown = await distribution(customer, [customOrigin('app')]);
    const odd = uniqueName('odd');
    const unsure = await distribution(customer, [s3Origin('odd', odd)], { sound: true });
    await certificate(customer, REGION, 'weak.example.com', 1024, 365);
    lightsail(customer, [], []);
    const lightsailAnswer = suite.front.answer;
    await createSentinelRole({ customer, externalId: target.externalId });
    const hiddenId = hidden.split('/').pop()!;
    suite.front.answer = (request) => {
      // A bucket of another account: S3 answers HeadBucket 403 (no body, as for any HEAD).
      if (request.service === 's3' && request.method === 'HEAD' && request.path === `/${theirs}/`)
        return { status: 403, contentType: 'application/xml', body: '' };
      // An answer that says neither: whether the bucket exists is unknown.
      if (request.service === 's3' && request.method === 'HEAD' && request.path === `/${odd}/`)
        return { status: 400, contentType: 'application/xml', body: '' };
      if (request.service === 'cloudfront' && request.path.endsWith(`/distribution/${hiddenId}/config`))
        return {
          status: 403,
          contentType: 'text/xml',
          body: '<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>Access denied</Message></Error><RequestId>front</RequestId></ErrorResponse>',
        };
      if (['acm', 'lightsail'].includes(request.service) && request.region === REGION) return accessDenied(request);
      return lightsailAnswer(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.cloudfrontDistributions).distributions.find((d) => d.arn === hidden)).toMatchObject({
      defaultRootObject: null,
      s3Origins: [{ originId: 'theirs', bucket: theirs, exists: true }],
    });
    expect(inventory.cloudfrontDistributions.unread).toEqual([
      {
        kind: 'resource',
        scope: hidden,
        reason: expect.stringMatching(/^AWS denied Sentinel's role CloudFront GetDistributionConfig/),
      },
      {
        kind: 'resource',
        scope: unsure,
        reason: expect.stringMatching(new RegExp(`^Whether S3 bucket ${odd} exists is unknown: S3 HeadBucket failed`)),
      },
    ]);
    expect(ok(inventory.cloudfrontDistributions).distributions.find((d) => d.arn === unsure)?.s3Origins).toEqual([
      { originId: 'odd', bucket: odd, exists: null },
    ]);
    expect(
      checkById('exposure.cloudfront_no_default_root_object')!.evaluate(inventory, { now: inventory.collectedAt }),
    ).toMatchObject({
      status: 'fail',
      resources: [{ resource: shown }],
      unread: [{ scope: hidden }, { scope: unsure }],
    });
    expect(outcomes(inventory)['exposure.cloudfront_origin_bucket_missing']).toBe('pass');
    for (const part of ['acmCertificates', 'lightsailInstances', 'lightsailDatabases'] as const)
      expect(inventory[part].unread).toEqual([
        { kind: 'region', scope: REGION, reason: expect.stringMatching(/^AWS denied Sentinel's role /) },
      ]);
    expect(
      checkById('exposure.acm_certificate_weak_key')!.evaluate(inventory, { now: inventory.collectedAt }),
    ).toMatchObject({ status: 'pass', unread: [{ scope: REGION }] });
  });

  it('follows the pages of the distribution, certificate and Lightsail lists', async () => {
    const { customer, target } = await suite.connectedCustomer();
    // CloudFront answers 100 distributions a page.
    for (let i = 0; i < 101; i += 1) await distribution(customer, [customOrigin('app')], { sound: i !== 100 });
    for (const domain of ['a.example.com', 'b.example.com', 'c.example.com'])
      await certificate(customer, REGION, domain, domain.startsWith('c') ? 1024 : 2048, 365);
    await createSentinelRole({ customer, externalId: target.externalId });
    inTwoPages(suite, {
      is: (r) => r.operation === 'ListCertificates',
      items: 'CertificateSummaryList',
      token: 'NextToken',
      rewrite: inService,
    });
    const acmAnswer = suite.front.answer;
    const instances: SeededInstance[] = ['web-1', 'web-2', 'web-3'].map((name) => ({
      name,
      region: REGION,
      publicIp: '203.0.113.9',
      ports: name === 'web-3' ? [{ fromPort: 80, toPort: 80, accessType: 'Public' }] : [],
    }));
    // Lightsail pages: the first instance, then the others behind a page token.
    suite.front.answer = (request) => {
      if (request.service === 'lightsail' && request.operation === 'GetInstances') {
        const all = instancesIn(customer.accountId, request.region, instances);
        return request.body.includes('lightsail-page-2')
          ? lightsailJson({ instances: all.slice(1) })
          : lightsailJson({
              instances: all.slice(0, 1),
              ...(all.length > 1 ? { nextPageToken: 'lightsail-page-2' } : {}),
            });
      }
      return acmAnswer(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.cloudfrontDistributions).distributions).toHaveLength(101);
    expect(outcomes(inventory)['exposure.cloudfront_no_default_root_object']).toHaveLength(1);
    expect(
      ok(inventory.acmCertificates)
        .certificates.map((c) => c.domainName)
        .sort(),
    ).toEqual(['a.example.com', 'b.example.com', 'c.example.com']);
    expect(outcomes(inventory)['exposure.acm_certificate_weak_key']).toHaveLength(1);
    expect(
      ok(inventory.lightsailInstances)
        .instances.map((i) => i.name)
        .sort(),
    ).toEqual(['web-1', 'web-2', 'web-3']);
    expect(outcomes(inventory)['exposure.lightsail_instance_public']).toEqual([
      `arn:aws:lightsail:${REGION}:${customer.accountId}:Instance/web-3@${REGION}`,
    ]);
    const listDistributions = suite.front.requests.filter(listsDistributions);
    expect(listDistributions).toHaveLength(2);
    const pages = (operation: string) =>
      suite.front.requests.filter((r) => r.operation === operation && r.region === REGION);
    expect(pages('ListCertificates')).toHaveLength(2);
    expect(pages('GetInstances')).toHaveLength(2);
  });
});
