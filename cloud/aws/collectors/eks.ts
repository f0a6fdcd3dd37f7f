import {
  DescribeClusterCommand,
  EKSClient,
  paginateDescribeClusterVersions,
  paginateListClusters,
} from '@aws-sdk/client-eks';
import type { EksCluster, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// EKS clusters, region by region: ListClusters, DescribeCluster for each (endpoint access, control plane logs,
// secrets encryption, deletion protection), and, in a region with clusters, the support status of the
// Kubernetes versions (DescribeClusterVersions, every version included, so that an unsupported one is listed as
// such). A cluster AWS refuses to describe is unread (by name), one deleted since it was listed is skipped.

const PER_CLUSTER_CONCURRENCY = 4;

interface Slice {
  clusters: EksCluster[];
  unread: Unread[];
}

const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';

export const eksClustersPart = regionalPart({
  part: 'eksClusters',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const eks = session.client((config) => new EKSClient(config), region);
    const names = await foldPages(paginateListClusters({ client: eks }, {}), [] as string[], (into, page) => [
      ...into,
      ...(page.clusters ?? []),
    ]);
    if (names.length === 0) return { clusters: [], unread: [] };
    const versionStatus = await foldPages(
      paginateDescribeClusterVersions({ client: eks }, { includeAll: true }),
      new Map<string, string>(),
      (into, page) => {
        for (const v of page.clusterVersions ?? [])
          if (v.clusterVersion && v.versionStatus) into.set(v.clusterVersion, v.versionStatus);
        return into;
      },
    );
    const unread: Unread[] = [];
    const described = await mapLimit({
      items: names,
      limit: PER_CLUSTER_CONCURRENCY,
      run: async (name): Promise<EksCluster | null> => {
        try {
          const { cluster: c } = await eks.send(new DescribeClusterCommand({ name }));
          if (!c) return null;
          const vpc = c.resourcesVpcConfig;
          return {
            name,
            arn: c.arn ?? name,
            region,
            version: c.version ?? null,
            versionStatus: c.version ? (versionStatus.get(c.version) ?? null) : null,
            endpointPublicAccess: vpc?.endpointPublicAccess ?? false,
            publicAccessCidrs: vpc?.publicAccessCidrs ?? [],
            endpointPrivateAccess: vpc?.endpointPrivateAccess ?? false,
            enabledLogTypes: (c.logging?.clusterLogging ?? []).filter((l) => l.enabled).flatMap((l) => l.types ?? []),
            secretsEncrypted: (c.encryptionConfig ?? []).some(
              (e) => (e.resources ?? []).includes('secrets') && Boolean(e.provider?.keyArn),
            ),
            deletionProtection: c.deletionProtection ?? null,
          };
        } catch (err) {
          if (isAbsent(err, 'ResourceNotFound')) return null;
          if (!denied(err)) throw err;
          unread.push({ kind: 'resource', scope: name, reason: (err as ReadFailure).reason });
          return null;
        }
      },
    });
    return { clusters: described.filter((c): c is EksCluster => c !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ clusters: slices.flatMap((s) => s.clusters) }),
});
