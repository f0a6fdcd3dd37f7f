import {
  DatabaseMigrationServiceClient,
  paginateDescribeEndpoints,
  paginateDescribeReplicationInstances,
} from '@aws-sdk/client-database-migration-service';
import type { DmsEndpoint, DmsReplicationInstance } from '../../../domain/scans/inventory';
import { foldPages, type ReadContext, regionalPart } from './reader';

// AWS Database Migration Service, region by region: its replication instances (which may sit on a public address)
// and its endpoints (the databases they connect to, and whether over TLS). Two paginated calls a region.

interface Slice {
  instances: DmsReplicationInstance[];
  endpoints: DmsEndpoint[];
}

export const dmsPart = regionalPart({
  part: 'dms',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const dms = session.client((config) => new DatabaseMigrationServiceClient(config), region);
    const [instances, endpoints] = await Promise.all([
      foldPages(
        paginateDescribeReplicationInstances({ client: dms }, {}),
        [] as DmsReplicationInstance[],
        (into, page) => {
          for (const i of page.ReplicationInstances ?? []) {
            if (!i.ReplicationInstanceIdentifier) continue;
            into.push({
              id: i.ReplicationInstanceIdentifier,
              arn: i.ReplicationInstanceArn ?? i.ReplicationInstanceIdentifier,
              region,
              // Unknown when not reported: never read as private.
              publiclyAccessible: i.PubliclyAccessible ?? null,
              autoMinorVersionUpgrade: i.AutoMinorVersionUpgrade ?? false,
            });
          }
          return into;
        },
      ),
      foldPages(paginateDescribeEndpoints({ client: dms }, {}), [] as DmsEndpoint[], (into, page) => {
        for (const e of page.Endpoints ?? []) {
          if (!e.EndpointIdentifier) continue;
          into.push({
            id: e.EndpointIdentifier,
            arn: e.EndpointArn ?? e.EndpointIdentifier,
            region,
            engine: e.EngineName ?? '',
            // AWS documents none as the default: an endpoint that does not say otherwise does not use TLS.
            sslMode: e.SslMode ?? 'none',
          });
        }
        return into;
      }),
    ]);
    return { instances, endpoints };
  },
  assemble: (slices) => ({
    instances: slices.flatMap((s) => s.instances),
    endpoints: slices.flatMap((s) => s.endpoints),
  }),
});
