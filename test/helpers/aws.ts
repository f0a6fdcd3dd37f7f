import { spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { GetCostAndUsageResponse } from '@aws-sdk/client-cost-explorer';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { cliScript } from '../../domain/onboarding';
import { PROJECT_ROOT } from '../../scripts/tools';

// Both sides of a cross-account setup on the shared moto server. Credentials are always given explicitly,
// so nothing depends on the developer's own AWS configuration.

export const REGION = 'us-east-1';
/** The account moto's default credentials act in: Sentinel's own account in these tests. */
export const MOTO_ACCOUNT_ID = '123456789012';
export const TEST_CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' };
const VENV_BIN = path.join(PROJECT_ROOT, '.tools/venv/bin');

export function motoEndpoint(): string {
  const endpoint = process.env.TEST_AWS_ENDPOINT;
  if (!endpoint) throw new Error('TEST_AWS_ENDPOINT is not set: run the tests through jest (test/setup/global-setup.ts)');
  return endpoint;
}

/** A fresh account id per test, so moto's per-account IAM state starts empty. */
export function randomAccountId(): string {
  return String(randomInt(100_000_000_000, 999_999_999_998));
}

export const randomExternalId = (): string => randomBytes(24).toString('base64url');

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

export interface CustomerAccount {
  accountId: string;
  credentials: Credentials;
  iam: IAMClient;
}

/** Plays the customer: an administrator of a new account (moto acts in the account of an assumed role). */
export async function customerAccount(): Promise<CustomerAccount> {
  const accountId = randomAccountId();
  const sts = new STSClient({ region: REGION, endpoint: motoEndpoint(), credentials: TEST_CREDENTIALS });
  try {
    const { Credentials: c } = await sts.send(new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${accountId}:role/bootstrap`, RoleSessionName: 'customer-admin',
    }));
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken) throw new Error('moto returned no credentials');
    const credentials = { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
    return { accountId, credentials, iam: new IAMClient({ region: REGION, endpoint: motoEndpoint(), credentials }) };
  } finally {
    sts.destroy();
  }
}

export async function createRole({ customer, roleName, trustPolicy }: { customer: CustomerAccount; roleName: string; trustPolicy: unknown }): Promise<void> {
  await customer.iam.send(new CreateRoleCommand({ RoleName: roleName, AssumeRolePolicyDocument: JSON.stringify(trustPolicy) }));
}

/** Runs a shell script with the AWS CLI as the customer would, against moto. Throws with its stderr on failure. */
export function runAsCustomer({ script, customer }: { script: string; customer: CustomerAccount }): string {
  const run = spawnSync('bash', ['-c', script], {
    encoding: 'utf8',
    timeout: 60_000,
    // Not a pipe: bash reads ~/.bashrc when its stdin is a socket, which is what Node's pipes are.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: `${VENV_BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      AWS_ACCESS_KEY_ID: customer.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: customer.credentials.secretAccessKey,
      AWS_SESSION_TOKEN: customer.credentials.sessionToken,
      AWS_DEFAULT_REGION: REGION,
      AWS_ENDPOINT_URL: motoEndpoint(),
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    },
  });
  if (run.status !== 0) {
    // moto knows AWS managed policies (SecurityAudit, ...) only when its server is started with this variable.
    const hint = /arn:aws:iam::aws:policy\/.* does not exist/.test(run.stderr)
      ? '\nmoto_server must run with MOTO_IAM_LOAD_MANAGED_POLICIES=true (test/setup/moto.ts)'
      : '';
    throw new Error(`script exited with ${run.status ?? run.signal}:\n${run.stderr}${hint}`);
  }
  return run.stdout;
}

/** SDK client configuration for the customer's administrator, on moto. */
export function customerConfig(customer: CustomerAccount, region = REGION) {
  return { region, endpoint: motoEndpoint(), credentials: customer.credentials };
}

/** Creates Sentinel's role in the customer's account with the real CLI script, as a customer would. */
export function createSentinelRole({ customer, externalId }: { customer: CustomerAccount; externalId: string }): void {
  runAsCustomer({ script: cliScript({ sentinelAccountId: MOTO_ACCOUNT_ID, externalId }), customer });
}

/**
 * Queues results for moto's Cost Explorer GetCostAndUsage in one account: the next request with new
 * parameters takes the first queued result, and the same parameters get the same result afterwards.
 */
export async function queueCostAndUsage({ accountId, results }: { accountId: string; results: GetCostAndUsageResponse[] }): Promise<void> {
  const res = await fetch(`${motoEndpoint()}/moto-api/static/ce/cost-and-usage-results`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account_id: accountId, results }),
  });
  if (res.status !== 201) throw new Error(`moto refused the Cost Explorer results: ${res.status} ${await res.text()}`);
}

