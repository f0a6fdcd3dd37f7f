// Finds secrets written into configuration: environment variables, user data, task definitions, stack outputs,
// build variables, job arguments, state machine definitions, code packages. It answers what kind of secret and
// where (a variable's name, a line), never the secret itself: a finding is stored and shown, the value must not be.
//
// Three kinds of evidence, in the order they are tried on each piece of text:
// 1. Formats with a fixed shape that only a credential has (PATTERNS: an AWS access key id, a PEM private key,
//    GitHub, Slack, Stripe, Google, OpenAI, Anthropic, npm, PyPI, SendGrid, Twilio and GitLab tokens, a URL with a
//    password, a JSON Web Token). These are near-certain.
// 2. A value assigned to a name that says it is a secret (SECRET_NAME: password, secret, token, api_key,
//    private_key, credentials...), unless the value is a reference to where the secret is kept (an ARN of Secrets
//    Manager or SSM, a CloudFormation dynamic reference, a ${...} placeholder) or too short or plain to be one.
// 3. A long, random-looking string (Shannon entropy at or above ENTROPY_LIMITS for its alphabet, as the
//    detect-secrets project's high-entropy plugins weigh them) assigned to any name, except what is random but no
//    secret: ARNs, UUIDs, digests named as such (sha256:..., a *_HASH or *_DIGEST name).

export type SecretKind =
  | 'aws_access_key_id'
  | 'aws_secret_access_key'
  | 'private_key'
  | 'github_token'
  | 'gitlab_token'
  | 'slack_token'
  | 'slack_webhook'
  | 'stripe_key'
  | 'google_api_key'
  | 'openai_key'
  | 'anthropic_key'
  | 'npm_token'
  | 'pypi_token'
  | 'sendgrid_key'
  | 'twilio_key'
  | 'json_web_token'
  | 'password_in_url'
  | 'named_secret'
  | 'high_entropy_string';

/** What each kind is, for a finding's detail. */
export const SECRET_KINDS: Readonly<Record<SecretKind, string>> = {
  aws_access_key_id: 'an AWS access key id',
  aws_secret_access_key: 'an AWS secret access key',
  private_key: 'a private key',
  github_token: 'a GitHub token',
  gitlab_token: 'a GitLab token',
  slack_token: 'a Slack token',
  slack_webhook: 'a Slack incoming webhook URL',
  stripe_key: 'a Stripe secret key',
  google_api_key: 'a Google API key',
  openai_key: 'an OpenAI API key',
  anthropic_key: 'an Anthropic API key',
  npm_token: 'an npm access token',
  pypi_token: 'a PyPI token',
  sendgrid_key: 'a SendGrid API key',
  twilio_key: 'a Twilio API key',
  json_web_token: 'a JSON Web Token',
  password_in_url: 'a URL with a password in it',
  named_secret: 'a value assigned to a secret-named setting',
  high_entropy_string: 'a long random string (a likely key or token)',
};

