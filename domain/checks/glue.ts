import type { Glue, GlueJob, GlueSecurityConfiguration } from '../scans/compute';
import type { Unread } from '../scans/inventory';
import { describeSecrets } from '../secrets/detector';
import { failing, onPart, withUnread } from './helpers';
import type { Check, CheckResult } from './types';

// Glue: ETL jobs and Data Catalog connections hold the keys to the data stores they read (database passwords,
// API tokens), and the Data Catalog describes every table of the data lake. Secrets in job arguments or connection
// properties, a catalog shared with everyone, passwords kept unencrypted and jobs writing unencrypted output.

/** The Data Catalog is one per account and region: findings name it so, with the region. */
const CATALOG = 'glue-data-catalog';

/** A job's security configuration, or why it has none that counts. */
function configurationOf(job: GlueJob, configurations: readonly GlueSecurityConfiguration[]) {
  if (!job.securityConfiguration) return { config: null, why: 'runs without a security configuration' };
  const config = configurations.find((c) => c.region === job.region && c.name === job.securityConfiguration);
  return config
    ? { config, why: '' }
    : { config: null, why: `names security configuration ${job.securityConfiguration}, which does not exist` };
}

/** Jobs whose security configuration leaves one kind of output unencrypted. */
function jobsWithout(
  { jobs, securityConfigurations }: Glue,
  what: string,
  mode: (c: GlueSecurityConfiguration) => string,
  byArgument = false,
): CheckResult {
  return failing(
    jobs.flatMap((job) => {
      const { config, why } = configurationOf(job, securityConfigurations);
      if (config && mode(config) !== 'DISABLED') return [];
      if (!config && byArgument && job.sseS3Argument) return [];
      const reason = config
        ? `runs under security configuration ${config.name}, which leaves ${what} unencrypted`
        : why;
      return [{ resource: job.name, region: job.region, detail: `Glue job ${job.name} in ${job.region} ${reason}.` }];
    }),
  );
}

const SECURITY_CONFIGURATION_STEPS =
  'Create a security configuration with the encryption on (Glue console > Data Catalog > Security configurations > ' +
  'Add security configuration; or aws glue create-security-configuration --name NAME --encryption-configuration ' +
  'file://encryption.json), then run the job under it (Glue console > ETL jobs > the job > Job details > Advanced ' +
  'properties > Security configuration; or aws glue update-job --job-name JOB --job-update ' +
  '\'{"Role": "ROLE", "Command": {...}, "SecurityConfiguration": "NAME"}\', restating the job\'s role and command, ' +
  'which update-job replaces).';

