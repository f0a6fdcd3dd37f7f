import { CloudTrailClient, DescribeTrailsCommand, GetTrailStatusCommand } from '@aws-sdk/client-cloudtrail';
import type { Trail } from '../../../domain/inventory';
import { isAbsent } from './failures';
import { type ReadContext, regionalPart } from './reader';

// DescribeTrails in a region answers the trails homed there and the multi-region and organization trails that
// cover it (shadow trails): asking every enabled region finds each trail, and its ARN tells the copies apart. A
// trail's status is asked in its home region, so a trail whose home region could not be read has an unknown status.

interface Sighting extends Omit<Trail, 'logging'> {
  arn: string;
}

interface Slice {
  trails: Sighting[];
  /** Logging status of the trails homed in this region, by ARN. */
  logging: Record<string, boolean>;
  /** Trails homed here that were deleted between the listing and the status. */
  deleted: string[];
}

export const cloudtrailPart = regionalPart({
  part: 'cloudtrail',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const cloudtrail = session.client((config) => new CloudTrailClient(config), region);
    const { trailList = [] } = await cloudtrail.send(new DescribeTrailsCommand({ includeShadowTrails: true }));
    const slice: Slice = { trails: [], logging: {}, deleted: [] };
    for (const t of trailList) {
      if (t.TrailARN) {
        slice.trails.push({
          arn: t.TrailARN, name: t.Name ?? '', homeRegion: t.HomeRegion ?? '', multiRegion: t.IsMultiRegionTrail ?? false,
          cloudWatchLogsLogGroupArn: t.CloudWatchLogsLogGroupArn ?? null,
        });
      }
    }
    for (const trail of slice.trails.filter((t) => t.homeRegion === region)) {
      try {
        slice.logging[trail.arn] = (await cloudtrail.send(new GetTrailStatusCommand({ Name: trail.arn }))).IsLogging ?? false;
      } catch (err) {
        if (!isAbsent(err, 'TrailNotFound')) throw err;
        slice.deleted.push(trail.arn);
      }
    }
    return slice;
  },
  assemble(slices) {
    const logging: Record<string, boolean> = Object.assign({}, ...slices.map((s) => s.logging));
    const deleted = new Set(slices.flatMap((s) => s.deleted));
    const trails = new Map<string, Trail>();
    for (const { arn, ...trail } of slices.flatMap((s) => s.trails)) {
      if (!deleted.has(arn)) trails.set(arn, { ...trail, logging: logging[arn] ?? null });
    }
    return { trails: [...trails.values()].sort((a, b) => a.name.localeCompare(b.name)) };
  },
});
