import { z } from 'zod';
import { version } from '../../package.json';
import { accountDetail, accountSummary } from '../../core/schemas/accounts';
import { alertEvent, alertRule, channelConfig } from '../../core/schemas/alerts';
import { refreshInput, tokensOutput } from '../../core/schemas/auth';
import { plan } from '../../core/schemas/billing';
import { errorBody, messageBody } from '../../core/schemas/common';
import { slackInstallation } from '../../core/schemas/integrations';
import { tenant, user } from '../../core/schemas/me';
import { signal } from '../../core/schemas/signals';
import { teamUser } from '../../core/schemas/users';
import { ERROR_STATUS, type ErrorCode } from '../../core/errors';
import { PATH_PARAMS } from '../operations/path-params';
import { type Answer, errorCodesOf, type Operation, pathParamsOf, pathsOf, PUBLIC, TAGS } from './registry';

// The OpenAPI 3.1 document, built from the operation registry and the zod schemas the routes validate with:
// request schemas as zod reads them (`io: 'input'`: defaults optional, unknown fields refused), responses as the
// services produce them (`io: 'output'`).

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const TARGET = 'draft-2020-12';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

// Schemas shared by several operations, or nested ones worth a name; the rest are named after their operation.
const NAMED_INPUTS: ReadonlyArray<[z.ZodType, string]> = [
  [channelConfig, 'ChannelConfig'],
  [refreshInput, 'RefreshTokenRequest'],
];
const NAMED_OUTPUTS: ReadonlyArray<[z.ZodType, string]> = [
  [errorBody, 'Error'],
  [messageBody, 'Message'],
  [tokensOutput, 'Tokens'],
  [accountSummary, 'AccountSummary'],
  [accountDetail, 'Account'],
  [signal, 'Signal'],
  [alertRule, 'AlertRule'],
  [alertEvent, 'Alert'],
  [plan, 'Plan'],
  [user, 'User'],
  [tenant, 'Tenant'],
  [teamUser, 'TeamUser'],
  [slackInstallation, 'SlackInstallation'],
];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Missing or invalid bearer token',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  422: 'Unprocessable',
  429: 'Too many requests',
  500: 'Internal error',
  502: 'Upstream failure',
  503: 'Unavailable',
};
const CONTENT_DISPOSITION = { description: 'attachment; filename="..."', schema: { type: 'string' } };
const RETRY_AFTER = { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } };

const isTransform = (schema: z.core.$ZodType) => schema._zod.traits.has('$ZodTransform');

/** Where zod's own conversion says less than the parser checks. */
function override(io: Io) {
  return ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: Json }) => {
    // A literal whose metadata lists the names accepted for it (aliases normalised before parsing).
    if ('const' in jsonSchema && Array.isArray(jsonSchema.enum)) delete jsonSchema.const;
    // A normalising first stage (trim, lower-case) piped into a format: the input must meet the format.
    const def = zodSchema._zod.def;
    if (io === 'input' && def.type === 'pipe') {
      const { in: first, out: second } = def as z.core.$ZodPipeDef;
      if (!isTransform(first) && !isTransform(second)) Object.assign(jsonSchema, convert(second, io));
    }
  };
}

function convert(schema: z.core.$ZodType, io: Io): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    target: TARGET,
    io,
    unrepresentable: 'throw',
    override: override(io),
  });
  return json;
}

/** Names every request body (input) and response body (output) schema, then converts each set in one pass. */
class Components {
  private readonly registries = { input: z.registry<{ id: string }>(), output: z.registry<{ id: string }>() };

  constructor() {
    for (const [schema, id] of NAMED_INPUTS) this.registries.input.add(schema, { id });
    for (const [schema, id] of NAMED_OUTPUTS) this.registries.output.add(schema, { id });
  }

  name(schema: z.ZodType, io: Io, fallback: string): string {
    const registry = this.registries[io];
    const known = registry.get(schema)?.id;
    if (known) return known;
    registry.add(schema, { id: fallback });
    return fallback;
  }

