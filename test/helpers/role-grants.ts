import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { GetPolicyCommand, GetPolicyVersionCommand, IAMClient } from '@aws-sdk/client-iam';
import { inlinePolicies, MANAGED_POLICIES, ROLE_NAME } from '../../domain/onboarding/role';
import { PROJECT_ROOT } from '../../scripts/tools';
import { type AwsRequest, motoEndpoint, REGION, TEST_CREDENTIALS } from './aws';

// Whether the role a customer creates (domain/onboarding/role.ts) allows every call a collection made through the
// front (test/helpers/aws.ts): each request signed by a session of Sentinel's role is named as the IAM action that
// authorizes it, and each action must be allowed by SecurityAudit's or ViewOnlyAccess's current document (as moto
// serves the AWS managed policies) or by one of the role's inline policies. Actions only: the managed policies grant
// a few actions on some resources only (apigateway:GET on some paths), which this does not tell apart.
//
// From a request to its action:
// - The service is the signing name of the request's signature (Credential=.../<region>/<service>/aws4_request).
// - The operation is in the request for the query protocols (the Action parameter), the JSON protocols
//   (X-Amz-Target) and Smithy RPC v2 CBOR (the path /service/<service>/operation/<operation>). The REST protocols
//   (Lambda, S3, EKS, GuardDuty, Account, ...) have only a method and a path: their operation is the one whose HTTP
//   route in the service's model matches, the most specific first. The models are the AWS CLI's (botocore, in
//   .tools/venv), the same service descriptions the SDKs are generated from.
// - The action is `<IAM prefix>:<operation>`, but for the services and operations in the tables below, where IAM
//   names them otherwise. Add to the tables (with the reason) when a new service or operation differs.

/** The models (botocore service names) of the services signed with a name that is not their model's. */
export const SIGNING_MODELS: Readonly<Record<string, readonly string[]>> = {
  'access-analyzer': ['accessanalyzer'],
  apigateway: ['apigateway', 'apigatewayv2'],
  bedrock: ['bedrock', 'bedrock-agent'],
  elasticfilesystem: ['efs'],
  elasticloadbalancing: ['elbv2', 'elb'],
  elasticmapreduce: ['emr'],
  es: ['opensearch', 'es'],
  monitoring: ['cloudwatch'],
  rds: ['rds', 'docdb', 'neptune'],
  // S3 Control (the account's Block Public Access, access points) is signed as s3.
  s3: ['s3', 's3control'],
  ses: ['sesv2', 'ses'],
  sso: ['sso-admin'],
  states: ['stepfunctions'],
  tagging: ['resourcegroupstaggingapi'],
};

/** IAM's service prefix where it is not the signing name. */
export const IAM_PREFIXES: Readonly<Record<string, string>> = {
  // CloudWatch is signed as monitoring; IAM's actions are cloudwatch:*.
  monitoring: 'cloudwatch',
};

/** Services whose IAM actions are the HTTP method, not the operation (apigateway:GET reads any API Gateway resource). */
export const METHOD_ACTIONS: readonly string[] = ['apigateway'];

/**
 * Operations whose IAM action has another name, by `<model>:<operation>`; null: the call needs no permission. The
 * REST models name a few operations with their API version (Lambda's ListFunctions20150331): the suffix is dropped
 * before this table is read.
 */
export const OPERATION_ACTIONS: Readonly<Record<string, string | null>> = {
  // Any identity may ask who it is.
  'sts:GetCallerIdentity': null,
  // The Budgets API's reads are all authorized by budgets:ViewBudget.
  'budgets:DescribeBudgets': 'budgets:ViewBudget',
  'budgets:DescribeBudget': 'budgets:ViewBudget',
  'budgets:DescribeNotificationsForBudget': 'budgets:ViewBudget',
  'budgets:DescribeSubscribersForNotification': 'budgets:ViewBudget',
  'budgets:DescribeBudgetPerformanceHistory': 'budgets:ViewBudget',
  'lambda:Invoke': 'lambda:InvokeFunction',
  // S3's actions name the bucket's subresources their own way.
  's3:ListBuckets': 's3:ListAllMyBuckets',
  's3:HeadBucket': 's3:ListBucket',
  's3:ListObjects': 's3:ListBucket',
  's3:ListObjectsV2': 's3:ListBucket',
  's3:ListObjectVersions': 's3:ListBucketVersions',
  's3:ListMultipartUploads': 's3:ListBucketMultipartUploads',
  's3:HeadObject': 's3:GetObject',
  's3:GetBucketEncryption': 's3:GetEncryptionConfiguration',
  's3:GetBucketLifecycleConfiguration': 's3:GetLifecycleConfiguration',
  's3:GetBucketReplication': 's3:GetReplicationConfiguration',
  's3:GetObjectLockConfiguration': 's3:GetBucketObjectLockConfiguration',
  's3:GetPublicAccessBlock': 's3:GetBucketPublicAccessBlock',
  's3:GetBucketCors': 's3:GetBucketCORS',
  's3:GetBucketNotificationConfiguration': 's3:GetBucketNotification',
  's3:GetBucketAccelerateConfiguration': 's3:GetAccelerateConfiguration',
  's3:GetBucketAnalyticsConfiguration': 's3:GetAnalyticsConfiguration',
  's3:GetBucketInventoryConfiguration': 's3:GetInventoryConfiguration',
  's3:GetBucketMetricsConfiguration': 's3:GetMetricsConfiguration',
  's3:GetBucketIntelligentTieringConfiguration': 's3:GetIntelligentTieringConfiguration',
  's3control:GetPublicAccessBlock': 's3:GetAccountPublicAccessBlock',
};

