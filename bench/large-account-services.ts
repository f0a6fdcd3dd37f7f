import {
  CreateSnapshotCommand,
  CreateVolumeCommand,
  EC2Client,
  ModifySnapshotAttributeCommand,
} from '@aws-sdk/client-ec2';
import { CreateRepositoryCommand, ECRClient, SetRepositoryPolicyCommand } from '@aws-sdk/client-ecr';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { AddPermissionCommand, CreateFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { CreateTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateDocumentCommand, ModifyDocumentPermissionCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { AwsRequest, CannedAnswer } from '../test/helpers/aws';
import { zip } from '../test/helpers/zip';
import { inFlight } from './accounts';
import { PUBLIC_EVERY, RESOURCE_REGIONS, type ServiceSizes } from './large-account-calls';

// The large account's resources of the services the scan reads beyond IAM, S3 and EC2's security groups: Lambda
// functions (with environment variables and a code package), SQS queues, SNS topics, EBS snapshots, Secrets Manager
// secrets, ECR repositories, SSM documents and KMS keys, spread over the first few regions, a few of each exposed.
// What the checks then read of them is what `minimumCalls` counts.

const LAMBDA_ROLE = 'bench-function';

/** The code package every function runs: a handler and a configuration file, no secret in it. */
const PACKAGE = zip({
  'index.mjs': 'export const handler = async () => ({ statusCode: 200 });\n',
  'config.json': JSON.stringify({ stage: 'bench', retries: 3 }),
});

/** A policy that lets anyone perform `action` on the resource `resource`. */
const publicPolicy = (action: string, resource: string) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: '*', Action: action, Resource: resource }],
  });

const indices = (count: number) => Array.from({ length: count }, (_, i) => i);

