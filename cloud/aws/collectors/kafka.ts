import { KafkaClient, paginateListClustersV2 } from '@aws-sdk/client-kafka';
import type { KafkaCluster } from '../../../domain/scans/inventory';
import { foldPages, type ReadContext, regionalPart } from './reader';

// Amazon MSK clusters, region by region: one paginated ListClustersV2 reports every provisioned cluster's
// connectivity, client authentication and encryption in transit. Serverless clusters have none of these settings:
// AWS keeps them private, authenticated (IAM) and encrypted.

export const kafkaClustersPart = regionalPart({
  part: 'kafkaClusters',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateListClustersV2({ client: session.client((config) => new KafkaClient(config), region) }, {}),
      [] as KafkaCluster[],
      (into, page) => {
        for (const c of page.ClusterInfoList ?? []) {
          if (!c.ClusterName) continue;
          const provisioned = c.Provisioned;
          const auth = provisioned?.ClientAuthentication;
          const transit = provisioned?.EncryptionInfo?.EncryptionInTransit;
          into.push({
            name: c.ClusterName,
            arn: c.ClusterArn ?? c.ClusterName,
            region,
            serverless: c.ClusterType === 'SERVERLESS',
            publicAccess:
              (provisioned?.BrokerNodeGroupInfo?.ConnectivityInfo?.PublicAccess?.Type ?? 'DISABLED') !== 'DISABLED',
            unauthenticatedAccess: auth?.Unauthenticated?.Enabled ?? false,
            tlsAuthentication: auth?.Tls?.Enabled ?? false,
            // MSK's default when a cluster is created without saying: TLS between clients and brokers and within.
            clientBrokerEncryption: transit ? (transit.ClientBroker ?? 'TLS') : null,
            inClusterEncryption: transit?.InCluster ?? true,
          });
        }
        return into;
      },
    ),
  assemble: (slices) => ({ clusters: slices.flat() }),
});
