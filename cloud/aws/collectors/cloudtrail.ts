import {
  CloudTrailClient, DescribeTrailsCommand, GetTrailStatusCommand, type Trail as AwsTrail,
} from '@aws-sdk/client-cloudtrail';
import type { Collected, Trail } from '../../../domain/inventory';
import { hasCode } from '../errors';
import { mapLimit, REGION_CONCURRENCY } from './concurrency';
import { readPart } from './refusals';
import { perRegion, type Session } from './session';

// DescribeTrails in a region answers the trails homed there and the multi-region and organization trails that
// cover it (shadow trails). Asking every enabled region finds each trail; its ARN tells the copies apart.
// A trail's status is asked of its home region.

export function collectCloudTrail({ session, regions }: { session: Session; regions: string[] }): Promise<Collected<{ trails: Trail[] }>> {
  return readPart(async () => {
    const cloudtrail = perRegion((region) => session.client((config) => new CloudTrailClient(config), region));
    const found = new Map<string, AwsTrail>();
    await mapLimit({
      items: regions,
      limit: REGION_CONCURRENCY,
      run: async (region) => {
        const { trailList = [] } = await cloudtrail(region).send(new DescribeTrailsCommand({ includeShadowTrails: true }));
        for (const trail of trailList) if (trail.TrailARN) found.set(trail.TrailARN, trail);
      },
    });
    const trails = await mapLimit({
      items: [...found.values()],
      limit: REGION_CONCURRENCY,
      run: async (trail): Promise<Trail | null> => {
        const homeRegion = trail.HomeRegion ?? '';
        try {
          const { IsLogging } = await cloudtrail(homeRegion).send(new GetTrailStatusCommand({ Name: trail.TrailARN }));
          return { name: trail.Name ?? '', homeRegion, multiRegion: trail.IsMultiRegionTrail ?? false, logging: IsLogging ?? false };
        } catch (err) {
          if (hasCode(err, 'TrailNotFound')) return null; // deleted since it was listed
          throw err;
        }
      },
    });
    return { trails: trails.filter((t): t is Trail => t !== null).sort((a, b) => a.name.localeCompare(b.name)) };
  });
}
