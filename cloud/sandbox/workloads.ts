import type {
  ApiGatewayStage,
  CloudFormationStack,
  Collected,
  EcsTaskDefinition,
  LambdaFunction,
  LambdaLayer,
  SsmDocument,
  StateMachine,
  Unread,
} from '../../domain/scans/inventory';

// The sandbox account's workloads: Lambda functions, ECS task definitions, CloudFormation stacks, Step Functions
// state machines, SSM documents and API Gateway stages, set up well, plus a few issues each account's seed picks
// (a secret left in a variable, a function anyone may invoke, a privileged container...). A secret is named by its
// kind and place only, as the collectors keep it: the sandbox holds no value, fake or real.

type Random = () => number;

export interface WorkloadSeed {
  awsAccountId: string;
  company: string;
  /** The regions the account uses and Sentinel may read, the home region first. */
  regions: string[];
  /** A seeded stream of numbers in [0, 1) for a purpose. */
  random: (purpose: string) => Random;
  /** The multiplier on each issue's odds (cloud/sandbox/upkeep.ts): how neglected the account is. */
  neglect: number;
  /** The regions denied to Sentinel, as a part's unread, for a service's call. */
  regional: (call: string) => Unread[];
}

/** Issues a neglected account may have, each drawn on its own so that accounts differ. */
const ISSUE_ODDS = 0.3;

const ok = <T>(value: T, unread: Unread[]): Collected<T> =>
  unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };

function lambdaFunctions({ awsAccountId, company, regions }: WorkloadSeed, has: (issue: string) => boolean) {
  const [home, other = home] = regions as [string, ...string[]];
  const fn = (name: string, region: string, runtime: string | null): LambdaFunction => ({
    name,
    arn: `arn:aws:lambda:${region}:${awsAccountId}:function:${name}`,
    region,
    runtime,
    // The functions of the sandbox run as its Lambda execution role (cloud/sandbox/inventory.ts), but the orders API.
    roleArn: `arn:aws:iam::${awsAccountId}:role/lambda-execution`,
    environment: { read: true, secrets: [] },
    code: runtime === null ? null : { read: true, secrets: [] },
    policy: { read: true, publicStatements: [] },
    urls: { read: true, urls: [] },
    layers: [`arn:aws:lambda:${region}:${awsAccountId}:layer:${company}-common:3`],
    eventSources: { read: true, mappings: [] },
  });
  const api = fn(`${company}-orders-api`, home, 'nodejs22.x');
  // The orders API runs as a role of its own, which reads the database password (cloud/sandbox/iam-authorization.ts).
  api.roleArn = `arn:aws:iam::${awsAccountId}:role/orders-api`;
  // Lambda polls the orders queue (cloud/sandbox/resource-policies.ts) for the orders API: where the queue is open to
  // anyone, so is the function's input.
  api.eventSources = {
    read: true,
    mappings: [
      {
        uuid: `${awsAccountId.slice(0, 8)}-0a9e-4c51-8d3b-${awsAccountId}`,
        sourceArn: `arn:aws:sqs:${home}:${awsAccountId}:orders`,
        state: 'Enabled',
      },
    ],
  };
  const thumbnails = fn(`${company}-thumbnails`, other, 'python3.12');
  const report = fn(`${company}-nightly-report`, home, has('lambda_runtime') ? 'python3.8' : 'python3.13');
  const renderer = fn(`${company}-pdf-renderer`, other, null);
  if (has('lambda_env')) api.environment = { read: true, secrets: [{ name: 'STRIPE_SECRET_KEY', kind: 'stripe_key' }] };
  if (has('lambda_code'))
    report.code = { read: true, secrets: [{ file: 'config/settings.py', line: 14, kind: 'aws_access_key_id' }] };
  if (has('lambda_policy'))
    thumbnails.policy = { read: true, publicStatements: ['Statement AllowAll allows lambda:InvokeFunction'] };
  thumbnails.urls = {
    read: true,
    urls: [
      {
        url: `https://${company}thumbs.lambda-url.${other}.on.aws/`,
        authType: has('lambda_url') ? 'NONE' : 'AWS_IAM',
      },
    ],
  };
  // A layer of AWS's own (Lambda Insights), from AWS's account.
  if (has('lambda_layers')) api.layers.push(`arn:aws:lambda:${home}:580247275435:layer:LambdaInsightsExtension:53`);
  const functions = [api, thumbnails, report, renderer];
  const layers = [...new Set(functions.flatMap((f) => f.layers))].map(
    (arn): LambdaLayer => ({
      arn,
      region: arn.split(':')[3] as string,
      content:
        has('lambda_layer_secret') && arn.includes(`${company}-common`) && arn.includes(`:${home}:`)
          ? { read: true, secrets: [{ file: 'python/common/settings.py', line: 9, kind: 'github_token' }] }
          : { read: true, secrets: [] },
    }),
  );
  return { functions, layers };
}

