import { BatchClient, RegisterJobDefinitionCommand } from '@aws-sdk/client-batch';
import { CodeBuildClient, CreateProjectCommand } from '@aws-sdk/client-codebuild';
import {
  CreateConnectionCommand,
  CreateJobCommand,
  CreateSecurityConfigurationCommand,
  GlueClient,
  PutDataCatalogEncryptionSettingsCommand,
  PutResourcePolicyCommand,
} from '@aws-sdk/client-glue';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  motoDifferences,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';

// CodeBuild projects, Glue (jobs, connections, security configurations, the Data Catalog) and Batch job definitions
// against moto: each test seeds a customer account through the SDK, connects it with the real CLI script and
// collects through the front (test/helpers/aws.ts). The secrets seeded are fake ones of real shapes, assembled at
// run time: the inventory must name their kind and where they are, and never hold them.
//
// What moto lacks, the front adds in AWS's documented shape (BatchGetProjects, Project): moto reports no
// projectVisibility (AWS always does: PRIVATE unless made public) and keeps no webhook; and it answers ListProjects
// and DescribeJobDefinitions whole, without the nextToken AWS pages them with.

const OTHER_REGION = 'eu-west-1';
const FAKE_KEY_ID = ['AKIA', 'Q4SENTINELBUILD7'].join('');
const FAKE_GITHUB_TOKEN = ['ghp', '_', 'S3ntinelFakeToken0123456789abcdefABCD'].join('');
const FAKE_PASSWORD = ['Corr3ct', '-Horse-', 'Battery9'].join('');
const SEEDED = [FAKE_KEY_ID, FAKE_GITHUB_TOKEN, FAKE_PASSWORD];

const BUILD_CHECKS = [
  'exposure.codebuild_variable_secrets',
  'exposure.codebuild_source_credentials',
  'exposure.codebuild_project_public',
  'exposure.codebuild_webhook_unanchored_filter',
  'exposure.glue_job_argument_secrets',
  'exposure.glue_connection_secrets',
  'exposure.glue_catalog_public',
  'exposure.glue_connection_passwords_unencrypted',
  'exposure.glue_connection_ssl_off',
  'exposure.glue_job_s3_unencrypted',
  'exposure.glue_job_logs_unencrypted',
  'exposure.glue_job_bookmarks_unencrypted',
  'exposure.batch_job_definition_secrets',
];

function outcomes(inventory: Inventory): Record<string, string | string[]> {
  return Object.fromEntries(
    BUILD_CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail' ? result.resources.map((r) => `${r.resource}@${r.region}`).sort() : result.status,
      ];
    }),
  );
}

/** Project settings moto does not keep, by project name, added to its BatchGetProjects answer as AWS gives them. */
type ProjectExtras = Record<string, { projectVisibility?: string; webhook?: unknown }>;

function withProjectExtras(answer: CannedAnswer, extras: ProjectExtras): CannedAnswer {
  const body = JSON.parse(answer.body) as { projects?: { name: string }[] };
  const projects = (body.projects ?? []).map((p) => ({ projectVisibility: 'PRIVATE', ...p, ...extras[p.name] }));
  return { ...answer, body: JSON.stringify({ ...body, projects }) };
}

/**
 * Pages a JSON answer moto gives whole: the first request gets the first item of `list` and a token, the request
 * that sends the token back gets the others.
 */
function paged(request: AwsRequest, answer: CannedAnswer, list: string, token: string): CannedAnswer {
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  const items = (body[list] as unknown[] | undefined) ?? [];
  const second = (JSON.parse(request.body || '{}') as Record<string, unknown>)[token] === 'page-2';
  const page = second ? { ...body, [list]: items.slice(1) } : { ...body, [list]: items.slice(0, 1), [token]: 'page-2' };
  return { ...answer, body: JSON.stringify(page) };
}