const PATTERNS: readonly { kind: SecretKind; pattern: RegExp }[] = [
  { kind: 'aws_access_key_id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/ },
  {
    kind: 'aws_secret_access_key',
    pattern: /aws.{0,20}?secret.{0,20}?['"\s:=]+[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/i,
  },
  { kind: 'private_key', pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'github_token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b/ },
  { kind: 'gitlab_token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/ },
  { kind: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/ },
  { kind: 'slack_webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{16,}/ },
  { kind: 'stripe_key', pattern: /\b[rs]k_live_[A-Za-z0-9]{20,}\b/ },
  { kind: 'google_api_key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'anthropic_key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  {
    kind: 'openai_key',
    pattern: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-proj-[A-Za-z0-9_-]{40,}/,
  },
  { kind: 'npm_token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  { kind: 'pypi_token', pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/ },
  { kind: 'sendgrid_key', pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/ },
  { kind: 'twilio_key', pattern: /\bSK[0-9a-f]{32}\b/ },
  { kind: 'json_web_token', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
  { kind: 'password_in_url', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"]+:[^\s:/@'"]{3,}@[^\s'"]+/i },
];

/** Names that say their value is a secret (matched anywhere in the name, without regard to case). */
const SECRET_NAME =
  /pass(?:word|wd|phrase)?(?![a-z])|pwd|secret|token|api[_-]?key|apikey|private[_-]?key|credential|auth[_-]?key|access[_-]?key|client[_-]?secret|signing[_-]?key|encryption[_-]?key/i;
/** Names whose values are random by nature but no secret. */
const NOT_SECRET_NAME =
  /hash|digest|checksum|sha\d*|md5|etag|(?:key|token|secret)[_-]?(?:id|arn|name|path|file|url|length|ttl|type)(?![a-z])|_arn$|_url$|_id$|_name$/i;
/** Values that point to where a secret is kept rather than being it. */
const REFERENCE =
  /^(?:arn:aws[a-z-]*:(?:secretsmanager|ssm|kms):|\{\{resolve:|\$\{|\$\(|%\{|<.*>$|\{\{.*\}\}$|\/aws\/reference\/|ssm:|secretsmanager:)/i;
/** A file or parameter path (an SSM parameter's name): where a secret is, not the secret. */
const PATH = /^\/[\w./-]+$/;
/** A placeholder or a plain setting: too regular to be a secret. */
const PLAIN =
  /^(?:true|false|yes|no|on|off|null|none|nil|undefined|changeme|change_me|password|secret|example|test|\*+|x+)$/i;

const ARN = /^arn:aws[a-z-]*:/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIGEST_PREFIX = /(?:sha\d+|md5)[:=]$/i;

/** detect-secrets' defaults: base64 strings at 4.5 bits a character, hexadecimal ones at 3.0. */
const ENTROPY_LIMITS = { base64: 4.5, hex: 3.0 } as const;
const MIN_RANDOM_LENGTH = { base64: 20, hex: 32 } as const;
const BASE64_RUN = /[A-Za-z0-9+/=_-]{20,}/g;

/** Bits of information per character of a string (Shannon entropy over its own characters). */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function looksRandom(value: string, before = ''): boolean {
  if (ARN.test(value) || UUID.test(value) || DIGEST_PREFIX.test(before)) return false;
  const hex = /^[0-9a-fA-F]+$/.test(value);
  const alphabet = hex ? 'hex' : 'base64';
  if (value.length < MIN_RANDOM_LENGTH[alphabet]) return false;
  // Words joined together (paths, identifiers in camel case) have letters only; a key mixes in digits.
  if (!hex && !/\d/.test(value)) return false;
  return entropy(value) >= ENTROPY_LIMITS[alphabet];
}

/** The fixed-shape secrets in a piece of text, each kind once. */
function patternKinds(text: string): SecretKind[] {
  return PATTERNS.filter(({ pattern }) => pattern.test(text)).map(({ kind }) => kind);
}

/** The random-looking runs of a text, past the ones that are no secret. */
function hasRandomRun(text: string): boolean {
  for (const match of text.matchAll(BASE64_RUN)) {
    const start = match.index ?? 0;
    if (looksRandom(match[0], text.slice(Math.max(0, start - 8), start))) return true;
  }
  return false;
}

/** A secret found in a named setting (an environment variable, a job argument, a stack output). */
export interface NamedSecret {
  name: string;
  kind: SecretKind;
}

/**
 * The secrets in a set of named values: an environment, arguments, outputs. A name that says it holds a secret
 * counts when its value is neither a reference nor a placeholder; any value is searched for fixed-shape secrets and,
 * unless its name says it is random by nature, for random strings.
 */
export function findInSettings(settings: Iterable<[string, string]>): NamedSecret[] {
  const found: NamedSecret[] = [];
  for (const [name, raw] of settings) {
    const value = raw.trim();
    if (!value || REFERENCE.test(value) || PATH.test(value)) continue;
    const kinds = patternKinds(value);
    if (kinds.length > 0) {
      for (const kind of kinds) found.push({ name, kind });
      continue;
    }
    if (NOT_SECRET_NAME.test(name)) continue;
    if (SECRET_NAME.test(name) && value.length >= 8 && !PLAIN.test(value) && !/\s/.test(value))
      found.push({ name, kind: 'named_secret' });
    else if (hasRandomRun(value)) found.push({ name, kind: 'high_entropy_string' });
  }
  return found;
}

/** A secret found in a text (user data, a definition, a file): its kind and the line (1-based). */
export interface TextSecret {
  line: number;
  kind: SecretKind;
}

/** `NAME=value`, `NAME: value`, `"NAME": "value"`, `--NAME value` on one line. */
const ASSIGNMENT =
  /^\s*(?:export\s+|set\s+|-{1,2})?["']?([A-Za-z_][A-Za-z0-9_.-]*)["']?\s*(?:[:=]|\s)\s*["']?([^"'\s,;]+)/;

/**
 * The secrets in a text, line by line: fixed-shape secrets anywhere; on lines that assign a value to a name, the
 * same tests as a named setting. A private key spanning lines is found on its BEGIN line. At most `limit` findings
 * (a file full of keys needs only a few named to be acted on).
 */
export function findInText(text: string, limit = 20): TextSecret[] {
  const found: TextSecret[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && found.length < limit; i++) {
    const line = lines[i] as string;
    if (line.length > 10_000) continue; // minified or binary: nothing a line-based reading can judge
    const kinds = patternKinds(line);
    if (kinds.length > 0) {
      for (const kind of kinds) found.push({ line: i + 1, kind });
      continue;
    }
    const assignment = ASSIGNMENT.exec(line);
    if (assignment) {
      for (const { kind } of findInSettings([[assignment[1] as string, assignment[2] as string]]))
        found.push({ line: i + 1, kind });
    }
  }
  return found.slice(0, limit);
}

/** A short description of what was found, for a finding's detail: kinds and where, never a value. */
export function describeSecrets(where: string, found: readonly (NamedSecret | TextSecret)[]): string {
  const places = found.map((f) =>
    'name' in f ? `${SECRET_KINDS[f.kind]} in ${f.name}` : `${SECRET_KINDS[f.kind]} on line ${f.line}`,
  );
  return `${where} holds ${places.join('; ')}.`;
}
