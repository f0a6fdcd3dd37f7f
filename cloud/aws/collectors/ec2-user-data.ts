import { DescribeInstanceAttributeCommand } from '@aws-sdk/client-ec2';
import type { InstanceUserData } from '../../../domain/scans/compute';
import type { Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { ec2In, instancesIn } from './ec2';
import { isAbsent, ReadFailure } from './failures';
import { type ReadContext, regionalPart } from './reader';
import { userDataSecrets } from './user-data';

// Instances' user data, region by region. DescribeInstances does not return it: DescribeInstanceAttribute does,
// one call per instance. That cost is bounded: at most MAX_INSTANCES_PER_REGION instances a region are read a scan
// (the ones listed first), PER_INSTANCE_CONCURRENCY at a time; the others are named unread, never clean. A region
// of 200 instances costs 200 calls more a scan, within EC2's request rate for describe calls. Terminated
// instances are left out: they run nothing and their user data goes with them. The instances are those the
// instances' part lists (ec2.ts): one DescribeInstances listing serves both.

export const MAX_INSTANCES_PER_REGION = 200;
const PER_INSTANCE_CONCURRENCY = 4;
const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped', 'shutting-down'];

interface Slice {
  instances: InstanceUserData[];
  unread: Unread[];
}

const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';

export const instanceUserDataPart = regionalPart({
  part: 'instanceUserData',
  async read(ctx: ReadContext, region: string): Promise<Slice> {
    const ec2 = ec2In(ctx.session, region);
    // The instances' part's listing, in the order AWS lists them: the live ones (the ones a filter on their state
    // would have listed) are read.
    const ids = (await instancesIn(ctx, region)).flatMap((i) => (i.id && LIVE_STATES.includes(i.state) ? [i.id] : []));
    const unread: Unread[] = ids.slice(MAX_INSTANCES_PER_REGION).map((id) => ({
      kind: 'resource',
      scope: id,
      reason:
        `Its user data was not read: Sentinel reads the user data of at most ${MAX_INSTANCES_PER_REGION} instances ` +
        'a region a scan (one DescribeInstanceAttribute call each).',
    }));
    const read = await mapLimit({
      items: ids.slice(0, MAX_INSTANCES_PER_REGION),
      limit: PER_INSTANCE_CONCURRENCY,
      run: async (id): Promise<InstanceUserData | null> => {
        try {
          const { UserData } = await ec2.send(
            new DescribeInstanceAttributeCommand({ InstanceId: id, Attribute: 'userData' }),
          );
          return { id, region, secrets: userDataSecrets(UserData?.Value) };
        } catch (err) {
          if (isAbsent(err, 'InvalidInstanceID.NotFound')) return null; // terminated since it was listed
          if (!denied(err)) throw err;
          unread.push({ kind: 'resource', scope: id, reason: (err as ReadFailure).reason });
          return null;
        }
      },
    });
    return { instances: read.filter((i): i is InstanceUserData => i !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ instances: slices.flatMap((s) => s.instances) }),
});