interface Route {
  operation: string;
  method: string;
  /** The model's requestUri: `/2015-03-31/functions/{FunctionName}`, `/{Bucket}?policy`. */
  uri: string;
}

interface ServiceModel {
  model: string;
  protocol: string;
  routes: Route[];
}

const REST_PROTOCOLS = ['rest-json', 'rest-xml'];
const PYTHON = path.join(PROJECT_ROOT, '.tools/venv/bin/python');
const DUMP_ROUTES = `
import sys, json, botocore.session
session = botocore.session.get_session()
out = []
for name in sys.argv[1:]:
    model = session.get_service_model(name)
    out.append({'model': name, 'protocol': model.metadata.get('protocol'), 'routes': [
        {'operation': op, 'method': model.operation_model(op).http.get('method', 'POST'),
         'uri': model.operation_model(op).http.get('requestUri', '/')}
        for op in model.operation_names]})
print(json.dumps(out))
`;

const models = new Map<string, ServiceModel>();

function loadModels(names: string[]): void {
  const missing = names.filter((name) => !models.has(name));
  if (missing.length === 0) return;
  const run = spawnSync(PYTHON, ['-c', DUMP_ROUTES, ...missing], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`reading the service models of ${missing.join(', ')} failed: ${run.stderr}`);
  for (const model of JSON.parse(run.stdout) as ServiceModel[]) models.set(model.model, model);
}

const modelsOf = (service: string): readonly string[] => SIGNING_MODELS[service] ?? [service];

/** Reads the models of these signing names at once (one process for all, rather than one per request). */
export function loadModelsOf(services: Iterable<string>): void {
  loadModels([...new Set([...services].flatMap((service) => modelsOf(service)))]);
}

/** How specific a route is: literal query keys first, then literal path characters. */
function specificity(uri: string): number {
  const [pathPart = '', queryPart = ''] = uri.split('?');
  const queryKeys = queryPart ? queryPart.split('&').length : 0;
  return queryKeys * 10_000 + pathPart.replace(/\{[^}]+\}/g, '').length;
}

function routeMatches(route: Route, request: AwsRequest): boolean {
  if (route.method !== request.method) return false;
  const [pathPart = '', queryPart = ''] = route.uri.split('?');
  // A route's trailing slash is optional: the SDKs drop it (AWS Backup's /backup/plans/ is sent as /backup/plans).
  const pattern = pathPart
    .replace(/(.)\/$/, '$1')
    .split(/(\{[^}]+\})/)
    .map((piece) => {
      if (/^\{[^}]+\+\}$/.test(piece)) return '.+';
      if (/^\{[^}]+\}$/.test(piece)) return '[^/]+';
      return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  if (!new RegExp(`^${pattern}/?$`).test(request.path)) return false;
  const query = new URLSearchParams(request.query);
  return queryPart
    .split('&')
    .filter(Boolean)
    .every((literal) => {
      const [key = '', value] = literal.split('=');
      return query.has(key) && (value === undefined || query.get(key) === value);
    });
}

/** The model and operation of a REST request: the most specific matching route of the service's models. */
function restOperation(request: AwsRequest): { model: string; operation: string } | undefined {
  const names = modelsOf(request.service);
  loadModels([...names]);
  const candidates = names.flatMap((name) => {
    const model = models.get(name);
    if (!model || !REST_PROTOCOLS.includes(model.protocol)) return [];
    return model.routes.filter((route) => routeMatches(route, request)).map((route) => ({ model: name, route }));
  });
  candidates.sort((a, b) => specificity(b.route.uri) - specificity(a.route.uri));
  const best = candidates[0];
  return best ? { model: best.model, operation: best.route.operation } : undefined;
}

/** The operation a request names itself: query and JSON protocols, Smithy RPC v2 CBOR. */
function namedOperation(request: AwsRequest): string | undefined {
  return request.operation ?? /^\/service\/[^/]+\/operation\/([^/]+)$/.exec(request.path)?.[1];
}

