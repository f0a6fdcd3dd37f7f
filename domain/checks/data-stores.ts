import type { Unread } from '../scans/inventory';
import { failing, onPart, withUnread } from './helpers';
import type { Check } from './types';

// Data stores: buckets that accept requests in clear, databases and file systems left unencrypted, open to the
// internet or unpatched, and encryption keys that never rotate (CIS AWS Foundations sections 3 and 4.6).

export const DATA_STORE_CHECKS: readonly Check[] = [
  {
    id: 'exposure.s3_bucket_allows_http',
    service: 's3',
    prowler: ['s3_bucket_secure_transport_policy'],
    scenario: 'exposure',
    severity: 'LOW',
    title: 'S3 bucket accepts requests over HTTP',
    description:
      'The bucket policy does not deny requests made without TLS (no Deny statement for everyone, on the ' +
      "bucket's objects, with the condition aws:SecureTransport false), so a client or a misconfigured SDK can read and " +
      'write its objects in clear text, open to interception on the network path.',
    remediation:
      'In the S3 console open the bucket > Permissions > Bucket policy > Edit, and add this statement to the ' +
      'existing ones: {"Sid": "DenyInsecureTransport", "Effect": "Deny", "Principal": "*", "Action": "s3:*", "Resource": ' +
      '["arn:aws:s3:::BUCKET", "arn:aws:s3:::BUCKET/*"], "Condition": {"Bool": {"aws:SecureTransport": "false"}}}. With ' +
      'the CLI, read the current policy (aws s3api get-bucket-policy --bucket BUCKET), add the statement, and write it back ' +
      'whole (aws s3api put-bucket-policy --bucket BUCKET --policy file://policy.json): put-bucket-policy replaces the policy.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/security-best-practices.html',
    controls: { 'cis-aws-7.0': ['3.1.1'], 'aws-fsbp': ['S3.5'] },
    evaluate: onPart('s3Buckets', ({ buckets }) =>
      failing(
        buckets
          .filter((b) => !b.deniesInsecureTransport)
          .map((b) => ({
            resource: b.name,
            region: b.region,
            detail: `Bucket ${b.name} in ${b.region} has no bucket policy statement that denies requests without TLS.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.rds_public',
    service: 'rds',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Publicly accessible RDS instance',
    description:
      'The DB instance is publicly accessible: seen from outside its VPC its endpoint resolves to a public IP ' +
      "address, so only its security groups and its subnets' routes stand between the database port and the internet, " +
      'where database ports are scanned and brute-forced continuously.',
    remediation:
      'In the RDS console select the database > Modify > Connectivity > Additional configuration, choose "Not ' +
      'publicly accessible", then Continue and Apply immediately; or run aws rds modify-db-instance --db-instance-identifier ' +
      'ID --no-publicly-accessible --apply-immediately. Reach the database from inside the VPC (the application, a VPN, or ' +
      'Session Manager port forwarding through an instance) instead.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_VPC.WorkingWithRDSInstanceinaVPC.html',
    controls: { 'cis-aws-7.0': ['3.2.3'], 'aws-fsbp': ['RDS.2'] },
    prowler: ['rds_instance_no_public_access'],
    // An instance whose accessibility RDS did not report is unread, never private.
    evaluate: onPart('rdsInstances', ({ instances }) =>
      withUnread(
        failing(
          instances
            .filter((db) => db.publiclyAccessible === true)
            .map((db) => ({
              resource: db.id,
              region: db.region,
              detail: `DB instance ${db.id} (${db.engine}) in ${db.region} is publicly accessible.`,
            })),
        ),
        instances
          .filter((db) => db.publiclyAccessible === null)
          .map(
            (db): Unread => ({
              kind: 'resource',
              scope: db.id,
              reason: 'RDS did not report whether the DB instance is publicly accessible (PubliclyAccessible).',
            }),
          ),
      ),
    ),
  },
  {
    id: 'exposure.rds_unencrypted',
    service: 'rds',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'RDS instance not encrypted at rest',
    description:
      "The DB instance's storage is not encrypted, and neither are its automated backups, snapshots and read " +
      'replicas: anyone who gets hold of a snapshot or the underlying storage reads the data, and data protection rules ' +
      'that require encryption at rest are not met.',
    remediation:
      'Encryption cannot be turned on for an existing instance. Take a snapshot (aws rds create-db-snapshot), copy ' +
      'it with encryption (RDS console > Snapshots > Actions > Copy snapshot > Enable encryption, or aws rds ' +
      'copy-db-snapshot --kms-key-id KEY), restore a new instance from the encrypted copy (aws rds ' +
      'restore-db-instance-from-db-snapshot), move the application to it, and delete the old instance. For Aurora, ' +
      'restore the cluster from an encrypted snapshot. Consider an SCP that denies rds:CreateDBInstance unless ' +
      'rds:StorageEncrypted is true.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/Overview.Encryption.html',
    controls: { 'cis-aws-7.0': ['3.2.1'], 'aws-fsbp': ['RDS.3'] },
    prowler: ['rds_instance_storage_encrypted'],
    evaluate: onPart('rdsInstances', ({ instances }) =>
      failing(
        instances
          .filter((db) => !db.storageEncrypted)
          .map((db) => ({
            resource: db.id,
            region: db.region,
            detail: `DB instance ${db.id} (${db.engine}) in ${db.region} is not encrypted at rest.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.rds_minor_upgrades_off',
    service: 'rds',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'RDS instance without automatic minor version upgrades',
    description:
      "Auto minor version upgrade is off for the DB instance, so the security fixes of its engine's minor " +
      'versions are applied only when someone upgrades it by hand, which is easily forgotten.',
    remediation:
      'In the RDS console select the database > Modify > Maintenance, tick "Enable auto minor version upgrade", ' +
      'then Continue and apply; or run aws rds modify-db-instance --db-instance-identifier ID --auto-minor-version-upgrade ' +
      "--apply-immediately. Upgrades then happen in the instance's maintenance window: set one that suits the application.",
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_UpgradeDBInstance.Upgrading.html',
    controls: { 'cis-aws-7.0': ['3.2.2'], 'aws-fsbp': ['RDS.13'] },
    prowler: ['rds_instance_minor_version_upgrade_enabled'],
    evaluate: onPart('rdsInstances', ({ instances }) =>
      failing(
        instances
          .filter((db) => !db.autoMinorVersionUpgrade)
          .map((db) => ({
            resource: db.id,
            region: db.region,
            detail: `DB instance ${db.id} (${db.engine}) in ${db.region} does not upgrade minor versions automatically.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.efs_unencrypted',
    service: 'efs',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'EFS file system not encrypted at rest',
    description:
      'The EFS file system stores its files unencrypted: data protection rules that require encryption at rest ' +
      'are not met, and the data has no KMS key policy to stand behind.',
    remediation:
      'Encryption can only be chosen when a file system is created. Create an encrypted file system (EFS console > ' +
      'Create file system > Customize > Enable encryption of data at rest, or aws efs create-file-system --encrypted ' +
      '--kms-key-id KEY), copy the files with AWS DataSync, move the mounts to it, and delete the old one. An SCP that ' +
      'denies elasticfilesystem:CreateFileSystem unless elasticfilesystem:Encrypted is true keeps new ones encrypted.',
    docsUrl: 'https://docs.aws.amazon.com/efs/latest/ug/encryption.html',
    controls: { 'cis-aws-7.0': ['3.3.1'], 'aws-fsbp': ['EFS.1'] },
    evaluate: onPart('efsFileSystems', ({ fileSystems }) =>
      failing(
        fileSystems
          .filter((fs) => !fs.encrypted)
          .map((fs) => ({
            resource: fs.id,
            region: fs.region,
            detail: `EFS file system ${fs.id}${fs.name ? ` (${fs.name})` : ''} in ${fs.region} is not encrypted at rest.`,
          })),
      ),
    ),
  },
  {
    id: 'detection.kms_rotation_off',
    service: 'kms',
    scenario: 'detection',
    severity: 'LOW',
    title: 'KMS key without automatic rotation',
    description:
      'Automatic rotation is off for an enabled customer managed symmetric KMS key: its key material never ' +
      'changes, so anything encrypted with it stays exposed to one compromised key for as long as the key lives. AWS ' +
      'managed keys rotate on their own; imported and asymmetric keys cannot rotate and are not checked.',
    remediation:
      'In the KMS console open Customer managed keys > the key > Key rotation, tick "Automatically rotate this ' +
      'KMS key" and save (choose a period from 90 to 2560 days; a year by default); or run aws kms enable-key-rotation ' +
      "--key-id KEY_ID. Rotation keeps the key's id and old material, so nothing that uses the key changes.",
    prowler: ['kms_cmk_rotation_enabled'],
    docsUrl: 'https://docs.aws.amazon.com/kms/latest/developerguide/rotate-keys.html',
    controls: { 'cis-aws-7.0': ['4.6'], 'aws-fsbp': ['KMS.4'] },
    evaluate: onPart('kmsKeys', ({ keys }) =>
      failing(
        keys
          .filter((key) => !key.rotationEnabled)
          .map((key) => ({
            resource: key.arn,
            region: key.region,
            detail: `KMS key ${key.id} in ${key.region} does not rotate automatically.`,
          })),
      ),
    ),
  },
];
