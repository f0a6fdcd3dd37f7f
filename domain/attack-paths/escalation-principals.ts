import { actionMatches, iamPattern } from '../policies/resource-policy';
import type { AuthorizationGroup, IamAuthorization, PolicyJson } from '../scans/iam-authorization';
import { accountOfArn } from './escalation-trust';

// The account's users, roles and groups as the escalation search walks them, each with a cheap reading of its own
// documents: which of the actions the search asks about an Allow statement even names, and on which resources.
// The search asks the oracle only what this reading leaves open, so that a large account (thousands of roles) is
// not asked principals × roles × methods questions whose answer is plainly 'denied'. It is a prefilter, not a
// decision: Deny statements, boundaries and SCPs are the oracle's to weigh.

type Json = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where an Allow statement lets an action be used: everywhere, or on resources matching these patterns. */
interface Coverage {
  everywhere: boolean;
  /** The patterns as written, and as matchers. */
  patterns: string[];
  matchers: RegExp[];
}

/** One document's Allow statements, by the (lower-case) actions of interest they name. */
type DocumentGrants = Map<string, Coverage> | 'unread';

export interface Principal {
  arn: string;
  name: string;
  kind: 'user' | 'role' | 'group';
  account: string;
  /** Its permissions boundary's policy ARN; null: none (groups have none). */
  boundary: string | null;
  /** The groups a user belongs to. */
  groups: AuthorizationGroup[];
  /** The customer managed policies attached to it or its groups: those it could rewrite (AWS's cannot be). */
  customerPolicies: string[];
  documents: DocumentGrants[];
}

export interface PrincipalIndex {
  users: Principal[];
  roles: Principal[];
  groups: Principal[];
  byArn: Map<string, Principal>;
}

const AWS_MANAGED = /^arn:[^:]+:iam::aws:policy\//;

/** Reads documents for the actions of interest, matching each distinct action and resource pattern once. */
class DocumentReader {
  private readonly actionsMatched = new Map<string, string[]>();
  private readonly resourceMatchers = new Map<string, RegExp>();

  /** The lower-cased actions of interest. */
  constructor(private readonly actions: readonly string[]) {}

  private matching(pattern: string): string[] {
    const key = pattern.toLowerCase();
    let found = this.actionsMatched.get(key);
    if (found === undefined) {
      found = this.actions.filter((action) => actionMatches(key, action));
      this.actionsMatched.set(key, found);
    }
    return found;
  }

  private matcher(pattern: string): RegExp {
    let found = this.resourceMatchers.get(pattern);
    if (found === undefined) {
      found = iamPattern(pattern, false);
      this.resourceMatchers.set(pattern, found);
    }
    return found;
  }

  /** The actions of interest a statement names: through Action, or by leaving them out of NotAction. */
  private named(statement: Json): string[] {
    if (statement.NotAction === undefined) return strings(statement.Action).flatMap((p) => this.matching(p));
    const excluded = new Set(strings(statement.NotAction).flatMap((p) => this.matching(p)));
    return this.actions.filter((action) => !excluded.has(action));
  }

  grants(document: PolicyJson | null | undefined): DocumentGrants {
    if (!isObject(document)) return 'unread';
    const grants = new Map<string, Coverage>();
    for (const statement of list(document.Statement)) {
      if (!isObject(statement) || statement.Effect !== 'Allow') continue;
      const resources = strings(statement.Resource);
      // NotResource, a missing Resource or a policy variable (`${aws:username}`) is left for the oracle to read.
      const everywhere =
        statement.NotResource !== undefined ||
        resources.length === 0 ||
        resources.some((r) => r === '*' || r.includes('${'));
      for (const action of this.named(statement)) {
        const coverage = grants.get(action) ?? { everywhere: false, patterns: [], matchers: [] };
        coverage.everywhere ||= everywhere;
        if (!everywhere) {
          coverage.patterns.push(...resources);
          coverage.matchers.push(...resources.map((r) => this.matcher(r)));
        }
        grants.set(action, coverage);
      }
    }
    return grants;
  }
}

/** Whether some Allow statement of the principal names the action (or a document could not be read). */
export const names = (principal: Principal, action: string): boolean =>
  principal.documents.some((d) => d === 'unread' || d.has(action.toLowerCase()));

/** Whether some Allow statement of the principal names the action on a resource matching this one. */
export function mayCover(principal: Principal, action: string, resource: string): boolean {
  const key = action.toLowerCase();
  return principal.documents.some((d) => {
    if (d === 'unread') return true;
    const coverage = d.get(key);
    return coverage !== undefined && (coverage.everywhere || coverage.matchers.some((m) => m.test(resource)));
  });
}

/** The resource patterns narrower than `*` that the principal's Allow statements name the action on. */
export const namedResources = (principal: Principal, action: string): string[] => [
  ...new Set(principal.documents.flatMap((d) => (d === 'unread' ? [] : (d.get(action.toLowerCase())?.patterns ?? [])))),
];

/** Indexes the account's principals for the actions the search will ask about (lower-cased, `*` included). */
export function principalIndex(iam: IamAuthorization, actions: readonly string[]): PrincipalIndex {
  const reader = new DocumentReader([...new Set([...actions, '*'].map((a) => a.toLowerCase()))]);
  const managed = new Map<string, DocumentGrants>();
  for (const policy of iam.policies) managed.set(policy.arn, reader.grants(policy.document));
  // An attached policy the IAM data does not hold is read as unread: the oracle decides what it grants.
  const attachedGrants = (arns: string[]) => arns.map((arn) => managed.get(arn) ?? 'unread');
  const ownGrants = (owner: { attached: string[]; inline: { document: PolicyJson | null }[] }) => [
    ...owner.inline.map((p) => reader.grants(p.document)),
    ...attachedGrants(owner.attached),
  ];
  const customer = (arns: string[]) => arns.filter((arn) => !AWS_MANAGED.test(arn));

  const groupsByName = new Map(iam.groups.map((g) => [g.name, g]));
  const groups: Principal[] = iam.groups.map((g) => ({
    arn: g.arn,
    name: g.name,
    kind: 'group',
    account: accountOfArn(g.arn),
    boundary: null,
    groups: [],
    customerPolicies: customer(g.attached),
    documents: ownGrants(g),
  }));
  const groupDocuments = new Map(groups.map((g) => [g.name, g.documents]));
  const users: Principal[] = iam.users.map((u) => {
    const memberOf = u.groups.map((name) => groupsByName.get(name)).filter((g) => g !== undefined);
    return {
      arn: u.arn,
      name: u.name,
      kind: 'user',
      account: accountOfArn(u.arn),
      boundary: u.boundary,
      groups: memberOf,
      customerPolicies: [...new Set([...customer(u.attached), ...memberOf.flatMap((g) => customer(g.attached))])],
      documents: [...ownGrants(u), ...memberOf.flatMap((g) => groupDocuments.get(g.name) ?? [])],
    };
  });
  const roles: Principal[] = iam.roles.map((r) => ({
    arn: r.arn,
    name: r.name,
    kind: 'role',
    account: accountOfArn(r.arn),
    boundary: r.boundary,
    groups: [],
    customerPolicies: customer(r.attached),
    documents: ownGrants(r),
  }));
  const byArn = (a: Principal, b: Principal) => (a.arn < b.arn ? -1 : a.arn > b.arn ? 1 : 0);
  users.sort(byArn);
  roles.sort(byArn);
  groups.sort(byArn);
  return { users, roles, groups, byArn: new Map([...users, ...roles, ...groups].map((p) => [p.arn, p])) };
}
