import { DescribeRegionsCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { Session } from './session';

/** Regions the account can use: enabled by default, or opted into. */
export async function enabledRegions(session: Session): Promise<string[]> {
  const ec2 = session.client((config) => new EC2Client(config));
  const { Regions = [] } = await ec2.send(new DescribeRegionsCommand({ AllRegions: true }));
  return Regions.filter((r) => r.OptInStatus === 'opt-in-not-required' || r.OptInStatus === 'opted-in')
    .flatMap((r) => (r.RegionName ? [r.RegionName] : []))
    .sort();
}
