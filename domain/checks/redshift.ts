import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// Amazon Redshift provisioned clusters: reachable from the internet, stored or connected to unencrypted, without
// automated snapshots, or held back from version upgrades.

export const REDSHIFT_CHECKS: readonly Check[] = [
  {
    id: 'exposure.redshift_public',
    service: 'redshift',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Publicly accessible Redshift cluster',
    description:
      'The Redshift cluster is publicly accessible: its endpoint resolves to a public IP address, so only its ' +
      'security groups and subnet routes stand between the warehouse port and the internet, where it is scanned and ' +
      'brute-forced.',
    remediation:
      'In the Redshift console open the cluster > Actions > Modify publicly accessible setting, turn it off and ' +
      'save; or run aws redshift modify-cluster --cluster-identifier ID --no-publicly-accessible. Reach the cluster from ' +
      'inside the VPC (the application, a VPN, or Session Manager port forwarding) instead.',
    docsUrl: 'https://docs.aws.amazon.com/redshift/latest/mgmt/managing-clusters-vpc.html',
    controls: { 'aws-fsbp': ['Redshift.1'] },
    prowler: ['redshift_cluster_public_access'],
    evaluate: onPart('redshiftClusters', ({ clusters }) =>
      bySetting(clusters, {
        resource: (c) => c.id,
        fails: (c) => c.publiclyAccessible,
        detail: (c) => `Redshift cluster ${c.id} in ${c.region} is publicly accessible.`,
        unreadReason: 'Redshift did not report whether the cluster is publicly accessible (PubliclyAccessible).',
      }),
    ),
  },
  {
    id: 'exposure.redshift_unencrypted',
    service: 'redshift',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Redshift cluster not encrypted at rest',
    description:
      "The Redshift cluster's data blocks, metadata and snapshots are stored unencrypted: whoever gets hold of a " +
      'snapshot or the storage reads the warehouse, and rules that require encryption at rest are not met.',
    remediation:
      'In the Redshift console open the cluster > Properties > Database configurations > Edit encryption, choose ' +
      'AWS KMS (an AWS owned or customer managed key) and save; or run aws redshift modify-cluster --cluster-identifier ' +
      'ID --encrypted --kms-key-id KEY. Redshift migrates the data to an encrypted cluster; plan for the read-only ' +
      'period it takes.',
    docsUrl: 'https://docs.aws.amazon.com/redshift/latest/mgmt/working-with-db-encryption.html',
    controls: { 'aws-fsbp': ['Redshift.10'] },
    prowler: ['redshift_cluster_encrypted_at_rest'],
    evaluate: onPart('redshiftClusters', ({ clusters }) =>
      bySetting(clusters, {
        resource: (c) => c.id,
        fails: (c) => !c.encrypted,
        detail: (c) => `Redshift cluster ${c.id} in ${c.region} is not encrypted at rest.`,
      }),
    ),
  },
  {
    id: 'exposure.redshift_automated_snapshots_off',
    service: 'redshift',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Redshift cluster without automated snapshots',
    description:
      'The Redshift cluster keeps no automated snapshots (a retention period of 0 days): a deleted table, a ' +
      'corrupted load or a ransomware-style wipe cannot be undone to a recent point.',
    remediation:
      'In the Redshift console open the cluster > Maintenance > Backup details > Edit, set the automated snapshot ' +
      'retention period to 1 to 35 days (7 or more is what AWS Security Hub asks) and save; or run aws redshift ' +
      'modify-cluster --cluster-identifier ID --automated-snapshot-retention-period 7.',
    docsUrl: 'https://docs.aws.amazon.com/redshift/latest/mgmt/working-with-snapshots.html',
    controls: { 'aws-fsbp': ['Redshift.3'] },
    prowler: ['redshift_cluster_automated_snapshot'],
    evaluate: onPart('redshiftClusters', ({ clusters }) =>
      bySetting(clusters, {
        resource: (c) => c.id,
        fails: (c) => c.automatedSnapshotRetentionDays === 0,
        detail: (c) => `Redshift cluster ${c.id} in ${c.region} takes no automated snapshots.`,
      }),
    ),
  },
  {
    id: 'exposure.redshift_ssl_not_required',
    service: 'redshift',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Redshift cluster accepts connections without TLS',
    description:
      "The cluster's parameter group does not set require_ssl to true, so clients may connect in clear text: " +
      'queries, results and database credentials can be read on the network path.',
    remediation:
      'In the Redshift console open Configurations > Workload management > the parameter group of the cluster (a ' +
      'custom one: default groups cannot be edited) > Parameters > Edit, set require_ssl to true and save, then reboot ' +
      'the cluster; or run aws redshift modify-cluster-parameter-group --parameter-group-name GROUP --parameters ' +
      'ParameterName=require_ssl,ParameterValue=true and aws redshift reboot-cluster --cluster-identifier ID. A cluster ' +
      'on a default group needs a custom group first (aws redshift create-cluster-parameter-group, then modify-cluster ' +
      '--cluster-parameter-group-name).',
    docsUrl: 'https://docs.aws.amazon.com/redshift/latest/mgmt/connecting-ssl-support.html',
    controls: { 'aws-fsbp': ['Redshift.2'] },
    prowler: ['redshift_cluster_in_transit_encryption_enabled'],
    evaluate: onPart('redshiftClusters', ({ clusters }) =>
      bySetting(clusters, {
        resource: (c) => c.id,
        fails: (c) => (c.requireSsl === null ? null : !c.requireSsl),
        detail: (c) => `Redshift cluster ${c.id} in ${c.region} does not require TLS (require_ssl is not true).`,
        unreadReason: "The parameters of the cluster's parameter group could not be read (require_ssl).",
      }),
    ),
  },
  {
    id: 'exposure.redshift_version_upgrades_off',
    service: 'redshift',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Redshift cluster without automatic version upgrades',
    description:
      'Version upgrades are off for the Redshift cluster (AllowVersionUpgrade false): the engine versions that ' +
      'bring its security fixes are not applied in the maintenance window.',
    remediation:
      'In the Redshift console open the cluster > Maintenance > Edit, turn on "Allow version upgrade" and save; or ' +
      'run aws redshift modify-cluster --cluster-identifier ID --allow-version-upgrade.',
    docsUrl: 'https://docs.aws.amazon.com/redshift/latest/mgmt/working-with-clusters.html',
    controls: { 'aws-fsbp': ['Redshift.6'] },
    prowler: ['redshift_cluster_automatic_upgrades'],
    evaluate: onPart('redshiftClusters', ({ clusters }) =>
      bySetting(clusters, {
        resource: (c) => c.id,
        fails: (c) => !c.allowVersionUpgrade,
        detail: (c) => `Redshift cluster ${c.id} in ${c.region} does not allow version upgrades.`,
      }),
    ),
  },
];
