import type { z } from 'zod';
import type { Role } from '../../domain/tenancy/roles';
import type { ErrorCode } from '../../core/errors';

export type Method = 'get' | 'post' | 'patch' | 'delete';
export const PUBLIC = 'public';
/** Who may call an operation: anyone, or a bearer token of at least this role. */
export type Access = Role | typeof PUBLIC;

export const TAGS = [
  'Authentication',
  'Profile',
  'Accounts',
  'Events',
  'Organizations',
  'Overview',
  'Signals',
  'Attack paths',
  'Compliance',
  'Exports',
  'Alert rules',
  'Alerts',
  'Users',
  'Audit log',
  'Billing',
  'Integrations',
  'Health',
  'Documentation',
  'Trusted principals',
  'Detections',
] as const;
export type Tag = (typeof TAGS)[number];

export type Media = 'application/json' | 'text/csv' | 'application/zip' | 'text/html';

/** A response other than an error: JSON described by `schema`, another media type, or no body (204). */
export interface Answer {
  status: number;
  description: string;
  schema?: z.ZodType;
  media?: Media;
}

export interface Operation {
  operationId: string;
  method: Method;
  /** OpenAPI form (`/accounts/{account_id}`); each `{name}` is described in PATH_PARAMS. */
  path: string;
  /** Other paths the same handler serves; each is documented as an operation of its own. */
  aliases?: readonly string[];
  tag: Tag;
  summary: string;
  description?: string;
  access: Access;
  /** The JSON request body the route parses (with `parseInput`), required unless `bodyOptional`. */
  body?: z.ZodType;
  bodyOptional?: boolean;
  /** The query the route parses; each property becomes a query parameter. */
  query?: z.ZodObject;
  headers?: Readonly<Record<string, z.ZodType>>;
  success: Answer;
  /** Other non-error answers (a readiness failure, the Slack install's HTML pages). */
  otherAnswers?: readonly Answer[];
  /** Error codes particular to this operation; the ones implied by its kind are added by `errorCodesOf`. */
  errors: readonly ErrorCode[];
  /** False for the few routes that never touch PostgreSQL. */
  database?: boolean;
  /** True for routes mounted before the JSON body parser (they never answer its 400s). */
  beforeJsonParser?: boolean;
}

/** Every error an operation can answer: its own, plus those that follow from its access, inputs and storage. */
export function errorCodesOf(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(['internal_error', ...op.errors]);
  const add = (...more: ErrorCode[]) => more.forEach((code) => codes.add(code));
  if (op.access !== PUBLIC) add('unauthorized');
  if (op.access !== PUBLIC && op.access !== 'viewer') add('forbidden');
  if (!op.beforeJsonParser) add('unsupported_content_type', 'invalid_json', 'body_too_large', 'body_too_deep');
  if (op.body || op.query) add('validation_failed');
  if (op.database !== false) {
    add('database_unavailable', 'database_timeout');
    // A value PostgreSQL cannot store (a NUL character) in any input that reaches a query.
    if (op.body || op.query || pathParamsOf(op.path).length > 0) add('invalid_input');
  }
  return [...codes];
}

/** Every path an operation is served under, canonical first. */
export function pathsOf(op: Operation): string[] {
  return [op.path, ...(op.aliases ?? [])];
}

export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

/** The Express name of a path parameter: `account_id` is `:accountId`. */
export function expressParam(name: string): string {
  return name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** The Express form of an OpenAPI path: `{account_id}` becomes `:accountId`. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => `:${expressParam(name)}`);
}
