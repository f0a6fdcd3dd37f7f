import {
  APIGatewayClient,
  CreateDeploymentCommand,
  CreateRestApiCommand,
  CreateStageCommand,
  GetResourcesCommand,
  PutIntegrationCommand,
  PutMethodCommand,
  UpdateStageCommand,
} from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateStateMachineCommand, SFNClient } from '@aws-sdk/client-sfn';
import { CreateDocumentCommand, ModifyDocumentPermissionCommand, SSMClient } from '@aws-sdk/client-ssm';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory, PartName } from '../../domain/scans/inventory';
import {
  type AwsRequest,
  accessDenied,
  type CustomerAccount,
  createSentinelRole,
  customerConfig,
  motoDifferences,
  motoGaps,
  queryError,
  REGION,
  runAsCustomer,
} from '../helpers/aws';
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';
import { inTwoPages } from '../helpers/pages';

// Secrets in configuration that other services show in clear, against moto: CloudFormation stack outputs, Step
// Functions definitions, SSM documents and API Gateway stage variables, searched at collection time (only the kind
// and the place enter the inventory); with them, public SSM documents, unlogged state machines, and API stages
// without logs or a WAF web ACL.

const CHECKS = [
  'exposure.cloudformation_secrets_in_outputs',
  'exposure.cloudformation_termination_protection_off',
  'exposure.stepfunctions_secrets_in_definition',
  'detection.stepfunctions_logging_off',
  'exposure.ssm_document_secrets',
  'exposure.ssm_document_public',
  'exposure.apigateway_secrets_in_stage_variables',
  'detection.apigateway_stage_logging_off',
  'exposure.apigateway_stage_without_waf',
];
const PARTS: PartName[] = ['cloudformationStacks', 'stateMachines', 'ssmDocuments', 'apiGatewayStages'];
const OTHER_REGION = 'eu-west-1';
/** Fake credentials of the documented shapes: what the collected inventory must never contain. */
const FAKE_STRIPE_KEY = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const FAKE_KEY_ID = 'AKIAZXCVBNMASDFGHJ23';
const FAKE_PASSWORD = 'Tr0ub4dor-and-3-more';
const FAKE_SLACK_TOKEN = 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx';
const FAKE_SECRETS = [FAKE_STRIPE_KEY, FAKE_KEY_ID, FAKE_PASSWORD, FAKE_SLACK_TOKEN];

function outcomes(inventory: Inventory): Record<string, string | string[]> {
  return Object.fromEntries(
    CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [id, result.status === 'fail' ? result.resources.map((r) => r.resource).sort() : result.status];
    }),
  );
}

const stackTemplate = (outputs: Record<string, string>) =>
  JSON.stringify({
    Resources: { Topic: { Type: 'AWS::SNS::Topic' } },
    Outputs: Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, { Value: value }])),
  });

const machineDefinition = (headers: Record<string, string>) =>
  JSON.stringify({
    StartAt: 'Notify',
    States: {
      Notify: {
        Type: 'Task',
        Resource: 'arn:aws:states:::http:invoke',
        Parameters: { ApiEndpoint: 'https://api.example.com/notify', Method: 'POST', Headers: headers },
        End: true,
      },
    },
  });

const commandDocument = (commands: string[]) =>
  JSON.stringify({
    schemaVersion: '2.2',
    description: 'Deploys the application',
    mainSteps: [{ action: 'aws:runShellScript', name: 'deploy', inputs: { runCommand: commands } }],
  });

