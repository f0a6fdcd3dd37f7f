import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Small, dependency-free primitives for secrets at rest and signed links. Keys come from configuration
// (config.secrets) and are never stored beside what they protect.

const VERSION = 'v1';

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64url). Tampering makes decryptSecret throw. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** HMAC-SHA256 of `message`, base64url. */
export function sign(key: Buffer, message: string): string {
  return createHmac('sha256', key).update(message).digest('base64url');
}

/** Constant-time check of a signature made by `sign`. */
export function verifySignature(key: Buffer, message: string, signature: string): boolean {
  const expected = Buffer.from(sign(key, message));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** SHA-256, hex: how one-time tokens (and addresses in rate-limit keys) are stored. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
