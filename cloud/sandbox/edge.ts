import type {
  AcmCertificate,
  CloudFrontDistribution,
  Collected,
  Inventory,
  LightsailDatabase,
  LightsailInstance,
  Unread,
} from '../../domain/scans/inventory';
import type { SandboxSeed } from './databases';

// The sandbox account's edge: a CloudFront distribution in front of its site's bucket, the ACM certificate of its
// load balancer, and a Lightsail blog with its database, set up well, plus the issues each account's seed picks (no
// default root object, an origin bucket deleted since, HTTP to viewers or to the API origin, no web ACL, a certificate about to expire or with a weak key, a blog open
// to the internet, its database in public mode).

type EdgeParts = Pick<
  Inventory,
  'cloudfrontDistributions' | 'acmCertificates' | 'lightsailInstances' | 'lightsailDatabases'
>;

/** Issues a neglected account may have, each drawn on its own so that accounts differ. */
const ISSUE_ODDS = 0.3;
const DAY_MS = 86_400_000;

const ok = <T>(value: T, unread: Unread[]): Collected<T> =>
  unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };

const uuid = (hex: string) => hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5');

export function sandboxEdge(
  { id, company, regions, at, randomFor, hexId, neglect }: SandboxSeed,
  readable: <T extends { region: string }>(items: T[]) => T[],
  regional: (service: string) => Unread[],
): EdgeParts {
  const has = (issue: string) => randomFor(id, `edge:${issue}`)() < ISSUE_ODDS * neglect;
  const [home] = regions as [string];
  const distributionId = `E${hexId(13, id, 'distribution').toUpperCase()}`;
  const distribution: CloudFrontDistribution = {
    id: distributionId,
    arn: `arn:aws:cloudfront::${id}:distribution/${distributionId}`,
    domainName: `d${hexId(13, id, 'distribution-domain')}.cloudfront.net`,
    defaultRootObject: has('cloudfront_root') ? '' : 'index.html',
    s3Origins: [{ originId: 'site', bucket: `${company}-site`, exists: true }],
    customOrigins: [
      {
        originId: 'api',
        domainName: `api.${company}.example`,
        protocolPolicy: has('cloudfront_origin_http') ? 'http-only' : 'https-only',
      },
    ],
    viewerProtocolPolicy: has('cloudfront_viewer_http') ? 'allow-all' : 'redirect-to-https',
    httpPathPatterns: [],
    webAclId: has('cloudfront_waf') ? null : `arn:aws:wafv2:us-east-1:${id}:global/webacl/${company}-site/0a1b2c3d`,
  };
  if (has('cloudfront_bucket'))
    distribution.s3Origins.push({ originId: 'legacy-assets', bucket: `${company}-legacy-assets`, exists: false });
  const expiresInDays = has('acm_expiring') ? 4 : 200;
  const certificate: AcmCertificate = {
    arn: `arn:aws:acm:${home}:${id}:certificate/${uuid(hexId(32, id, 'certificate'))}`,
    domainName: `www.${company}.example`,
    region: home,
    keyAlgorithm: has('acm_weak_key') ? 'RSA-1024' : 'RSA-2048',
    notAfter: new Date(at.getTime() + expiresInDays * DAY_MS).toISOString(),
    inUse: true,
  };
  const instance: LightsailInstance = {
    name: `${company}-blog`,
    arn: `arn:aws:lightsail:${home}:${id}:Instance/${uuid(hexId(32, id, 'lightsail-instance'))}`,
    region: home,
    publicIp: '198.51.100.24',
    // HTTPS is meant for everyone; SSH open to all is the issue.
    publicPorts: has('lightsail_ssh') ? ['22/tcp', '443/tcp'] : [],
  };
  const database: LightsailDatabase = {
    name: `${company}-blog-db`,
    arn: `arn:aws:lightsail:${home}:${id}:RelationalDatabase/${uuid(hexId(32, id, 'lightsail-database'))}`,
    region: home,
    engine: 'mysql',
    publiclyAccessible: has('lightsail_db_public'),
  };
  return {
    cloudfrontDistributions: ok({ distributions: [distribution] }, []),
    acmCertificates: ok({ certificates: readable([certificate]) }, regional('ACM ListCertificates')),
    lightsailInstances: ok({ instances: readable([instance]) }, regional('Lightsail GetInstances')),
    lightsailDatabases: ok({ databases: readable([database]) }, regional('Lightsail GetRelationalDatabases')),
  };
}
