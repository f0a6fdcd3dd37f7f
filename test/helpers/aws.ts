import { REGIONS_VARIABLE } from '../../domain/onboarding/forwarder-templates';
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { GetCostAndUsageResponse } from '@aws-sdk/client-cost-explorer';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { cliScript } from '../../domain/onboarding/role';
import { PROJECT_ROOT } from '../../scripts/tools';
import { CONDITION_CEILING_MS } from './patience';

// Both sides of a cross-account setup on the shared moto server. Credentials are always given explicitly,
// so nothing depends on the developer's own AWS configuration.

export const REGION = 'us-east-1';
/** The account moto's default credentials act in: Sentinel's own account in these tests. */
export const MOTO_ACCOUNT_ID = '123456789012';
export const TEST_CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' };
const VENV_BIN = path.join(PROJECT_ROOT, '.tools/venv/bin');

export function motoEndpoint(): string {
  const endpoint = process.env.TEST_AWS_ENDPOINT;
  if (!endpoint)
    throw new Error('TEST_AWS_ENDPOINT is not set: run the tests through jest (test/setup/global-setup.ts)');
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
    const { Credentials: c } = await sts.send(
      new AssumeRoleCommand({
        RoleArn: `arn:aws:iam::${accountId}:role/bootstrap`,
        RoleSessionName: 'customer-admin',
      }),
    );
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken) throw new Error('moto returned no credentials');
    const credentials = {
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
    };
    return { accountId, credentials, iam: new IAMClient({ region: REGION, endpoint: motoEndpoint(), credentials }) };
  } finally {
    sts.destroy();
  }
}

export async function createRole({
  customer,
  roleName,
  trustPolicy,
}: {
  customer: CustomerAccount;
  roleName: string;
  trustPolicy: unknown;
}): Promise<void> {
  await customer.iam.send(
    new CreateRoleCommand({ RoleName: roleName, AssumeRolePolicyDocument: JSON.stringify(trustPolicy) }),
  );
}

/**
 * Runs a shell script with the AWS CLI as the customer would, against moto. Throws with its stderr on failure. Not
 * spawnSync: a suite's in-process worker must keep answering its workflow tasks while the script runs.
 */
export async function runAsCustomer({
  script,
  customer,
  endpoint = motoEndpoint(),
}: {
  script: string;
  customer: CustomerAccount;
  endpoint?: string;
}): Promise<string> {
  const child = spawn('bash', ['-c', script], {
    timeout: CONDITION_CEILING_MS,
    // Not a pipe: bash reads ~/.bashrc when its stdin is a socket, which is what Node's pipes are.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: `${VENV_BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      AWS_ACCESS_KEY_ID: customer.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: customer.credentials.secretAccessKey,
      AWS_SESSION_TOKEN: customer.credentials.sessionToken,
      AWS_DEFAULT_REGION: REGION,
      // The event forwarder in the test region only: moto lists every AWS region, and its many calls per region are
      // the forwarder suite's to check (test/cloud/event-forwarder-templates.test.ts).
      [REGIONS_VARIABLE]: REGION,
      AWS_ENDPOINT_URL: endpoint,
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const [status, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, sig) => resolve([code, sig]));
  });
  if (status !== 0) {
    // moto knows AWS managed policies (SecurityAudit, ...) only when its server is started with this variable.
    const hint = /arn:aws:iam::aws:policy\/.* does not exist/.test(stderr)
      ? '\nmoto_server must run with MOTO_IAM_LOAD_MANAGED_POLICIES=true (test/setup/moto.ts)'
      : '';
    throw new Error(`script exited with ${status ?? signal}:\n${stderr}${hint}`);
  }
  return stdout;
}

/** SDK client configuration for the customer's administrator, on moto. */
export function customerConfig(customer: CustomerAccount, region = REGION) {
  return { region, endpoint: motoEndpoint(), credentials: customer.credentials };
}

/** Creates Sentinel's role in the customer's account with the real CLI script, as a customer would. */
export async function createSentinelRole({
  customer,
  externalId,
}: {
  customer: CustomerAccount;
  externalId: string;
}): Promise<void> {
  await runAsCustomer({ script: cliScript({ sentinelAccountId: MOTO_ACCOUNT_ID, externalId }), customer });
}

