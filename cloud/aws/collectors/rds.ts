import { paginateDescribeDBInstances, RDSClient } from '@aws-sdk/client-rds';
import type { RdsInstance } from '../../../domain/scans/inventory';
import { foldPages, type ReadContext, regionalPart } from './reader';

// RDS DB instances, region by region: one paginated DescribeDBInstances gives every setting the checks read.
// DocumentDB and Neptune instances come back from the same API; they are other services, with controls of their
// own, and are left out (as AWS Security Hub's RDS controls do).

const OTHER_SERVICES = new Set(['docdb', 'neptune']);

export const rdsInstancesPart = regionalPart({
  part: 'rdsInstances',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeDBInstances({ client: session.client((config) => new RDSClient(config), region) }, {}),
      [] as RdsInstance[],
      (into, page) => {
        for (const db of page.DBInstances ?? []) {
          if (!db.DBInstanceIdentifier || OTHER_SERVICES.has(db.Engine ?? '')) continue;
          into.push({
            id: db.DBInstanceIdentifier,
            region,
            engine: db.Engine ?? '',
            storageEncrypted: db.StorageEncrypted ?? false,
            autoMinorVersionUpgrade: db.AutoMinorVersionUpgrade ?? false,
            // Unknown when not reported: never read as private.
            publiclyAccessible: db.PubliclyAccessible ?? null,
            multiAz: db.MultiAZ ?? false,
          });
        }
        return into;
      },
    ),
  assemble: (slices) => ({ instances: slices.flat() }),
});
