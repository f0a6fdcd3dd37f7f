import type { CloudFrontDistribution } from '../scans/inventory';
import { failing, onPart } from './helpers';
import type { Check } from './types';

// CloudFront distributions: a distribution without a default root object, one whose S3 origin names a bucket that
// no longer exists (anyone may create it and serve their content under the distribution's domain), one that lets
// viewers in over HTTP or reaches its origins over HTTP, and one no web application firewall stands in front of.
// CloudFront is global: its findings have no region.

const CLOUDFRONT_DOCS = 'https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/';

const named = (d: CloudFrontDistribution) => `CloudFront distribution ${d.id} (${d.domainName})`;

/**
 * The origins CloudFront reaches over HTTP, as Prowler judges them: a custom origin whose protocol policy is
 * http-only (or unset), or match-viewer while viewers may use HTTP; an S3 origin while viewers may use HTTP.
 */
export function httpOrigins(d: CloudFrontDistribution): string[] {
  const viewersOnHttp = d.viewerProtocolPolicy === 'allow-all';
  return [
    ...d.customOrigins
      .filter(
        (o) =>
          o.protocolPolicy === '' ||
          o.protocolPolicy === 'http-only' ||
          (o.protocolPolicy === 'match-viewer' && viewersOnHttp),
      )
      .map((o) => o.originId),
    ...(viewersOnHttp ? d.s3Origins.map((o) => o.originId) : []),
  ];
}

