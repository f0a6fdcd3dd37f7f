import {
  CloudTrailClient,
  DescribeTrailsCommand,
  GetEventSelectorsCommand,
  GetTrailStatusCommand,
  type GetTrailStatusCommandOutput,
  type Trail as SdkTrail,
} from '@aws-sdk/client-cloudtrail';
import { GetBucketLoggingCommand, S3Client } from '@aws-sdk/client-s3';
import type { Trail, TrailBucketLogging, TrailDelivery, TrailEvents } from '../../../domain/scans/inventory';
import { trailEvents } from './cloudtrail-events';
import { settleAll } from './concurrency';
import { failureOf, isAbsent, ReadFailure } from './failures';
import { type ReadContext, regionalPart } from './reader';

// DescribeTrails in a region answers the trails homed there and the multi-region and organization trails that
// cover it (shadow trails): asking every enabled region finds each trail, and its ARN tells the copies apart. A
// trail's status, event selectors and its bucket's access logging are asked in its home region, so a trail whose
// home region could not be read has them unknown. The status tells whether the trail logs and how its deliveries
// went; whether it counts as logging is the checks' rule (domain/checks/trails.ts).

type Home = Pick<Trail, 'logging' | 'events' | 'bucketLogging' | 'delivery'>;
type Sighting = Omit<Trail, keyof Home> & { arn: string };

interface Slice {
  trails: Sighting[];
  /** Status, selectors and bucket logging of the trails homed in this region, by ARN. */
  home: Record<string, Home>;
  /** Trails homed here that were deleted between the listing and the status. */
  deleted: string[];
}

function sighting(t: SdkTrail & { TrailARN: string }): Sighting {
  return {
    arn: t.TrailARN,
    name: t.Name ?? '',
    homeRegion: t.HomeRegion ?? '',
    logFileValidation: t.LogFileValidationEnabled ?? false,
    kmsKeyId: t.KmsKeyId ?? null,
    bucket: t.S3BucketName ?? '',
    multiRegion: t.IsMultiRegionTrail ?? false,
    cloudWatchLogsLogGroupArn: t.CloudWatchLogsLogGroupArn ?? null,
  };
}

/**
 * The trail's bucket's server access logging. An organization's trail writes to a bucket of another account
 * (its log archive), which this account may not read, or see at all: that bucket is unread, never a failure.
 * NoSuchBucket says more: no account has the bucket, so the trail delivers nowhere (`missing`).
 */
async function bucketLogging(s3: S3Client, bucket: string): Promise<{ logging: TrailBucketLogging; missing: boolean }> {
  try {
    const { LoggingEnabled } = await s3.send(new GetBucketLoggingCommand({ Bucket: bucket }));
    return { logging: { read: true, enabled: LoggingEnabled?.TargetBucket !== undefined }, missing: false };
  } catch (err) {
    const missing = isAbsent(err, 'NoSuchBucket');
    if (!missing && !(err instanceof ReadFailure && err.kind === 'denied')) throw err;
    return { logging: { read: false, reason: failureOf(err).reason }, missing };
  }
}

const iso = (time: Date | undefined) => time?.toISOString() ?? null;
/** An error field of the trail's status: AWS may answer it empty when there is none. */
const errorOf = (error: string | undefined) => (error?.trim() ? error.trim() : null);

/** What the trail's status says of its deliveries (GetTrailStatus), with whether its bucket exists. */
function delivery(status: GetTrailStatusCommandOutput, bucketMissing: boolean): TrailDelivery {
  return {
    error: errorOf(status.LatestDeliveryError),
    lastDeliveredAt: iso(status.LatestDeliveryTime),
    lastDigestDeliveredAt: iso(status.LatestDigestDeliveryTime),
    loggingStartedAt: iso(status.StartLoggingTime),
    bucketMissing,
    cloudWatchLogsError: errorOf(status.LatestCloudWatchLogsDeliveryError),
  };
}

/**
 * What the trail records. A member account may not be shown the selectors of its organization's trail: they are
 * then unknown, and the trail stays listed (its status says whether it exists).
 */
async function events(cloudtrail: CloudTrailClient, arn: string): Promise<TrailEvents | null> {
  try {
    return trailEvents(await cloudtrail.send(new GetEventSelectorsCommand({ TrailName: arn })));
  } catch (err) {
    if (isAbsent(err, 'TrailNotFound') || (err instanceof ReadFailure && err.kind === 'denied')) return null;
    throw err;
  }
}

export const cloudtrailPart = regionalPart({
  part: 'cloudtrail',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const cloudtrail = session.client((config) => new CloudTrailClient(config), region);
    const { trailList = [] } = await cloudtrail.send(new DescribeTrailsCommand({ includeShadowTrails: true }));
    const slice: Slice = { trails: [], home: {}, deleted: [] };
    for (const t of trailList) if (t.TrailARN) slice.trails.push(sighting({ ...t, TrailARN: t.TrailARN }));
    const homed = slice.trails.filter((t) => t.homeRegion === region);
    // The bucket may be in any region: the client follows S3's redirect there. An emulator's address cannot take
    // the bucket in its host name.
    const s3 =
      homed.length === 0
        ? null
        : session.client(
            (config) =>
              new S3Client({
                ...config,
                followRegionRedirects: true,
                forcePathStyle: session.endpointUrl !== undefined,
              }),
            region,
          );
    for (const trail of homed) {
      try {
        const [status, recorded, bucket] = await settleAll([
          cloudtrail.send(new GetTrailStatusCommand({ Name: trail.arn })),
          events(cloudtrail, trail.arn),
          s3 && trail.bucket ? bucketLogging(s3, trail.bucket) : null,
        ]);
        slice.home[trail.arn] = {
          logging: status.IsLogging ?? false,
          events: recorded,
          bucketLogging: bucket?.logging ?? null,
          delivery: delivery(status, bucket?.missing ?? false),
        };
      } catch (err) {
        if (!isAbsent(err, 'TrailNotFound')) throw err;
        slice.deleted.push(trail.arn);
      }
    }
    return slice;
  },
  assemble(slices) {
    const home: Record<string, Home> = Object.assign({}, ...slices.map((s) => s.home));
    const deleted = new Set(slices.flatMap((s) => s.deleted));
    const unknown: Home = { logging: null, events: null, bucketLogging: null, delivery: null };
    const trails = new Map<string, Trail>();
    for (const { arn, ...trail } of slices.flatMap((s) => s.trails)) {
      if (!deleted.has(arn)) trails.set(arn, { ...trail, ...(home[arn] ?? unknown) });
    }
    return { trails: [...trails.values()].sort((a, b) => a.name.localeCompare(b.name)) };
  },
});