  build(): Record<string, Json> {
    const all: Record<string, Json> = {};
    for (const io of ['input', 'output'] as const) {
      const { schemas } = z.toJSONSchema(this.registries[io], {
        target: TARGET,
        io,
        unrepresentable: 'throw',
        override: override(io),
        uri: (id) => ref(id).$ref,
      });
      for (const [id, { $schema: _s, $id: _i, ...json }] of Object.entries(schemas)) {
        if (id in all) throw new Error(`schema name ${id} is used for a request and a response`);
        all[id] = json;
      }
    }
    return all;
  }
}

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** Each property of a schema as a parameter: its description moves to the parameter, the rest is its schema. */
function parametersOf(schema: z.ZodType, where: 'query' | 'path' | 'header'): Json[] {
  const { properties = {}, required = [] } = convert(schema, 'input') as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, { description, ...propertySchema }]) => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    ...(description ? { description } : {}),
    schema: propertySchema,
  }));
}

function contentOf(answer: Answer, components: Components, fallback: string): Json | undefined {
  if (answer.media && answer.media !== 'application/json') {
    const body = answer.media === 'application/zip' ? { type: 'string', format: 'binary' } : { type: 'string' };
    return { [answer.media]: { schema: body } };
  }
  if (!answer.schema) return undefined;
  return { 'application/json': { schema: ref(components.name(answer.schema, 'output', fallback)) } };
}

