// Who a resource policy (a queue's, a topic's, a key's, a bucket's, a function's, ...) lets in from outside the
// account, and to do what. One reading shared by every check of a resource's exposure, so that they all weigh a
// statement the same way:
// - an Allow statement whose principal is everyone (`"*"`, `{"AWS": "*"}`, or NotPrincipal, which allows everyone
//   it does not name) is public, unless a condition narrows who may use it to known principals or networks
//   (NARROWING_KEYS with a value that is not a wildcard). A condition Sentinel does not know is not taken as
//   narrowing: the finding then names it, so a person can judge (a false "public" is reviewed once; a false
//   "private" is never seen);
// - an Allow statement naming another account (its id, its root or a principal ARN in it) shares the resource with
//   that account;
// - Deny statements are not weighed against Allows: they rarely deny exactly what was allowed, and a policy that
//   relies on one is worth a second look anyway.
// Service principals (`{"Service": ...}`) are AWS services acting for the account, neither public nor external.

type Json = Record<string, unknown>;

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Condition keys that, tested against concrete values, limit a statement to known principals, sources or networks. */
const NARROWING_KEYS = new Set([
  'aws:sourceaccount',
  'aws:sourceowner',
  'aws:sourcearn',
  'aws:sourceorgid',
  'aws:sourceorgpaths',
  'aws:principalaccount',
  'aws:principalarn',
  'aws:principalorgid',
  'aws:principalorgpaths',
  'aws:resourceaccount',
  'aws:sourcevpc',
  'aws:sourcevpce',
  'aws:userid',
  'aws:username',
  'aws:sourceip',
  'kms:calleraccount',
  'kms:viaservice',
  'lambda:functionurlauthtype',
  'sns:endpoint',
  'ses:fromaddress',
]);
/** Operators whose test a concrete value makes narrow (a Not* operator or IfExists lets other requests through). */
const NARROWING_OPERATORS =
  /^(StringEquals|StringEqualsIgnoreCase|StringLike|ArnEquals|ArnLike|IpAddress|ForAnyValue:StringEquals|ForAnyValue:StringLike|ForAllValues:StringEquals|ForAllValues:StringLike)$/;
/** Addresses that stand for the whole internet: an IpAddress test on one of them narrows nothing. */
const EVERY_ADDRESS = new Set(['0.0.0.0/0', '::/0']);

/**
 * An IAM pattern (`*` and `?` wildcards) as a regular expression: `caseless` for actions, which IAM matches without
 * regard to case; resources match exactly.
 */
export function iamPattern(glob: string, caseless: boolean): RegExp {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, caseless ? 'i' : '');
}

/** Whether an IAM action pattern (`s3:Get*`, `*`) matches an action (`s3:GetObject`). */
export function actionMatches(glob: string, action: string): boolean {
  return iamPattern(glob, true).test(action);
}

export interface ResourcePolicyStatement {
  sid: string | null;
  /** The actions the statement allows, as written (patterns); for NotAction, `*` minus `notActions`. */
  actions: string[];
  notActions: string[];
  /** Condition keys it tests that Sentinel does not know to narrow it (lower case): shown with the finding. */
  unknownConditions: string[];
}

export interface PolicyExposure {
  /** Allow statements open to everyone that no known condition narrows. */
  public: ResourcePolicyStatement[];
  /** Other accounts the policy names as principals (12-digit ids), with the statements that name them. */
  external: { account: string; statement: ResourcePolicyStatement }[];
}

/** Whether a statement allows an action (one of them, for a list). */
export function allows(statement: ResourcePolicyStatement, ...actions: string[]): boolean {
  return actions.some((action) =>
    statement.notActions.length > 0
      ? !statement.notActions.some((glob) => actionMatches(glob, action))
      : statement.actions.some((glob) => actionMatches(glob, action)),
  );
}

/** The condition's narrowing tests and the keys it tests that are not known to narrow. */
function conditionsOf(condition: unknown): { narrowed: boolean; unknown: string[] } {
  let narrowed = false;
  const unknown: string[] = [];
  if (!isObject(condition)) return { narrowed, unknown };
  for (const [operator, tests] of Object.entries(condition)) {
    if (!isObject(tests)) continue;
    for (const [rawKey, value] of Object.entries(tests)) {
      const key = rawKey.toLowerCase();
      const values = list(value).map(String);
      const concrete =
        values.length > 0 &&
        values.every((v) => v !== '*' && v !== '' && !EVERY_ADDRESS.has(v)) &&
        NARROWING_OPERATORS.test(operator);
      if (NARROWING_KEYS.has(key) && concrete) narrowed = true;
      else if (!NARROWING_KEYS.has(key)) unknown.push(key);
    }
  }
  return { narrowed, unknown };
}

/** The account a principal names: a 12-digit id, `arn:aws:iam::<id>:root` or any ARN with an account field. */
function accountOf(principal: string): string | undefined {
  if (/^\d{12}$/.test(principal)) return principal;
  return /^arn:[^:]+:[^:]*:[^:]*:(\d{12}):/.exec(principal)?.[1];
}

function awsPrincipals(principal: unknown): string[] {
  if (principal === '*') return ['*'];
  return isObject(principal) ? strings(principal.AWS) : [];
}

/**
 * What a resource policy opens beyond `ownAccount`. `document` is the policy as a parsed object, or its JSON text
 * (URL-encoded or not, as the APIs return it). Undefined when the text is not a policy document: the caller then
 * names the resource unread.
 */
export function policyExposure(document: unknown, ownAccount: string): PolicyExposure | undefined {
  const parsed = typeof document === 'string' ? parse(document) : document;
  if (!isObject(parsed)) return undefined;
  const exposure: PolicyExposure = { public: [], external: [] };
  for (const s of list(parsed.Statement)) {
    if (!isObject(s) || s.Effect !== 'Allow') continue;
    const { narrowed, unknown } = conditionsOf(s.Condition);
    const statement: ResourcePolicyStatement = {
      sid: typeof s.Sid === 'string' ? s.Sid : null,
      actions: s.NotAction !== undefined ? ['*'] : strings(s.Action),
      notActions: strings(s.NotAction),
      unknownConditions: unknown,
    };
    const principals = awsPrincipals(s.Principal);
    const everyone = s.NotPrincipal !== undefined || principals.includes('*');
    if (everyone && !narrowed) exposure.public.push(statement);
    for (const account of new Set(principals.flatMap((p) => accountOf(p) ?? [])))
      if (account !== ownAccount) exposure.external.push({ account, statement });
  }
  return exposure;
}

function parse(text: string): unknown {
  for (const candidate of [text, safeDecode(text)]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next form
    }
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A short account of a public statement for a finding's detail: what it allows, and any condition left unjudged. */
export function describeStatement(statement: ResourcePolicyStatement): string {
  const what =
    statement.notActions.length > 0
      ? `every action but ${statement.notActions.join(', ')}`
      : statement.actions.join(', ') || 'no action';
  const sid = statement.sid ? `Statement ${statement.sid}` : 'A statement';
  const unknown =
    statement.unknownConditions.length > 0
      ? ` (under condition keys Sentinel does not judge: ${statement.unknownConditions.join(', ')})`
      : '';
  return `${sid} allows ${what}${unknown}`;
}