/**
 * Queues results for moto's Cost Explorer GetCostAndUsage in one account: the next request with new
 * parameters takes the first queued result, and the same parameters get the same result afterwards.
 */
export async function queueCostAndUsage({
  accountId,
  results,
}: {
  accountId: string;
  results: GetCostAndUsageResponse[];
}): Promise<void> {
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
  /** The query string, without the `?`. */
  query: string;
  /** The region and access key the request was signed for. */
  region: string;
  accessKeyId: string;
  body: string;
  /** When the front received it (ms since the epoch). */
  at: number;
  /** The ARN of the role whose session signed it, when that session's AssumeRole passed through the front. */
  role?: string;
  /** The SDK's attempt at the call (its amz-sdk-request header): above 1, a retry of one that failed. */
  attempt?: number;
}

export interface CannedAnswer {
  status: number;
  contentType: string;
  body: string;
  /** A binary body (a code package), sent instead of `body`. */
  bytes?: Buffer;
}

/**
 * A front to moto that answers some requests itself and passes the others on: it stands in for the APIs
 * moto does not implement, and for answers moto never gives (refusals, outages). Tests point the provider
 * at `endpoint`, set `answer` (and `rewrite`, to change what moto answers), and read `requests`.
 */
export interface AwsFront {
  endpoint: string;
  answer: (request: AwsRequest) => CannedAnswer | undefined;
  /** Changes moto's answer to a request; undefined keeps it. */
  rewrite: (request: AwsRequest, answer: CannedAnswer) => CannedAnswer | undefined;
  /** Milliseconds to hold a request before handling it (0: none), to make a collection last. */
  delay: (request: AwsRequest) => number;
  /**
   * The regions DescribeRegions answers as enabled, before `rewrite` (undefined: all of moto's): a collection then
   * reads only these, as for an account whose other regions are not opted in.
   */
  enabledRegions?: readonly string[];
  /** Every request the front received, in order (the latest 20,000, or as many as `keep` says). */
  requests: AwsRequest[];
  /** The role each session's access key belongs to, from the AssumeRole answers that passed through the front. */
  sessions: Map<string, string>;
  close(): Promise<void>;
}

const KEPT_REQUESTS = 20_000;

const json = (status: number, body: unknown, contentType = 'application/x-amz-json-1.1'): CannedAnswer => ({
  status,
  contentType,
  body: JSON.stringify(body),
});

/** An error as a JSON-protocol service (Health, Cost Explorer, Budgets) sends it. */
export const jsonError = (status: number, type: string, message: string) => json(status, { __type: type, message });

/** An error as a query-protocol service sends it: EC2 has its own envelope. */
export function queryError({
  service,
  status,
  code,
  message,
}: {
  service: string;
  status: number;
  code: string;
  message: string;
}): CannedAnswer {
  const body =
    service === 'ec2'
      ? `<Response><Errors><Error><Code>${code}</Code><Message>${message}</Message></Error></Errors><RequestID>front</RequestID></Response>`
      : `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>front</RequestId></ErrorResponse>`;
  return { status, contentType: 'text/xml', body };
}

