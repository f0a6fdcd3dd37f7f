import { iamPattern } from '../policies/resource-policy';
import type { BackupSelection, Collected, PartValue, RdsCluster, RdsInstance } from '../scans/inventory';
import { failing, onPart, onParts, withUnread } from './helpers';
import { isRdsEngine } from './rds';
import { bySetting } from './settings';
import type { Check, CheckResult } from './types';

// RDS beyond its own settings: what the DB parameter groups make clients do, engine versions RDS no longer
// offers, and databases no AWS Backup plan backs up.

/**
 * The DB parameter that makes an instance refuse clients without TLS, by engine (as Prowler reads it):
 * rds.force_ssl for PostgreSQL and SQL Server, require_secure_transport for MySQL and MariaDB. null: the engine has
 * none (Oracle and Db2 take TLS through an option group), and its instances are not judged.
 */
export function tlsParameterOf(engine: string): string | null {
  if (engine.includes('sqlserver') || engine.includes('postgres')) return 'rds.force_ssl';
  if (engine.includes('mysql') || engine === 'mariadb') return 'require_secure_transport';
  return null;
}

/** The parameters a DB cluster parameter group may force TLS with, whatever the cluster's engine. */
export const CLUSTER_TLS_PARAMETERS: readonly string[] = ['rds.force_ssl', 'require_secure_transport'];

/** A TLS parameter's value that turns it on: 1 (PostgreSQL, SQL Server, RDS MySQL) or ON (Aurora MySQL). */
export const forcesTls = (value: string | undefined): boolean => value === '1' || value?.toUpperCase() === 'ON';

/** Aurora instances are backed up with their cluster, which its own check judges. */
const isAurora = (engine: string) => engine.startsWith('aurora');

const matches = (patterns: readonly string[], arn: string) =>
  patterns.some((p) => p === '*' || iamPattern(p, false).test(arn));

/** Whether a backup plan's assignment in the resource's region names it, directly or through a wildcard. */
function backedUp(selections: readonly BackupSelection[], { arn, region }: { arn: string; region: string }) {
  return selections.some((s) => s.region === region && matches(s.resources, arn) && !matches(s.notResources, arn));
}

/**
 * The regions where a backup plan, or the plans themselves, could not be read: a database there that no plan read
 * assigns may be in the unread one, so it is unread rather than failing.
 */
function uncertainRegions(part: Collected<PartValue<'backupSelections'>>): Set<string> {
  return new Set((part.unread ?? []).map((u) => (u.kind === 'region' ? u.scope : (u.scope.split(':')[3] ?? u.scope))));
}

const PLANS_REFUSED = 'AWS Backup refused a backup plan of its region, which may assign it.';

/** Each database fails unless a plan of its region assigns it; unread where a plan of its region was not read. */
function byBackupPlans<T extends { arn: string; region: string }>(
  items: readonly T[],
  selections: readonly BackupSelection[],
  uncertain: ReadonlySet<string>,
  rule: { resource: (item: T) => string; detail: (item: T) => string },
): CheckResult {
  return bySetting(items, {
    ...rule,
    fails: (item) => (backedUp(selections, item) ? false : uncertain.has(item.region) ? null : true),
    unreadReason: PLANS_REFUSED,
  });
}

const instanceName = (db: RdsInstance) => `DB instance ${db.id} (${db.engine}) in ${db.region}`;
const clusterName = (c: RdsCluster) => `DB cluster ${c.id} (${c.engine}) in ${c.region}`;

const PARAMETERS_REFUSED =
  "RDS refused the parameters of the database's parameter group, which say whether it forces TLS.";

