import { describeSecrets } from '../secrets/detector';
import { failing, onPart } from './helpers';
import type { Check } from './types';

// AWS Batch: job definitions whose containers are given a credential in clear, in an environment variable or on
// their command line.

export const BATCH_CHECKS: readonly Check[] = [
  {
    id: 'exposure.batch_job_definition_secrets',
    service: 'batch',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Secret in AWS Batch job definition',
    description:
      'An active revision of the job definition gives its containers what looks like a credential in an environment ' +
      'variable or in the command. Job definitions are shown to anyone allowed batch:DescribeJobDefinitions, and the ' +
      "values reach the job's logs and every process in the container. Sentinel names the variable (or the command) " +
      'and the kind of secret, never the value.',
    remediation:
      "Rotate the credential, store it in Secrets Manager or SSM Parameter Store, and pass it with the container's " +
      'secrets (name and valueFrom) rather than its environment or command; give the execution role ' +
      'secretsmanager:GetSecretValue or ssm:GetParameters on it. Batch console > Job definitions > the definition > ' +
      'Create revision > Container configuration > Secrets; or aws batch register-job-definition with the new ' +
      'containerProperties, then aws batch deregister-job-definition --job-definition NAME:REVISION for the revisions ' +
      'that hold the secret.',
    docsUrl: 'https://docs.aws.amazon.com/batch/latest/userguide/specifying-sensitive-data.html',
    prowler: ['batch_job_definition_no_secrets'],
    evaluate: onPart('batchJobDefinitions', ({ jobDefinitions }) =>
      failing(
        jobDefinitions
          .filter((d) => d.secrets.length > 0)
          .map((d) => ({
            resource: d.arn,
            region: d.region,
            detail: describeSecrets(`Batch job definition ${d.name}:${d.revision} in ${d.region}`, d.secrets),
          })),
      ),
    ),
  },
];