/** An S3 (REST XML) error. */
const s3Error = (status: number, code: string, message: string): CannedAnswer => ({
  status,
  contentType: 'application/xml',
  body: `<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
});

/** The refusal each service sends when an SCP, a permissions boundary or a resource policy denies the call. */
export function accessDenied(request: AwsRequest): CannedAnswer {
  const message = `User is not authorized to perform this operation with an explicit deny in a service control policy`;
  if (request.service === 'ec2')
    return queryError({ service: 'ec2', status: 403, code: 'UnauthorizedOperation', message });
  if (request.service === 's3') return s3Error(403, 'AccessDenied', 'Access Denied');
  // Route 53 (REST XML) sends its errors in the query protocols' envelope.
  if (['iam', 'sts', 'sns', 'route53'].includes(request.service))
    return queryError({ service: request.service, status: 403, code: 'AccessDenied', message });
  if (['guardduty', 'cloudtrail'].includes(request.service) && !request.operation) {
    return {
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ message, __type: 'AccessDeniedException' }),
    };
  }
  return jsonError(400, 'AccessDeniedException', message);
}

/** The root user's row, which AWS puts first in every credential report and moto leaves out. */
const ROOT_ROW =
  '<root_account>,arn:aws:iam::{account}:root,2020-01-01T00:00:00+00:00,not_supported,2020-06-01T00:00:00+00:00,' +
  'not_supported,not_supported,true,false,N/A,N/A,N/A,N/A,false,N/A,N/A,N/A,N/A,false,N/A,false,N/A';

/** The credential report with the root row added (moto's lacks it); the account comes from the users' ARNs or `accountId`. */
function withRootRow(answer: CannedAnswer): CannedAnswer {
  const content = /<Content>([^<]*)<\/Content>/.exec(answer.body);
  if (!content) return answer;
  const csv = Buffer.from(content[1] ?? '', 'base64').toString('utf8');
  const [header, ...rows] = csv.split('\n');
  const account = /arn:aws:iam::(\d{12}):/.exec(csv)?.[1] ?? '000000000000';
  const report = [header, ROOT_ROW.replace('{account}', account), ...rows].join('\n');
  return {
    ...answer,
    body: answer.body.replace(content[0], `<Content>${Buffer.from(report).toString('base64')}</Content>`),
  };
}

/**
 * Answers for what moto 5.2 lacks: it has no AWS Health and no IAM Access Analyzer at all (HTTP 500), and answers
 * Cost Explorer GetAnomalies and GetAnomalyMonitors (500, NotImplementedError), GuardDuty ListFindings/GetFindings
 * (404) and EC2 GetInstanceMetadataDefaults with error pages, and has no EC2 GetSnapshotBlockPublicAccessState nor
 * Lambda ListFunctionUrlConfigs. Health answers as for an account without a Business support plan; the others find
 * nothing (no anomaly, no anomaly monitor, no finding, no metadata default, no function URL), and EBS snapshots'
 * block public access is unblocked, as AWS reports it where it was never set. moto has no SES v2 in the China regions
 * it lists: an account has no identity there.
 */
export function motoGaps(request: AwsRequest): CannedAnswer | undefined {
  if (request.service === 'health') {
    return jsonError(
      400,
      'SubscriptionRequiredException',
      'The AWS Premium Support Subscription is required to use this service.',
    );
  }
  if (request.service === 'ce' && request.operation === 'GetAnomalies') return json(200, { Anomalies: [] });
  if (request.service === 'ce' && request.operation === 'GetAnomalyMonitors') return json(200, { AnomalyMonitors: [] });
  if (request.service === 'access-analyzer' && request.method === 'GET' && request.path === '/analyzer') {
    return json(200, { analyzers: [] }, 'application/json');
  }
  // moto has no GetInstanceMetadataDefaults: answered as for an account that set no defaults (AccountLevel empty).
  if (request.service === 'ec2' && request.operation === 'GetInstanceMetadataDefaults') {
    return {
      status: 200,
      contentType: 'text/xml',
      body:
        '<GetInstanceMetadataDefaultsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">' +
        '<requestId>front</requestId><accountLevel/></GetInstanceMetadataDefaultsResponse>',
    };
  }
  // EBS snapshots' block public access (2023): moto has no GetSnapshotBlockPublicAccessState. AWS answers
  // unblocked for a region where it was never set.
  if (request.service === 'ec2' && request.operation === 'GetSnapshotBlockPublicAccessState') {
    return {
      status: 200,
      contentType: 'text/xml',
      body:
        '<GetSnapshotBlockPublicAccessStateResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">' +
        '<requestId>front</requestId><state>unblocked</state></GetSnapshotBlockPublicAccessStateResponse>',
    };
  }
  // moto has no CloudTrail LookupEvents: an account whose recent events hold none of the names looked up.
  if (request.service === 'cloudtrail' && request.operation === 'LookupEvents') return json(200, { Events: [] });
  // Nor IAM ListOrganizationsFeatures: an organization with none of IAM's centralized features on.
  if (request.service === 'iam' && request.operation === 'ListOrganizationsFeatures') {
    return {
      status: 200,
      contentType: 'text/xml',
      body:
        '<ListOrganizationsFeaturesResponse xmlns="https://iam.amazonaws.com/doc/2010-05-08/"><ListOrganizationsFeaturesResult>' +
        '<EnabledFeatures/></ListOrganizationsFeaturesResult><ResponseMetadata><RequestId>front</RequestId></ResponseMetadata>' +
        '</ListOrganizationsFeaturesResponse>',
    };
  }
  // Lambda ListFunctionUrlConfigs: moto has no such route. A function without a URL (a test that creates one answers
  // it itself).
  if (
    request.service === 'lambda' &&
    request.method === 'GET' &&
    /^\/2021-10-31\/functions\/[^/]+\/urls$/.test(request.path)
  )
    return json(200, { FunctionUrlConfigs: [] }, 'application/json');
  // moto has no Lightsail at all: an account without instances or databases (a test that seeds some answers them).
  if (request.service === 'lightsail' && request.operation === 'GetInstances') return json(200, { instances: [] });
  if (request.service === 'lightsail' && request.operation === 'GetRelationalDatabases')
    return json(200, { relationalDatabases: [] });
  if (request.service === 'guardduty' && request.method === 'POST') {
    if (/^\/detector\/[^/]+\/findings$/.test(request.path)) return json(200, { findingIds: [] }, 'application/json');
    if (/^\/detector\/[^/]+\/findings\/get$/.test(request.path)) return json(200, { findings: [] }, 'application/json');
  }
  // moto has no CodeArtifact: ListRepositories answers as for an account without repositories (REST JSON, as AWS's
  // API reference shapes it); test/cloud/aws-collectors-registry.test.ts answers the rest for the repositories it sets.
  if (request.service === 'codeartifact' && request.method === 'POST' && request.path === '/v1/repositories')
    return json(200, { repositories: [] }, 'application/json');
  return containerGaps(request);
}

/**
 * Answers for the container, machine learning and generative AI APIs moto 5.2 lacks (it answers them 404 or 500),
 * in AWS's documented shape, finding nothing: Bedrock ListGuardrails and Agents ListDataSources (none), IAM
 * ListServiceSpecificCredentials (no Bedrock API key), and EKS DescribeClusterVersions (the versions EKS lists).
 */
function containerGaps(request: AwsRequest): CannedAnswer | undefined {
  if (request.service === 'bedrock' && request.region.startsWith('cn-')) {
    const empty = BEDROCK_EMPTY[`${request.method} ${request.path}`];
    if (empty) return json(200, empty, 'application/json');
  }
  if (request.service === 'bedrock' && request.method === 'GET' && request.path === '/guardrails')
    return json(200, { guardrails: [] }, 'application/json');
  if (request.service === 'bedrock' && /^\/knowledgebases\/[^/]+\/datasources\/?$/.test(request.path))
    return json(200, { dataSourceSummaries: [] }, 'application/json');
  if (request.service === 'iam' && request.operation === 'ListServiceSpecificCredentials') {
    return {
      status: 200,
      contentType: 'text/xml',
      body:
        '<ListServiceSpecificCredentialsResponse xmlns="https://iam.amazonaws.com/doc/2010-05-08/">' +
        '<ListServiceSpecificCredentialsResult><ServiceSpecificCredentials/><IsTruncated>false</IsTruncated>' +
        '</ListServiceSpecificCredentialsResult><ResponseMetadata><RequestId>front</RequestId></ResponseMetadata>' +
        '</ListServiceSpecificCredentialsResponse>',
    };
  }
  if (request.service === 'eks' && request.method === 'GET' && request.path === '/cluster-versions')
    return json(200, { clusterVersions: EKS_VERSIONS }, 'application/json');
  // moto lists the China regions as enabled but serves no SES there: an account has no identity in them.
  if (request.service === 'ses' && request.region.startsWith('cn-') && request.path === '/v2/email/list-identities')
    return json(200, { EmailIdentities: [] }, 'application/json');
  return backupAndRdsGaps(request);
}

/** Engine versions RDS no longer offers, as DescribeDBEngineVersions leaves them out; it offers every other one. */
export const RETIRED_RDS_VERSIONS: Readonly<Record<string, readonly string[]>> = {
  postgres: ['9.6.24', '10.21'],
  mysql: ['5.6.51', '5.7.44'],
};

/**
 * moto 5.2 has no RDS DescribeDBEngineVersions, nor AWS Backup ListBackupSelections and GetBackupSelection (it reads
 * the selections' path as a plan id). RDS offers the version asked for unless it is in RETIRED_RDS_VERSIONS; a
 * backup plan has no resource assignment (a test that assigns resources answers them itself).
 */
function backupAndRdsGaps(request: AwsRequest): CannedAnswer | undefined {
  if (request.service === 'rds' && request.operation === 'DescribeDBEngineVersions') {
    const params = new URLSearchParams(request.body);
    const engine = params.get('Engine') ?? '';
    const version = params.get('EngineVersion') ?? '';
    const offered = engine && version && !(RETIRED_RDS_VERSIONS[engine] ?? []).includes(version);
    return {
      status: 200,
      contentType: 'text/xml',
      body:
        '<DescribeDBEngineVersionsResponse xmlns="http://rds.amazonaws.com/doc/2014-10-31/"><DescribeDBEngineVersionsResult>' +
        '<DBEngineVersions>' +
        (offered
          ? `<DBEngineVersion><Engine>${engine}</Engine><EngineVersion>${version}</EngineVersion>` +
            `<DBEngineDescription>${engine}</DBEngineDescription><Status>available</Status></DBEngineVersion>`
          : '') +
        '</DBEngineVersions></DescribeDBEngineVersionsResult><ResponseMetadata><RequestId>front</RequestId>' +
        '</ResponseMetadata></DescribeDBEngineVersionsResponse>',
    };
  }
  if (
    request.service === 'backup' &&
    request.method === 'GET' &&
    /^\/backup\/plans\/[^/]+\/selections\/?$/.test(request.path)
  )
    return json(200, { BackupSelectionsList: [] }, 'application/json');
  return undefined;
}

/**
 * moto lists the China regions as enabled and answers Bedrock there with HTTP 500. AWS has no Bedrock endpoint in
 * them (nor in any region of another partition): a region without the service is read as empty
 * (cloud/aws/collectors/offered.ts), which the front, unable to fail a name lookup, answers as such.
 */
const BEDROCK_EMPTY: Readonly<Record<string, unknown>> = {
  'GET /logging/modelinvocations': {},
  'GET /custom-models': { modelSummaries: [] },
  'POST /agents/': { agentSummaries: [] },
  'POST /knowledgebases/': { knowledgeBaseSummaries: [] },
};

/** EKS versions as DescribeClusterVersions lists them (includeAll: the unsupported ones too). */
export const EKS_VERSIONS = [
  { clusterVersion: '1.33', clusterType: 'eks', status: 'STANDARD_SUPPORT', versionStatus: 'STANDARD_SUPPORT' },
  { clusterVersion: '1.30', clusterType: 'eks', status: 'EXTENDED_SUPPORT', versionStatus: 'EXTENDED_SUPPORT' },
  { clusterVersion: '1.23', clusterType: 'eks', status: 'UNSUPPORTED', versionStatus: 'UNSUPPORTED' },
];

/** The selector AWS gives a trail created without any: read and write management events, no data events. */
const DEFAULT_EVENT_SELECTORS = [
  { ReadWriteType: 'All', IncludeManagementEvents: true, DataResources: [], ExcludeManagementEventSources: [] },
];

/** A trail's event selectors: moto answers none for a new trail, where AWS answers its default selector. */
function withDefaultSelectors(answer: CannedAnswer): CannedAnswer | undefined {
  const selectors = JSON.parse(answer.body) as { EventSelectors?: unknown[]; AdvancedEventSelectors?: unknown[] };
  if ((selectors.EventSelectors ?? []).length > 0 || (selectors.AdvancedEventSelectors ?? []).length > 0)
    return undefined;
  return {
    ...answer,
    body: JSON.stringify({ ...selectors, EventSelectors: DEFAULT_EVENT_SELECTORS, AdvancedEventSelectors: undefined }),
  };
}

/**
 * What moto answers differently from AWS: the credential report gets AWS's root row, a new trail AWS's default
 * event selectors.
 */
export function motoDifferences(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
  if (request.service === 'iam' && request.operation === 'GetCredentialReport' && answer.status === 200)
    return withRootRow(answer);
  if (request.service === 'cloudtrail' && request.operation === 'GetEventSelectors' && answer.status === 200)
    return withDefaultSelectors(answer);
  return undefined;
}

function describeRequest(req: IncomingMessage, body: Buffer): AwsRequest {
  const scope = /Credential=([^/]+)\/[^/]+\/([^/]+)\/([^/]+)\//.exec(req.headers.authorization ?? '');
  const target = req.headers['x-amz-target'];
  const text = body.toString('utf8');
  const query = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
    ? (new URLSearchParams(text).get('Action') ?? undefined)
    : undefined;
  const url = new URL(req.url ?? '/', 'http://front');
  return {
    service: scope?.[3] ?? '',
    operation:
      typeof target === 'string' ? target.split('.').pop() : (query ?? url.searchParams.get('Action') ?? undefined),
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.search.slice(1),
    region: scope?.[2] ?? '',
    accessKeyId: scope?.[1] ?? '',
    body: text,
    at: Date.now(),
    attempt: Number(/attempt=(\d+)/.exec(String(req.headers['amz-sdk-request'] ?? ''))?.[1] ?? 1),
  };
}

/** Keeps which role an AssumeRole answer's access key acts as, so the requests it signs are known as the role's. */
function recordSession(front: AwsFront, request: AwsRequest, answer: CannedAnswer): void {
  if (request.service !== 'sts' || request.operation !== 'AssumeRole' || answer.status !== 200) return;
  const accessKeyId = /<AccessKeyId>([^<]+)<\/AccessKeyId>/.exec(answer.body)?.[1];
  const roleArn = new URLSearchParams(request.body).get('RoleArn');
  if (accessKeyId && roleArn) front.sessions.set(accessKeyId, roleArn);
}

/** moto's DescribeRegions answer with only `enabled` regions in it; any other answer as it is. */
export function withEnabledRegions(
  enabled: readonly string[] | undefined,
  request: AwsRequest,
  answer: CannedAnswer,
): CannedAnswer {
  if (!enabled || request.service !== 'ec2' || request.operation !== 'DescribeRegions') return answer;
  const body = answer.body.replace(/<item>((?:(?!<\/item>)[\s\S])*)<\/item>/g, (item, inner: string) => {
    const name = /<regionName>([^<]+)<\/regionName>/.exec(inner)?.[1];
    return name && enabled.includes(name) ? item : '';
  });
  return { ...answer, body };
}

/** Starts a front to the moto server at `upstream` (the suite's by default). */
export async function startAwsFront({
  upstream: to = motoEndpoint(),
  keep = KEPT_REQUESTS,
}: {
  upstream?: string;
  /** How many of the latest requests `requests` keeps (a benchmark counting a whole scan keeps them all). */
  keep?: number;
} = {}): Promise<AwsFront> {
  const upstream = new URL(to);
  const front: AwsFront = {
    endpoint: '',
    answer: motoGaps,
    rewrite: motoDifferences,
    delay: () => 0,
    requests: [],
    sessions: new Map(),
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const described = describeRequest(req, body);
      const role = front.sessions.get(described.accessKeyId);
      if (role) described.role = role;
      front.requests.push(described);
      if (front.requests.length > keep) front.requests.splice(0, front.requests.length - keep);
      const wait = front.delay(described);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const canned = front.answer(described);
      if (canned) {
        res.writeHead(canned.status, { 'content-type': canned.contentType }).end(canned.bytes ?? canned.body);
        return;
      }
      const pass = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const original: CannedAnswer = {
              status: answer.statusCode ?? 502,
              contentType: String(answer.headers['content-type'] ?? ''),
              body: Buffer.concat(parts).toString('utf8'),
            };
            recordSession(front, described, original);
            const narrowed = withEnabledRegions(front.enabledRegions, described, original);
            const rewritten = front.rewrite(described, narrowed) ?? (narrowed === original ? undefined : narrowed);
            if (!rewritten) {
              res.writeHead(original.status, answer.headers).end(Buffer.concat(parts));
              return;
            }
            const headers = { ...answer.headers, 'content-type': rewritten.contentType };
            delete headers['content-length'];
            res.writeHead(rewritten.status, headers).end(rewritten.body);
          });
          answer.on('error', (err) => res.destroy(err));
        },
      );
      pass.on('error', (err) => res.destroy(err));
      pass.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  front.endpoint = `http://127.0.0.1:${port}`;
  front.close = () =>
    new Promise((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    });
  return front;
}