export const RDS_HARDENING_CHECKS: readonly Check[] = [
  {
    id: 'exposure.rds_transport_unencrypted',
    service: 'rds',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'RDS database accepts connections without TLS',
    description:
      "The database's parameter group does not force TLS (rds.force_ssl for PostgreSQL and SQL Server, " +
      'require_secure_transport for MySQL and MariaDB): a client that does not ask for TLS sends its password and ' +
      'every query and row in clear text, readable by anyone on the network path.',
    remediation:
      'Create a custom parameter group if the database uses a default one (RDS console > Parameter groups > Create, ' +
      'or aws rds create-db-parameter-group), set rds.force_ssl to 1 (PostgreSQL, SQL Server) or ' +
      'require_secure_transport to 1 / ON (MySQL, MariaDB, Aurora MySQL) in it (aws rds modify-db-parameter-group ' +
      '--db-parameter-group-name GROUP --parameters ParameterName=rds.force_ssl,ParameterValue=1,ApplyMethod=immediate; ' +
      'aws rds modify-db-cluster-parameter-group for a cluster), attach it to the database (Modify > Additional ' +
      'configuration) and reboot it if the parameter is static for its engine.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/UsingWithRDS.SSL.html',
    prowler: ['rds_instance_transport_encrypted'],
    evaluate: onParts(['rdsInstances', 'rdsClusters'], ({ instances }, { clusters }) => {
      const standalone = bySetting(
        instances.filter((db) => db.clusterId === null && tlsParameterOf(db.engine) !== null),
        {
          resource: (db) => db.id,
          fails: (db) => (db.tlsEnforced === null ? null : !db.tlsEnforced),
          detail: (db) => `${instanceName(db)} does not force TLS: its ${tlsParameterOf(db.engine)} is not on.`,
          unreadReason: PARAMETERS_REFUSED,
        },
      );
      const clustered = bySetting(
        clusters.filter((c) => isRdsEngine(c.engine)),
        {
          resource: (c) => c.arn,
          fails: (c) => (c.tlsEnforced === null ? null : !c.tlsEnforced),
          detail: (c) =>
            `${clusterName(c)} does not force TLS: its cluster parameter group turns neither rds.force_ssl nor require_secure_transport on.`,
          unreadReason: PARAMETERS_REFUSED,
        },
      );
      const failed = (r: CheckResult) => (r.status === 'fail' ? r.resources : []);
      return withUnread(failing([...failed(standalone), ...failed(clustered)]), [
        ...(standalone.unread ?? []),
        ...(clustered.unread ?? []),
      ]);
    }),
  },
  {
    id: 'exposure.rds_engine_version_deprecated',
    service: 'rds',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'RDS instance runs an engine version RDS no longer offers',
    description:
      "The DB instance's engine version is no longer among the versions RDS offers in its region: it is deprecated, " +
      'gets no more security fixes, and RDS upgrades it on its own schedule (or bills it for extended support) rather ' +
      'than yours.',
    remediation:
      'List the versions offered (aws rds describe-db-engine-versions --engine ENGINE --query ' +
      '"DBEngineVersions[].EngineVersion"), test the application on one, then upgrade: RDS console > the database > ' +
      'Modify > DB engine version, or aws rds modify-db-instance --db-instance-identifier ID --engine-version VERSION ' +
      '--allow-major-version-upgrade --apply-immediately (take a snapshot first).',
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_UpgradeDBInstance.Upgrading.html',
    prowler: ['rds_instance_deprecated_engine_version'],
    evaluate: onPart('rdsInstances', ({ instances }) =>
      bySetting(instances, {
        resource: (db) => db.id,
        fails: (db) => (db.engineVersionOffered === null ? null : !db.engineVersionOffered),
        detail: (db) => `${instanceName(db)} runs ${db.engine} ${db.engineVersion}, which RDS no longer offers.`,
        unreadReason: 'RDS refused the list of engine versions it offers (DescribeDBEngineVersions).',
      }),
    ),
  },
  {
    id: 'exposure.rds_instance_no_backup_plan',
    service: 'rds',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'RDS instance not in an AWS Backup plan',
    description:
      "No AWS Backup plan of the instance's region assigns it, by ARN or by a wildcard: it has only RDS's own " +
      'automated backups, which are deleted with the instance and live in the same account, so a deleted database or ' +
      'a compromised account can take its backups with it.',
    remediation:
      'In the AWS Backup console open Backup plans > the plan (or Create backup plan) > Assign resources, and include ' +
      'the instance (resource type RDS, or its ARN); or aws backup create-backup-selection --backup-plan-id PLAN ' +
      '--backup-selection \'{"SelectionName":"rds","IamRoleArn":"ROLE","Resources":["arn:aws:rds:REGION:ACCOUNT:db:ID"]}\'. ' +
      "Keep the plan's vault locked or in another account.",
    docsUrl: 'https://docs.aws.amazon.com/aws-backup/latest/devguide/assigning-resources.html',
    prowler: ['rds_instance_protected_by_backup_plan'],
    evaluate: (inventory, ctx) =>
      onParts(['rdsInstances', 'backupSelections'], ({ instances }, { selections }) =>
        byBackupPlans(
          instances.filter((db) => !isAurora(db.engine)),
          selections,
          uncertainRegions(inventory.backupSelections),
          { resource: (db) => db.id, detail: (db) => `${instanceName(db)} is in no AWS Backup plan.` },
        ),
      )(inventory, ctx),
  },
  {
    id: 'exposure.rds_cluster_no_backup_plan',
    service: 'rds',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'RDS DB cluster not in an AWS Backup plan',
    description:
      "No AWS Backup plan of the cluster's region assigns it, by ARN or by a wildcard: it has only its own automated " +
      'backups, which go with the cluster when it is deleted and stay in the same account.',
    remediation:
      'In the AWS Backup console open Backup plans > the plan (or Create backup plan) > Assign resources, and include ' +
      'the cluster (resource type Aurora, or its ARN); or aws backup create-backup-selection --backup-plan-id PLAN ' +
      '--backup-selection \'{"SelectionName":"aurora","IamRoleArn":"ROLE","Resources":["arn:aws:rds:REGION:ACCOUNT:cluster:ID"]}\'.',
    docsUrl: 'https://docs.aws.amazon.com/aws-backup/latest/devguide/assigning-resources.html',
    prowler: ['rds_cluster_protected_by_backup_plan'],
    evaluate: (inventory, ctx) =>
      onParts(['rdsClusters', 'backupSelections'], ({ clusters }, { selections }) =>
        byBackupPlans(
          clusters.filter((c) => isRdsEngine(c.engine)),
          selections,
          uncertainRegions(inventory.backupSelections),
          { resource: (c) => c.arn, detail: (c) => `${clusterName(c)} is in no AWS Backup plan.` },
        ),
      )(inventory, ctx),
  },
];