describe('configuration secrets collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  const collect = (target: Parameters<typeof suite.provider.collectInventory>[0]) =>
    suite.provider.collectInventory(target, { parts: PARTS });

  async function stack(
    customer: CustomerAccount,
    region: string,
    name: string,
    outputs: Record<string, string>,
    protectedStack = true,
  ) {
    const { StackId } = await client(new CloudFormationClient(customerConfig(customer, region))).send(
      new CreateStackCommand({
        StackName: name,
        TemplateBody: stackTemplate(outputs),
        EnableTerminationProtection: protectedStack,
      }),
    );
    return StackId as string;
  }

  async function machine(
    customer: CustomerAccount,
    region: string,
    name: string,
    headers: Record<string, string>,
    level: 'OFF' | 'ERROR' = 'ERROR',
  ) {
    const { stateMachineArn } = await client(new SFNClient(customerConfig(customer, region))).send(
      new CreateStateMachineCommand({
        name,
        definition: machineDefinition(headers),
        roleArn: `arn:aws:iam::${customer.accountId}:role/states-exec`,
        loggingConfiguration: {
          level,
          includeExecutionData: false,
          destinations:
            level === 'OFF'
              ? undefined
              : [
                  {
                    cloudWatchLogsLogGroup: {
                      logGroupArn: `arn:aws:logs:${region}:${customer.accountId}:log-group:/states/${name}:*`,
                    },
                  },
                ],
        },
      }),
    );
    return stateMachineArn as string;
  }

  async function document(customer: CustomerAccount, region: string, name: string, commands: string[], shared = false) {
    const ssm = client(new SSMClient(customerConfig(customer, region)));
    await ssm.send(
      new CreateDocumentCommand({ Name: name, Content: commandDocument(commands), DocumentType: 'Command' }),
    );
    if (shared)
      await ssm.send(
        new ModifyDocumentPermissionCommand({ Name: name, PermissionType: 'Share', AccountIdsToAdd: ['all'] }),
      );
  }

  /** A REST API with one stage; its stage logs and has a web ACL when `guarded`. */
  async function api(
    customer: CustomerAccount,
    region: string,
    name: string,
    variables: Record<string, string>,
    guarded: boolean,
  ): Promise<string> {
    const apigateway = client(new APIGatewayClient(customerConfig(customer, region)));
    const { id } = await apigateway.send(new CreateRestApiCommand({ name }));
    const restApiId = id as string;
    const { items = [] } = await apigateway.send(new GetResourcesCommand({ restApiId }));
    const root = items[0]?.id as string;
    await apigateway.send(
      new PutMethodCommand({ restApiId, resourceId: root, httpMethod: 'GET', authorizationType: 'NONE' }),
    );
    await apigateway.send(new PutIntegrationCommand({ restApiId, resourceId: root, httpMethod: 'GET', type: 'MOCK' }));
    const { id: deploymentId } = await apigateway.send(new CreateDeploymentCommand({ restApiId }));
    await apigateway.send(
      new CreateStageCommand({ restApiId, stageName: 'prod', deploymentId: deploymentId as string, variables }),
    );
    if (guarded) {
      await apigateway.send(
        new UpdateStageCommand({
          restApiId,
          stageName: 'prod',
          patchOperations: [
            {
              op: 'replace',
              path: '/accessLogSettings/destinationArn',
              value: `arn:aws:logs:${region}:${customer.accountId}:log-group:api-access`,
            },
          ],
        }),
      );
      // The customer's own CLI associates the web ACL, as AWS WAF does it.
      await runAsCustomer({
        customer,
        script: `set -e
acl=$(aws wafv2 create-web-acl --region ${region} --name ${name}-acl --scope REGIONAL --default-action Allow={} \
  --visibility-config SampledRequestsEnabled=false,CloudWatchMetricsEnabled=false,MetricName=${name} \
  --query Summary.ARN --output text)
aws wafv2 associate-web-acl --region ${region} --web-acl-arn "$acl" \
  --resource-arn arn:aws:apigateway:${region}::/restapis/${restApiId}/stages/prod`,
      });
    }
    return `arn:aws:apigateway:${region}::/restapis/${restApiId}/stages/prod`;
  }

  it('finds secrets in stack outputs, definitions, documents and stage variables, and what else is unsafe, keeping no secret', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const leakyStack = await stack(
      customer,
      REGION,
      'leaky',
      {
        AdminPassword: FAKE_PASSWORD,
        DeployKeyId: FAKE_KEY_ID,
        TopicName: 'orders',
      },
      false,
    );
    await stack(customer, OTHER_REGION, 'tidy', { TopicName: 'orders', Stage: 'prod' });
    const leakyMachine = await machine(
      customer,
      REGION,
      'leaky-flow',
      { Authorization: `Bearer ${FAKE_STRIPE_KEY}` },
      'OFF',
    );
    await machine(customer, OTHER_REGION, 'tidy-flow', { 'Content-Type': 'application/json' });
    const leakyDocument = uniqueName('Deploy-Leaky');
    const tidyDocument = uniqueName('Deploy-Tidy');
    await document(
      customer,
      REGION,
      leakyDocument,
      ['cd /opt/app', `export SLACK_TOKEN=${FAKE_SLACK_TOKEN}`, './deploy.sh'],
      true,
    );
    await document(customer, OTHER_REGION, tidyDocument, ['cd /opt/app', './deploy.sh']);
    const leakyStage = await api(customer, REGION, 'leaky-api', { backendApiKey: FAKE_STRIPE_KEY }, false);
    await api(customer, OTHER_REGION, 'tidy-api', { backendUrl: 'https://orders.internal.example.com' }, true);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await collect(target);

    expect(ok(inventory.cloudformationStacks).stacks.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      {
        name: 'leaky',
        id: leakyStack,
        region: REGION,
        outputSecrets: [
          { name: 'AdminPassword', kind: 'named_secret' },
          { name: 'DeployKeyId', kind: 'aws_access_key_id' },
        ],
        terminationProtection: false,
        nested: false,
      },
      {
        name: 'tidy',
        id: expect.any(String),
        region: OTHER_REGION,
        outputSecrets: [],
        terminationProtection: true,
        nested: false,
      },
    ]);
    expect(ok(inventory.stateMachines).machines.find((m) => m.name === 'leaky-flow')).toEqual({
      name: 'leaky-flow',
      arn: leakyMachine,
      region: REGION,
      definitionSecrets: [{ name: 'States.Notify.Parameters.Headers.Authorization', kind: 'stripe_key' }],
      logLevel: 'OFF',
    });
    expect(ok(inventory.ssmDocuments).documents.sort((a, b) => a.region.localeCompare(b.region))).toEqual([
      { name: tidyDocument, region: OTHER_REGION, contentSecrets: [], public: false },
      {
        name: leakyDocument,
        region: REGION,
        contentSecrets: [{ name: 'mainSteps[0].inputs.runCommand[1]', kind: 'slack_token' }],
        public: true,
      },
    ]);
    expect(ok(inventory.apiGatewayStages).stages.find((s) => s.apiName === 'tidy-api')).toMatchObject({
      stage: 'prod',
      variableSecrets: [],
      logging: true,
      webAclArn: expect.stringMatching(/^arn:aws:wafv2:eu-west-1:\d{12}:regional\/webacl\/tidy-api-acl\//),
    });
    expect(outcomes(inventory)).toEqual({
      'exposure.cloudformation_secrets_in_outputs': [leakyStack],
      'exposure.cloudformation_termination_protection_off': [leakyStack],
      'exposure.stepfunctions_secrets_in_definition': [leakyMachine],
      'detection.stepfunctions_logging_off': [leakyMachine],
      'exposure.ssm_document_secrets': [leakyDocument],
      'exposure.ssm_document_public': [leakyDocument],
      'exposure.apigateway_secrets_in_stage_variables': [leakyStage],
      'detection.apigateway_stage_logging_off': [leakyStage],
      'exposure.apigateway_stage_without_waf': [leakyStage],
    });
    const serialized = JSON.stringify(inventory);
    for (const secret of FAKE_SECRETS) expect(serialized).not.toContain(secret);
  });

  it('leaves unread the state machines, documents, APIs and regions AWS refuses, never clean', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const hiddenMachine = await machine(customer, REGION, 'hidden-flow', { Authorization: FAKE_STRIPE_KEY });
    const hiddenDocument = uniqueName('Hidden');
    await document(customer, REGION, hiddenDocument, [`export SLACK_TOKEN=${FAKE_SLACK_TOKEN}`], true);
    await api(customer, REGION, 'hidden-api', { key: FAKE_STRIPE_KEY }, false);
    await stack(customer, 'eu-west-2', 'far', { AdminPassword: FAKE_PASSWORD });
    await createSentinelRole({ customer, externalId: target.externalId });
    const refused = (r: AwsRequest) =>
      (r.service === 'states' && r.operation === 'DescribeStateMachine') ||
      (r.service === 'ssm' && r.operation === 'DescribeDocumentPermission') ||
      (r.service === 'apigateway' && /\/stages$/.test(r.path)) ||
      (r.service === 'cloudformation' && r.region === 'eu-west-2');
    suite.front.answer = (request) => {
      if (!refused(request)) return motoGaps(request);
      // CloudFormation speaks the query protocol: its refusal is an XML error.
      return request.service === 'cloudformation'
        ? queryError({ service: 'cloudformation', status: 403, code: 'AccessDenied', message: 'explicit deny' })
        : accessDenied(request);
    };

    const inventory = await collect(target);

    const unread = (part: PartName) => (inventory[part].unread ?? []).map((u) => [u.kind, u.scope, u.reason]);
    expect(unread('stateMachines')).toEqual([
      [
        'resource',
        hiddenMachine,
        expect.stringMatching(/^AWS denied Sentinel's role Step Functions DescribeStateMachine/),
      ],
    ]);
    expect(unread('ssmDocuments')).toEqual([
      ['resource', hiddenDocument, expect.stringMatching(/^AWS denied Sentinel's role SSM DescribeDocumentPermission/)],
    ]);
    expect(unread('apiGatewayStages')).toEqual([
      ['resource', expect.any(String), expect.stringMatching(/^AWS denied Sentinel's role API Gateway GetStages/)],
    ]);
    expect(unread('cloudformationStacks')).toEqual([
      ['region', 'eu-west-2', expect.stringMatching(/^AWS denied Sentinel's role CloudFormation DescribeStacks/)],
    ]);
    for (const id of CHECKS) {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      expect([id, result.status, (result.unread ?? []).length > 0]).toEqual([id, 'pass', true]);
    }
  });

  it('reads every page of stacks, state machines, documents and APIs', async () => {
    const { customer, target } = await suite.connectedCustomer();
    // moto pages DescribeStacks by 50, ListStateMachines by 100 and ListDocuments by 10; it answers GetRestApis in
    // one page, which the front splits.
    const stacks = Array.from({ length: 51 }, (_, i) => `stack-${i}`);
    const machines = Array.from({ length: 101 }, (_, i) => `flow-${i}`);
    const documents = Array.from({ length: 11 }, (_, i) => uniqueName(`Doc-${i}`));
    const apis = ['api-a', 'api-b', 'api-c'];
    for (let i = 0; i < stacks.length; i += 10)
      await Promise.all(stacks.slice(i, i + 10).map((name) => stack(customer, REGION, name, { Name: name })));
    for (let i = 0; i < machines.length; i += 20)
      await Promise.all(machines.slice(i, i + 20).map((name) => machine(customer, REGION, name, {})));
    for (const name of documents) await document(customer, REGION, name, ['echo hello']);
    for (const name of apis) await api(customer, REGION, name, {}, false);
    await createSentinelRole({ customer, externalId: target.externalId });
    const pages = inTwoPages({
      matches: (r) => r.service === 'apigateway' && r.method === 'GET' && r.path === '/restapis',
      items: 'item',
      tokenIn: { query: 'position' },
      tokenOut: 'position',
    });
    suite.front.rewrite = (request, answer) => pages(request, answer) ?? motoDifferences(request, answer);

    const inventory = await collect(target);

    expect(
      ok(inventory.cloudformationStacks)
        .stacks.map((s) => s.name)
        .sort(),
    ).toEqual([...stacks].sort());
    expect(
      ok(inventory.stateMachines)
        .machines.map((m) => m.name)
        .sort(),
    ).toEqual([...machines].sort());
    expect(
      ok(inventory.ssmDocuments)
        .documents.map((d) => d.name)
        .sort(),
    ).toEqual([...documents].sort());
    expect(
      ok(inventory.apiGatewayStages)
        .stages.map((s) => s.apiName)
        .sort(),
    ).toEqual(apis);
    const calls = (match: (r: AwsRequest) => boolean) =>
      suite.front.requests.filter((r) => r.region === REGION && match(r)).length;
    expect([
      calls((r) => r.service === 'cloudformation' && r.operation === 'DescribeStacks'),
      calls((r) => r.service === 'states' && r.operation === 'ListStateMachines'),
      calls((r) => r.service === 'ssm' && r.operation === 'ListDocuments'),
      calls((r) => r.service === 'apigateway' && r.path === '/restapis'),
    ]).toEqual([2, 2, 2, 2]);
  });
});
