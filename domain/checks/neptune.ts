import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// Amazon Neptune, read through the RDS API that serves it (engine neptune): cluster snapshots anyone can restore,
// and clusters and snapshots stored unencrypted.

const isNeptune = (item: { engine: string }) => item.engine === 'neptune';

export const NEPTUNE_CHECKS: readonly Check[] = [
  {
    id: 'exposure.neptune_snapshot_public',
    service: 'neptune',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Neptune cluster snapshot restorable by any AWS account',
    description:
      'A manual Neptune DB cluster snapshot is shared with "all": any AWS account can restore a cluster from it ' +
      'and read the whole graph it held when it was taken.',
    remediation:
      'In the Neptune console open Snapshots > the snapshot > Actions > Share snapshot, set visibility to Private ' +
      'and save; or run aws neptune modify-db-cluster-snapshot-attribute --db-cluster-snapshot-identifier ID ' +
      '--attribute-name restore --values-to-remove all. Treat what the snapshot held as exposed.',
    docsUrl: 'https://docs.aws.amazon.com/neptune/latest/userguide/security-considerations.html',
    controls: { 'aws-fsbp': ['Neptune.3'] },
    prowler: ['neptune_cluster_public_snapshot'],
    evaluate: onPart('rdsSnapshots', ({ snapshots }) =>
      bySetting(snapshots.filter(isNeptune), {
        resource: (s) => s.arn,
        fails: (s) => s.public,
        detail: (s) => `Neptune cluster snapshot ${s.id} in ${s.region} can be restored by any AWS account.`,
        unreadReason: "Neptune refused the snapshot's attributes, which say who may restore it.",
      }),
    ),
  },
  {
    id: 'exposure.neptune_cluster_unencrypted',
    service: 'neptune',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Neptune cluster not encrypted at rest',
    description:
      "The Neptune cluster's storage, backups and snapshots are not encrypted: anyone who gets hold of a snapshot " +
      'reads the graph, and rules that require encryption at rest are not met.',
    remediation:
      'Encryption is chosen when a cluster is created. Take a snapshot (aws neptune create-db-cluster-snapshot), ' +
      'restore it into a new cluster with encryption on (Neptune console > Snapshots > Restore snapshot > Enable ' +
      'encryption, or aws neptune restore-db-cluster-from-snapshot --kms-key-id KEY), move the application to it and ' +
      'delete the old cluster.',
    docsUrl: 'https://docs.aws.amazon.com/neptune/latest/userguide/encrypt.html',
    controls: { 'aws-fsbp': ['Neptune.1'] },
    prowler: ['neptune_cluster_storage_encrypted'],
    evaluate: onPart('rdsClusters', ({ clusters }) =>
      bySetting(clusters.filter(isNeptune), {
        resource: (c) => c.arn,
        fails: (c) => !c.storageEncrypted,
        detail: (c) => `Neptune cluster ${c.id} in ${c.region} is not encrypted at rest.`,
      }),
    ),
  },
  {
    id: 'exposure.neptune_snapshot_unencrypted',
    service: 'neptune',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Neptune cluster snapshot not encrypted',
    description:
      'A Neptune DB cluster snapshot is stored unencrypted: whoever restores or is given it reads the graph, with ' +
      'no KMS key policy to stand in the way.',
    remediation:
      'Copy the snapshot with encryption (Neptune console > Snapshots > the snapshot > Actions > Copy snapshot > ' +
      'Enable encryption; or aws neptune copy-db-cluster-snapshot --source-db-cluster-snapshot-identifier ID ' +
      '--target-db-cluster-snapshot-identifier ID-encrypted --kms-key-id KEY), then delete the unencrypted one (aws ' +
      'neptune delete-db-cluster-snapshot). Encrypt the cluster itself too.',
    docsUrl: 'https://docs.aws.amazon.com/neptune/latest/userguide/encrypt.html',
    controls: { 'aws-fsbp': ['Neptune.6'] },
    prowler: ['neptune_cluster_snapshot_encrypted'],
    evaluate: onPart('rdsSnapshots', ({ snapshots }) =>
      bySetting(snapshots.filter(isNeptune), {
        resource: (s) => s.arn,
        fails: (s) => !s.encrypted,
        detail: (s) => `Neptune cluster snapshot ${s.id} in ${s.region} is not encrypted.`,
      }),
    ),
  },
];
