import { ElastiCacheClient, paginateDescribeReplicationGroups } from '@aws-sdk/client-elasticache';
import type { ElastiCacheReplicationGroup } from '../../../domain/scans/inventory';
import { foldPages, type ReadContext, regionalPart } from './reader';

// ElastiCache replication groups (Redis OSS and Valkey: Memcached has none), region by region: one paginated
// DescribeReplicationGroups reports backups, encryption at rest and in transit, and minor version upgrades.

export const elasticacheReplicationGroupsPart = regionalPart({
  part: 'elasticacheReplicationGroups',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeReplicationGroups(
        { client: session.client((config) => new ElastiCacheClient(config), region) },
        {},
      ),
      [] as ElastiCacheReplicationGroup[],
      (into, page) => {
        for (const g of page.ReplicationGroups ?? []) {
          if (!g.ReplicationGroupId) continue;
          into.push({
            id: g.ReplicationGroupId,
            arn: g.ARN ?? g.ReplicationGroupId,
            region,
            engine: g.Engine ?? 'redis',
            snapshotRetentionDays: g.SnapshotRetentionLimit ?? 0,
            atRestEncryption: g.AtRestEncryptionEnabled ?? false,
            transitEncryption: g.TransitEncryptionEnabled ?? false,
            // Unknown when not reported: never read as upgrading.
            autoMinorVersionUpgrade: g.AutoMinorVersionUpgrade ?? null,
          });
        }
        return into;
      },
    ),
  assemble: (slices) => ({ groups: slices.flat() }),
});