function responsesOf(op: Operation, components: Components): Json {
  const responses: Record<string, { description: string; content?: Json; headers?: Json }> = {};
  const base = pascal(op.operationId);
  for (const [i, answer] of [op.success, ...(op.otherAnswers ?? [])].entries()) {
    const content = contentOf(answer, components, i === 0 ? `${base}Response` : `${base}Response${answer.status}`);
    const attachment = answer.media === 'text/csv' || answer.media === 'application/zip';
    responses[answer.status] = {
      description: answer.description,
      ...(content ? { content } : {}),
      ...(attachment ? { headers: { 'Content-Disposition': CONTENT_DISPOSITION } } : {}),
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const listed = codes.map((code) => `\`${code}\``).join(', ');
    const existing = responses[status];
    const error = { 'application/json': { schema: ref('Error') } };
    responses[status] = {
      description: existing
        ? `${existing.description}; or an error: ${listed}`
        : `${STATUS_TEXT[status] ?? 'Error'}: ${listed}`,
      content: { ...existing?.content, ...error },
      ...(status === 429 || status === 503 ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
    };
  }
  return responses;
}

function operationObject(op: Operation, path: string, components: Components): Json {
  const alias = path !== op.path;
  const pathParams = pathParamsOf(path).map((name) => {
    const schema = PATH_PARAMS[name];
    if (!schema) throw new Error(`path parameter {${name}} of ${path} is not described`);
    return parametersOf(z.object({ [name]: schema }), 'path')[0] as Json;
  });
  const role = op.access !== PUBLIC && `Needs a bearer id_token of the ${op.access} role or higher.`;
  const body = op.body && {
    required: !op.bodyOptional,
    content: {
      'application/json': { schema: ref(components.name(op.body, 'input', `${pascal(op.operationId)}Request`)) },
    },
  };
  return {
    operationId: alias ? `${op.operationId}Alias${pascal(path.split('/')[2] ?? '')}` : op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: [op.description, alias && `Alias of \`${op.method.toUpperCase()} ${op.path}\`.`, role]
      .filter(Boolean)
      .join(' '),
    parameters: [
      ...pathParams,
      ...(op.query ? parametersOf(op.query, 'query') : []),
      ...(op.headers ? parametersOf(z.object(op.headers), 'header') : []),
    ],
    ...(body ? { requestBody: body } : {}),
    responses: responsesOf(op, components),
    security: op.access === PUBLIC ? [] : [{ bearerAuth: [] }],
    ...(op.access === PUBLIC ? {} : { 'x-required-role': op.access }),
  };
}

const TAG_TEXT: Record<(typeof TAGS)[number], string> = {
  Authentication: 'Sign-up, login, tokens and invitations',
  Profile: 'The caller',
  Accounts: 'Connecting, verifying, scanning and disconnecting AWS accounts',
  Events: "The account's own events, forwarded by EventBridge: ingestion, the timeline, the forwarder's key",
  Organizations:
    'Connecting an AWS Organization, whose member accounts are connected and disconnected as they come and go',
  Overview: 'The portfolio of accounts at a glance',
  Signals: 'Findings, the Security Risk Score and the recovery checklist',
  'Attack paths':
    'What an attacker can reach: privilege escalation, internet exposure and the toxic combinations of the two, step by step',
  Compliance: 'Compliance frameworks (CIS AWS Foundations), control by control, and the report to hand over',
  Exports: 'CSV export and the emergency (panic) export package',
  'Alert rules': 'When to alert, and where',
  Alerts: 'Alert events and their acknowledgement',
  Users: 'The team, invitations and roles',
  'Audit log': 'Who did what security-relevant thing, when and from where',
  Billing: 'Plans, Stripe checkout, portal and webhook',
  Integrations: 'The Slack app install (also under the neutral name `chat`)',
  Health: 'For load balancers',
  Documentation: 'This document',
  'Trusted principals': "The tenant's own automation, named with a reason and an expiry: its events open no signal",
  Detections: "The tenant's own detections: Sigma rules for CloudTrail, run on every forwarded event",
};

/**
 * `anyOf: [S, { type: 'null' }]` (zod's nullable) as S with `null` added to its type, the OpenAPI 3.1 spelling.
 * Left alone when S is a reference or a union of its own.
 */
function compactNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactNullable);
  if (!node || typeof node !== 'object') return node;
  const json: Json = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, compactNullable(value)]));
  const { anyOf, ...rest } = json;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return json;
  const nullAt = anyOf.findIndex((option: Json) => Object.keys(option).length === 1 && option.type === 'null');
  const other = anyOf[1 - nullAt] as Json | undefined;
  if (nullAt < 0 || !other || typeof other.type !== 'string' || 'anyOf' in other || 'oneOf' in other) return json;
  const { const: constant, enum: values, ...schema } = other;
  const allowed = constant !== undefined ? [constant] : (values as unknown[] | undefined);
  return { ...schema, ...rest, type: [other.type, 'null'], ...(allowed ? { enum: [...allowed, null] } : {}) };
}

/** The document of the given operations (the API's: `OPERATIONS` of api/operations). */
export function buildOpenApiDocument(operations: readonly Operation[]): Json {
  const components = new Components();
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    for (const path of pathsOf(op)) {
      const item = (paths[path] ??= {});
      if (item[op.method]) throw new Error(`${op.method} ${path} is registered twice`);
      item[op.method] = operationObject(op, path, components);
    }
  }
  return compactNullable({
    openapi: '3.1.0',
    info: {
      title: 'Sentinel API',
      version,
      description:
        'Monitors AWS accounts for security and billing risk. Errors are JSON `{ error, code }` ' +
        '(validation errors add `details`); protected endpoints take `Authorization: Bearer <id_token>`.',
    },
    tags: TAGS.map((name) => ({ name, description: TAG_TEXT[name] })),
    paths,
    components: {
      schemas: components.build(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The `id_token` from `POST /auth/login` (not the `access_token`), valid 3600 seconds.',
        },
      },
    },
  }) as Json;
}

const built = new WeakMap<readonly Operation[], string>();

/** The document as served: built once per list of operations, on first use. */
export function openApiJson(operations: readonly Operation[]): string {
  let json = built.get(operations);
  if (json === undefined) {
    json = JSON.stringify(buildOpenApiDocument(operations));
    built.set(operations, json);
  }
  return json;
}
