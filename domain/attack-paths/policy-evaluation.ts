import {
  type CompiledPolicy,
  type CompiledStatement,
  compilePolicy,
  PatternCache,
  type PolicyInput,
  type PolicyVariables,
  type PrincipalElement,
} from './policy-statements';
import { limitedByResourceControlPolicies } from './resource-control-policies';
import type { Decision, Evaluation, StatementRef } from './types';

// Whether a principal may make a request (an action on a resource), by AWS's documented policy evaluation logic
// (IAM User Guide, "Policy evaluation logic"), over documents Sentinel read rather than a live request:
//
// - An explicit Deny in any policy that applies (identity, permissions boundary, SCP, RCP, the resource's policy) wins.
// - Otherwise an Allow is needed. Within the account, the identity policies (the principal's, its groups') and the
//   resource's policy are a union: either may grant. A permissions boundary and each level of service control
//   policies (the root, each OU, the account) intersect with the identity policies: each must allow too.
// - Each level of the resource control policies of the resource's account must allow as well, whoever the principal
//   is, for the actions of the services RCPs cover (resource-control-policies.ts). They grant nothing (at every
//   level AWS attaches RCPFullAWSAccess, an Allow of everything). An RCP may name only `"Principal": "*"`, so its
//   statements are weighed like an SCP's.
// - The resource's policy grants past a boundary's implicit deny when it names an IAM user, a role session or
//   everyone; when it names a role's ARN, the boundary still limits it; when it names the account
//   (`arn:aws:iam::<id>:root`), it only delegates to the identity policies. SCPs always limit.
// - A role's trust policy and a KMS key's policy must allow the principal themselves: an identity policy grants
//   through them only when they name the account. (`ResourcePolicy.required`.)
// - Across accounts, the principal's identity policies and the resource's policy must both allow.
//
// What Sentinel cannot know, it does not guess:
// - Conditions. The request's context (source address, MFA, tags, time) is the caller's to choose or unknown, so an
//   Allow with a Condition covers the request only possibly: the decision is 'possible' and `undecided` names the
//   condition keys. A Deny with a Condition does not deny for certain (the attacker may avoid the condition: another
//   region, another address), and it does not leave the request certain either: a request it covers is 'possible'
//   at best, with the Deny in `deniedBy` and its keys in `undecided`. One rule for both effects: a condition turns a
//   statement's certainty into a possibility, never into a decision.
// - Unread documents (null). An unread document of a set that applies is an Allow and a Deny that may or may not
//   cover the request: a request no read document decides is 'possible', never 'denied' while the unread one could
//   have allowed it, and never 'allowed' while the unread one could deny it. A read explicit Deny, or a read
//   boundary, SCP or RCP level that allows nothing of it, still decides 'denied': no unread document changes that.
// - Policy variables whose value is not known (see policy-statements.ts): as for a condition.
//
// The request's action and resource are matched as names: `*` as a request's resource is a resource only a `*`
// pattern names (or a NotResource that leaves it out). Asking for it asks whether the principal holds the action on
// every resource.

/** Who makes the request. */
export interface RequestPrincipal {
  arn: string;
  kind: 'user' | 'role' | 'other';
  /** Its account's id; null when its ARN names none (a service). */
  account: string | null;
  variables: PolicyVariables;
  /** AWS applies a resource policy's Deny with NotPrincipal to every principal that has a boundary, whoever it names. */
  hasBoundary: boolean;
}

/** The policies that apply to the principal. */
export interface PrincipalPolicies {
  /** Its identity policies (its own and its groups'); null: not known (a principal of another account). */
  identity: readonly CompiledPolicy[] | null;
  /** Its permissions boundary; null: none. */
  boundary: CompiledPolicy | null;
  /** Each level of service control policies, each of which must allow; null: not weighed. */
  serviceControlPolicies: readonly (readonly CompiledPolicy[])[] | null;
}

/** The policy of the resource asked about. */
export interface ResourcePolicy {
  policy: CompiledPolicy;
  /** A role's trust policy or a KMS key's policy: it must allow the principal itself, or name its account. */
  required: boolean;
}

export interface Request {
  action: string;
  resource: string;
  /** The resource's account; null: the principal's own (an S3 bucket's ARN names no account). */
  resourceAccount: string | null;
  /**
   * Each level of the resource control policies of the resource's account, each of which must allow when the action
   * is of a service RCPs cover; null or absent: not weighed (none applies, or they could not be read).
   */
  resourceControlPolicies?: readonly (readonly CompiledPolicy[])[] | null;
}

type Certainty = 'yes' | 'maybe' | 'no';

/** A three-valued answer with its evidence: the statements that make it, and what leaves it undecided. */
interface Verdict {
  value: Certainty;
  refs: StatementRef[];
  undecided: string[];
}