/** An AWS request as the front sees it: the service from its signature, the operation when the protocol names it. */
export interface AwsRequest {
  service: string;
  /** From X-Amz-Target (JSON protocols) or the Action parameter (query protocols); REST APIs have only a path. */
  operation: string | undefined;
  method: string;
  path: string;
}

export interface CannedAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * A front to moto that answers some requests itself and passes the others on: it stands in for the APIs
 * moto does not implement, and for answers moto never gives (refusals, outages). Tests point the provider
 * at `endpoint` and set `answer`.
 */
export interface AwsFront {
  endpoint: string;
  answer: (request: AwsRequest) => CannedAnswer | undefined;
  close(): Promise<void>;
}

const json = (status: number, body: unknown, contentType = 'application/x-amz-json-1.1'): CannedAnswer =>
  ({ status, contentType, body: JSON.stringify(body) });

/** An error as a JSON-protocol service (Health, Cost Explorer, Budgets) sends it. */
export const jsonError = (status: number, type: string, message: string) => json(status, { __type: type, message });

/** An error as a query-protocol service sends it: EC2 has its own envelope. */
export function queryError({ service, status, code, message }: { service: string; status: number; code: string; message: string }): CannedAnswer {
  const body = service === 'ec2'
    ? `<Response><Errors><Error><Code>${code}</Code><Message>${message}</Message></Error></Errors><RequestID>front</RequestID></Response>`
    : `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>front</RequestId></ErrorResponse>`;
  return { status, contentType: 'text/xml', body };
}

/**
 * Answers for what moto 5.2 lacks: it has no AWS Health at all (HTTP 500), and answers Cost Explorer
 * GetAnomalies (500, NotImplementedError) and GuardDuty ListFindings/GetFindings (404) with HTML error pages.
 * Health answers as for an account without a Business support plan; the others find nothing.
 */
export function motoGaps(request: AwsRequest): CannedAnswer | undefined {
  if (request.service === 'health') {
    return jsonError(400, 'SubscriptionRequiredException', 'The AWS Premium Support Subscription is required to use this service.');
  }
  if (request.service === 'ce' && request.operation === 'GetAnomalies') return json(200, { Anomalies: [] });
  if (request.service === 'guardduty' && request.method === 'POST') {
    if (/^\/detector\/[^/]+\/findings$/.test(request.path)) return json(200, { findingIds: [] }, 'application/json');
    if (/^\/detector\/[^/]+\/findings\/get$/.test(request.path)) return json(200, { findings: [] }, 'application/json');
  }
  return undefined;
}

function describeRequest(req: IncomingMessage, body: Buffer): AwsRequest {
  const scope = /Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\//.exec(req.headers.authorization ?? '');
  const target = req.headers['x-amz-target'];
  const query = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
    ? new URLSearchParams(body.toString('utf8')).get('Action') ?? undefined
    : undefined;
  return {
    service: scope?.[1] ?? '',
    operation: typeof target === 'string' ? target.split('.').pop() : query,
    method: req.method ?? 'GET',
    path: new URL(req.url ?? '/', 'http://front').pathname,
  };
}

export async function startAwsFront(): Promise<AwsFront> {
  const upstream = new URL(motoEndpoint());
  const front: AwsFront = { endpoint: '', answer: motoGaps, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const canned = front.answer(describeRequest(req, body));
      if (canned) {
        res.writeHead(canned.status, { 'content-type': canned.contentType }).end(canned.body);
        return;
      }
      const pass = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      pass.on('error', (err) => res.destroy(err));
      pass.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  front.endpoint = `http://127.0.0.1:${port}`;
  front.close = () => new Promise((resolve, reject) => {
    server.closeAllConnections();
    server.close((err) => (err ? reject(err) : resolve()));
  });
  return front;
}