export type RequestAction = { action: string | null } | { unknown: string };

/** The IAM action a request needs (null: none), or why it could not be told. */
export function actionOf(request: AwsRequest): RequestAction {
  const prefix = IAM_PREFIXES[request.service] ?? request.service;
  if (METHOD_ACTIONS.includes(request.service)) return { action: `${prefix}:${request.method}` };
  const named = namedOperation(request);
  const found = named
    ? { model: modelsOf(request.service)[0] ?? request.service, operation: named }
    : restOperation(request);
  if (!found) {
    return {
      unknown: `no operation of ${modelsOf(request.service).join(' or ')} has the route ${request.method} ${request.path}${request.query ? `?${request.query}` : ''}`,
    };
  }
  const operation = found.operation.replace(/(\d{8}|\d{4}_\d{2}_\d{2})$/, '');
  const key = `${found.model}:${operation}`;
  if (key in OPERATION_ACTIONS) return { action: OPERATION_ACTIONS[key] ?? null };
  const sameForSigning = `${request.service}:${operation}`;
  if (sameForSigning in OPERATION_ACTIONS) return { action: OPERATION_ACTIONS[sameForSigning] ?? null };
  return { action: `${prefix}:${operation}` };
}

interface PolicyDocument {
  Statement: { Effect: string; Action?: string | string[] }[];
}

const allowedActions = (document: PolicyDocument): string[] =>
  document.Statement.filter((s) => s.Effect === 'Allow').flatMap((s) =>
    s.Action === undefined ? [] : Array.isArray(s.Action) ? s.Action : [s.Action],
  );

let managedDocuments: Promise<PolicyDocument[]> | undefined;

/** SecurityAudit's and ViewOnlyAccess's current documents, as moto serves the AWS managed policies. */
export function managedPolicyDocuments(): Promise<PolicyDocument[]> {
  managedDocuments ??= (async () => {
    const iam = new IAMClient({ region: REGION, endpoint: motoEndpoint(), credentials: TEST_CREDENTIALS });
    try {
      return await Promise.all(
        MANAGED_POLICIES.map(async (policyArn) => {
          const { Policy } = await iam.send(new GetPolicyCommand({ PolicyArn: policyArn }));
          const { PolicyVersion } = await iam.send(
            new GetPolicyVersionCommand({ PolicyArn: policyArn, VersionId: Policy?.DefaultVersionId }),
          );
          return JSON.parse(decodeURIComponent(PolicyVersion?.Document ?? '{"Statement":[]}')) as PolicyDocument;
        }),
      );
    } finally {
      iam.destroy();
    }
  })();
  return managedDocuments;
}

/** Every action pattern the role allows: its managed policies' and its inline policies'. */
export async function roleAllows(): Promise<(action: string) => boolean> {
  const patterns = [
    ...(await managedPolicyDocuments()).flatMap(allowedActions),
    ...inlinePolicies().flatMap((policy) => allowedActions(policy.document)),
  ].map((pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i'));
  return (action) => patterns.some((pattern) => pattern.test(action));
}

/** The requests signed by a session of Sentinel's role (test/helpers/aws.ts, AwsRequest.role). */
export const roleRequests = (requests: readonly AwsRequest[]): AwsRequest[] =>
  requests.filter((request) => request.role?.endsWith(`:role/${ROLE_NAME}`));

/** The actions of the role's requests that its policies do not allow, each with a request that needed it. */
export async function ungranted(requests: readonly AwsRequest[]): Promise<string[]> {
  const allows = await roleAllows();
  const problems = new Map<string, string>();
  const calls = roleRequests(requests);
  loadModelsOf(calls.filter((request) => namedOperation(request) === undefined).map((request) => request.service));
  for (const request of calls) {
    const found = actionOf(request);
    const call = `${request.service} ${request.method} ${request.path}${request.operation ? ` (${request.operation})` : ''}`;
    if ('unknown' in found) problems.set(`unknown: ${found.unknown}`, call);
    else if (found.action !== null && !allows(found.action)) problems.set(found.action, call);
  }
  return [...problems].map(([problem, call]) => `${problem}, called as ${call}`).sort();
}

/**
 * Fails naming every action the role's calls among `requests` need and its policies do not allow. The fix is to add
 * a read-only action to SCAN_READ_ACTIONS (domain/onboarding/role.ts), or a row to the tables above when the action
 * was named wrongly.
 */
export async function expectGrantedByRole(requests: readonly AwsRequest[]): Promise<void> {
  const missing = await ungranted(requests);
  if (missing.length > 0) {
    throw new Error(
      `The role ${ROLE_NAME} is not granted what the collection called (SecurityAudit, ViewOnlyAccess and the ` +
        `inline policies of domain/onboarding/role.ts):\n${missing.map((line) => `  ${line}`).join('\n')}`,
    );
  }
}