const YES: Verdict = { value: 'yes', refs: [], undecided: [] };
const NO: Verdict = { value: 'no', refs: [], undecided: [] };

function anyVerdict(verdicts: readonly Verdict[]): Verdict {
  const yes = verdicts.filter((v) => v.value === 'yes');
  if (yes.length > 0) return { value: 'yes', refs: yes.flatMap((v) => v.refs), undecided: [] };
  const maybe = verdicts.filter((v) => v.value === 'maybe');
  if (maybe.length > 0)
    return { value: 'maybe', refs: maybe.flatMap((v) => v.refs), undecided: maybe.flatMap((v) => v.undecided) };
  return NO;
}

function allVerdicts(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.some((v) => v.value === 'no')) return NO;
  return {
    value: verdicts.some((v) => v.value === 'maybe') ? 'maybe' : 'yes',
    refs: verdicts.flatMap((v) => v.refs),
    undecided: verdicts.flatMap((v) => v.undecided),
  };
}

const unreadVerdict = (policy: string): Verdict => ({ value: 'maybe', refs: [], undecided: [`unread: ${policy}`] });

/** The Deny statements that cover the request, certain and possible, across every policy weighed. */
class Denials {
  readonly certain: StatementRef[] = [];
  readonly possible: StatementRef[] = [];
  readonly undecided: string[] = [];

  add(verdict: Verdict): void {
    if (verdict.value === 'yes') this.certain.push(...verdict.refs);
    else if (verdict.value === 'maybe') {
      this.possible.push(...verdict.refs);
      this.undecided.push(...verdict.undecided);
    }
  }
}

/** Whether a statement that names the action covers the resource, and under what it leaves undecided. */
function statementVerdict(statement: CompiledStatement, request: Request, variables: PolicyVariables): Verdict {
  const coverage = statement.covers(request.resource, variables);
  if (coverage.covers === 'no') return NO;
  const undecided = [...(coverage.covers === 'maybe' ? coverage.undecided : []), ...statement.conditionKeys];
  return { value: undecided.length > 0 ? 'maybe' : 'yes', refs: [statement.ref], undecided };
}

/** Whether one identity-side policy (identity, boundary, SCP) allows the request; its Denies go to `denials`. */
function policyAllows(
  policy: CompiledPolicy,
  request: Request,
  principal: RequestPrincipal,
  denials: Denials,
  action: string,
): Verdict {
  if (policy.statements === null) {
    denials.add(unreadVerdict(policy.policy));
    return unreadVerdict(policy.policy);
  }
  const allows: Verdict[] = [];
  for (const statement of policy.naming(action)) {
    const verdict = statementVerdict(statement, request, principal.variables);
    if (statement.effect === 'Deny') denials.add(verdict);
    else allows.push(verdict);
  }
  return anyVerdict(allows);
}

function setAllows(
  policies: readonly CompiledPolicy[],
  request: Request,
  principal: RequestPrincipal,
  denials: Denials,
  action: string,
): Verdict {
  return anyVerdict(policies.map((p) => policyAllows(p, request, principal, denials, action)));
}

/** How a resource policy's statement names the principal. */
type Naming = 'none' | 'principal' | 'session' | 'account';

/** The role sessions of a role: `arn:<partition>:sts::<account>:assumed-role/<name>/`, whatever its path. */
function sessionPrefix(principal: RequestPrincipal): string | null {
  const match = /^arn:([^:]+):iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/.exec(principal.arn);
  return match ? `arn:${match[1]}:sts::${match[2]}:assumed-role/${match[3]}/` : null;
}

function namesSession(element: PrincipalElement, principal: RequestPrincipal): boolean {
  const prefix = principal.kind === 'role' ? sessionPrefix(principal) : null;
  return prefix !== null && [...element.arns].some((arn) => arn.startsWith(prefix));
}

/**
 * NotPrincipal leaves a principal out only when it names each of its identities: its account, its ARN and, for a
 * role, a session of it (the caller picks the session's name when assuming the role, so any one will do).
 */
function leftOut(element: PrincipalElement, principal: RequestPrincipal): boolean {
  const account = principal.account !== null && element.accounts.has(principal.account);
  const self = element.arns.has(principal.arn) || element.others.has(principal.arn);
  if (principal.kind === 'other') return self;
  return account && self && (principal.kind !== 'role' || namesSession(element, principal));
}

