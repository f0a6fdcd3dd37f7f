import type { PolicyJson } from '../scans/iam-authorization';
import type { StatementRef } from './types';

// Policy documents compiled once into statements that answer quickly, for policy-evaluation.ts: the escalation
// search asks the same documents thousands of times, so each pattern becomes a matcher once (PatternCache) and each
// policy remembers which of its statements name an action (CompiledPolicy.naming).
//
// Matching, as IAM's policy grammar has it:
// - actions match without regard to case (both sides are lower-cased), resources exactly; `*` stands for any run of
//   characters (`/` and `:` included) and `?` for one;
// - a policy variable (`${aws:username}`) in a Resource or NotResource of a 2012-10-17 document is replaced by the
//   principal's value; `${*}`, `${?}` and `${$}` are the literal characters. A variable whose value Sentinel does not
//   know is matched as `*`: if the pattern still matches, the statement covers the resource only possibly. A
//   variable the request is known not to carry (aws:username for a role) makes the pattern match nothing, as AWS
//   does, unless it has a default (`${aws:username, 'none'}`).

/** A policy document to weigh, under the name its statements are cited by (see StatementRef.policy). */
export interface PolicyInput {
  policy: string;
  /** null: a document that could not be read (see policy-evaluation.ts for what that means). */
  document: PolicyJson | null;
}

/** The principal's values of policy variables, by lower-case key; null: the request is known not to carry the key. */
export type PolicyVariables = ReadonlyMap<string, string | null>;

/** Whether a statement's element covers the request: 'maybe' names what is left undecided. */
export type Coverage = { covers: 'yes' } | { covers: 'no' } | { covers: 'maybe'; undecided: string[] };

const YES: Coverage = { covers: 'yes' };
const NO: Coverage = { covers: 'no' };

/** Who a resource policy's statement names (its Principal or NotPrincipal element). */
export interface PrincipalElement {
  /** NotPrincipal: everyone but those named. */
  not: boolean;
  /** `"*"` or `{"AWS": "*"}`. */
  everyone: boolean;
  /** IAM principals and role sessions by ARN. */
  arns: ReadonlySet<string>;
  /** Accounts by id (`123456789012` and `arn:aws:iam::123456789012:root` alike). */
  accounts: ReadonlySet<string>;
  /** Services, identity providers and canonical users, as written. */
  others: ReadonlySet<string>;
}

export interface CompiledStatement {
  ref: StatementRef;
  effect: 'Allow' | 'Deny';
  /** Whether it names a (lower-case) action: through Action, or by leaving it out of NotAction. */
  names(action: string): boolean;
  covers(resource: string, variables: PolicyVariables): Coverage;
  /** Null in identity policies, SCPs and boundaries, which have no Principal element. */
  principal: PrincipalElement | null;
  /** The condition keys it tests (as written): a non-empty list leaves it undecided. */
  conditionKeys: string[];
}

export interface CompiledPolicy {
  policy: string;
  /** Null: the document was not read. */
  statements: readonly CompiledStatement[] | null;
  /** Its statements that name a (lower-case) action, computed once per action. */
  naming(action: string): readonly CompiledStatement[];
}

type Json = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const globSource = (glob: string) =>
  glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
const literalSource = (text: string) => text.replace(/[.*?+^${}()|[\]\\]/g, '\\$&');

/** Matchers of IAM patterns, each compiled once. One per oracle: its life is the analysis of one inventory. */
export class PatternCache {
  private readonly matchers = new Map<string, (value: string) => boolean>();
  private readonly expressions = new Map<string, RegExp>();

  /** A matcher of a pattern without variables (for actions, pass it lower-cased and match lower-cased actions). */
  matcher(glob: string): (value: string) => boolean {
    let matcher = this.matchers.get(glob);
    if (!matcher) {
      if (glob === '*') matcher = () => true;
      else if (!/[*?]/.test(glob)) matcher = (value) => value === glob;
      else {
        const expression = new RegExp(`^${globSource(glob)}$`, 's');
        matcher = (value) => expression.test(value);
      }
      this.matchers.set(glob, matcher);
    }
    return matcher;
  }

  expression(source: string): RegExp {
    let expression = this.expressions.get(source);
    if (!expression) {
      expression = new RegExp(`^${source}$`, 's');
      this.expressions.set(source, expression);
    }
    return expression;
  }
}

const VARIABLE = /\$\{([^}]*)\}/g;

/** A resource pattern that holds policy variables, resolved against each principal's values. */
function variablePattern(glob: string, cache: PatternCache) {
  return (resource: string, variables: PolicyVariables): Coverage => {
    const unknown: string[] = [];
    let absent = false;
    let source = '';
    let last = 0;
    for (const match of glob.matchAll(VARIABLE)) {
      const at = match.index ?? 0;
      source += globSource(glob.slice(last, at));
      last = at + match[0].length;
      const inside = match[1] ?? '';
      const comma = inside.indexOf(',');
      const key = (comma < 0 ? inside : inside.slice(0, comma)).trim();
      if (key === '*' || key === '?' || key === '$') {
        source += literalSource(key);
        continue;
      }
      const fallback =
        comma < 0
          ? undefined
          : inside
              .slice(comma + 1)
              .trim()
              .replace(/^'(.*)'$/, '$1');
      const value = variables.get(key.toLowerCase());
      if (typeof value === 'string') source += literalSource(value);
      else if (value === null && fallback !== undefined) source += literalSource(fallback);
      else if (value === null) absent = true;
      else {
        unknown.push(match[0]);
        source += '.*';
      }
    }
    source += globSource(glob.slice(last));
    if (absent || !cache.expression(source).test(resource)) return NO;
    return unknown.length > 0 ? { covers: 'maybe', undecided: unknown } : YES;
  };
}