const isListProjects = (r: AwsRequest) => r.service === 'codebuild' && r.operation === 'ListProjects';
const isBatchGetProjects = (r: AwsRequest) => r.service === 'codebuild' && r.operation === 'BatchGetProjects';
const isJobDefinitions = (r: AwsRequest) => r.service === 'batch' && r.path === '/v1/describejobdefinitions';

const ENCRYPT_EVERYTHING = {
  S3Encryption: [{ S3EncryptionMode: 'SSE-KMS' as const, KmsKeyArn: 'arn:aws:kms:us-east-1:111122223333:key/k' }],
  CloudWatchEncryption: {
    CloudWatchEncryptionMode: 'SSE-KMS' as const,
    KmsKeyArn: 'arn:aws:kms:us-east-1:111122223333:key/k',
  },
  JobBookmarksEncryption: {
    JobBookmarksEncryptionMode: 'CSE-KMS' as const,
    KmsKeyArn: 'arn:aws:kms:us-east-1:111122223333:key/k',
  },
};

describe('AWS build and job collection against moto: CodeBuild, Glue, Batch', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  const codebuild = (customer: CustomerAccount, region = REGION) =>
    client(new CodeBuildClient(customerConfig(customer, region)));
  const glue = (customer: CustomerAccount, region = REGION) => client(new GlueClient(customerConfig(customer, region)));
  const batch = (customer: CustomerAccount, region = REGION) =>
    client(new BatchClient(customerConfig(customer, region)));

  /** Moto's answers with what it lacks added: project visibility and webhooks. */
  function answerProjects(extras: ProjectExtras = {}) {
    suite.front.rewrite = (request, answer) =>
      isBatchGetProjects(request) && answer.status === 200
        ? withProjectExtras(answer, extras)
        : motoDifferences(request, answer);
  }

  async function project(
    customer: CustomerAccount,
    name: string,
    settings: {
      variables?: { name: string; value: string; type?: 'PLAINTEXT' | 'SECRETS_MANAGER' }[];
      location?: string;
    },
    region = REGION,
  ): Promise<string> {
    const { project: created } = await codebuild(customer, region).send(
      new CreateProjectCommand({
        name,
        source: { type: 'BITBUCKET', location: settings.location ?? 'https://bitbucket.org/acme/api.git' },
        artifacts: { type: 'NO_ARTIFACTS' },
        environment: {
          type: 'LINUX_CONTAINER',
          image: 'aws/codebuild/standard:7.0',
          computeType: 'BUILD_GENERAL1_SMALL',
          environmentVariables: settings.variables,
        },
        serviceRole: `arn:aws:iam::${customer.accountId}:role/codebuild-${name}`,
      }),
    );
    return created?.arn as string;
  }

  async function job(
    customer: CustomerAccount,
    name: string,
    settings: { arguments?: Record<string, string>; securityConfiguration?: string },
    region = REGION,
  ): Promise<void> {
    await glue(customer, region).send(
      new CreateJobCommand({
        Name: name,
        Role: `arn:aws:iam::${customer.accountId}:role/glue`,
        Command: { Name: 'glueetl', ScriptLocation: 's3://scripts/etl.py' },
        DefaultArguments: settings.arguments,
        SecurityConfiguration: settings.securityConfiguration,
      }),
    );
  }

  async function connection(
    customer: CustomerAccount,
    name: string,
    properties: Record<string, string>,
    region = REGION,
  ): Promise<void> {
    await glue(customer, region).send(
      new CreateConnectionCommand({
        ConnectionInput: {
          Name: name,
          ConnectionType: 'JDBC',
          ConnectionProperties: { JDBC_CONNECTION_URL: 'jdbc:postgresql://db.internal:5432/orders', ...properties },
        },
      }),
    );
  }

  async function jobDefinition(
    customer: CustomerAccount,
    name: string,
    container: { environment?: { name: string; value: string }[]; command?: string[] },
    region = REGION,
  ): Promise<string> {
    const { jobDefinitionArn } = await batch(customer, region).send(
      new RegisterJobDefinitionCommand({
        jobDefinitionName: name,
        type: 'container',
        containerProperties: {
          image: 'public.ecr.aws/acme/report:latest',
          resourceRequirements: [
            { type: 'VCPU', value: '1' },
            { type: 'MEMORY', value: '2048' },
          ],
          ...container,
        },
      }),
    );
    return jobDefinitionArn as string;
  }

  it('finds secrets in build variables, source URLs, job arguments, connections and job definitions, and keeps none', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const leaky = await project(customer, 'leaky', {
      variables: [
        { name: 'AWS_ACCESS_KEY_ID', value: FAKE_KEY_ID },
        { name: 'DB_SECRET', value: 'prod/db', type: 'SECRETS_MANAGER' },
      ],
      location: `https://deploy:${FAKE_PASSWORD}@bitbucket.org/acme/api.git`,
    });
    const open = await project(customer, 'open', {}, OTHER_REGION);
    const tidy = await project(customer, 'tidy', { variables: [{ name: 'STAGE', value: 'production' }] });
    answerProjects({
      open: {
        projectVisibility: 'PUBLIC_READ',
        webhook: {
          url: 'https://codebuild.eu-west-1.amazonaws.com/webhooks',
          filterGroups: [
            [
              { type: 'EVENT', pattern: 'PUSH' },
              { type: 'HEAD_REF', pattern: 'refs/heads/main' },
            ],
          ],
        },
      },
      tidy: {
        webhook: { filterGroups: [[{ type: 'HEAD_REF', pattern: '^refs/heads/main$' }]] },
      },
    });
    await glue(customer).send(
      new CreateSecurityConfigurationCommand({ Name: 'kms', EncryptionConfiguration: ENCRYPT_EVERYTHING }),
    );
    await job(customer, 'exports', { arguments: { '--db_password': FAKE_PASSWORD, '--stage': 'prod' } });
    await job(customer, 'orders', { securityConfiguration: 'kms', arguments: { '--secret_id': 'prod/orders' } });
    // A password written into the JDBC URL: asked with HidePassword, Glue still returns the URL.
    await connection(customer, 'warehouse', {
      USERNAME: 'etl',
      JDBC_CONNECTION_URL: `jdbc:postgresql://etl:${FAKE_PASSWORD}@db.internal:5432/orders`,
    });
    await connection(customer, 'orders-db', { SECRET_ID: 'prod/orders', JDBC_ENFORCE_SSL: 'true' }, OTHER_REGION);
    await glue(customer, OTHER_REGION).send(
      new PutDataCatalogEncryptionSettingsCommand({
        DataCatalogEncryptionSettings: {
          EncryptionAtRest: { CatalogEncryptionMode: 'DISABLED' },
          ConnectionPasswordEncryption: { ReturnConnectionPasswordEncrypted: true, AwsKmsKeyId: 'alias/glue' },
        },
      }),
    );
    await glue(customer).send(
      new PutResourcePolicyCommand({
        PolicyInJson: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Sid: 'Everyone', Effect: 'Allow', Principal: '*', Action: 'glue:GetTables', Resource: '*' }],
        }),
      }),
    );
    const report = await jobDefinition(customer, 'report', {
      environment: [{ name: 'STAGE', value: 'prod' }],
      command: ['python', 'report.py', '--token', FAKE_GITHUB_TOKEN],
    });
    await jobDefinition(customer, 'render', {
      environment: [{ name: 'SECRET_ARN', value: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:x' }],
    });
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    const projects = ok(inventory.codebuildProjects).projects;
    expect(projects.find((p) => p.arn === leaky)).toEqual({
      name: 'leaky',
      arn: leaky,
      region: REGION,
      visibility: 'PRIVATE',
      variableSecrets: [{ name: 'AWS_ACCESS_KEY_ID', kind: 'aws_access_key_id' }],
      sourceSecrets: [{ source: 'primary source', kind: 'password_in_url' }],
      unanchoredFilters: [],
    });
    expect(ok(inventory.glue).connections.find((c) => c.name === 'warehouse')?.propertySecrets).toEqual([
      { name: 'JDBC_CONNECTION_URL', kind: 'password_in_url' },
    ]);
    expect(outcomes(inventory)).toEqual({
      'exposure.codebuild_variable_secrets': [`${leaky}@${REGION}`],
      'exposure.codebuild_source_credentials': [`${leaky}@${REGION}`],
      'exposure.codebuild_project_public': [`${open}@${OTHER_REGION}`],
      'exposure.codebuild_webhook_unanchored_filter': [`${open}@${OTHER_REGION}`],
      'exposure.glue_job_argument_secrets': [`exports@${REGION}`],
      'exposure.glue_connection_secrets': [`warehouse@${REGION}`],
      'exposure.glue_catalog_public': [`glue-data-catalog@${REGION}`],
      'exposure.glue_connection_passwords_unencrypted': [`glue-data-catalog@${REGION}`],
      'exposure.glue_connection_ssl_off': [`warehouse@${REGION}`],
      'exposure.glue_job_s3_unencrypted': [`exports@${REGION}`],
      'exposure.glue_job_logs_unencrypted': [`exports@${REGION}`],
      'exposure.glue_job_bookmarks_unencrypted': [`exports@${REGION}`],
      'exposure.batch_job_definition_secrets': [`${report}@${REGION}`],
    });
    expect(projects.map((p) => p.arn)).toContain(tidy);
    const stored = JSON.stringify(inventory);
    for (const secret of SEEDED) expect(stored).not.toContain(secret);
  });

  it('passes an account whose projects, jobs, connections and job definitions keep their secrets elsewhere', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await project(customer, 'api', { variables: [{ name: 'NPM_TOKEN', value: 'ci/npm', type: 'SECRETS_MANAGER' }] });
    answerProjects();
    await glue(customer).send(
      new CreateSecurityConfigurationCommand({ Name: 'kms', EncryptionConfiguration: ENCRYPT_EVERYTHING }),
    );
    await job(customer, 'orders', { securityConfiguration: 'kms' });
    await connection(customer, 'orders-db', { SECRET_ID: 'prod/orders', JDBC_ENFORCE_SSL: 'true' });
    await glue(customer).send(
      new PutDataCatalogEncryptionSettingsCommand({
        DataCatalogEncryptionSettings: {
          EncryptionAtRest: { CatalogEncryptionMode: 'DISABLED' },
          ConnectionPasswordEncryption: { ReturnConnectionPasswordEncrypted: true, AwsKmsKeyId: 'alias/glue' },
        },
      }),
    );
    await jobDefinition(customer, 'render', { command: ['python', 'render.py', '--secret-id', 'prod/render'] });
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(Object.values(outcomes(inventory))).toEqual(BUILD_CHECKS.map(() => 'pass'));
    expect([inventory.codebuildProjects.unread, inventory.glue.unread, inventory.batchJobDefinitions.unread]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('leaves unread a region an SCP denies and a catalog policy it refuses, never clean', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await project(customer, 'leaky', { variables: [{ name: 'GITHUB_TOKEN', value: FAKE_GITHUB_TOKEN }] }, OTHER_REGION);
    await jobDefinition(customer, 'report', { command: ['run', FAKE_GITHUB_TOKEN] }, OTHER_REGION);
    await createSentinelRole({ customer, externalId: target.externalId });
    answerProjects();
    suite.front.answer = (request) => {
      if ((isBatchGetProjects(request) || isJobDefinitions(request)) && request.region === OTHER_REGION)
        return accessDenied(request);
      if (request.service === 'glue' && request.operation === 'GetResourcePolicy' && request.region === REGION)
        return accessDenied(request);
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(inventory.codebuildProjects.unread).toEqual([
      {
        kind: 'region',
        scope: OTHER_REGION,
        reason: expect.stringMatching(/^AWS denied Sentinel's role CodeBuild BatchGetProjects \(AccessDenied/),
      },
    ]);
    expect(inventory.batchJobDefinitions.unread?.map((u) => [u.scope, u.reason.slice(0, 30)])).toEqual([
      [OTHER_REGION, "AWS denied Sentinel's role Bat"],
    ]);
    for (const id of ['exposure.codebuild_variable_secrets', 'exposure.batch_job_definition_secrets'])
      expect(checkById(id)!.evaluate(inventory, { now: inventory.collectedAt })).toMatchObject({
        status: 'pass',
        unread: [{ scope: OTHER_REGION }],
      });
    expect(
      checkById('exposure.glue_catalog_public')!.evaluate(inventory, { now: inventory.collectedAt }),
    ).toMatchObject({
      status: 'pass',
      unread: [
        {
          scope: `glue-data-catalog (${REGION})`,
          reason: expect.stringMatching(/^AWS denied Sentinel's role Glue GetResourcePolicy/),
        },
      ],
    });
    // The refused policy costs only the catalog's exposure: the region's other Glue reads stand.
    expect(inventory.glue.unread).toBeUndefined();
  });

  it('reads every page of projects, Glue jobs and job definitions', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const first = await project(customer, 'first', {});
    const second = await project(customer, 'second', { variables: [{ name: 'API_TOKEN', value: FAKE_GITHUB_TOKEN }] });
    // moto pages GetJobs by 100, as AWS may.
    for (let i = 0; i < 100; i++)
      await job(customer, `job-${String(i).padStart(3, '0')}`, { arguments: { '--encryption-type': 'sse-s3' } });
    await job(customer, 'zz-leaky', { arguments: { '--api_key': FAKE_GITHUB_TOKEN, '--encryption-type': 'sse-s3' } });
    await jobDefinition(customer, 'a-clean', {});
    const leakyDefinition = await jobDefinition(customer, 'b-leaky', {
      environment: [{ name: 'TOKEN', value: FAKE_GITHUB_TOKEN }],
    });
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.rewrite = (request, answer) => {
      if (answer.status !== 200) return motoDifferences(request, answer);
      if (isListProjects(request) && request.region === REGION) return paged(request, answer, 'projects', 'nextToken');
      if (isJobDefinitions(request) && request.region === REGION)
        return paged(request, answer, 'jobDefinitions', 'nextToken');
      if (isBatchGetProjects(request)) return withProjectExtras(answer, {});
      return motoDifferences(request, answer);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(
      ok(inventory.codebuildProjects)
        .projects.map((p) => p.arn)
        .sort(),
    ).toEqual([first, second].sort());
    expect(ok(inventory.glue).jobs).toHaveLength(101);
    expect(
      ok(inventory.batchJobDefinitions)
        .jobDefinitions.map((d) => d.name)
        .sort(),
    ).toEqual(['a-clean', 'b-leaky']);
    expect(outcomes(inventory)).toMatchObject({
      'exposure.codebuild_variable_secrets': [`${second}@${REGION}`],
      'exposure.glue_job_argument_secrets': [`zz-leaky@${REGION}`],
      'exposure.glue_job_s3_unencrypted': 'pass',
      'exposure.batch_job_definition_secrets': [`${leakyDefinition}@${REGION}`],
    });
    const pages = (match: (r: AwsRequest) => boolean) =>
      suite.front.requests.filter((r) => match(r) && r.region === REGION).length;
    expect([
      pages(isListProjects),
      pages((r) => r.service === 'glue' && r.operation === 'GetJobs'),
      pages(isJobDefinitions),
    ]).toEqual([2, 2, 2]);
  });
});