export const GLUE_CHECKS: readonly Check[] = [
  {
    id: 'exposure.glue_job_argument_secrets',
    service: 'glue',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Secret in Glue job arguments',
    description:
      'A default argument of the Glue ETL job holds what looks like a credential (a database password, an access ' +
      'key, a token). Job arguments are shown to anyone allowed glue:GetJob and in the job run details, so the ' +
      'credential is as exposed as the widest of them. Sentinel names the argument and the kind of secret, never the value.',
    remediation:
      'Rotate the credential, store it in Secrets Manager, and pass its name instead (an argument such as ' +
      '--secret_id my/db), reading it in the script with boto3 (secretsmanager.get_secret_value) under the job role, ' +
      'or use a Glue connection that points to the secret. Glue console > ETL jobs > the job > Job details > Advanced ' +
      "properties > Job parameters; or aws glue update-job --job-name JOB --job-update with the job's role, command and " +
      'the new DefaultArguments.',
    docsUrl: 'https://docs.aws.amazon.com/glue/latest/dg/aws-glue-programming-etl-glue-arguments.html',
    prowler: ['glue_etl_jobs_no_secrets_in_arguments'],
    evaluate: onPart('glue', ({ jobs }) =>
      failing(
        jobs
          .filter((j) => j.argumentSecrets.length > 0)
          .map((j) => ({
            resource: j.name,
            region: j.region,
            detail: describeSecrets(`Glue job ${j.name} in ${j.region}`, j.argumentSecrets),
          })),
      ),
    ),
  },
  {
    id: 'exposure.glue_connection_secrets',
    service: 'glue',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Secret in Glue connection properties',
    description:
      'The Data Catalog connection keeps a credential in its properties (a PASSWORD, or a token or key in another ' +
      'property) rather than taking it from Secrets Manager (SECRET_ID). Anyone allowed glue:GetConnection reads it, ' +
      'in clear unless the catalog encrypts connection passwords, and it opens the database the connection reaches. ' +
      'Sentinel names the property and the kind of secret, never the value.',
    remediation:
      'Store the credentials in a Secrets Manager secret (username and password keys) and make the connection use it: ' +
      'Glue console > Data Catalog > Connections > the connection > Edit > Authentication > AWS Secrets Manager; or ' +
      'aws glue update-connection --name NAME --connection-input with SECRET_ID in place of USERNAME and PASSWORD. ' +
      'Then rotate the database password that was stored.',
    docsUrl: 'https://docs.aws.amazon.com/glue/latest/dg/connection-properties.html',
    prowler: ['glue_catalog_connection_no_secrets'],
    evaluate: onPart('glue', ({ connections }) =>
      failing(
        connections
          .filter((c) => c.propertySecrets.length > 0)
          .map((c) => ({
            resource: c.name,
            region: c.region,
            detail: describeSecrets(`Glue connection ${c.name} in ${c.region}`, c.propertySecrets),
          })),
      ),
    ),
  },
  {
    id: 'exposure.glue_catalog_public',
    service: 'glue',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Glue Data Catalog open to everyone',
    description:
      'The region\'s Glue Data Catalog resource policy allows everyone (Principal "*") without a condition that ' +
      'narrows it to known accounts or networks: any AWS account can read, and by the actions allowed change, the ' +
      'databases and tables that describe the data lake, and through them find and target its data.',
    remediation:
      'Remove the public statement, or narrow it with aws:PrincipalOrgID or aws:SourceAccount: Glue console > Data ' +
      'Catalog > Catalog settings > Permissions; or aws glue get-resource-policy, edit the document, and aws glue ' +
      'put-resource-policy --policy-in-json file://policy.json (or aws glue delete-resource-policy). Share tables with ' +
      'other accounts through Lake Formation instead.',
    docsUrl: 'https://docs.aws.amazon.com/glue/latest/dg/glue-resource-policies.html',
    prowler: ['glue_data_catalogs_not_publicly_accessible'],
    evaluate: onPart('glue', ({ catalogs }) =>
      withUnread(
        failing(
          catalogs.flatMap((c) =>
            c.policy.read && c.policy.publicStatements.length > 0
              ? [
                  {
                    resource: CATALOG,
                    region: c.region,
                    detail: `The Glue Data Catalog in ${c.region} is open to everyone: ${c.policy.publicStatements.join('; ')}.`,
                  },
                ]
              : [],
          ),
        ),
        catalogs.flatMap((c): Unread[] =>
          c.policy.read ? [] : [{ kind: 'resource', scope: `${CATALOG} (${c.region})`, reason: c.policy.reason }],
        ),
      ),
    ),
  },
  {
    id: 'exposure.glue_connection_passwords_unencrypted',
    service: 'glue',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Glue connection passwords not encrypted',
    description:
      "The region's Data Catalog does not encrypt connection passwords (ConnectionPasswordEncryption), and it has " +
      'connections: their passwords are returned in clear to anyone allowed glue:GetConnection, who needs no access to ' +
      'a KMS key to read them.',
    remediation:
      'Glue console > Data Catalog > Catalog settings > Encrypt connection passwords, choose a KMS key and save; or ' +
      'aws glue put-data-catalog-encryption-settings --data-catalog-encryption-settings ' +
      '\'{"ConnectionPasswordEncryption": {"ReturnConnectionPasswordEncrypted": true, "AwsKmsKeyId": "KEY"}, ' +
      '"EncryptionAtRest": {"CatalogEncryptionMode": "SSE-KMS", "SseAwsKmsKeyId": "KEY"}}\' (restate the current ' +
      'EncryptionAtRest). Give the roles that use the connections kms:Decrypt on the key.',
    docsUrl: 'https://docs.aws.amazon.com/glue/latest/dg/encrypt-connection-passwords.html',
    prowler: ['glue_data_catalogs_connection_passwords_encryption_enabled'],
    evaluate: onPart('glue', ({ catalogs, connections }) =>
      failing(
        catalogs
          .filter((c) => !c.passwordsEncrypted && connections.some((conn) => conn.region === c.region))
          .map((c) => ({
            resource: CATALOG,
            region: c.region,
            detail: `The Glue Data Catalog in ${c.region} has connections and does not encrypt their passwords.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.glue_connection_ssl_off',
    service: 'glue',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Glue JDBC connection without enforced SSL',
    description:
      'The JDBC connection does not require SSL (JDBC_ENFORCE_SSL is not true): Glue may connect to the database ' +
      'in clear, sending its credentials and the data it reads over the network unencrypted.',
    remediation:
      'Glue console > Data Catalog > Connections > the connection > Edit > Require SSL connection; or aws glue ' +
      'update-connection --name NAME --connection-input with "JDBC_ENFORCE_SSL": "true" among the ' +
      'ConnectionProperties (restate the others: update-connection replaces them). The database must accept SSL.',
    docsUrl: 'https://docs.aws.amazon.com/glue/latest/dg/connection-properties.html',
    prowler: ['glue_database_connections_ssl_enabled'],
    evaluate: onPart('glue', ({ connections }) =>
      failing(
        connections
          .filter((c) => c.type === 'JDBC' && !c.enforceSsl)
          .map((c) => ({
            resource: c.name,
            region: c.region,
            detail: `Glue JDBC connection ${c.name} in ${c.region} does not require SSL.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.glue_job_s3_unencrypted',
    service: 'glue',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Glue job writes to S3 without encryption',
    description:
      'The Glue ETL job runs without a security configuration that encrypts what it writes to S3 (and does not ask ' +
      "for S3-managed encryption with --encryption-type sse-s3), so its output depends on the buckets' defaults and " +
      'data protection rules that require KMS encryption of processed data are not met.',
    remediation: `${SECURITY_CONFIGURATION_STEPS} In the configuration, choose S3 encryption SSE-KMS (or SSE-S3).`,
    docsUrl: 'https://docs.aws.amazon.com/glue/latest/dg/encryption-security-configuration.html',
    prowler: ['glue_etl_jobs_amazon_s3_encryption_enabled'],
    evaluate: onPart('glue', (glue) => jobsWithout(glue, 'its S3 output', (c) => c.s3Encryption, true)),
  },
  {
    id: 'exposure.glue_job_logs_unencrypted',
    service: 'glue',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Glue job logs not encrypted with KMS',
    description:
      "The Glue ETL job's security configuration does not encrypt its CloudWatch logs with a KMS key (or it has no " +
      'security configuration): what its scripts log (sample rows, connection details, errors with data in them) is ' +
      'readable by anyone allowed to read the log group.',
    remediation: `${SECURITY_CONFIGURATION_STEPS} In the configuration, turn on CloudWatch logs encryption with a KMS key whose policy lets CloudWatch Logs use it.`,
    docsUrl: 'https://docs.aws.amazon.com/glue/latest/dg/encryption-security-configuration.html',
    prowler: ['glue_etl_jobs_cloudwatch_logs_encryption_enabled'],
    evaluate: onPart('glue', (glue) => jobsWithout(glue, 'its CloudWatch logs', (c) => c.cloudWatchEncryption)),
  },
  {
    id: 'exposure.glue_job_bookmarks_unencrypted',
    service: 'glue',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Glue job bookmarks not encrypted',
    description:
      "The Glue ETL job's security configuration does not encrypt its job bookmarks (or it has no security " +
      'configuration): the state Glue keeps of what the job has processed (keys, partitions, paths) is stored without ' +
      'client-side KMS encryption.',
    remediation: `${SECURITY_CONFIGURATION_STEPS} In the configuration, turn on job bookmark encryption (CSE-KMS) with a KMS key.`,
    docsUrl: 'https://docs.aws.amazon.com/glue/latest/dg/encryption-security-configuration.html',
    prowler: ['glue_etl_jobs_job_bookmark_encryption_enabled'],
    evaluate: onPart('glue', (glue) => jobsWithout(glue, 'its job bookmarks', (c) => c.bookmarksEncryption)),
  },
];
