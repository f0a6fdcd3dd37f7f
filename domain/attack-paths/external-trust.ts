import type { PolicyJson } from '../scans/iam-authorization';

// Who outside the account a role's trust policy lets assume it without an ExternalId: the condition AWS designed
// against the confused deputy (a vendor's account used to reach its other customers' roles). A statement that lets
// in everyone ("*") is outside trust too, whatever its condition, unless the condition pins the caller's account or
// organization (then it is no longer everyone).

type Json = Record<string, unknown>;

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The account id an AWS principal names (`123456789012`, `arn:aws:iam::123456789012:root`, a user or role ARN). */
function accountOf(principal: string): string | null {
  if (/^\d{12}$/.test(principal)) return principal;
  return /^arn:aws[a-z-]*:(?:iam|sts)::(\d{12}):/.exec(principal)?.[1] ?? null;
}

/** The condition keys of a statement, lower-cased, whatever their operator. */
function conditionKeys(statement: Json): Set<string> {
  const keys = new Set<string>();
  if (!isObject(statement.Condition)) return keys;
  for (const block of Object.values(statement.Condition)) {
    if (isObject(block)) for (const key of Object.keys(block)) keys.add(key.toLowerCase());
  }
  return keys;
}

const PINNING_KEYS = ['aws:principalaccount', 'aws:principalorgid', 'aws:principalorgpaths', 'aws:principalarn'];

/** An Allow of sts:AssumeRole (or every sts action) to a principal outside the account, without an ExternalId. */
export interface ExternalTrust {
  /** The outside account's id, or `*` for everyone. */
  principal: string;
  /** The statement's Sid, or its position. */
  statement: string;
}

export function externalTrustsWithoutExternalId(trust: PolicyJson | null, ownAccount: string): ExternalTrust[] {
  if (!trust) return [];
  const found: ExternalTrust[] = [];
  list(trust.Statement).forEach((raw, index) => {
    if (!isObject(raw) || raw.Effect !== 'Allow') return;
    const actions = strings(raw.Action).map((a) => a.toLowerCase());
    if (!actions.some((a) => a === 'sts:assumerole' || a === 'sts:*' || a === '*')) return;
    const keys = conditionKeys(raw);
    if (keys.has('sts:externalid')) return;
    const principal = raw.Principal;
    const aws = principal === '*' ? ['*'] : isObject(principal) ? strings(principal.AWS) : [];
    for (const p of aws) {
      if (p === '*') {
        if (!PINNING_KEYS.some((k) => keys.has(k)))
          found.push({ principal: '*', statement: statementName(raw, index) });
        continue;
      }
      const account = accountOf(p);
      if (account && account !== ownAccount) found.push({ principal: account, statement: statementName(raw, index) });
    }
  });
  return found;
}

const statementName = (statement: Json, index: number): string =>
  typeof statement.Sid === 'string' && statement.Sid !== '' ? statement.Sid : `statement ${index}`;
