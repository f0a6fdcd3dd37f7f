import {
  AddPermissionCommand,
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  type CreateFunctionCommandInput,
  LambdaClient,
} from '@aws-sdk/client-lambda';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { MAX_PACKAGE_BYTES } from '../../cloud/aws/collectors/code-package';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import {
  type AwsRequest,
  accessDenied,
  type CannedAnswer,
  type CustomerAccount,
  createRole,
  createSentinelRole,
  customerConfig,
  motoDifferences,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';
import { inTwoPages } from '../helpers/pages';
import { zip } from '../helpers/zip';

// Lambda functions against moto: environment variables and code packages searched for secrets at collection time
// (only kinds and places enter the inventory), resource policies, function URLs, layers, runtimes and what triggers
// each function (its event source mappings). moto hands
// out a Code.Location on a host that does not exist and serves no package there: the front points it at itself and
// serves the package the test deployed, as AWS's presigned S3 URL would. moto has no ListFunctionUrlConfigs: the
// front answers it (test/helpers/aws.ts), here with the URL a test gives a function. moto keeps no layer of another
// account and serves no layer package: the front answers GetLayerVersion for the layers a test publishes there.

const LAMBDA_CHECKS = [
  'exposure.lambda_secrets_in_variables',
  'exposure.lambda_secrets_in_code',
  'exposure.lambda_public_policy',
  'exposure.lambda_url_public',
  'exposure.lambda_cross_account_layers',
  'exposure.lambda_runtime_deprecated',
  'exposure.lambda_layer_secrets',
];
const OTHER_REGION = 'eu-west-1';
/** Fake credentials of the documented shapes: what the collected inventory must never contain. */
const FAKE_KEY_ID = 'AKIAQWERTYUIOPASDF23';
const FAKE_PRIVATE_KEY_BODY = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun';
const FAKE_PASSWORD = 'hunter2-Correct-Horse-Battery';
const FOREIGN_LAYER = 'arn:aws:lambda:us-east-1:999988887777:layer:shared-tools:3';
const FAKE_SLACK_TOKEN = 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx';

function outcomes(inventory: Inventory): Record<string, string | string[]> {
  return Object.fromEntries(
    LAMBDA_CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [id, result.status === 'fail' ? result.resources.map((r) => r.resource).sort() : result.status];
    }),
  );
}

const isGetFunction = (r: AwsRequest) =>
  r.service === 'lambda' && r.method === 'GET' && /^\/2015-03-31\/functions\/[^/]+$/.test(r.path);
const isGetPolicy = (r: AwsRequest) =>
  r.service === 'lambda' && r.method === 'GET' && /^\/2015-03-31\/functions\/[^/]+\/policy$/.test(r.path);
const isListFunctions = (r: AwsRequest) =>
  r.service === 'lambda' && r.method === 'GET' && /^\/2015-03-31\/functions\/?$/.test(r.path);
const isListMappings = (r: AwsRequest) =>
  r.service === 'lambda' && r.method === 'GET' && /^\/2015-03-31\/event-source-mappings\/?$/.test(r.path);
const urlsOf = (r: AwsRequest) =>
  r.service === 'lambda' && r.method === 'GET'
    ? decodeURIComponent(/^\/2021-10-31\/functions\/([^/]+)\/urls$/.exec(r.path)?.[1] ?? '')
    : '';

