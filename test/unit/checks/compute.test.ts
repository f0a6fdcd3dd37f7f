import { definitionSecrets } from '../../../cloud/aws/collectors/batch';
import { userDataSecrets } from '../../../cloud/aws/collectors/user-data';
import { gzipSync } from 'node:zlib';
import { cleanInventory, outcome, part } from '../../helpers/inventory';
import { checkById } from '../../../domain/checks/catalog';

// The compute checks' edges: user data that cannot be read as text is unread, never clean; a Data Catalog policy
// Sentinel was refused leaves only that catalog unread; groups on launch templates are judged by the templates.

const NOW = '2026-03-15T12:00:00.000Z';
const FAKE_KEY_ID = ['AKIA', 'Z7SENTINELTEST42'].join('');

describe('user data as the collectors read it', () => {
  it('finds secrets in plain and gzipped user data, by line, and nothing in a clean script', () => {
    const script = `#!/bin/bash\necho start\nexport KEY=${FAKE_KEY_ID}\n`;
    expect(userDataSecrets(Buffer.from(script).toString('base64'))).toEqual([{ line: 3, kind: 'aws_access_key_id' }]);
    expect(userDataSecrets(gzipSync(script).toString('base64'))).toEqual([{ line: 3, kind: 'aws_access_key_id' }]);
    expect(userDataSecrets(Buffer.from('#!/bin/bash\nyum -y update\n').toString('base64'))).toEqual([]);
    expect(userDataSecrets(undefined)).toEqual([]);
  });

  it('answers null for user data that is not text, and for a gzip that does not inflate', () => {
    expect(userDataSecrets(Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]).toString('base64'))).toBeNull();
    expect(userDataSecrets(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]).toString('base64'))).toBeNull();
  });
});

describe('compute checks at their edges', () => {
  it('names an instance whose user data could not be read as unread, never as clean', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.instanceUserData).instances[0]!.secrets = null;
    const result = checkById('exposure.instance_user_data_secrets')!.evaluate(inventory, { now: NOW });
    expect(result).toEqual({
      status: 'pass',
      unread: [{ kind: 'resource', scope: 'i-0web', reason: expect.stringContaining('could not be searched') }],
    });
  });

  it('leaves a catalog whose policy was refused unread, and still judges the other regions', () => {
    const inventory = cleanInventory(NOW);
    const glue = part(inventory.glue);
    glue.catalogs = [
      {
        region: 'us-east-1',
        passwordsEncrypted: true,
        policy: { read: false, reason: 'AWS denied GetResourcePolicy' },
      },
      {
        region: 'eu-west-1',
        passwordsEncrypted: true,
        policy: { read: true, publicStatements: ['A statement allows *'] },
      },
    ];
    const result = checkById('exposure.glue_catalog_public')!.evaluate(inventory, { now: NOW });
    expect(result).toMatchObject({
      status: 'fail',
      resources: [{ resource: 'glue-data-catalog', region: 'eu-west-1' }],
      unread: [{ scope: 'glue-data-catalog (us-east-1)', reason: 'AWS denied GetResourcePolicy' }],
    });
  });

  it('does not fail a group that launches from a template on its launch configuration checks', () => {
    const inventory = cleanInventory(NOW);
    const autoScaling = part(inventory.autoScaling);
    autoScaling.launchConfigurations[0]!.publicIp = true;
    autoScaling.groups[0]!.launchConfiguration = null;
    expect(outcome('exposure.autoscaling_group_public_ip', inventory)).toBe('pass');
  });

  it('passes a template version whose metadata service is off, and fails one that sets no options', () => {
    const inventory = cleanInventory(NOW);
    const [defaultVersion, latest] = part(inventory.launchTemplates).templates[0]!.versions;
    defaultVersion!.metadata = { httpTokens: 'optional', httpEndpoint: 'disabled' };
    expect(outcome('exposure.launch_template_imdsv1_allowed', inventory)).toBe('pass');
    latest!.metadata = { httpTokens: null, httpEndpoint: null };
    expect(outcome('exposure.launch_template_imdsv1_allowed', inventory)).toEqual(['lt-0web@us-east-1']);
  });

  it('passes a Glue job without a security configuration that asks for SSE-S3 on its S3 check only', () => {
    const inventory = cleanInventory(NOW);
    const job = part(inventory.glue).jobs[0]!;
    job.securityConfiguration = null;
    job.sseS3Argument = true;
    expect(outcome('exposure.glue_job_s3_unencrypted', inventory)).toBe('pass');
    expect(outcome('exposure.glue_job_logs_unencrypted', inventory)).toEqual(['nightly-etl@us-east-1']);
  });
});

describe('Batch job definitions as the collector reads them', () => {
  const token = ['ghp', '_', 'S3ntinelFakeToken0123456789abcdefABCD'].join('');

  it('finds secrets in environment variables and in command flags, of every container of the definition', () => {
    expect(
      definitionSecrets({
        jobDefinitionName: 'report',
        jobDefinitionArn: 'arn',
        revision: 1,
        type: 'container',
        containerProperties: {
          environment: [
            { name: 'STAGE', value: 'prod' },
            { name: 'DB_PASSWORD', value: 'Corr3ct-Horse-Battery9' },
          ],
          command: ['python', 'report.py', '--api-key', 'k3y-f0r-the-reporting-api', `--github=${token}`],
        },
        ecsProperties: {
          taskProperties: [{ containers: [{ image: 'x', environment: [{ name: 'T', value: token }] }] }],
        },
      }),
    ).toEqual([
      { name: 'DB_PASSWORD', kind: 'named_secret' },
      { name: 'command', kind: 'github_token' },
      { name: 'command', kind: 'named_secret' },
      { name: 'T', kind: 'github_token' },
    ]);
  });

  it('takes references and plain flags for what they are', () => {
    expect(
      definitionSecrets({
        jobDefinitionName: 'render',
        jobDefinitionArn: 'arn',
        revision: 1,
        type: 'container',
        containerProperties: {
          environment: [{ name: 'SECRET_ARN', value: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:x' }],
          command: ['render', '--secret-id', 'prod/render', '--verbose', '--threads', '8'],
        },
      }),
    ).toEqual([]);
  });
});
