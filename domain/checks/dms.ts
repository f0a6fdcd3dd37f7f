import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// AWS Database Migration Service: replication instances on a public address, endpoints that move data without
// TLS, and instances that miss their engine's fixes.

export const DMS_CHECKS: readonly Check[] = [
  {
    id: 'exposure.dms_instance_public',
    service: 'dms',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Publicly accessible DMS replication instance',
    description:
      'The DMS replication instance has a public IP address: it holds the credentials of the databases it ' +
      'migrates and the data in flight, and only its security groups stand between it and the internet.',
    remediation:
      'Public accessibility cannot be changed on an existing replication instance. Create a private one (DMS ' +
      'console > Replication instances > Create, untick "Publicly accessible"; or aws dms create-replication-instance ' +
      '--no-publicly-accessible ...), move the replication tasks to it (aws dms modify-replication-task after stopping ' +
      'them, or recreate them), and delete the public one (aws dms delete-replication-instance).',
    docsUrl: 'https://docs.aws.amazon.com/dms/latest/userguide/CHAP_ReplicationInstance.PublicPrivate.html',
    controls: { 'aws-fsbp': ['DMS.1'] },
    prowler: ['dms_instance_no_public_access'],
    evaluate: onPart('dms', ({ instances }) =>
      bySetting(instances, {
        resource: (i) => i.arn,
        fails: (i) => i.publiclyAccessible,
        detail: (i) => `DMS replication instance ${i.id} in ${i.region} is publicly accessible.`,
        unreadReason: 'DMS did not report whether the replication instance is publicly accessible.',
      }),
    ),
  },
  {
    id: 'exposure.dms_endpoint_without_ssl',
    service: 'dms',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'DMS endpoint connects without TLS',
    description:
      'The DMS endpoint connects to its database with SSL mode "none": the data migrated and the database ' +
      'credentials cross the network in clear text, open to interception.',
    remediation:
      'In the DMS console open Endpoints > the endpoint > Modify, set SSL mode to verify-full (or require, or ' +
      'verify-ca) with the database CA certificate imported under Certificates, and save; or run aws dms modify-endpoint ' +
      '--endpoint-arn ARN --ssl-mode verify-full --certificate-arn CERT_ARN. Test the connection before resuming tasks.',
    docsUrl: 'https://docs.aws.amazon.com/dms/latest/userguide/CHAP_Security.SSL.html',
    controls: { 'aws-fsbp': ['DMS.9'] },
    prowler: ['dms_endpoint_ssl_enabled'],
    evaluate: onPart('dms', ({ endpoints }) =>
      bySetting(endpoints, {
        resource: (e) => e.arn,
        fails: (e) => e.sslMode === 'none',
        detail: (e) => `DMS endpoint ${e.id} (${e.engine}) in ${e.region} connects without TLS (SSL mode none).`,
      }),
    ),
  },
  {
    id: 'exposure.dms_minor_upgrades_off',
    service: 'dms',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'DMS replication instance without automatic minor version upgrades',
    description:
      "Auto minor version upgrade is off for the DMS replication instance: the fixes of its engine's minor " +
      'versions, security fixes included, wait for someone to upgrade it by hand.',
    remediation:
      'In the DMS console open Replication instances > the instance > Modify > Maintenance, tick "Auto minor ' +
      'version upgrade" and save; or run aws dms modify-replication-instance --replication-instance-arn ARN ' +
      '--auto-minor-version-upgrade --apply-immediately.',
    docsUrl: 'https://docs.aws.amazon.com/dms/latest/userguide/CHAP_ReplicationInstance.Modifying.html',
    controls: { 'aws-fsbp': ['DMS.6'] },
    prowler: ['dms_instance_minor_version_upgrade_enabled'],
    evaluate: onPart('dms', ({ instances }) =>
      bySetting(instances, {
        resource: (i) => i.arn,
        fails: (i) => !i.autoMinorVersionUpgrade,
        detail: (i) => `DMS replication instance ${i.id} in ${i.region} does not upgrade minor versions automatically.`,
      }),
    ),
  },
];
