import { parsePolicyDocument } from '../trust-policy';

// Whether a bucket policy makes S3 refuse requests without TLS: a Deny statement that
// - applies to everyone (Principal `*` or `{"AWS": "*"}`),
// - covers reading and writing objects (its Action patterns match s3:GetObject and s3:PutObject: `*`, `s3:*`,
//   `s3:Get*` with `s3:Put*`, ...),
// - on every object of the bucket (a Resource pattern that matches `arn:aws:s3:::<bucket>/*`),
// - under the sole condition aws:SecureTransport false (Bool or BoolIfExists). A further condition (a VPC
//   endpoint, an IP range) narrows the denial to some requests: such a statement does not count.
// Statements with NotPrincipal, NotAction or NotResource are not weighed: they deny less than they seem to.

type Json = Record<string, unknown>;

const OBJECT_ACTIONS = ['s3:GetObject', 's3:PutObject'];
const SECURE_TRANSPORT_OPERATORS = new Set(['Bool', 'BoolIfExists']);

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An IAM pattern (`*` and `?` wildcards) as a regular expression; `caseless` for actions, which IAM matches so. */
function pattern(glob: string, caseless: boolean): RegExp {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, caseless ? 'i' : '');
}

function everyone(principal: unknown): boolean {
  if (principal === '*') return true;
  return isObject(principal) && strings(principal.AWS).includes('*');
}

function coversObjectAccess(action: unknown): boolean {
  const patterns = strings(action).map((a) => pattern(a, true));
  return OBJECT_ACTIONS.every((wanted) => patterns.some((p) => p.test(wanted)));
}

/** Whether a Resource pattern covers every object: tested on the bucket's object wildcard itself, in its partition. */
function coversEveryObject(resource: unknown, bucket: string): boolean {
  return strings(resource).some((r) => {
    const partition = /^arn:([^:]*):/.exec(r)?.[1] ?? 'aws';
    return pattern(r, false).test(`arn:${partition}:s3:::${bucket}/*`);
  });
}

function onlyInsecureTransport(condition: unknown): boolean {
  if (!isObject(condition)) return false;
  const entries = Object.entries(condition);
  if (entries.length !== 1) return false;
  const [operator, keys] = entries[0] as [string, unknown];
  if (!SECURE_TRANSPORT_OPERATORS.has(operator) || !isObject(keys)) return false;
  const tested = Object.entries(keys);
  if (tested.length !== 1) return false;
  const [key, value] = tested[0] as [string, unknown];
  // Condition keys are case-insensitive; a Bool value may come as a string, a boolean, or a list of one.
  const values = list(value).map((v) => String(v).toLowerCase());
  return key.toLowerCase() === 'aws:securetransport' && values.length === 1 && values[0] === 'false';
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