type ResourceMatcher = (resource: string, variables: PolicyVariables) => Coverage;

function resourceMatcher(glob: string, withVariables: boolean, cache: PatternCache): ResourceMatcher {
  if (withVariables && glob.includes('${')) return variablePattern(glob, cache);
  const matcher = cache.matcher(glob);
  return (resource) => (matcher(resource) ? YES : NO);
}

/** The best coverage of a list of patterns: any 'yes' covers; else any 'maybe' (with every undecided name). */
function anyPattern(matchers: ResourceMatcher[], resource: string, variables: PolicyVariables): Coverage {
  const undecided: string[] = [];
  for (const matcher of matchers) {
    const coverage = matcher(resource, variables);
    if (coverage.covers === 'yes') return YES;
    if (coverage.covers === 'maybe') undecided.push(...coverage.undecided);
  }
  return undecided.length > 0 ? { covers: 'maybe', undecided } : NO;
}

function resourcesOf(statement: Json, withVariables: boolean, cache: PatternCache): CompiledStatement['covers'] {
  // Trust policies and other resource policies have no Resource: the statement is about the resource it is on.
  if (statement.Resource === undefined && statement.NotResource === undefined) return () => YES;
  if (statement.NotResource !== undefined) {
    const excluded = strings(statement.NotResource).map((g) => resourceMatcher(g, withVariables, cache));
    return (resource, variables) => {
      const coverage = anyPattern(excluded, resource, variables);
      return coverage.covers === 'yes' ? NO : coverage.covers === 'no' ? YES : coverage;
    };
  }
  const included = strings(statement.Resource).map((g) => resourceMatcher(g, withVariables, cache));
  return (resource, variables) => anyPattern(included, resource, variables);
}

function actionsOf(statement: Json, cache: PatternCache): CompiledStatement['names'] {
  const notAction = statement.NotAction !== undefined;
  const matchers = strings(notAction ? statement.NotAction : statement.Action).map((g) =>
    cache.matcher(g.toLowerCase()),
  );
  return notAction ? (action) => !matchers.some((m) => m(action)) : (action) => matchers.some((m) => m(action));
}

const ACCOUNT_ROOT = /^arn:[^:]+:iam::(\d{12}):root$/;

function principalOf(statement: Json): PrincipalElement | null {
  const not = statement.NotPrincipal !== undefined;
  const element = not ? statement.NotPrincipal : statement.Principal;
  if (element === undefined) return null;
  const arns = new Set<string>();
  const accounts = new Set<string>();
  const others = new Set<string>();
  let everyone = element === '*';
  if (isObject(element)) {
    for (const [kind, value] of Object.entries(element)) {
      for (const name of strings(value)) {
        if (kind !== 'AWS') others.add(name);
        else if (name === '*') everyone = true;
        else if (/^\d{12}$/.test(name)) accounts.add(name);
        else {
          const account = ACCOUNT_ROOT.exec(name)?.[1];
          if (account) accounts.add(account);
          else arns.add(name);
        }
      }
    }
  }
  return { not, everyone, arns, accounts, others };
}

/** The condition keys a statement tests, as written. */
function conditionKeysOf(statement: Json): string[] {
  if (!isObject(statement.Condition)) return [];
  return Object.values(statement.Condition).flatMap((tests) => (isObject(tests) ? Object.keys(tests) : []));
}

/** Compiles a document; a null document (or one with no statement list Sentinel can read) stays unread. */
export function compilePolicy({ policy, document }: PolicyInput, cache: PatternCache): CompiledPolicy {
  const withVariables = document?.Version === '2012-10-17';
  const statements = document
    ? list(document.Statement).flatMap((statement, index): CompiledStatement[] => {
        if (!isObject(statement) || (statement.Effect !== 'Allow' && statement.Effect !== 'Deny')) return [];
        const ref: StatementRef =
          typeof statement.Sid === 'string' ? { policy, sid: statement.Sid, index } : { policy, index };
        return [
          {
            ref,
            effect: statement.Effect,
            names: actionsOf(statement, cache),
            covers: resourcesOf(statement, withVariables, cache),
            principal: principalOf(statement),
            conditionKeys: conditionKeysOf(statement),
          },
        ];
      })
    : null;
  const byAction = new Map<string, readonly CompiledStatement[]>();
  return {
    policy,
    statements,
    naming(action) {
      let naming = byAction.get(action);
      if (!naming) {
        naming = (statements ?? []).filter((s) => s.names(action));
        byAction.set(action, naming);
      }
      return naming;
    },
  };
}
