import { CloudFrontClient, GetDistributionConfigCommand, paginateListDistributions } from '@aws-sdk/client-cloudfront';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { CloudFrontDistribution, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, globalPart, type ReadContext } from './reader';

// CloudFront distributions (a global service, served from us-east-1): ListDistributions gives each one's origins,
// viewer protocol policies and web ACL, GetDistributionConfig its default root object, and one HeadBucket per bucket its S3 origins name tells whether
// the bucket still exists. S3 answers 404 for a bucket no account has; 403 for one another account has (or that
// refuses us): that one exists. A distribution whose configuration AWS refuses is unread (by ARN); one deleted
// since it was listed is skipped.

const PER_DISTRIBUTION_CONCURRENCY = 4;

interface Listed {
  id: string;
  arn: string;
  domainName: string;
  /** Origin id and bucket of its S3 origins. */
  s3Origins: { originId: string; bucket: string }[];
  settings: Pick<CloudFrontDistribution, 'customOrigins' | 'viewerProtocolPolicy' | 'httpPathPatterns' | 'webAclId'>;
}

/** The bucket an S3 origin's domain names (acme-site.s3.amazonaws.com, acme-site.s3.eu-west-1.amazonaws.com). */
const bucketOf = (domainName: string) => domainName.split('.s3')[0] ?? domainName;

const statusOf = (err: ReadFailure) =>
  (err.cause as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;

/** Whether a bucket exists: true, false (S3 answered 404), or the reason S3 answered neither. */
async function bucketExists(s3: S3Client, bucket: string): Promise<boolean | { reason: string }> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (err) {
    if (!(err instanceof ReadFailure) || err.retryable) throw err;
    const status = statusOf(err);
    if (status === 404) return false;
    if (status === 403) return true;
    return { reason: `Whether S3 bucket ${bucket} exists is unknown: ${err.reason}` };
  }
}

export const cloudfrontDistributionsPart = globalPart({
  part: 'cloudfrontDistributions',
  async read({ session }: ReadContext) {
    const cloudfront = session.client((config) => new CloudFrontClient(config));
    const listed = await foldPages(
      paginateListDistributions({ client: cloudfront }, {}),
      [] as Listed[],
      (into, page) => {
        for (const d of page.DistributionList?.Items ?? []) {
          if (!d.Id || !d.ARN) continue;
          into.push({
            id: d.Id,
            arn: d.ARN,
            domainName: d.DomainName ?? '',
            s3Origins: (d.Origins?.Items ?? [])
              .filter((o) => o.S3OriginConfig !== undefined && o.DomainName)
              .map((o) => ({ originId: o.Id ?? '', bucket: bucketOf(o.DomainName ?? '') })),
            settings: {
              customOrigins: (d.Origins?.Items ?? []).flatMap((o) =>
                o.CustomOriginConfig
                  ? [
                      {
                        originId: o.Id ?? '',
                        domainName: o.DomainName ?? '',
                        protocolPolicy: o.CustomOriginConfig.OriginProtocolPolicy ?? '',
                      },
                    ]
                  : [],
              ),
              viewerProtocolPolicy: d.DefaultCacheBehavior?.ViewerProtocolPolicy ?? '',
              httpPathPatterns: (d.CacheBehaviors?.Items ?? [])
                .filter((b) => b.ViewerProtocolPolicy === 'allow-all')
                .map((b) => b.PathPattern ?? ''),
              webAclId: d.WebACLId || null,
            },
          });
        }
        return into;
      },
    );
    const unread: Unread[] = [];
    // A distribution is named once, with the first reason it could not be read in full.
    const leaveUnread = (scope: string, reason: string) => {
      if (!unread.some((u) => u.scope === scope)) unread.push({ kind: 'resource', scope, reason });
    };
    const buckets = [...new Set(listed.flatMap((d) => d.s3Origins.map((o) => o.bucket)))];
    // A bucket may be in any region: the client follows S3's redirect there. An emulator's address cannot take the
    // bucket in its host name.
    const s3 =
      buckets.length === 0
        ? null
        : session.client(
            (config) =>
              new S3Client({
                ...config,
                followRegionRedirects: true,
                forcePathStyle: session.endpointUrl !== undefined,
              }),
          );
    const existence = new Map<string, boolean | { reason: string }>();
    if (s3)
      await mapLimit({
        items: buckets,
        limit: PER_DISTRIBUTION_CONCURRENCY,
        run: async (bucket) => existence.set(bucket, await bucketExists(s3, bucket)),
      });
    const distributions = await mapLimit({
      items: listed,
      limit: PER_DISTRIBUTION_CONCURRENCY,
      run: async (d): Promise<CloudFrontDistribution | null> => {
        let defaultRootObject: string | null;
        try {
          const { DistributionConfig } = await cloudfront.send(new GetDistributionConfigCommand({ Id: d.id }));
          defaultRootObject = DistributionConfig?.DefaultRootObject ?? '';
        } catch (err) {
          if (isAbsent(err, 'NoSuchDistribution')) return null; // deleted since it was listed
          if (!(err instanceof ReadFailure && err.kind === 'denied')) throw err;
          leaveUnread(d.arn, err.reason);
          defaultRootObject = null;
        }
        const s3Origins = d.s3Origins.map(({ originId, bucket }) => {
          const known = existence.get(bucket);
          if (typeof known === 'object') leaveUnread(d.arn, known.reason);
          return { originId, bucket, exists: typeof known === 'boolean' ? known : null };
        });
        return { id: d.id, arn: d.arn, domainName: d.domainName, defaultRootObject, s3Origins, ...d.settings };
      },
    });
    const value = { distributions: distributions.filter((d): d is CloudFrontDistribution => d !== null) };
    return unread.length > 0 ? { value, unread } : { value };
  },
});
