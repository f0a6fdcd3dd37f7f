import { CloudTrailClient, CreateTrailCommand, StartLoggingCommand } from '@aws-sdk/client-cloudtrail';
import { AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateFileSystemCommand, EFSClient } from '@aws-sdk/client-efs';
import { CreateAccessKeyCommand, CreateUserCommand, PutUserPolicyCommand } from '@aws-sdk/client-iam';
import { CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { CreateDBInstanceCommand, RDSClient } from '@aws-sdk/client-rds';
import { CreateBucketCommand, PutBucketPolicyCommand, S3Client } from '@aws-sdk/client-s3';
import { READERS } from '../../cloud/aws/collectors';
import { SCAN_READ_ACTIONS } from '../../domain/onboarding/role';
import type { Inventory, PartName } from '../../domain/scans/inventory';
import {
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  customerConfig,
  motoDifferences,
  REGION,
} from '../helpers/aws';
import { uniqueName, useCollectorSuite } from '../helpers/collector-suite';
import {
  actionOf,
  expectGrantedByRole,
  loadModelsOf,
  managedPolicyDocuments,
  roleRequests,
  ungranted,
} from '../helpers/role-grants';

// The role a customer creates allows every call the scan makes: a whole collection (every reader of READERS) of an
// account with resources of each kind, each call Sentinel's role made named as its IAM action and looked up in the
// role's policies (test/helpers/role-grants.ts). Every collector suite checks the same after each of its tests
// (test/helpers/collector-suite.ts).

const REGIONS = [REGION, 'eu-west-1'];

/** DescribeRegions as for an account with only REGIONS enabled, so the collection reads two regions, not thirty. */
function onlyRegions(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
  if (request.service !== 'ec2' || request.operation !== 'DescribeRegions') return motoDifferences(request, answer);
  const body = answer.body.replace(/<item>((?:(?!<\/item>)[\s\S])*)<\/item>/g, (item, inner: string) => {
    const name = /<regionName>([^<]+)<\/regionName>/.exec(inner)?.[1];
    return name && REGIONS.includes(name) ? item : '';
  });
  return { ...answer, body };
}

/** A request as the front records it, signed by a session of Sentinel's role. */
const roleRequest = (request: Partial<AwsRequest> & Pick<AwsRequest, 'service' | 'method' | 'path'>): AwsRequest => ({
  operation: undefined,
  query: '',
  region: REGION,
  accessKeyId: 'ASIAROLESESSION',
  body: '',
  at: 0,
  role: 'arn:aws:iam::111122223333:role/SentinelReadOnly',
  ...request,
});

describe('the IAM action of a request', () => {
  beforeAll(() => loadModelsOf(['lambda', 's3', 'eks', 'es', 'account', 'bedrock', 'elasticfilesystem', 'cloudfront']));

  it.each([
    [
      'query protocol',
      { service: 'ec2', method: 'POST', path: '/', operation: 'DescribeInstances' },
      'ec2:DescribeInstances',
    ],
    [
      'ELBv2, signed as elasticloadbalancing',
      { service: 'elasticloadbalancing', method: 'POST', path: '/', operation: 'DescribeLoadBalancers' },
      'elasticloadbalancing:DescribeLoadBalancers',
    ],
    ['JSON protocol', { service: 'ce', method: 'POST', path: '/', operation: 'GetCostAndUsage' }, 'ce:GetCostAndUsage'],
    [
      'Budgets, whose reads budgets:ViewBudget authorizes',
      { service: 'budgets', method: 'POST', path: '/', operation: 'DescribeBudgets' },
      'budgets:ViewBudget',
    ],
    [
      'Route 53 Domains',
      { service: 'route53domains', method: 'POST', path: '/', operation: 'ListDomains' },
      'route53domains:ListDomains',
    ],
    [
      'CloudWatch over Smithy RPC v2 CBOR, signed as monitoring',
      {
        service: 'monitoring',
        method: 'POST',
        path: '/service/GraniteServiceVersion20100801/operation/DescribeAlarms',
      },
      'cloudwatch:DescribeAlarms',
    ],
    [
      "Lambda's ListFunctions",
      { service: 'lambda', method: 'GET', path: '/2015-03-31/functions/' },
      'lambda:ListFunctions',
    ],
    [
      "Lambda's GetFunction",
      { service: 'lambda', method: 'GET', path: '/2015-03-31/functions/api' },
      'lambda:GetFunction',
    ],
    [
      "Lambda's GetPolicy",
      { service: 'lambda', method: 'GET', path: '/2015-03-31/functions/api/policy' },
      'lambda:GetPolicy',
    ],
    ["S3's ListBuckets", { service: 's3', method: 'GET', path: '/' }, 's3:ListAllMyBuckets'],
    ['a bucket policy', { service: 's3', method: 'GET', path: '/logs', query: 'policy' }, 's3:GetBucketPolicy'],
    [
      "a bucket's encryption",
      { service: 's3', method: 'GET', path: '/logs', query: 'encryption' },
      's3:GetEncryptionConfiguration',
    ],
    [
      "S3 Control's account Block Public Access, signed as s3",
      { service: 's3', method: 'GET', path: '/v20180820/configuration/publicAccessBlock' },
      's3:GetAccountPublicAccessBlock',
    ],
    ["EKS's ListClusters", { service: 'eks', method: 'GET', path: '/clusters' }, 'eks:ListClusters'],
    ["EKS's DescribeCluster", { service: 'eks', method: 'GET', path: '/clusters/prod' }, 'eks:DescribeCluster'],
    ['OpenSearch, signed as es', { service: 'es', method: 'GET', path: '/2021-01-01/domain' }, 'es:ListDomainNames'],
    ['API Gateway, by method', { service: 'apigateway', method: 'GET', path: '/restapis' }, 'apigateway:GET'],
    [
      'Account',
      { service: 'account', method: 'POST', path: '/getContactInformation' },
      'account:GetContactInformation',
    ],
    [
      'Bedrock',
      { service: 'bedrock', method: 'GET', path: '/logging/modelinvocations' },
      'bedrock:GetModelInvocationLoggingConfiguration',
    ],
    [
      'EFS, signed as elasticfilesystem',
      { service: 'elasticfilesystem', method: 'GET', path: '/2015-02-01/file-systems' },
      'elasticfilesystem:DescribeFileSystems',
    ],
    [
      "CloudFront's ListDistributions",
      { service: 'cloudfront', method: 'GET', path: '/2020-05-31/distribution' },
      'cloudfront:ListDistributions',
    ],
    [
      "CloudFront's GetDistributionConfig",
      { service: 'cloudfront', method: 'GET', path: '/2020-05-31/distribution/E2QWRUHAPOMQZL/config' },
      'cloudfront:GetDistributionConfig',
    ],
    ["S3's HeadBucket", { service: 's3', method: 'HEAD', path: '/site/' }, 's3:ListBucket'],
  ])('%s', (_what, request, action) => {
    expect(actionOf(roleRequest(request))).toEqual({ action });
  });

  it('is none for STS GetCallerIdentity, which any identity may call', () => {
    expect(
      actionOf(roleRequest({ service: 'sts', method: 'POST', path: '/', operation: 'GetCallerIdentity' })),
    ).toEqual({ action: null });
  });

  it("is unknown for a REST route none of the service's operations has", () => {
    expect(actionOf(roleRequest({ service: 'lambda', method: 'GET', path: '/nowhere' }))).toEqual({
      unknown: 'no operation of lambda has the route GET /nowhere',
    });
  });
});

describe("the role's policies", () => {
  it('name every action the role is not granted, and only calls made by the role', async () => {
    const requests = [
      roleRequest({ service: 'secretsmanager', method: 'POST', path: '/', operation: 'GetSecretValue' }),
      roleRequest({ service: 's3', method: 'GET', path: '/logs/private.txt', query: 'x-id=GetObject' }),
      roleRequest({ service: 'lambda', method: 'GET', path: '/nowhere' }),
      roleRequest({ service: 'iam', method: 'POST', path: '/', operation: 'ListUsers' }),
      roleRequest({ service: 'lambda', method: 'GET', path: '/2015-03-31/functions/api' }),
      // Sentinel's own credentials assuming the role, and a customer's administrator: not the role's calls.
      { ...roleRequest({ service: 'sts', method: 'POST', path: '/', operation: 'AssumeRole' }), role: undefined },
      {
        ...roleRequest({ service: 'iam', method: 'POST', path: '/', operation: 'CreateUser' }),
        role: 'arn:aws:iam::111122223333:role/bootstrap',
      },
    ];
    expect(roleRequests(requests)).toHaveLength(5);
    expect(await ungranted(requests)).toEqual([
      's3:GetObject, called as s3 GET /logs/private.txt',
      'secretsmanager:GetSecretValue, called as secretsmanager POST / (GetSecretValue)',
      'unknown: no operation of lambda has the route GET /nowhere, called as lambda GET /nowhere',
    ]);
    await expect(expectGrantedByRole(requests)).rejects.toThrow(/secretsmanager:GetSecretValue/);
  });

  it('add inline only what SecurityAudit and ViewOnlyAccess lack', async () => {
    const managed = await managedPolicyDocuments();
    expect(managed).toHaveLength(2);
    const managedOnly = (action: string) =>
      managed
        .flatMap((document) => document.Statement.filter((s) => s.Effect === 'Allow'))
        .flatMap((s) => (s.Action === undefined ? [] : Array.isArray(s.Action) ? s.Action : [s.Action]))
        .some((pattern) =>
          new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(action),
        );
    expect(SCAN_READ_ACTIONS.filter(managedOnly)).toEqual([]);
  });
});

describe('a whole collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  it("makes only calls the role's policies allow, reading every part", async () => {
    const { customer, target } = await suite.connectedCustomer();
    // Something of each kind, so that the reads of single resources (a bucket's policy, a user's keys) happen too.
    const s3 = client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
    const bucket = uniqueName('logs');
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    await s3.send(
      new PutBucketPolicyCommand({
        Bucket: bucket,
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Deny',
              Principal: '*',
              Action: 's3:*',
              Resource: [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`],
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            },
          ],
        }),
      }),
    );
    await customer.iam.send(new CreateUserCommand({ UserName: 'deploy' }));
    await customer.iam.send(new CreateAccessKeyCommand({ UserName: 'deploy' }));
    await customer.iam.send(
      new PutUserPolicyCommand({
        UserName: 'deploy',
        PolicyName: 'deploy',
        PolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: 's3:PutObject', Resource: '*' }],
        }),
      }),
    );
    const trail = client(new CloudTrailClient(customerConfig(customer)));
    await trail.send(new CreateTrailCommand({ Name: 'main', S3BucketName: bucket, IsMultiRegionTrail: true }));
    await trail.send(new StartLoggingCommand({ Name: 'main' }));
    const ec2 = client(new EC2Client(customerConfig(customer)));
    const { GroupId } = await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'web', Description: 'web' }));
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
      }),
    );
    await client(new RDSClient(customerConfig(customer))).send(
      new CreateDBInstanceCommand({
        DBInstanceIdentifier: 'orders',
        DBInstanceClass: 'db.t3.micro',
        Engine: 'postgres',
        AllocatedStorage: 20,
        MasterUsername: 'app',
        MasterUserPassword: 'Correct-Horse-9',
      }),
    );
    await client(new EFSClient(customerConfig(customer))).send(
      new CreateFileSystemCommand({ CreationToken: uniqueName('files'), Encrypted: true }),
    );
    await client(new KMSClient(customerConfig(customer))).send(new CreateKeyCommand({}));
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.rewrite = onlyRegions;

    const inventory = await suite.provider.collectInventory(target, {
      eventForwarder: { endpoint: 'https://sentinel.example.com/ingest/aws/events' },
      finalAttempt: true,
    });

    // Every part was read, so that no reader's calls are left out: but AWS Health, which the front answers as for an
    // account without a Business support plan (motoGaps in test/helpers/aws.ts), after its one call.
    const notRead = READERS.map((r) => r.reader.part).filter(
      (part) => (inventory[part as keyof Inventory] as { status: string }).status !== 'ok',
    );
    expect(notRead).toEqual(['health' satisfies PartName]);
    const services = new Set(roleRequests(suite.front.requests).map((r) => r.service));
    expect([...services].sort()).toEqual(
      expect.arrayContaining(['cloudtrail', 'ec2', 'elasticfilesystem', 'events', 'health', 'iam', 'kms', 'rds', 's3']),
    );
    await expectGrantedByRole(suite.front.requests);
  });
});
