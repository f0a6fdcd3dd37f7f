import { iamPattern } from '../../../domain/policies/resource-policy';
import { parsePolicyDocument } from '../trust-policy';

// Whether a bucket policy makes S3 refuse requests without TLS: a Deny statement that
// - applies to everyone (Principal `*` or `{"AWS": "*"}`),
// - covers reading and writing objects (its Action patterns match s3:GetObject and s3:PutObject: `*`, `s3:*`,
//   `s3:Get*` with `s3:Put*`, ...),
// - on every object of the bucket (a Resource pattern that matches `arn:aws:s3:::<bucket>/*`),
// - under the sole condition aws:SecureTransport false (Bool or BoolIfExists), or s3:TlsVersion below 1.2 or a
//   later version (NumericLessThan or NumericLessThanIfExists), which CIS 3.1.1 accepts as well. A further condition
//   (a VPC endpoint, an IP range) narrows the denial to some requests: such a statement does not count.
// Statements with NotPrincipal, NotAction or NotResource are not weighed: they deny less than they seem to.

type Json = Record<string, unknown>;

const OBJECT_ACTIONS = ['s3:GetObject', 's3:PutObject'];
const SECURE_TRANSPORT_OPERATORS = new Set(['Bool', 'BoolIfExists']);
const TLS_VERSION_OPERATORS = new Set(['NumericLessThan', 'NumericLessThanIfExists']);
/** The oldest TLS version a bucket may require and still pass: CIS 3.1.1's example denies anything below 1.2. */
const REQUIRED_TLS_VERSION = 1.2;

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function everyone(principal: unknown): boolean {
  if (principal === '*') return true;
  return isObject(principal) && strings(principal.AWS).includes('*');
}

function coversObjectAccess(action: unknown): boolean {
  const patterns = strings(action).map((a) => iamPattern(a, true));
  return OBJECT_ACTIONS.every((wanted) => patterns.some((p) => p.test(wanted)));
}

/** Whether a Resource pattern covers every object: tested on the bucket's object wildcard itself, in its partition. */
function coversEveryObject(resource: unknown, bucket: string): boolean {
  return strings(resource).some((r) => {
    const partition = /^arn:([^:]*):/.exec(r)?.[1] ?? 'aws';
    return iamPattern(r, false).test(`arn:${partition}:s3:::${bucket}/*`);
  });
}

/** A condition block with one operator testing one key: the three, or undefined for anything else. */
function soleTest(condition: unknown): { operator: string; key: string; values: string[] } | undefined {
  if (!isObject(condition)) return undefined;
  const entries = Object.entries(condition);
  if (entries.length !== 1) return undefined;
  const [operator, keys] = entries[0] as [string, unknown];
  if (!isObject(keys)) return undefined;
  const tested = Object.entries(keys);
  if (tested.length !== 1) return undefined;
  const [key, value] = tested[0] as [string, unknown];
  // Condition keys are case-insensitive; a value may come as a string, a boolean or number, or a list of one.
  return { operator, key: key.toLowerCase(), values: list(value).map((v) => String(v).toLowerCase()) };
}

function onlyInsecureTransport(condition: unknown): boolean {
  const test = soleTest(condition);
  if (!test || test.values.length !== 1) return false;
  if (SECURE_TRANSPORT_OPERATORS.has(test.operator))
    return test.key === 'aws:securetransport' && test.values[0] === 'false';
  if (TLS_VERSION_OPERATORS.has(test.operator))
    return test.key === 's3:tlsversion' && Number(test.values[0]) >= REQUIRED_TLS_VERSION;
  return false;
}

export function deniesInsecureTransport(rawPolicy: string | undefined, bucket: string): boolean {
  const document = parsePolicyDocument(rawPolicy ?? '');
  return list(document?.Statement)
    .filter(isObject)
    .some(
      (s) =>
        s.Effect === 'Deny' &&
        s.NotPrincipal === undefined &&
        s.NotAction === undefined &&
        s.NotResource === undefined &&
        everyone(s.Principal) &&
        coversObjectAccess(s.Action) &&
        coversEveryObject(s.Resource, bucket) &&
        onlyInsecureTransport(s.Condition),
    );
}