function naming(statement: CompiledStatement, principal: RequestPrincipal): Naming {
  const element = statement.principal;
  if (!element) return 'none';
  if (element.not) {
    if (statement.effect === 'Deny' && principal.hasBoundary) return 'session';
    return leftOut(element, principal) ? 'none' : 'session';
  }
  if (element.everyone) return 'session';
  if (element.arns.has(principal.arn) || element.others.has(principal.arn)) return 'principal';
  if (namesSession(element, principal)) return 'session';
  if (principal.account !== null && element.accounts.has(principal.account)) return 'account';
  return 'none';
}

/** What the resource's policy allows the principal, by how it names it; its Denies go to `denials`. */
interface ResourceAllows {
  /** Past a boundary: a user's ARN, a role session, everyone (or a principal that is not a user or role). */
  unbounded: Verdict;
  /** A role's ARN: its boundary still limits it. */
  bounded: Verdict;
  /** The account: its identity policies decide. */
  delegated: Verdict;
}

function resourceAllows(
  resource: ResourcePolicy,
  request: Request,
  principal: RequestPrincipal,
  denials: Denials,
  action: string,
): ResourceAllows {
  const { policy } = resource;
  if (policy.statements === null) {
    const unread = unreadVerdict(policy.policy);
    denials.add(unread);
    return { unbounded: unread, bounded: unread, delegated: unread };
  }
  const by: Record<'unbounded' | 'bounded' | 'delegated', Verdict[]> = { unbounded: [], bounded: [], delegated: [] };
  for (const statement of policy.naming(action)) {
    const named = naming(statement, principal);
    if (named === 'none') continue;
    const verdict = statementVerdict(statement, request, principal.variables);
    if (statement.effect === 'Deny') denials.add(verdict);
    else if (named === 'account') by.delegated.push(verdict);
    else if (named === 'principal' && principal.kind === 'role') by.bounded.push(verdict);
    else by.unbounded.push(verdict);
  }
  return { unbounded: anyVerdict(by.unbounded), bounded: anyVerdict(by.bounded), delegated: anyVerdict(by.delegated) };
}