function taskDefinitions({ awsAccountId, regions }: WorkloadSeed, has: (issue: string) => boolean) {
  const [home] = regions as [string];
  const definition = (family: string, revision: number): EcsTaskDefinition => ({
    family,
    revision,
    arn: `arn:aws:ecs:${home}:${awsAccountId}:task-definition/${family}:${revision}`,
    region: home,
    networkMode: 'awsvpc',
    pidMode: null,
    ipcMode: null,
    containers: [
      {
        name: family,
        privileged: false,
        readonlyRootFilesystem: true,
        user: '1000',
        logDriver: 'awslogs',
        environmentSecrets: [],
      },
    ],
  });
  const web = definition('web', 42);
  const worker = definition('queue-worker', 17);
  const container = worker.containers[0] as EcsTaskDefinition['containers'][number];
  if (has('ecs_env')) container.environmentSecrets = [{ name: 'DATABASE_URL', kind: 'password_in_url' }];
  if (has('ecs_privileged')) container.privileged = true;
  if (has('ecs_host_network')) {
    worker.networkMode = 'host';
    container.user = null;
  }
  if (has('ecs_pid')) worker.pidMode = 'host';
  if (has('ecs_writable')) container.readonlyRootFilesystem = false;
  if (has('ecs_logging')) container.logDriver = null;
  return [web, worker];
}

export function sandboxWorkloads(seed: WorkloadSeed) {
  const { awsAccountId, company, regions, random, neglect, regional } = seed;
  // Every region the account uses denied: nothing could be read there.
  if (regions.length === 0) {
    return {
      lambdaFunctions: ok({ functions: [], layers: [] }, regional('Lambda ListFunctions')),
      ecsTaskDefinitions: ok({ taskDefinitions: [] }, regional('ECS ListTaskDefinitions')),
      cloudformationStacks: ok({ stacks: [] }, regional('CloudFormation DescribeStacks')),
      stateMachines: ok({ machines: [] }, regional('Step Functions ListStateMachines')),
      ssmDocuments: ok({ documents: [] }, regional('SSM ListDocuments')),
      apiGatewayStages: ok({ stages: [] }, regional('API Gateway GetRestApis')),
    };
  }
  const has = (issue: string) => random(`workload:${issue}`)() < ISSUE_ODDS * neglect;
  const [home] = regions as [string];
  const stack = (name: string): CloudFormationStack => ({
    name,
    id: `arn:aws:cloudformation:${home}:${awsAccountId}:stack/${name}/${company}-${name}`,
    region: home,
    outputSecrets: [],
    terminationProtection: true,
    nested: false,
  });
  const stacks = [stack(`${company}-network`), stack(`${company}-app`)];
  if (has('cfn_unprotected')) (stacks[0] as CloudFormationStack).terminationProtection = false;
  if (has('cfn_outputs'))
    (stacks[1] as CloudFormationStack).outputSecrets = [{ name: 'AdminPassword', kind: 'named_secret' }];
  const machine: StateMachine = {
    name: `${company}-order-flow`,
    arn: `arn:aws:states:${home}:${awsAccountId}:stateMachine:${company}-order-flow`,
    region: home,
    definitionSecrets: has('sfn_secret') ? [{ name: 'States.NotifySlack.Parameters.Url', kind: 'slack_webhook' }] : [],
    logLevel: has('sfn_logging') ? 'OFF' : 'ERROR',
  };
  const document: SsmDocument = {
    name: `${company}-DeployApp`,
    region: home,
    contentSecrets: has('ssm_secret') ? [{ name: 'mainSteps[0].inputs.runCommand[3]', kind: 'github_token' }] : [],
    public: has('ssm_public'),
  };
  const stage: ApiGatewayStage = {
    apiId: `${company.slice(0, 4)}api01`,
    apiName: `${company}-orders`,
    stage: 'prod',
    region: home,
    variableSecrets: has('apigw_secret') ? [{ name: 'backendApiKey', kind: 'named_secret' }] : [],
    logging: !has('apigw_logging'),
    webAclArn: has('apigw_waf')
      ? null
      : `arn:aws:wafv2:${home}:${awsAccountId}:regional/webacl/${company}-api/0a1b2c3d`,
  };
  return {
    lambdaFunctions: ok(lambdaFunctions(seed, has), regional('Lambda ListFunctions')),
    ecsTaskDefinitions: ok({ taskDefinitions: taskDefinitions(seed, has) }, regional('ECS ListTaskDefinitions')),
    cloudformationStacks: ok({ stacks }, regional('CloudFormation DescribeStacks')),
    stateMachines: ok({ machines: [machine] }, regional('Step Functions ListStateMachines')),
    ssmDocuments: ok({ documents: [document] }, regional('SSM ListDocuments')),
    apiGatewayStages: ok({ stages: [stage] }, regional('API Gateway GetRestApis')),
  };
}
