import type { RdsSnapshot } from '../scans/inventory';
import { daysSince, onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// RDS and Aurora beyond the instance settings of data-stores.ts: snapshots anyone can restore, clusters and
// snapshots stored unencrypted, instances outside a VPC, and server certificates about to expire. DocumentDB and
// Neptune, which the same API serves, have their own files.

/** The engines of other services that the RDS API also lists. */
export const isRdsEngine = (engine: string) => engine !== 'docdb' && engine !== 'neptune';

/** Days before a certificate's expiry from which it fails: the 3 months Prowler starts failing at. */
export const CERTIFICATE_NOTICE_DAYS = 90;

const snapshotName = (s: RdsSnapshot) => `${s.kind === 'cluster' ? 'DB cluster snapshot' : 'DB snapshot'} ${s.id}`;

export const RDS_CHECKS: readonly Check[] = [
  {
    id: 'exposure.rds_snapshot_public',
    service: 'rds',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'RDS snapshot restorable by any AWS account',
    description:
      'A manual DB snapshot or DB cluster snapshot is shared with "all": any AWS account can copy it or restore ' +
      'a database from it, and so read every row the database held when it was taken (credentials, customer data), ' +
      'with nothing in the account to show it happened.',
    remediation:
      'In the RDS console open Snapshots > Manual > the snapshot > Actions > Share snapshot, set DB snapshot ' +
      'visibility to Private and save (share with named account ids instead if another account needs it). With the CLI: ' +
      'aws rds modify-db-snapshot-attribute --db-snapshot-identifier ID --attribute-name restore --values-to-remove all, ' +
      'or for a cluster snapshot aws rds modify-db-cluster-snapshot-attribute --db-cluster-snapshot-identifier ID ' +
      '--attribute-name restore --values-to-remove all. Treat what the snapshot held as exposed.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_ShareSnapshot.html',
    controls: { 'aws-fsbp': ['RDS.1'] },
    prowler: ['rds_snapshots_public_access'],
    evaluate: onPart('rdsSnapshots', ({ snapshots }) =>
      bySetting(
        snapshots.filter((s) => isRdsEngine(s.engine)),
        {
          resource: (s) => s.arn,
          fails: (s) => s.public,
          detail: (s) => `${snapshotName(s)} (${s.engine}) in ${s.region} can be restored by any AWS account.`,
          unreadReason: "RDS refused the snapshot's attributes, which say who may restore it.",
        },
      ),
    ),
  },
  {
    id: 'exposure.rds_snapshot_unencrypted',
    service: 'rds',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'RDS snapshot not encrypted',
    description:
      'A DB snapshot or DB cluster snapshot is stored unencrypted: whoever it is shared with, or restores it, ' +
      'reads the data with no KMS key policy to stand in the way, and rules that require encryption at rest are not met.',
    remediation:
      'Copy the snapshot with encryption (RDS console > Snapshots > the snapshot > Actions > Copy snapshot > Enable ' +
      'encryption, choosing a KMS key; or aws rds copy-db-snapshot --source-db-snapshot-identifier ID ' +
      '--target-db-snapshot-identifier ID-encrypted --kms-key-id KEY, aws rds copy-db-cluster-snapshot for a cluster ' +
      'snapshot), then delete the unencrypted one (aws rds delete-db-snapshot). Snapshots of an encrypted database are ' +
      'encrypted: encrypt the database itself too.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_CopySnapshot.html',
    controls: { 'aws-fsbp': ['RDS.4'] },
    prowler: ['rds_snapshots_encrypted'],
    evaluate: onPart('rdsSnapshots', ({ snapshots }) =>
      bySetting(
        snapshots.filter((s) => isRdsEngine(s.engine)),
        {
          resource: (s) => s.arn,
          fails: (s) => !s.encrypted,
          detail: (s) => `${snapshotName(s)} (${s.engine}) in ${s.region} is not encrypted.`,
        },
      ),
    ),
  },
  {
    id: 'exposure.rds_cluster_unencrypted',
    service: 'rds',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'RDS DB cluster not encrypted at rest',
    description:
      "The Aurora or Multi-AZ DB cluster's storage is not encrypted, and neither are its backups and snapshots: " +
      'anyone who gets hold of a snapshot reads the data, and rules that require encryption at rest are not met.',
    remediation:
      'Encryption cannot be turned on for an existing cluster. Take a cluster snapshot (aws rds ' +
      'create-db-cluster-snapshot), copy it with encryption (RDS console > Snapshots > Actions > Copy snapshot > Enable ' +
      'encryption, or aws rds copy-db-cluster-snapshot --kms-key-id KEY), restore a new cluster from the copy (aws rds ' +
      'restore-db-cluster-from-snapshot), move the application to it and delete the old cluster.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/Overview.Encryption.html',
    controls: { 'aws-fsbp': ['RDS.27'] },
    prowler: ['rds_cluster_storage_encrypted'],
    evaluate: onPart('rdsClusters', ({ clusters }) =>
      bySetting(
        clusters.filter((c) => isRdsEngine(c.engine)),
        {
          resource: (c) => c.arn,
          fails: (c) => !c.storageEncrypted,
          detail: (c) => `DB cluster ${c.id} (${c.engine}) in ${c.region} is not encrypted at rest.`,
        },
      ),
    ),
  },
  {
    id: 'exposure.rds_instance_outside_vpc',
    service: 'rds',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'RDS instance not in a VPC',
    description:
      'The DB instance reports no VPC (no DB subnet group with a VPC): it runs outside the network isolation, ' +
      'security groups and flow logs a VPC gives, on a platform AWS has retired.',
    remediation:
      'Move the instance into a VPC: create a DB subnet group in the VPC (RDS console > Subnet groups > Create, or ' +
      'aws rds create-db-subnet-group), then RDS console > the database > Modify > Connectivity, choose the subnet group ' +
      'and apply (aws rds modify-db-instance --db-instance-identifier ID --db-subnet-group-name GROUP ' +
      '--apply-immediately); or restore a snapshot into the VPC.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_VPC.html',
    controls: { 'aws-fsbp': ['RDS.18'] },
    prowler: ['rds_instance_inside_vpc'],
    evaluate: onPart('rdsInstances', ({ instances }) =>
      bySetting(instances, {
        resource: (db) => db.id,
        fails: (db) => db.vpcId === null,
        detail: (db) => `DB instance ${db.id} (${db.engine}) in ${db.region} is not in a VPC.`,
      }),
    ),
  },
  {
    id: 'exposure.rds_certificate_expiring',
    service: 'rds',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'RDS instance certificate expires within 90 days',
    description:
      'The server certificate the DB instance presents to TLS clients expires within 90 days, or already has: ' +
      'clients that verify it stop connecting when it does, and the usual way around it is to turn verification off.',
    remediation:
      'In the RDS console select the database > Modify > Connectivity > Certificate authority, choose a current ' +
      'CA (rds-ca-rsa2048-g1 or newer) and apply (aws rds modify-db-instance --db-instance-identifier ID ' +
      '--ca-certificate-identifier rds-ca-rsa2048-g1 --apply-immediately; the instance restarts unless the engine ' +
      'rotates without one). Update the CA bundle the clients trust first.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/UsingWithRDS.SSL-certificate-rotation.html',
    prowler: ['rds_instance_certificate_expiration'],
    evaluate: onPart('rdsInstances', ({ instances }, { now }) =>
      bySetting(instances, {
        resource: (db) => db.id,
        fails: (db) =>
          db.certificateValidTill === null ? null : -daysSince(db.certificateValidTill, now) < CERTIFICATE_NOTICE_DAYS,
        detail: (db) => {
          const left = Math.floor(-daysSince(db.certificateValidTill as string, now));
          return left < 0
            ? `The certificate of DB instance ${db.id} in ${db.region} expired on ${db.certificateValidTill?.slice(0, 10)}.`
            : `The certificate of DB instance ${db.id} in ${db.region} expires on ${db.certificateValidTill?.slice(0, 10)}, in ${left} days.`;
        },
        unreadReason: 'RDS did not report when the certificate of the DB instance expires (CertificateDetails).',
      }),
    ),
  },
];
