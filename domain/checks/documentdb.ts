import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// Amazon DocumentDB, read through the RDS API that serves it (engine docdb): cluster snapshots anyone can restore
// and clusters stored unencrypted.

const isDocumentDb = (item: { engine: string }) => item.engine === 'docdb';

export const DOCUMENTDB_CHECKS: readonly Check[] = [
  {
    id: 'exposure.documentdb_snapshot_public',
    service: 'documentdb',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'DocumentDB cluster snapshot restorable by any AWS account',
    description:
      'A manual DocumentDB cluster snapshot is shared with "all": any AWS account can restore a cluster from it ' +
      'and read every document it held when it was taken.',
    remediation:
      'In the DocumentDB console open Snapshots > the snapshot > Actions > Share, set visibility to Private and ' +
      'save; or run aws docdb modify-db-cluster-snapshot-attribute --db-cluster-snapshot-identifier ID --attribute-name ' +
      'restore --values-to-remove all. Share with named account ids where another account needs it, and treat what the ' +
      'snapshot held as exposed.',
    docsUrl: 'https://docs.aws.amazon.com/documentdb/latest/developerguide/backup_restore-share_cluster_snapshots.html',
    controls: { 'aws-fsbp': ['DocumentDB.3'] },
    prowler: ['documentdb_cluster_public_snapshot'],
    evaluate: onPart('rdsSnapshots', ({ snapshots }) =>
      bySetting(snapshots.filter(isDocumentDb), {
        resource: (s) => s.arn,
        fails: (s) => s.public,
        detail: (s) => `DocumentDB cluster snapshot ${s.id} in ${s.region} can be restored by any AWS account.`,
        unreadReason: "DocumentDB refused the snapshot's attributes, which say who may restore it.",
      }),
    ),
  },
  {
    id: 'exposure.documentdb_cluster_unencrypted',
    service: 'documentdb',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'DocumentDB cluster not encrypted at rest',
    description:
      "The DocumentDB cluster's storage, backups and snapshots are not encrypted: anyone who gets hold of a " +
      'snapshot reads the data, and rules that require encryption at rest are not met.',
    remediation:
      'Encryption is chosen when a cluster is created. Take a snapshot (aws docdb create-db-cluster-snapshot), ' +
      'restore it into a new cluster with encryption on (DocumentDB console > Snapshots > Restore > Encryption at rest: ' +
      'Enable, or aws docdb restore-db-cluster-from-snapshot --kms-key-id KEY), move the application to it and delete the ' +
      'old cluster.',
    docsUrl: 'https://docs.aws.amazon.com/documentdb/latest/developerguide/encryption-at-rest.html',
    controls: { 'aws-fsbp': ['DocumentDB.1'] },
    prowler: ['documentdb_cluster_storage_encrypted'],
    evaluate: onPart('rdsClusters', ({ clusters }) =>
      bySetting(clusters.filter(isDocumentDb), {
        resource: (c) => c.arn,
        fails: (c) => !c.storageEncrypted,
        detail: (c) => `DocumentDB cluster ${c.id} in ${c.region} is not encrypted at rest.`,
      }),
    ),
  },
];