export const CLOUDFRONT_CHECKS: readonly Check[] = [
  {
    id: 'exposure.cloudfront_no_default_root_object',
    service: 'cloudfront',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'CloudFront distribution without a default root object',
    description:
      'The distribution names no default root object: a request for its root URL (https://the-domain/) is passed to ' +
      "the origin as is. An S3 origin then answers with a listing of the bucket's objects where its policy allows " +
      'listing, and a custom origin with whatever its server shows for "/" (a directory index, a default page that ' +
      'tells its software and version).',
    remediation:
      'Set a default root object (index.html). Console: CloudFront > Distributions > the distribution > General > ' +
      'Settings > Edit > Default root object: index.html > Save changes. CLI: aws cloudfront get-distribution-config ' +
      '--id ID > config.json, set "DefaultRootObject": "index.html" in its DistributionConfig, then aws cloudfront ' +
      'update-distribution --id ID --if-match ETAG --distribution-config file://distribution-config.json (the ETag ' +
      'and DistributionConfig from the first command).',
    docsUrl: `${CLOUDFRONT_DOCS}DefaultRootObject.html`,
    controls: { 'aws-fsbp': ['CloudFront.1'] },
    prowler: ['cloudfront_distributions_default_root_object'],
    evaluate: onPart('cloudfrontDistributions', ({ distributions }) =>
      failing(
        distributions
          .filter((d) => d.defaultRootObject === '')
          .map((d) => ({
            resource: d.arn,
            detail: `CloudFront distribution ${d.id} (${d.domainName}) has no default root object.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.cloudfront_origin_bucket_missing',
    service: 'cloudfront',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'CloudFront distribution serving from an S3 bucket that does not exist',
    description:
      'An S3 origin of the distribution names a bucket that no account has (S3 answers NoSuchBucket): it was ' +
      'deleted, or its name mistyped. Bucket names are global: anyone may create a bucket of that name in their own ' +
      "account and serve their content (phishing pages, malware) under the distribution's domain and certificate.",
    remediation:
      'Point the origin at a bucket you own, or delete the origin (or the distribution) if it is no longer used; ' +
      'creating the bucket again in your account closes the takeover too. Console: CloudFront > Distributions > the ' +
      'distribution > Origins > the origin > Edit (Origin domain) or Delete. CLI: aws cloudfront ' +
      'get-distribution-config --id ID, change or remove the origin in its DistributionConfig, then aws cloudfront ' +
      'update-distribution --id ID --if-match ETAG --distribution-config file://distribution-config.json; or aws s3api ' +
      'create-bucket --bucket NAME.',
    docsUrl: `${CLOUDFRONT_DOCS}DownloadDistS3AndCustomOrigins.html`,
    controls: { 'aws-fsbp': ['CloudFront.12'] },
    prowler: ['cloudfront_distributions_s3_origin_non_existent_bucket'],
    evaluate: onPart('cloudfrontDistributions', ({ distributions }) =>
      failing(
        distributions.flatMap((d) => {
          const missing = [...new Set(d.s3Origins.filter((o) => o.exists === false).map((o) => o.bucket))];
          return missing.length === 0
            ? []
            : [
                {
                  resource: d.arn,
                  detail:
                    `CloudFront distribution ${d.id} (${d.domainName}) serves from S3 ` +
                    `${missing.length === 1 ? 'bucket' : 'buckets'} that no account has: ${missing.join(', ')}.`,
                },
              ];
        }),
      ),
    ),
  },
  {
    id: 'exposure.cloudfront_viewer_http_allowed',
    service: 'cloudfront',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'CloudFront distribution serving viewers over HTTP',
    description:
      'A cache behaviour of the distribution (its default one, or one of a path pattern) has the viewer protocol ' +
      'policy allow-all: viewers may fetch its content over plain HTTP, where anyone on the network path (a public ' +
      'Wi-Fi, an ISP) reads and alters it, cookies and tokens included.',
    remediation:
      'Set the viewer protocol policy to Redirect HTTP to HTTPS (or HTTPS only) on every cache behaviour. Console: ' +
      'CloudFront > Distributions > the distribution > Behaviors > the behavior > Edit > Viewer protocol policy: ' +
      'Redirect HTTP to HTTPS > Save changes. CLI: aws cloudfront get-distribution-config --id ID, set ' +
      '"ViewerProtocolPolicy": "redirect-to-https" in DefaultCacheBehavior and each of CacheBehaviors, then aws ' +
      'cloudfront update-distribution --id ID --if-match ETAG --distribution-config file://distribution-config.json.',
    docsUrl: `${CLOUDFRONT_DOCS}using-https-viewers-to-cloudfront.html`,
    controls: { 'aws-fsbp': ['CloudFront.3'] },
    prowler: ['cloudfront_distributions_https_enabled'],
    evaluate: onPart('cloudfrontDistributions', ({ distributions }) =>
      failing(
        distributions.flatMap((d) => {
          const paths = [
            ...(d.viewerProtocolPolicy === 'allow-all' ? ['the default behaviour'] : []),
            ...d.httpPathPatterns,
          ];
          return paths.length === 0
            ? []
            : [{ resource: d.arn, detail: `${named(d)} lets viewers in over HTTP on ${paths.join(', ')}.` }];
        }),
      ),
    ),
  },
  {
    id: 'exposure.cloudfront_origin_http',
    service: 'cloudfront',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'CloudFront distribution reaching its origin over HTTP',
    description:
      'CloudFront fetches from an origin of the distribution over plain HTTP: its origin protocol policy is ' +
      'http-only, or match-viewer while viewers may use HTTP (and an S3 origin is then served over HTTP too). What ' +
      'travels between CloudFront and the origin, requests with their cookies and tokens and the answers, can be ' +
      'read and altered on the way.',
    remediation:
      "Set the origin's protocol policy to HTTPS only (the origin needs a certificate for the name CloudFront uses), " +
      'and viewers to HTTPS. Console: CloudFront > Distributions > the distribution > Origins > the origin > Edit > ' +
      'Protocol: HTTPS only > Save changes. CLI: aws cloudfront get-distribution-config --id ID, set ' +
      '"OriginProtocolPolicy": "https-only" in the origin\'s CustomOriginConfig, then aws cloudfront ' +
      'update-distribution --id ID --if-match ETAG --distribution-config file://distribution-config.json.',
    docsUrl: `${CLOUDFRONT_DOCS}using-https-cloudfront-to-custom-origin.html`,
    controls: { 'aws-fsbp': ['CloudFront.9'] },
    prowler: ['cloudfront_distributions_origin_traffic_encrypted'],
    evaluate: onPart('cloudfrontDistributions', ({ distributions }) =>
      failing(
        distributions.flatMap((d) => {
          const origins = httpOrigins(d);
          return origins.length === 0
            ? []
            : [{ resource: d.arn, detail: `${named(d)} reaches its origins ${origins.join(', ')} over HTTP.` }];
        }),
      ),
    ),
  },
  {
    id: 'exposure.cloudfront_without_waf',
    service: 'cloudfront',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'CloudFront distribution without a WAF web ACL',
    description:
      'No AWS WAF web ACL is associated with the distribution: nothing filters requests before they reach its ' +
      'origins (injection attempts, known bad IP addresses, bots, request floods), and nothing caps what a flood ' +
      'costs in requests and data transfer.',
    remediation:
      'Associate an AWS WAF web ACL of CloudFront scope (created in us-east-1), with the AWS managed core rule set ' +
      'and a rate-based rule. Console: CloudFront > Distributions > the distribution > Security > Edit (or General > ' +
      'Settings > Edit > AWS WAF web ACL). CLI: aws cloudfront get-distribution-config --id ID, set "WebACLId": ' +
      'WEB_ACL_ARN, then aws cloudfront update-distribution --id ID --if-match ETAG --distribution-config ' +
      'file://distribution-config.json.',
    docsUrl: `${CLOUDFRONT_DOCS}distribution-web-awswaf.html`,
    controls: { 'aws-fsbp': ['CloudFront.6'] },
    prowler: ['cloudfront_distributions_using_waf'],
    evaluate: onPart('cloudfrontDistributions', ({ distributions }) =>
      failing(
        distributions
          .filter((d) => d.webAclId === null)
          .map((d) => ({ resource: d.arn, detail: `${named(d)} has no AWS WAF web ACL.` })),
      ),
    ),
  },
];
