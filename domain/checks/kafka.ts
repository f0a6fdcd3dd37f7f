import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// Amazon MSK clusters: brokers on public addresses, clients let in without authenticating or without
// certificates, and traffic in clear text. Serverless clusters pass them all: AWS keeps them private, authenticated
// with IAM and encrypted.

const clusterName = (c: { name: string; region: string }) => `MSK cluster ${c.name} in ${c.region}`;

export const KAFKA_CHECKS: readonly Check[] = [
  {
    id: 'exposure.kafka_public',
    service: 'kafka',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Publicly accessible MSK cluster',
    description:
      'Public access is turned on for the MSK cluster: its brokers have public IP addresses, reachable from the ' +
      'internet wherever its security groups allow, and the topics they hold are one weak credential away.',
    remediation:
      'In the Amazon MSK console open the cluster > Properties > Networking settings > Edit public access, choose ' +
      'Off and save; or run aws kafka update-connectivity --cluster-arn ARN --current-version VERSION ' +
      '--connectivity-info \'{"PublicAccess":{"Type":"DISABLED"}}\'. Reach it from the VPC, a peered VPC or through ' +
      'multi-VPC private connectivity instead.',
    docsUrl: 'https://docs.aws.amazon.com/msk/latest/developerguide/public-access.html',
    controls: { 'aws-fsbp': ['MSK.4'] },
    prowler: ['kafka_cluster_is_public'],
    evaluate: onPart('kafkaClusters', ({ clusters }) =>
      bySetting(clusters, {
        resource: (c) => c.arn,
        fails: (c) => !c.serverless && c.publicAccess,
        detail: (c) => `${clusterName(c)} has public access turned on.`,
      }),
    ),
  },
  {
    id: 'exposure.kafka_unauthenticated_access',
    service: 'kafka',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'MSK cluster lets clients in without authentication',
    description:
      'Unauthenticated access is on for the MSK cluster: any client that reaches a broker can read and write ' +
      'every topic, create and delete them, with no identity to trace.',
    remediation:
      'Turn on an authentication method first (IAM, SASL/SCRAM or mutual TLS) and move the clients to it. Then in ' +
      'the Amazon MSK console open the cluster > Properties > Security settings > Edit, untick "Unauthenticated access" ' +
      'and save; or run aws kafka update-security --cluster-arn ARN --current-version VERSION --client-authentication ' +
      '\'{"Unauthenticated":{"Enabled":false},"Sasl":{"Iam":{"Enabled":true}}}\'.',
    docsUrl: 'https://docs.aws.amazon.com/msk/latest/developerguide/kafka_apis_iam.html',
    controls: { 'aws-fsbp': ['MSK.6'] },
    prowler: ['kafka_cluster_unrestricted_access_disabled'],
    evaluate: onPart('kafkaClusters', ({ clusters }) =>
      bySetting(clusters, {
        resource: (c) => c.arn,
        fails: (c) => !c.serverless && c.unauthenticatedAccess,
        detail: (c) => `${clusterName(c)} lets clients connect without authenticating.`,
      }),
    ),
  },
  {
    id: 'exposure.kafka_plaintext_in_transit',
    service: 'kafka',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'MSK cluster carries data in clear text',
    description:
      'The MSK cluster does not encrypt all traffic: clients may connect in plaintext (client-broker encryption ' +
      'other than TLS) or the brokers replicate to each other unencrypted, so messages can be read on the network.',
    remediation:
      'In the Amazon MSK console open the cluster > Properties > Security settings > Edit, set encryption between ' +
      'clients and brokers to "TLS encryption" only and save (update-security --encryption-info ' +
      '\'{"EncryptionInTransit":{"ClientBroker":"TLS"}}\' with the CLI: aws kafka update-security --cluster-arn ARN ' +
      '--current-version VERSION ...). Encryption between brokers can only be chosen at creation: a cluster without it ' +
      'needs replacing (MirrorMaker or MSK Replicator to a new cluster).',
    docsUrl: 'https://docs.aws.amazon.com/msk/latest/developerguide/msk-encryption.html',
    controls: { 'aws-fsbp': ['MSK.1'] },
    prowler: ['kafka_cluster_in_transit_encryption_enabled'],
    evaluate: onPart('kafkaClusters', ({ clusters }) =>
      bySetting(clusters, {
        resource: (c) => c.arn,
        fails: (c) =>
          c.serverless
            ? false
            : c.clientBrokerEncryption === null
              ? null
              : c.clientBrokerEncryption !== 'TLS' || !c.inClusterEncryption,
        detail: (c) =>
          `${clusterName(c)} encrypts ${c.clientBrokerEncryption === 'TLS' ? 'client traffic' : `client traffic only as ${c.clientBrokerEncryption}`}${c.inClusterEncryption ? '' : ', and not between brokers'}.`,
        unreadReason: "MSK did not report the cluster's encryption in transit.",
      }),
    ),
  },
  {
    id: 'exposure.kafka_tls_authentication_off',
    service: 'kafka',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'MSK cluster without mutual TLS authentication',
    description:
      'Mutual TLS client authentication is off for the MSK cluster: clients are not required to present a ' +
      'certificate from your private CA, which is how Prowler and many teams expect provisioned clusters to authenticate.',
    remediation:
      'Create or choose an AWS Private CA. In the Amazon MSK console open the cluster > Properties > Security ' +
      'settings > Edit, tick "TLS client authentication through AWS Certificate Manager", choose the CA and save; or ' +
      'run aws kafka update-security --cluster-arn ARN --current-version VERSION --client-authentication ' +
      '\'{"Tls":{"CertificateAuthorityArnList":["CA_ARN"],"Enabled":true}}\'. Issue client certificates from the CA.',
    docsUrl: 'https://docs.aws.amazon.com/msk/latest/developerguide/msk-authentication.html',
    prowler: ['kafka_cluster_mutual_tls_authentication_enabled'],
    evaluate: onPart('kafkaClusters', ({ clusters }) =>
      bySetting(clusters, {
        resource: (c) => c.arn,
        fails: (c) => !c.serverless && !c.tlsAuthentication,
        detail: (c) => `${clusterName(c)} does not authenticate clients with TLS certificates.`,
      }),
    ),
  },
];