const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];
const uniqueRefs = (refs: readonly StatementRef[]): StatementRef[] => {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const key = `${r.policy}#${r.index}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** The decision on a request by compiled policies (see the top of this file). */
export function evaluateCompiled(
  principal: RequestPrincipal,
  policies: PrincipalPolicies,
  request: Request,
  resource: ResourcePolicy | null,
): Evaluation {
  const action = request.action.toLowerCase();
  const denials = new Denials();
  const identity =
    policies.identity === null
      ? unreadVerdict(`identity policies of ${principal.arn}`)
      : setAllows(policies.identity, request, principal, denials, action);
  const boundary = policies.boundary ? policyAllows(policies.boundary, request, principal, denials, action) : YES;
  const levels = (of: readonly (readonly CompiledPolicy[])[] | null | undefined) =>
    of ? allVerdicts(of.map((level) => setAllows(level, request, principal, denials, action))) : YES;
  const scps = levels(policies.serviceControlPolicies);
  const rcps = limitedByResourceControlPolicies(action) ? levels(request.resourceControlPolicies) : YES;
  const byResource = resource ? resourceAllows(resource, request, principal, denials, action) : null;

  const identityPath = allVerdicts([identity, boundary]);
  const sameAccount = request.resourceAccount === null || request.resourceAccount === principal.account;
  let granted: Verdict;
  if (!byResource)
    granted = sameAccount
      ? identityPath
      : allVerdicts([identityPath, unreadVerdict(`resource policy of ${request.resource}`)]);
  else if (!sameAccount)
    granted = allVerdicts([identityPath, anyVerdict([byResource.unbounded, byResource.bounded, byResource.delegated])]);
  else
    granted = anyVerdict([
      byResource.unbounded,
      allVerdicts([byResource.bounded, boundary]),
      resource?.required ? allVerdicts([byResource.delegated, identityPath]) : identityPath,
    ]);
  const allowed = allVerdicts([scps, rcps, granted]);

  if (denials.certain.length > 0) return decided('denied', [], denials.certain, []);
  if (allowed.value === 'no') return decided('denied', [], [], []);
  if (allowed.value === 'yes' && denials.possible.length === 0 && denials.undecided.length === 0)
    return decided('allowed', allowed.refs, [], []);
  return decided('possible', allowed.refs, denials.possible, [...allowed.undecided, ...denials.undecided]);
}

function decided(
  decision: Decision,
  allowedBy: StatementRef[],
  deniedBy: StatementRef[],
  undecided: string[],
): Evaluation {
  return { decision, allowedBy: uniqueRefs(allowedBy), deniedBy: uniqueRefs(deniedBy), undecided: unique(undecided) };
}

const PRINCIPAL_ARN = /^arn:[^:]+:(?:iam|sts)::(\d{12}):(user|role|assumed-role)\/(?:.*\/)?([^/]+)$/;

/**
 * A principal by its ARN, with the policy variables Sentinel knows of it: aws:username (a user's name; a role's
 * requests carry none), aws:PrincipalAccount and aws:PrincipalType. Others (`${aws:userid}`, tags) stay unknown.
 */
export function principalFromArn(arn: string, hasBoundary = false): RequestPrincipal {
  const match = PRINCIPAL_ARN.exec(arn);
  const account = match?.[1] ?? /^arn:[^:]+:[^:]*:[^:]*:(\d{12}):/.exec(arn)?.[1] ?? null;
  const kind = match?.[2] === 'user' ? 'user' : match?.[2] === 'role' ? 'role' : 'other';
  const variables = new Map<string, string | null>();
  if (account) variables.set('aws:principalaccount', account);
  if (kind === 'user') {
    variables.set('aws:username', match?.[3] ?? null);
    variables.set('aws:principaltype', 'User');
  }
  if (kind === 'role') {
    variables.set('aws:username', null);
    variables.set('aws:principaltype', 'AssumedRole');
  }
  return { arn, kind, account, variables, hasBoundary };
}

/** A request and the documents to weigh it against, uncompiled: the form the tests and one-off questions use. */
export interface RequestInput {
  /** The principal's ARN (a user's or a role's; a service's name for a service principal). */
  principal: string;
  action: string;
  resource: string;
  /** The principal's identity policies; null: not known. */
  identity?: readonly PolicyInput[] | null;
  boundary?: PolicyInput | null;
  /** Each level's policies; null or absent: not weighed. */
  serviceControlPolicies?: readonly (readonly PolicyInput[])[] | null;
  /** Each level's resource control policies of the resource's account; null or absent: not weighed. */
  resourceControlPolicies?: readonly (readonly PolicyInput[])[] | null;
  resourcePolicy?: (PolicyInput & { required?: boolean }) | null;
  /** The resource's account; absent: the account its ARN names, or else the principal's. */
  resourceAccount?: string | null;
}

/** The account a resource's ARN names; null when it names none (S3 buckets, `*`). */
export function accountOfResource(resource: string): string | null {
  return /^arn:[^:]+:[^:]*:[^:]*:(\d{12}):/.exec(resource)?.[1] ?? null;
}

/** The decision on one request, compiling its documents on the way. */
export function evaluateRequest(input: RequestInput): Evaluation {
  const cache = new PatternCache();
  const compile = (p: PolicyInput) => compilePolicy(p, cache);
  return evaluateCompiled(
    principalFromArn(input.principal, !!input.boundary),
    {
      identity: input.identity === null ? null : (input.identity ?? []).map(compile),
      boundary: input.boundary ? compile(input.boundary) : null,
      serviceControlPolicies: input.serviceControlPolicies?.map((level) => level.map(compile)) ?? null,
    },
    {
      action: input.action,
      resource: input.resource,
      resourceAccount: input.resourceAccount === undefined ? accountOfResource(input.resource) : input.resourceAccount,
      resourceControlPolicies: input.resourceControlPolicies?.map((level) => level.map(compile)) ?? null,
    },
    input.resourcePolicy
      ? { policy: compile(input.resourcePolicy), required: input.resourcePolicy.required ?? false }
      : null,
  );
}

const RANK: Readonly<Record<Decision, number>> = { denied: 0, possible: 1, allowed: 2 };

/** The best of alternatives (any one of them suffices): its evidence is that of the alternatives that reach it. */
export function anyOf(evaluations: readonly Evaluation[]): Evaluation {
  const best = evaluations.reduce<Decision>((d, e) => (RANK[e.decision] > RANK[d] ? e.decision : d), 'denied');
  const reaching = evaluations.filter((e) => e.decision === best);
  return decided(
    best,
    reaching.flatMap((e) => e.allowedBy),
    reaching.flatMap((e) => e.deniedBy),
    best === 'possible' ? reaching.flatMap((e) => e.undecided) : [],
  );
}

/** The worst of requirements (each of them is needed): denied by any, possible while any is possible. */
export function allOf(evaluations: readonly Evaluation[]): Evaluation {
  const worst = evaluations.reduce<Decision>((d, e) => (RANK[e.decision] < RANK[d] ? e.decision : d), 'allowed');
  if (worst === 'denied') {
    const denied = evaluations.filter((e) => e.decision === 'denied');
    return decided(
      'denied',
      [],
      denied.flatMap((e) => e.deniedBy),
      [],
    );
  }
  return decided(
    worst,
    evaluations.flatMap((e) => e.allowedBy),
    evaluations.flatMap((e) => e.deniedBy),
    evaluations.flatMap((e) => e.undecided),
  );
}
