import {
  ElastiCacheClient,
  paginateDescribeCacheClusters,
  paginateDescribeCacheSubnetGroups,
} from '@aws-sdk/client-elasticache';
import {
  DescribeTargetHealthCommand,
  type ElasticLoadBalancingV2Client,
  paginateDescribeTargetGroups,
  type TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Unread } from '../../../domain/scans/inventory';
import type {
  LoadBalancerPlacement,
  LoadBalancerTarget,
  StorePlacement,
  TargetGroupTargets,
} from '../../../domain/scans/network-topology';
import { mapLimit } from './concurrency';
import { elbIn, loadBalancersIn } from './elbv2';
import { isAbsent, ReadFailure } from './failures';
import { domainsIn } from './opensearch';
import { dbInstancesIn } from './rds';
import { foldPages, type ReadContext } from './reader';

// Where the network topology's resources outside EC2 sit, in one region: internet-facing load balancers with the
// targets their target groups forward to (and what their health checks say of each), and the subnets, groups and
// port of RDS DB instances, ElastiCache replication groups and OpenSearch domains in a VPC. Each service is read on
// its own: one AWS refuses leaves its resources unplaced (unread), and the region's EC2 network is still read. The
// load balancers, DB instances and domains are the listings their own parts make (elbv2.ts, rds.ts, opensearch.ts),
// made once a collection attempt for both: a listing refused is refused to both, each judging it as it does.

const PER_GROUP_CONCURRENCY = 4;

export interface Placed<T> {
  items: T[];
  unread: Unread[];
}

/**
 * Runs one service's read; a refusal or an answer no retry will change leaves `what` unread in the region, while
 * what may succeed on a retry (throttling, 5xx) fails the region's read so the scan's next attempt reads it again.
 */
export async function placedOrUnread<T>(what: string, region: string, read: () => Promise<T[]>): Promise<Placed<T>> {
  try {
    return { items: await read(), unread: [] };
  } catch (err) {
    if (!(err instanceof ReadFailure) || err.retryable) throw err;
    return { items: [], unread: [{ kind: 'resource', scope: `${what} in ${region}`, reason: err.reason }] };
  }
}

const defined = <T>(values: (T | undefined)[]): T[] => values.filter((v): v is T => v !== undefined);

async function targetsOf(elb: ElasticLoadBalancingV2Client, group: TargetGroup): Promise<LoadBalancerTarget[] | null> {
  try {
    const { TargetHealthDescriptions = [] } = await elb.send(
      new DescribeTargetHealthCommand({ TargetGroupArn: group.TargetGroupArn }),
    );
    return TargetHealthDescriptions.flatMap((d) =>
      d.Target?.Id ? [{ id: d.Target.Id, port: d.Target.Port ?? null, health: d.TargetHealth?.State ?? null }] : [],
    );
  } catch (err) {
    if (isAbsent(err, 'TargetGroupNotFound')) return null; // deleted since it was listed
    throw err;
  }
}

/** The internet-facing load balancers and what each forwards to; internal ones are left out. */
export async function loadBalancerPlacements(ctx: ReadContext, region: string): Promise<LoadBalancerPlacement[]> {
  const facing = new Map<string, LoadBalancerPlacement>();
  for (const lb of await loadBalancersIn(ctx, region))
    if (lb.internetFacing)
      facing.set(lb.arn, {
        arn: lb.arn,
        region,
        subnetIds: lb.subnetIds,
        securityGroupIds: lb.securityGroupIds,
        ipv6: lb.ipv6,
        targetGroups: [],
      });
  // Without an internet-facing load balancer, no target group matters.
  if (facing.size === 0) return [];
  const elb = elbIn(ctx.session, region);
  const groups = await foldPages(
    paginateDescribeTargetGroups({ client: elb }, {}),
    [] as TargetGroup[],
    (into, page) => {
      for (const group of page.TargetGroups ?? [])
        if ((group.LoadBalancerArns ?? []).some((arn) => facing.has(arn))) into.push(group);
      return into;
    },
  );
  const described = await mapLimit({
    items: groups,
    limit: PER_GROUP_CONCURRENCY,
    run: async (group) => ({ group, targets: await targetsOf(elb, group) }),
  });
  for (const { group, targets } of described) {
    if (targets === null || !group.TargetGroupArn) continue;
    const forwarded: TargetGroupTargets = {
      arn: group.TargetGroupArn,
      name: group.TargetGroupName ?? '',
      protocol: group.Protocol ?? null,
      port: group.Port ?? null,
      targets,
    };
    for (const arn of group.LoadBalancerArns ?? []) facing.get(arn)?.targetGroups.push(forwarded);
  }
  return [...facing.values()];
}

/** RDS DB instances: their subnet group's subnets, their VPC security groups and their port. */
export async function databasePlacements(ctx: ReadContext, region: string): Promise<StorePlacement[]> {
  return (await dbInstancesIn(ctx, region)).map(({ instance, subnetIds, securityGroupIds, port }) => ({
    id: instance.id,
    region,
    subnetIds,
    securityGroupIds,
    port,
  }));
}

/** ElastiCache replication groups, from their member clusters: subnet group's subnets, groups and port. */
export async function cachePlacements({ session }: ReadContext, region: string): Promise<StorePlacement[]> {
  const elasticache = session.client((config) => new ElastiCacheClient(config), region);
  const groups = await foldPages(
    paginateDescribeCacheClusters({ client: elasticache }, { ShowCacheNodeInfo: true }),
    new Map<string, StorePlacement & { subnetGroup: string | undefined }>(),
    (into, page) => {
      for (const cluster of page.CacheClusters ?? []) {
        if (!cluster.ReplicationGroupId) continue;
        const known = into.get(cluster.ReplicationGroupId);
        const groupIds = defined((cluster.SecurityGroups ?? []).map((g) => g.SecurityGroupId));
        into.set(cluster.ReplicationGroupId, {
          id: cluster.ReplicationGroupId,
          region,
          subnetIds: [],
          securityGroupIds: [...new Set([...(known?.securityGroupIds ?? []), ...groupIds])],
          port: known?.port ?? cluster.CacheNodes?.[0]?.Endpoint?.Port ?? cluster.ConfigurationEndpoint?.Port ?? null,
          subnetGroup: known?.subnetGroup ?? cluster.CacheSubnetGroupName,
        });
      }
      return into;
    },
  );
  if (groups.size === 0) return [];
  const subnets = await foldPages(
    paginateDescribeCacheSubnetGroups({ client: elasticache }, {}),
    new Map<string, string[]>(),
    (into, page) => {
      for (const g of page.CacheSubnetGroups ?? [])
        if (g.CacheSubnetGroupName)
          into.set(g.CacheSubnetGroupName, defined((g.Subnets ?? []).map((s) => s.SubnetIdentifier)));
      return into;
    },
  );
  return [...groups.values()].map(({ subnetGroup, ...placement }) => ({
    ...placement,
    subnetIds: subnetGroup ? (subnets.get(subnetGroup) ?? []) : [],
  }));
}

/** OpenSearch domains placed in a VPC (on HTTPS); those outside one have a public endpoint and no placement. */
export async function searchDomainPlacements(ctx: ReadContext, region: string): Promise<StorePlacement[]> {
  return (await domainsIn(ctx, region)).flatMap(({ domain, vpc }): StorePlacement[] =>
    domain.name && vpc
      ? [{ id: domain.name, region, subnetIds: vpc.subnetIds, securityGroupIds: vpc.securityGroupIds, port: 443 }]
      : [],
  );
}
