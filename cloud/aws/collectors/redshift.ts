import {
  type Cluster,
  paginateDescribeClusterParameters,
  paginateDescribeClusters,
  RedshiftClient,
} from '@aws-sdk/client-redshift';
import type { RedshiftCluster } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// Amazon Redshift provisioned clusters, region by region: DescribeClusters, then the parameters of each parameter
// group the clusters use (once per group, not per cluster), for require_ssl. A group whose parameters are refused
// leaves its clusters' TLS setting unknown (null), never passing.

const PER_GROUP_CONCURRENCY = 4;

const groupOf = (cluster: Cluster) => cluster.ClusterParameterGroups?.[0]?.ParameterGroupName;

export const redshiftClustersPart = regionalPart({
  part: 'redshiftClusters',
  async read({ session }: ReadContext, region: string): Promise<RedshiftCluster[]> {
    const redshift = session.client((config) => new RedshiftClient(config), region);
    const clusters = await foldPages(
      paginateDescribeClusters({ client: redshift }, {}),
      [] as Cluster[],
      (into, page) => {
        into.push(...(page.Clusters ?? []).filter((c) => c.ClusterIdentifier));
        return into;
      },
    );
    const groups = [...new Set(clusters.flatMap((c) => groupOf(c) ?? []))];
    const requireSsl = new Map<string, boolean | null>();
    await mapLimit({
      items: groups,
      limit: PER_GROUP_CONCURRENCY,
      run: async (group) => {
        try {
          const value = await foldPages(
            paginateDescribeClusterParameters({ client: redshift }, { ParameterGroupName: group }),
            undefined as string | undefined,
            (found, page) => found ?? page.Parameters?.find((p) => p.ParameterName === 'require_ssl')?.ParameterValue,
          );
          requireSsl.set(group, value?.toLowerCase() === 'true');
        } catch (err) {
          if (!(err instanceof ReadFailure && err.kind === 'denied')) throw err;
          requireSsl.set(group, null);
        }
      },
    });
    return clusters.map((c) => {
      const group = groupOf(c);
      return {
        id: c.ClusterIdentifier as string,
        region,
        // Unknown when not reported: never read as private.
        publiclyAccessible: c.PubliclyAccessible ?? null,
        encrypted: c.Encrypted ?? false,
        automatedSnapshotRetentionDays: c.AutomatedSnapshotRetentionPeriod ?? 0,
        requireSsl: group ? (requireSsl.get(group) ?? null) : null,
        allowVersionUpgrade: c.AllowVersionUpgrade ?? false,
      };
    });
  },
  assemble: (slices) => ({ clusters: slices.flat() }),
});