describe('Lambda collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;
  /** The packages the front serves at the Code.Location it hands out, by function name. */
  const packages = new Map<string, Buffer>();
  /** Function URLs the front answers ListFunctionUrlConfigs with, by function name. */
  const functionUrls = new Map<string, string>();

  beforeEach(() => {
    packages.clear();
    functionUrls.clear();
    suite.front.answer = serve;
    suite.front.rewrite = (request, answer) => codeLocation(request, answer) ?? motoDifferences(request, answer);
  });

  function serve(request: AwsRequest): CannedAnswer | undefined {
    const code = /^\/code\/(.+)$/.exec(request.path);
    if (code) {
      const bytes = packages.get(decodeURIComponent(code[1] as string));
      return bytes
        ? { status: 200, contentType: 'application/zip', body: '', bytes }
        : { status: 404, contentType: 'application/xml', body: '<Error><Code>NoSuchKey</Code></Error>' };
    }
    const layer = /^\/2018-10-31\/layers\/([^/]+)\/versions\/(\d+)$/.exec(request.path);
    if (request.service === 'lambda' && layer) {
      const arn = `${decodeURIComponent(layer[1] as string)}:${layer[2]}`;
      const bytes = packages.get(arn);
      if (!bytes) return undefined;
      return {
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          Content: {
            Location: `${suite.front.endpoint}/code/${encodeURIComponent(arn)}`,
            CodeSha256: 'front',
            CodeSize: bytes.length,
          },
          LayerArn: decodeURIComponent(layer[1] as string),
          LayerVersionArn: arn,
          Version: Number(layer[2]),
          CreatedDate: '2026-01-01T00:00:00.000+0000',
        }),
      };
    }
    const name = urlsOf(request).split(':').pop() ?? '';
    const authType = functionUrls.get(name);
    if (authType) {
      return {
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          FunctionUrlConfigs: [
            {
              FunctionUrl: `https://${name}.lambda-url.${request.region}.on.aws/`,
              FunctionArn: `arn:aws:lambda:${request.region}:000000000000:function:${name}`,
              AuthType: authType,
              CreationTime: '2026-01-01T00:00:00.000+0000',
              LastModifiedTime: '2026-01-01T00:00:00.000+0000',
            },
          ],
        }),
      };
    }
    return motoGaps(request);
  }

  /** GetFunction's Code.Location, pointed at the front, which serves the package deployed. */
  function codeLocation(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
    if (!isGetFunction(request) || answer.status !== 200) return undefined;
    const body = JSON.parse(answer.body) as { Configuration: { FunctionName: string }; Code?: { Location?: string } };
    if (!body.Code?.Location) return undefined;
    body.Code.Location = `${suite.front.endpoint}/code/${body.Configuration.FunctionName}`;
    return { ...answer, body: JSON.stringify(body) };
  }

  async function deploy(
    customer: CustomerAccount,
    region: string,
    fn: { name: string; runtime: string; files: Record<string, string | Buffer>; env?: Record<string, string> },
  ): Promise<string> {
    const lambda = client(new LambdaClient(customerConfig(customer, region)));
    const code = zip(fn.files);
    const input: CreateFunctionCommandInput = {
      FunctionName: fn.name,
      Runtime: fn.runtime as CreateFunctionCommandInput['Runtime'],
      Role: `arn:aws:iam::${customer.accountId}:role/lambda-exec`,
      Handler: 'index.handler',
      Code: { ZipFile: code },
      Environment: fn.env ? { Variables: fn.env } : undefined,
    };
    const created = await lambda.send(new CreateFunctionCommand(input));
    packages.set(fn.name, code);
    return created.FunctionArn as string;
  }

  async function permit(
    customer: CustomerAccount,
    region: string,
    name: string,
    principal: string,
    sourceAccount?: string,
  ) {
    await client(new LambdaClient(customerConfig(customer, region))).send(
      new AddPermissionCommand({
        FunctionName: name,
        StatementId: `invoke-${principal.replace(/\W/g, '')}`,
        Action: 'lambda:InvokeFunction',
        Principal: principal,
        SourceAccount: sourceAccount,
      }),
    );
  }

  async function customerWithRole() {
    const { customer, target } = await suite.connectedCustomer();
    await createRole({
      customer,
      roleName: 'lambda-exec',
      trustPolicy: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
      },
    });
    return { customer, target };
  }

  it('finds secrets in variables and code, a public policy and URL, a foreign layer and an old runtime, and keeps no secret', async () => {
    const { customer, target } = await customerWithRole();
    const leaky = await deploy(customer, REGION, {
      name: 'leaky',
      runtime: 'python3.8',
      env: { AWS_ACCESS_KEY_ID: FAKE_KEY_ID, DB_PASSWORD: FAKE_PASSWORD, LOG_LEVEL: 'debug' },
      files: {
        'index.py': 'def handler(event, context):\n    return {"ok": True}\n',
        'config/keys.py': `SIGNING_KEY = """\n-----BEGIN RSA PRIVATE KEY-----\n${FAKE_PRIVATE_KEY_BODY}\n-----END RSA PRIVATE KEY-----\n"""\n`,
        // A library's test fixture: third-party code is not read.
        'node_modules/some-lib/test/fixture.pem': `-----BEGIN PRIVATE KEY-----\n${FAKE_PRIVATE_KEY_BODY}\n`,
      },
    });
    const tidy = await deploy(customer, OTHER_REGION, {
      name: 'tidy',
      runtime: 'nodejs22.x',
      env: {
        LOG_LEVEL: 'info',
        SECRET_ARN: `arn:aws:secretsmanager:${OTHER_REGION}:${customer.accountId}:secret:db-AbCdEf`,
      },
      files: { 'index.mjs': 'export const handler = async () => ({ statusCode: 200 });\n' },
    });
    await permit(customer, REGION, 'leaky', '*');
    await permit(customer, OTHER_REGION, 'tidy', 's3.amazonaws.com', customer.accountId);
    packages.set(FOREIGN_LAYER, zip({ 'python/tools/notify.py': `SLACK = "${FAKE_SLACK_TOKEN}"\n` }));
    functionUrls.set('leaky', 'NONE');
    functionUrls.set('tidy', 'AWS_IAM');
    // moto accepts only layers of the function's own account: the foreign one is added to its answer.
    suite.front.rewrite = (request, answer) => {
      if (isListFunctions(request) && request.region === REGION && answer.status === 200) {
        const body = JSON.parse(answer.body) as { Functions: { FunctionName: string; Layers?: unknown[] }[] };
        for (const fn of body.Functions)
          if (fn.FunctionName === 'leaky') fn.Layers = [{ Arn: FOREIGN_LAYER, CodeSize: 1024 }];
        return { ...answer, body: JSON.stringify(body) };
      }
      return codeLocation(request, answer) ?? motoDifferences(request, answer);
    };
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target, { parts: ['lambdaFunctions'] });

    const functions = ok(inventory.lambdaFunctions).functions.sort((a, b) => a.name.localeCompare(b.name));
    expect(functions).toEqual([
      {
        name: 'leaky',
        arn: leaky,
        region: REGION,
        runtime: 'python3.8',
        roleArn: `arn:aws:iam::${customer.accountId}:role/lambda-exec`,
        environment: {
          read: true,
          secrets: [
            { name: 'AWS_ACCESS_KEY_ID', kind: 'aws_access_key_id' },
            { name: 'DB_PASSWORD', kind: 'named_secret' },
          ],
        },
        code: { read: true, secrets: [{ file: 'config/keys.py', line: 2, kind: 'private_key' }] },
        policy: {
          read: true,
          publicStatements: [expect.stringContaining('lambda:InvokeFunction')],
          // The policy itself, kept for the attack-path analysis.
          document: expect.objectContaining({
            Statement: [expect.objectContaining({ Action: 'lambda:InvokeFunction' })],
          }),
        },
        urls: { read: true, urls: [{ url: `https://leaky.lambda-url.${REGION}.on.aws/`, authType: 'NONE' }] },
        layers: [FOREIGN_LAYER],
        eventSources: { read: true, mappings: [] },
      },
      {
        name: 'tidy',
        arn: tidy,
        region: OTHER_REGION,
        runtime: 'nodejs22.x',
        roleArn: `arn:aws:iam::${customer.accountId}:role/lambda-exec`,
        environment: { read: true, secrets: [] },
        code: { read: true, secrets: [] },
        // A service's grant, with its source account: nothing public, the policy kept as it is.
        policy: {
          read: true,
          publicStatements: [],
          document: expect.objectContaining({
            Statement: [expect.objectContaining({ Principal: { Service: 's3.amazonaws.com' } })],
          }),
        },
        urls: { read: true, urls: [{ url: `https://tidy.lambda-url.${OTHER_REGION}.on.aws/`, authType: 'AWS_IAM' }] },
        layers: [],
        eventSources: { read: true, mappings: [] },
      },
    ]);
    expect(ok(inventory.lambdaFunctions).layers).toEqual([
      {
        arn: FOREIGN_LAYER,
        region: REGION,
        content: { read: true, secrets: [{ file: 'python/tools/notify.py', line: 1, kind: 'slack_token' }] },
      },
    ]);
    expect(outcomes(inventory)).toEqual(
      Object.fromEntries(
        LAMBDA_CHECKS.map((id) => [id, id === 'exposure.lambda_layer_secrets' ? [FOREIGN_LAYER] : [leaky]]),
      ),
    );
    const serialized = JSON.stringify(inventory);
    for (const secret of [FAKE_KEY_ID, FAKE_PASSWORD, FAKE_PRIVATE_KEY_BODY, FAKE_SLACK_TOKEN])
      expect(serialized).not.toContain(secret);
    // Each package was downloaded once, through the location GetFunction or GetLayerVersion gave.
    expect(
      suite.front.requests
        .filter((r) => r.path.startsWith('/code/'))
        .map((r) => decodeURIComponent(r.path))
        .sort(),
    ).toEqual([`/code/${FOREIGN_LAYER}`, '/code/leaky', '/code/tidy']);
  });

  it('passes clean functions', async () => {
    const { customer, target } = await customerWithRole();
    await deploy(customer, REGION, {
      name: 'clean',
      runtime: 'python3.13',
      env: { TABLE_NAME: 'orders', STAGE: 'prod' },
      files: {
        'index.py': 'import os\n\nTABLE = os.environ["TABLE_NAME"]\n\ndef handler(event, context):\n    return TABLE\n',
      },
    });
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target, { parts: ['lambdaFunctions'] });

    expect(Object.values(outcomes(inventory))).toEqual(LAMBDA_CHECKS.map(() => 'pass'));
    expect(inventory.lambdaFunctions.unread).toBeUndefined();
  });

  it('leaves unread what AWS refuses (a package, a policy, a region) and a package over the size bound, never clean', async () => {
    const { customer, target } = await customerWithRole();
    const hidden = await deploy(customer, REGION, {
      name: 'hidden',
      runtime: 'nodejs22.x',
      files: { 'index.mjs': `const key = "${FAKE_KEY_ID}";\n` },
    });
    const huge = await deploy(customer, REGION, {
      name: 'huge',
      runtime: 'nodejs22.x',
      files: { 'index.mjs': 'export const handler = async () => 1;\n' },
    });
    // What the location serves is larger than the bound, whatever size Lambda reported.
    packages.set('huge', Buffer.alloc(MAX_PACKAGE_BYTES + 1024 * 1024));
    await deploy(customer, 'eu-west-2', { name: 'elsewhere', runtime: 'nodejs22.x', files: { 'a.js': '1;\n' } });
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) => {
      if ((isGetFunction(request) || isGetPolicy(request)) && request.path.includes('hidden'))
        return accessDenied(request);
      if (request.service === 'lambda' && request.region === 'eu-west-2') return accessDenied(request);
      return serve(request);
    };

    const inventory = await suite.provider.collectInventory(target, { parts: ['lambdaFunctions'] });

    const byName = new Map(ok(inventory.lambdaFunctions).functions.map((fn) => [fn.name, fn]));
    expect([...byName.keys()].sort()).toEqual(['hidden', 'huge']);
    expect(byName.get('hidden')).toMatchObject({
      environment: { read: true, secrets: [] },
      code: { read: false, reason: expect.stringMatching(/^AWS denied Sentinel's role Lambda GetFunction/) },
      policy: { read: false, reason: expect.stringMatching(/^AWS denied Sentinel's role Lambda GetPolicy/) },
      urls: { read: true },
    });
    expect(byName.get('huge')?.code).toEqual({
      read: false,
      reason: 'The code package is larger than 50 MB: Sentinel does not read packages that large.',
    });
    expect(inventory.lambdaFunctions.unread).toEqual([
      {
        kind: 'region',
        scope: 'eu-west-2',
        reason: expect.stringMatching(/^AWS denied Sentinel's role Lambda ListFunctions/),
      },
    ]);
    const check = (id: string) => checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
    const code = check('exposure.lambda_secrets_in_code');
    expect(code.status).toBe('pass');
    expect(code.unread?.map((u) => u.scope).sort()).toEqual([hidden, huge, 'eu-west-2'].sort());
    expect(check('exposure.lambda_public_policy')).toMatchObject({
      status: 'pass',
      unread: expect.arrayContaining([expect.objectContaining({ scope: hidden })]),
    });
  });

  it('reads every page of functions', async () => {
    const { customer, target } = await customerWithRole();
    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const name of names)
      await deploy(customer, REGION, { name, runtime: 'nodejs22.x', files: { 'index.mjs': 'export {};\n' } });
    await createSentinelRole({ customer, externalId: target.externalId });
    const pages = inTwoPages({
      matches: isListFunctions,
      items: 'Functions',
      tokenIn: { query: 'Marker' },
      tokenOut: 'NextMarker',
    });
    suite.front.rewrite = (request, answer) =>
      pages(request, answer) ?? codeLocation(request, answer) ?? motoDifferences(request, answer);

    const inventory = await suite.provider.collectInventory(target, { parts: ['lambdaFunctions'] });

    expect(
      ok(inventory.lambdaFunctions)
        .functions.map((fn) => fn.name)
        .sort(),
    ).toEqual(names);
    expect(suite.front.requests.filter((r) => isListFunctions(r) && r.region === REGION)).toHaveLength(2);
  });
  /** A queue of the customer's, by its ARN. */
  async function queue(customer: CustomerAccount, name: string): Promise<string> {
    const sqs = client(new SQSClient(customerConfig(customer, REGION)));
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    return Attributes?.QueueArn as string;
  }

  async function trigger(customer: CustomerAccount, source: string, fn: string, enabled = true): Promise<string> {
    const lambda = client(new LambdaClient(customerConfig(customer, REGION)));
    const { UUID } = await lambda.send(
      new CreateEventSourceMappingCommand({ EventSourceArn: source, FunctionName: fn, Enabled: enabled }),
    );
    return UUID as string;
  }

  it('reads what triggers each function, enabled or disabled, from every page of the mappings', async () => {
    const { customer, target } = await customerWithRole();
    const files = { 'index.mjs': 'export const handler = async () => 1;\n' };
    await deploy(customer, REGION, { name: 'worker', runtime: 'nodejs22.x', files });
    await deploy(customer, REGION, { name: 'idle', runtime: 'nodejs22.x', files });
    const orders = await queue(customer, 'orders');
    const returns = await queue(customer, 'returns');
    const polled = await trigger(customer, orders, 'worker');
    const paused = await trigger(customer, returns, 'worker', false);
    await createSentinelRole({ customer, externalId: target.externalId });
    const pages = inTwoPages({
      matches: isListMappings,
      items: 'EventSourceMappings',
      tokenIn: { query: 'Marker' },
      tokenOut: 'NextMarker',
    });
    suite.front.rewrite = (request, answer) =>
      pages(request, answer) ?? codeLocation(request, answer) ?? motoDifferences(request, answer);

    const inventory = await suite.provider.collectInventory(target, { parts: ['lambdaFunctions'] });

    const byName = new Map(ok(inventory.lambdaFunctions).functions.map((fn) => [fn.name, fn]));
    const sources = byName.get('worker')?.eventSources;
    expect(sources?.read && [...sources.mappings].sort((a, b) => a.sourceArn.localeCompare(b.sourceArn))).toEqual([
      { uuid: polled, sourceArn: orders, state: 'Enabled' },
      { uuid: paused, sourceArn: returns, state: 'Disabled' },
    ]);
    expect(byName.get('idle')?.eventSources).toEqual({ read: true, mappings: [] });
    // One list for the region, in two pages; none in a region without functions.
    expect(suite.front.requests.filter((r) => isListMappings(r)).map((r) => r.region)).toEqual([REGION, REGION]);
  });

  it('leaves what triggers the functions unread where Lambda refuses the list, never taken for no trigger', async () => {
    const { customer, target } = await customerWithRole();
    const files = { 'index.mjs': 'export const handler = async () => 1;\n' };
    await deploy(customer, REGION, { name: 'worker', runtime: 'nodejs22.x', files });
    await trigger(customer, await queue(customer, 'orders'), 'worker');
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) => (isListMappings(request) ? accessDenied(request) : serve(request));

    const inventory = await suite.provider.collectInventory(target, { parts: ['lambdaFunctions'] });

    const [worker] = ok(inventory.lambdaFunctions).functions;
    expect(worker).toMatchObject({
      name: 'worker',
      eventSources: {
        read: false,
        reason: expect.stringMatching(/^AWS denied Sentinel's role Lambda ListEventSourceMappings/),
      },
      // The function's other facets are read as ever.
      code: { read: true, secrets: [] },
      policy: { read: true },
      urls: { read: true },
    });
    expect(inventory.lambdaFunctions.unread).toBeUndefined();
  });
});
