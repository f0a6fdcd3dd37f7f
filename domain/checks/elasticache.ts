import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// ElastiCache replication groups (Redis OSS and Valkey): no automatic backups, no minor version upgrades, data
// stored or carried unencrypted.

const groupName = (g: { id: string; engine: string; region: string }) =>
  `ElastiCache replication group ${g.id} (${g.engine}) in ${g.region}`;

export const ELASTICACHE_CHECKS: readonly Check[] = [
  {
    id: 'exposure.elasticache_backups_off',
    service: 'elasticache',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'ElastiCache replication group without automatic backups',
    description:
      'The replication group takes no automatic backups (a snapshot retention limit of 0): a flushed or corrupted ' +
      'cache that holds state (sessions, queues, leaderboards) cannot be restored.',
    remediation:
      'In the ElastiCache console open the cluster > Modify > Backup, tick "Enable automatic backups", set a ' +
      'retention period (7 days or more) and a window, and save; or run aws elasticache modify-replication-group ' +
      '--replication-group-id ID --snapshot-retention-limit 7 --apply-immediately.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonElastiCache/latest/dg/backups-automatic.html',
    controls: { 'aws-fsbp': ['ElastiCache.1'] },
    prowler: ['elasticache_redis_cluster_backup_enabled'],
    evaluate: onPart('elasticacheReplicationGroups', ({ groups }) =>
      bySetting(groups, {
        resource: (g) => g.arn,
        fails: (g) => g.snapshotRetentionDays === 0,
        detail: (g) => `${groupName(g)} takes no automatic backups.`,
      }),
    ),
  },
  {
    id: 'exposure.elasticache_minor_upgrades_off',
    service: 'elasticache',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'ElastiCache replication group without automatic minor version upgrades',
    description:
      "Auto minor version upgrade is off for the replication group: the fixes of its engine's minor versions, " +
      'security fixes included, wait for someone to apply them by hand.',
    remediation:
      'In the ElastiCache console open the cluster > Modify > Maintenance, tick "Auto upgrade minor versions" and ' +
      'save; or run aws elasticache modify-replication-group --replication-group-id ID --auto-minor-version-upgrade ' +
      '--apply-immediately.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonElastiCache/latest/dg/VersionManagement.html',
    controls: { 'aws-fsbp': ['ElastiCache.2'] },
    prowler: ['elasticache_redis_cluster_auto_minor_version_upgrades'],
    evaluate: onPart('elasticacheReplicationGroups', ({ groups }) =>
      bySetting(groups, {
        resource: (g) => g.arn,
        fails: (g) => (g.autoMinorVersionUpgrade === null ? null : !g.autoMinorVersionUpgrade),
        detail: (g) => `${groupName(g)} does not upgrade minor versions automatically.`,
        unreadReason: 'ElastiCache did not report whether the replication group upgrades minor versions.',
      }),
    ),
  },
  {
    id: 'exposure.elasticache_unencrypted_at_rest',
    service: 'elasticache',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'ElastiCache replication group not encrypted at rest',
    description:
      'The replication group stores its data on disk (swap, backups) unencrypted: whoever gets hold of a backup ' +
      'reads the cache, and rules that require encryption at rest are not met.',
    remediation:
      'Encryption at rest is chosen when a replication group is created. Take a backup (aws elasticache ' +
      'create-snapshot), create a new group from it with encryption at rest on (ElastiCache console > Backups > Restore, ' +
      'tick "Encryption at rest"; or aws elasticache create-replication-group --snapshot-name NAME ' +
      '--at-rest-encryption-enabled ...), move the clients to it and delete the old group.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonElastiCache/latest/dg/at-rest-encryption.html',
    controls: { 'aws-fsbp': ['ElastiCache.4'] },
    prowler: ['elasticache_redis_cluster_rest_encryption_enabled'],
    evaluate: onPart('elasticacheReplicationGroups', ({ groups }) =>
      bySetting(groups, {
        resource: (g) => g.arn,
        fails: (g) => !g.atRestEncryption,
        detail: (g) => `${groupName(g)} is not encrypted at rest.`,
      }),
    ),
  },
  {
    id: 'exposure.elasticache_unencrypted_in_transit',
    service: 'elasticache',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'ElastiCache replication group accepts clear-text connections',
    description:
      'Encryption in transit is off for the replication group: clients send commands, data and AUTH tokens in ' +
      'clear text, readable on the network path.',
    remediation:
      'In the ElastiCache console open the cluster > Modify > Security, turn on encryption in transit with the ' +
      'transit encryption mode Preferred, move every client to TLS, then set the mode to Required; or run aws ' +
      'elasticache modify-replication-group --replication-group-id ID --transit-encryption-enabled ' +
      '--transit-encryption-mode preferred --apply-immediately, then again with --transit-encryption-mode required.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonElastiCache/latest/dg/in-transit-encryption.html',
    controls: { 'aws-fsbp': ['ElastiCache.5'] },
    prowler: ['elasticache_redis_cluster_in_transit_encryption_enabled'],
    evaluate: onPart('elasticacheReplicationGroups', ({ groups }) =>
      bySetting(groups, {
        resource: (g) => g.arn,
        fails: (g) => !g.transitEncryption,
        detail: (g) => `${groupName(g)} is not encrypted in transit.`,
      }),
    ),
  },
];
