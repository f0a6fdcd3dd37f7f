// Reads a role's trust policy the way IAM would for Sentinel's AssumeRole call, to say precisely what is
// wrong with it. Real AWS already refuses a wrong policy at AssumeRole; this check also catches a role that
// lets Sentinel in without our ExternalId, which AWS accepts but which would let any Sentinel tenant who
// names this account make us read it (the confused-deputy problem).

export type TrustVerdict = 'ok' | 'trust_policy_wrong' | 'external_id_mismatch';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** IAM returns policy documents URL-encoded (RFC 3986); undefined when the text is not a JSON object. */
export function parsePolicyDocument(raw: string): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(raw.trimStart().startsWith('{') ? raw : decodeURIComponent(raw));
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

// IAM action patterns are case-insensitive and may use * and ? wildcards.
function actionPattern(action: string): RegExp {
  const source = action
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i');
}

function allowsAssumeRole(action: unknown): boolean {
  return list(action).some((a) => typeof a === 'string' && actionPattern(a).test('sts:AssumeRole'));
}

function trustsAccount(principal: unknown, accountId: string): boolean {
  if (!isObject(principal)) return false;
  return list(principal.AWS).some((p) => p === accountId || p === `arn:aws:iam::${accountId}:root`);
}

// Condition keys are case-insensitive; the value must be ours alone, or another tenant's id would also open it.
function requiresExternalId(condition: unknown, externalId: string): boolean {
  if (!isObject(condition) || !isObject(condition.StringEquals)) return false;
  const values = Object.entries(condition.StringEquals)
    .filter(([key]) => key.toLowerCase() === 'sts:externalid')
    .flatMap(([, value]) => list(value));
  return values.length > 0 && values.every((v) => v === externalId);
}

export function evaluateTrustPolicy({
  document,
  sentinelAccountId,
  externalId,
}: {
  document: Json | undefined;
  sentinelAccountId: string;
  externalId: string;
}): TrustVerdict {
  const trusting = list(document?.Statement)
    .filter(isObject)
    .filter((s) => s.Effect === 'Allow' && allowsAssumeRole(s.Action) && trustsAccount(s.Principal, sentinelAccountId));
  if (trusting.length === 0) return 'trust_policy_wrong';
  return trusting.every((s) => requiresExternalId(s.Condition, externalId)) ? 'ok' : 'external_id_mismatch';
}
