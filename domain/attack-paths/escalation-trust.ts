import { actionMatches } from '../policies/resource-policy';
import type { AuthorizationRole } from '../scans/iam-authorization';
import type { Evaluation, StatementRef } from './types';

// What a role's trust policy (its AssumeRolePolicyDocument) says about who may assume it, read for the escalation
// search:
// - which AWS principals its Allow statements name, so the search asks the oracle about sts:AssumeRole only for
//   the roles that could let a principal in: those naming its ARN, a session of it (a role's
//   `arn:aws:sts::<id>:assumed-role/<name>/<session>`), its account's root (`arn:aws:iam::<id>:root` or the bare
//   id: the principal's own policies must then allow sts:AssumeRole on the role too), or everyone (`*`, or a
//   NotPrincipal). The decision itself is the oracle's, which weighs the trust policy as the role's resource policy;
// - whether it lets an AWS service in (`Principal: {"Service": ...}`), which the oracle does not decide: a
//   condition leaves it possible, except aws:SourceAccount naming the role's own account (a resource the attacker
//   creates in the account meets it); a Deny naming the service shuts it out, or with a condition makes it possible.

type Json = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface TrustStatement {
  ref: StatementRef;
  allow: boolean;
  /** The AWS principals it names: ARNs, account ids, `*`. */
  aws: string[];
  /** NotPrincipal: it covers everyone but those it names. */
  notPrincipal: boolean;
  services: string[];
  condition: Json | null;
}

/** A role's trust policy, read once. */
export interface RoleTrust {
  role: AuthorizationRole;
  account: string;
  /** Its statements that cover sts:AssumeRole; none when the document is not one Sentinel can read. */
  statements: TrustStatement[];
}

export const accountOfArn = (arn: string): string => /^arn:[^:]+:[^:]*:[^:]*:(\d{12}):/.exec(arn)?.[1] ?? '';

const coversAssumeRole = (statement: Json): boolean =>
  statement.NotAction !== undefined
    ? !strings(statement.NotAction).some((a) => actionMatches(a, 'sts:AssumeRole'))
    : strings(statement.Action).some((a) => actionMatches(a, 'sts:AssumeRole'));

export function readTrust(role: AuthorizationRole): RoleTrust {
  const account = accountOfArn(role.arn);
  const document = role.trust;
  if (!isObject(document)) return { role, account, statements: [] };
  const policy = `resource:${role.arn}`;
  const statements: TrustStatement[] = [];
  list(document.Statement).forEach((s, index) => {
    if (!isObject(s) || !coversAssumeRole(s)) return;
    const principal = s.Principal;
    statements.push({
      ref: typeof s.Sid === 'string' && s.Sid !== '' ? { policy, sid: s.Sid, index } : { policy, index },
      allow: s.Effect === 'Allow',
      aws: principal === '*' ? ['*'] : isObject(principal) ? strings(principal.AWS) : [],
      notPrincipal: s.NotPrincipal !== undefined,
      services: isObject(principal) ? strings(principal.Service) : [],
      condition: isObject(s.Condition) && Object.keys(s.Condition).length > 0 ? s.Condition : null,
    });
  });
  return { role, account, statements };
}

/**
 * The AWS principals the trust's Allow statements name, as lookup keys: `account:<id>` for an account (its id or
 * root), `session:<id>/<role name>` for a role's sessions, an ARN as it is; `everyone` when one admits anyone.
 */
export function trustedPrincipals(trust: RoleTrust): { keys: string[]; everyone: boolean } {
  const keys = new Set<string>();
  let everyone = false;
  for (const statement of trust.statements) {
    if (!statement.allow) continue;
    if (statement.notPrincipal || statement.aws.includes('*')) everyone = true;
    for (const entry of statement.aws) if (entry !== '*') keys.add(principalKey(entry));
  }
  return { keys: [...keys], everyone };
}

/** A principal named in a trust policy as a lookup key (see trustedPrincipals). */
export function principalKey(entry: string): string {
  if (/^\d{12}$/.test(entry)) return `account:${entry}`;
  const root = /^arn:[^:]+:iam::(\d{12}):root$/.exec(entry);
  if (root) return `account:${root[1]}`;
  const session = /^arn:[^:]+:sts::(\d{12}):assumed-role\/([^/]+)\/.+$/.exec(entry);
  if (session) return `session:${session[1]}/${session[2]}`;
  return entry;
}

const conditionKeys = (condition: Json): string[] =>
  Object.values(condition).flatMap((tests) => (isObject(tests) ? Object.keys(tests) : []));

/** The condition keys a service's request from a resource in the role's own account does not meet for sure. */
function undecidedForService(condition: Json, account: string): string[] {
  const undecided: string[] = [];
  for (const [operator, tests] of Object.entries(condition)) {
    if (!isObject(tests)) continue;
    for (const [key, value] of Object.entries(tests)) {
      const ownAccount =
        key.toLowerCase() === 'aws:sourceaccount' &&
        /^String(Equals|Like)$/.test(operator) &&
        strings(value).includes(account);
      if (!ownAccount) undecided.push(key);
    }
  }
  return undecided;
}

/** Whether the role's trust lets one of the services assume it, by which statements; null when it lets none in. */
export function trustAdmitsService(trust: RoleTrust, services: readonly string[]): Evaluation | null {
  const covers = (s: TrustStatement) => s.services.some((service) => services.includes(service));
  const denies = trust.statements.filter((s) => !s.allow && covers(s));
  if (denies.some((d) => d.condition === null)) return null;
  let best: Evaluation | null = null;
  for (const statement of trust.statements) {
    if (!statement.allow || !covers(statement)) continue;
    const undecided = [
      ...undecidedForService(statement.condition ?? {}, trust.account),
      ...denies.flatMap((d) => conditionKeys(d.condition ?? {})),
    ];
    const evaluation: Evaluation = {
      decision: undecided.length > 0 ? 'possible' : 'allowed',
      allowedBy: [statement.ref],
      deniedBy: denies.map((d) => d.ref),
      undecided,
    };
    if (best === null || (best.decision === 'possible' && evaluation.decision === 'allowed')) best = evaluation;
  }
  return best;
}