export async function seedServices({
  config,
  accountId,
  regions: enabled,
  sizes,
  concurrency,
}: {
  config: { endpoint: string; credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } };
  accountId: string;
  regions: string[];
  sizes: ServiceSizes;
  concurrency: number;
}): Promise<void> {
  const regions = enabled.slice(0, RESOURCE_REGIONS);
  const regionOf = (i: number) => regions[i % regions.length] as string;
  const clients: { destroy: () => void }[] = [];
  const inEach = <C extends { destroy: () => void }>(make: (region: string) => C) => {
    const byRegion = new Map(regions.map((region) => [region, make(region)]));
    clients.push(...byRegion.values());
    return (i: number) => byRegion.get(regionOf(i)) as C;
  };
  const lambda = inEach((region) => new LambdaClient({ ...config, region }));
  const sqs = inEach((region) => new SQSClient({ ...config, region }));
  const sns = inEach((region) => new SNSClient({ ...config, region }));
  const ec2 = inEach((region) => new EC2Client({ ...config, region }));
  const secrets = inEach((region) => new SecretsManagerClient({ ...config, region }));
  const ecr = inEach((region) => new ECRClient({ ...config, region }));
  const ssm = inEach((region) => new SSMClient({ ...config, region }));
  const kms = inEach((region) => new KMSClient({ ...config, region }));
  const iam = new IAMClient({ ...config, region: regions[0] });
  clients.push(iam);
  // The services are seeded side by side, each with its share of the requests in flight.
  const lanes = Math.max(1, Math.floor(concurrency / 4));
  const exposed = (i: number) => i % PUBLIC_EVERY === 0;

  const functions = async () => {
    // The functions' execution role must exist before a function can name it.
    const { Role } = await iam.send(
      new CreateRoleCommand({
        RoleName: LAMBDA_ROLE,
        AssumeRolePolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
        }),
      }),
    );
    await inFlight(indices(sizes.functions), lanes, async (i) => {
      const FunctionName = `fn-${String(i).padStart(4, '0')}`;
      await lambda(i).send(
        new CreateFunctionCommand({
          FunctionName,
          Runtime: 'nodejs20.x',
          Handler: 'index.handler',
          Role: Role?.Arn,
          Code: { ZipFile: PACKAGE },
          // Every function has settings in its environment; one in twenty-five a key in the documented shape.
          Environment: {
            Variables: {
              STAGE: 'bench',
              TABLE: `orders-${i}`,
              ...(i % 25 === 0 ? { AWS_ACCESS_KEY_ID: `AKIA${String(i).padStart(16, 'X')}` } : {}),
            },
          },
        }),
      );
      if (exposed(i))
        await lambda(i).send(
          new AddPermissionCommand({
            FunctionName,
            StatementId: 'anyone',
            Action: 'lambda:InvokeFunction',
            Principal: '*',
          }),
        );
    });
  };

  const queues = () =>
    inFlight(indices(sizes.queues), lanes, async (i) => {
      const QueueName = `queue-${i}`;
      const arn = `arn:aws:sqs:${regionOf(i)}:${accountId}:${QueueName}`;
      await sqs(i).send(
        new CreateQueueCommand({
          QueueName,
          Attributes: exposed(i) ? { Policy: publicPolicy('sqs:SendMessage', arn) } : undefined,
        }),
      );
    });

  const topics = () =>
    inFlight(indices(sizes.topics), lanes, async (i) => {
      const Name = `topic-${i}`;
      const arn = `arn:aws:sns:${regionOf(i)}:${accountId}:${Name}`;
      await sns(i).send(
        new CreateTopicCommand({
          Name,
          Attributes: exposed(i) ? { Policy: publicPolicy('sns:Publish', arn) } : undefined,
        }),
      );
    });

  const snapshots = async () => {
    // One volume per region, each snapshotted many times.
    const volumes = await Promise.all(
      regions.map(async (region, r) => {
        const { VolumeId } = await ec2(r).send(
          new CreateVolumeCommand({ AvailabilityZone: `${region}a`, Size: 8, Encrypted: false }),
        );
        return VolumeId as string;
      }),
    );
    await inFlight(indices(sizes.snapshots), lanes, async (i) => {
      const { SnapshotId } = await ec2(i).send(
        new CreateSnapshotCommand({ VolumeId: volumes[i % regions.length], Description: `backup ${i}` }),
      );
      if (exposed(i))
        await ec2(i).send(
          new ModifySnapshotAttributeCommand({
            SnapshotId,
            Attribute: 'createVolumePermission',
            CreateVolumePermission: { Add: [{ Group: 'all' }] },
          }),
        );
    });
  };

  const secretsSeeded = () =>
    inFlight(indices(sizes.secrets), lanes, async (i) => {
      await secrets(i).send(new CreateSecretCommand({ Name: `app/secret-${i}`, SecretString: 'not-a-real-secret' }));
    });

  const repositories = () =>
    inFlight(indices(sizes.repositories), lanes, async (i) => {
      const repositoryName = `repo-${i}`;
      await ecr(i).send(new CreateRepositoryCommand({ repositoryName }));
      if (exposed(i))
        await ecr(i).send(
          new SetRepositoryPolicyCommand({
            repositoryName,
            policyText: JSON.stringify({
              Version: '2012-10-17',
              Statement: [{ Sid: 'anyone', Effect: 'Allow', Principal: '*', Action: 'ecr:BatchGetImage' }],
            }),
          }),
        );
    });

  const documents = () =>
    inFlight(indices(sizes.documents), lanes, async (i) => {
      const Name = `deploy-${i}`;
      await ssm(i).send(
        new CreateDocumentCommand({
          Name,
          DocumentType: 'Command',
          Content: JSON.stringify({
            schemaVersion: '2.2',
            description: 'Deploys the application',
            mainSteps: [{ action: 'aws:runShellScript', name: 'deploy', inputs: { runCommand: ['make deploy'] } }],
          }),
        }),
      );
      if (exposed(i))
        await ssm(i).send(
          new ModifyDocumentPermissionCommand({ Name, PermissionType: 'Share', AccountIdsToAdd: ['all'] }),
        );
    });

  const keys = () =>
    inFlight(indices(sizes.keys), lanes, async (i) => {
      await kms(i).send(new CreateKeyCommand({ Description: `bench key ${i}` }));
    });

  try {
    await Promise.all([
      functions(),
      queues(),
      topics(),
      snapshots(),
      secretsSeeded(),
      repositories(),
      documents(),
      keys(),
    ]);
  } finally {
    for (const client of clients) client.destroy();
  }
}

const CODE_PATH = /^\/code\/[^/]+$/;

/** Whether a request is a download of a code package (the presigned URL GetFunction hands out), not an API call. */
export const isCodeDownload = (request: AwsRequest) => request.method === 'GET' && CODE_PATH.test(request.path);

/**
 * moto hands out a Code.Location on a host that does not exist: the front serves the package there instead, as
 * AWS's presigned S3 URL would (the Lambda collector suite does the same).
 */
export function servePackage(request: AwsRequest): CannedAnswer | undefined {
  if (!isCodeDownload(request)) return undefined;
  return { status: 200, contentType: 'application/zip', body: '', bytes: PACKAGE };
}

/** GetFunction's answer with its Code.Location pointed at the front's `endpoint`. */
export function packageAtFront(endpoint: string, request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
  const getFunction =
    request.service === 'lambda' && request.method === 'GET' && /^\/2015-03-31\/functions\/[^/]+$/.test(request.path);
  if (!getFunction || answer.status !== 200) return undefined;
  const body = JSON.parse(answer.body) as { Configuration: { FunctionName: string }; Code?: { Location?: string } };
  if (!body.Code?.Location) return undefined;
  body.Code.Location = `${endpoint}/code/${body.Configuration.FunctionName}`;
  return { ...answer, body: JSON.stringify(body) };
}
