import { onPart, onParts } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// EBS volumes and snapshots stored unencrypted, and regions whose snapshots can still be shared publicly.

export const EBS_STORAGE_CHECKS: readonly Check[] = [
  {
    id: 'exposure.ebs_volume_unencrypted',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EBS volume not encrypted',
    description:
      'The EBS volume, and every snapshot taken of it, is stored unencrypted: a snapshot shared by mistake or ' +
      'copied out of the account is readable by whoever gets it, with no KMS key policy to stand in the way.',
    remediation:
      'An existing volume cannot be encrypted in place. Snapshot it (EC2 console > Volumes > Actions > Create ' +
      'snapshot, or aws ec2 create-snapshot --volume-id VOL), copy the snapshot with encryption (aws ec2 copy-snapshot ' +
      '--source-snapshot-id SNAP --source-region REGION --encrypted --kms-key-id KEY), create a volume from the copy, ' +
      'swap it in for the old one (stop the instance, detach, attach) and delete the old volume. Turn on EBS ' +
      'encryption by default so new volumes are encrypted.',
    docsUrl: 'https://docs.aws.amazon.com/ebs/latest/userguide/ebs-encryption.html',
    controls: { 'aws-fsbp': ['EC2.3'] },
    prowler: ['ec2_ebs_volume_encryption'],
    evaluate: onPart('ebsVolumes', ({ unencrypted }) =>
      bySetting(unencrypted, {
        resource: (v) => v.id,
        fails: () => true,
        detail: (v) => `EBS volume ${v.id} in ${v.region} is not encrypted.`,
      }),
    ),
  },
  {
    id: 'exposure.ebs_snapshot_unencrypted',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EBS snapshot not encrypted',
    description:
      'The EBS snapshot is stored unencrypted: if it is shared or made public, by mistake or by an attacker, ' +
      'anyone given it creates a volume from it and reads the disk.',
    remediation:
      'Copy the snapshot with encryption (EC2 console > Snapshots > the snapshot > Actions > Copy snapshot > Encrypt ' +
      'this snapshot; or aws ec2 copy-snapshot --source-snapshot-id SNAP --source-region REGION --encrypted ' +
      '--kms-key-id KEY), then delete the unencrypted one (aws ec2 delete-snapshot --snapshot-id SNAP) once nothing ' +
      '(an AMI, a backup plan) needs it.',
    docsUrl: 'https://docs.aws.amazon.com/ebs/latest/userguide/ebs-encryption.html',
    prowler: ['ec2_ebs_snapshots_encrypted'],
    evaluate: onPart('ebsSnapshots', ({ unencrypted }) =>
      bySetting(unencrypted, {
        resource: (s) => s.id,
        fails: () => true,
        detail: (s) => `EBS snapshot ${s.id} in ${s.region} is not encrypted.`,
      }),
    ),
  },
  {
    id: 'exposure.ebs_snapshot_public_sharing_unblocked',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EBS snapshots can be shared publicly',
    description:
      'Block public access for EBS snapshots is not set to block all sharing in a region where the account has ' +
      'snapshots: one call (by a mistaken script or a stolen key) makes a disk image restorable by every AWS account.',
    remediation:
      'Check first that no snapshot needs to be public (EC2 console > Snapshots, filter Public). Then in the EC2 ' +
      'console of the region open EC2 Dashboard > Account attributes > Data protection and security > Block public ' +
      'access for EBS snapshots > Manage, choose "Block all public access" and update; or run aws ec2 ' +
      'enable-snapshot-block-public-access --state block-all-sharing --region REGION. An organization can enforce it ' +
      'with a declarative policy.',
    docsUrl: 'https://docs.aws.amazon.com/ebs/latest/userguide/block-public-access-snapshots.html',
    prowler: ['ec2_ebs_snapshot_account_block_public_access'],
    evaluate: onParts(['ebsSnapshotBlockPublicAccess', 'ebsSnapshots'], (blocking, snapshots) => {
      const withSnapshots = new Set(snapshots.regions.filter((r) => r.count > 0).map((r) => r.region));
      return bySetting(
        blocking.regions.filter((r) => withSnapshots.has(r.region)),
        {
          resource: () => 'ebs-snapshot-block-public-access',
          fails: (r) => r.state !== 'block-all-sharing',
          detail: (r) =>
            r.state === 'block-new-sharing'
              ? `In ${r.region}, block public access for EBS snapshots blocks only new public sharing: snapshots already public stay public.`
              : `In ${r.region}, block public access for EBS snapshots is off (${r.state}).`,
        },
      );
    }),
  },
];
