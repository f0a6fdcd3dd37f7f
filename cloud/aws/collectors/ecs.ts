import { DescribeServicesCommand, ECSClient, paginateListClusters, paginateListServices } from '@aws-sdk/client-ecs';
import type { EcsService, EcsTaskSet, Unread } from '../../../domain/scans/inventory';
import { foldPages, type ReadContext, regionalPart } from './reader';
import { mapLimit } from './concurrency';
import { ReadFailure } from './failures';

// ECS services and their task sets, region by region: ListClusters, ListServices of each cluster, and
// DescribeServices ten at a time (its maximum), which also returns the task sets of services deployed by an
// external controller or CodeDeploy. A cluster whose services AWS refuses to list or describe is unread (by ARN).
// Task definitions are read elsewhere.

const SERVICES_PER_DESCRIBE = 10;
const PER_CLUSTER_CONCURRENCY = 2;

interface Slice {
  services: EcsService[];
  taskSets: EcsTaskSet[];
  unread: Unread[];
}

const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';
const publicIp = (config: { awsvpcConfiguration?: { assignPublicIp?: string } } | undefined) =>
  config?.awsvpcConfiguration?.assignPublicIp === 'ENABLED';

export const ecsServicesPart = regionalPart({
  part: 'ecsServices',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const ecs = session.client((config) => new ECSClient(config), region);
    const clusters = await foldPages(paginateListClusters({ client: ecs }, {}), [] as string[], (into, page) => [
      ...into,
      ...(page.clusterArns ?? []),
    ]);
    const slice: Slice = { services: [], taskSets: [], unread: [] };
    await mapLimit({
      items: clusters,
      limit: PER_CLUSTER_CONCURRENCY,
      run: async (cluster) => {
        try {
          const arns = await foldPages(
            paginateListServices({ client: ecs }, { cluster }),
            [] as string[],
            (into, page) => [...into, ...(page.serviceArns ?? [])],
          );
          for (let i = 0; i < arns.length; i += SERVICES_PER_DESCRIBE) {
            const { services = [] } = await ecs.send(
              new DescribeServicesCommand({ cluster, services: arns.slice(i, i + SERVICES_PER_DESCRIBE) }),
            );
            for (const s of services) {
              if (!s.serviceArn || s.status === 'INACTIVE') continue;
              const name = s.serviceName ?? s.serviceArn;
              slice.services.push({
                name,
                arn: s.serviceArn,
                cluster,
                region,
                assignPublicIp: publicIp(s.networkConfiguration),
              });
              for (const t of s.taskSets ?? []) {
                if (!t.taskSetArn) continue;
                slice.taskSets.push({
                  id: t.id ?? t.taskSetArn,
                  arn: t.taskSetArn,
                  service: s.serviceArn,
                  region,
                  assignPublicIp: publicIp(t.networkConfiguration),
                });
              }
            }
          }
        } catch (err) {
          if (!denied(err)) throw err;
          slice.unread.push({ kind: 'resource', scope: cluster, reason: (err as ReadFailure).reason });
        }
      },
    });
    return slice;
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({
    services: slices.flatMap((s) => s.services),
    taskSets: slices.flatMap((s) => s.taskSets),
  }),
});
