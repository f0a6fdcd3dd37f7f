// Opaque, prefixed, time-sortable ids (ULID layout: 48-bit millisecond time + 80 random bits, Crockford
// base32). Sorting ids sorts by creation time, which keyset cursors rely on as a tie-breaker.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const ID_PREFIXES = {
  tenant: 'ten',
  user: 'usr',
  refreshToken: 'rtk',
  session: 'ses',
  invitation: 'inv',
  passwordReset: 'pwr',
  emailVerification: 'evf',
  auditEvent: 'aud',
  account: 'acc',
  scan: 'scan',
  signal: 'sig',
  acceptance: 'acpt',
  rule: 'rule',
  alert: 'alrt',
  delivery: 'dlv',
  attempt: 'att',
  email: 'eml',
  export: 'exp',
  slack: 'slk',
  organization: 'org',
  eventBatch: 'evb',
  trustedPrincipal: 'trp',
  detection: 'det',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits -> 16 base32 characters, 5 bits at a time.
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

/** `random` (10 bytes) lets workflow code supply its deterministic randomness; elsewhere crypto provides it. */
export function newId(kind: IdKind, now: number = Date.now(), random?: Uint8Array): string {
  if (!random) {
    // A fresh ArrayBuffer-backed array: the DOM typing of getRandomValues (the dashboard's type-check
    // follows the router's types here) refuses one that could be shared memory.
    const bytes = new Uint8Array(10);
    globalThis.crypto.getRandomValues(bytes);
    random = bytes;
  }
  return `${ID_PREFIXES[kind]}_${encodeTime(now)}${encodeRandom(random)}`;
}
