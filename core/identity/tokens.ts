import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '../../config/config';
import { sha256 } from '../../security/crypto';

// Tokens are HS256 JWTs. The id_token is the bearer credential (SPEC section 5); the access_token is
// issued for parity with the spec and is refused as a bearer by checking `token_use`.

const AUDIENCE = 'sentinel-api';

export interface IdTokenClaims {
  sub: string;
  tid: string;
  email: string;
  name: string;
  token_use: 'id';
  /** The session (one sign-in and its refreshes) the token belongs to: checked on every request. */
  sid: string;
  /** Issued at (seconds). */
  iat: number;
  /** Issued at, in milliseconds: a session ended by a password reset is told apart within its second. */
  iat_ms?: number;
}

export function signTokens(
  { auth }: Pick<Config, 'auth'>,
  user: { id: string; tenant_id: string; email: string; name: string },
  sessionId: string,
) {
  const base = {
    subject: user.id,
    issuer: auth.issuer,
    audience: AUDIENCE,
    expiresIn: auth.idTokenTtlSeconds,
    algorithm: 'HS256',
  } as const;
  return {
    id_token: jwt.sign(
      { tid: user.tenant_id, email: user.email, name: user.name, token_use: 'id', sid: sessionId, iat_ms: Date.now() },
      auth.jwtSecret,
      base,
    ),
    access_token: jwt.sign(
      { tid: user.tenant_id, scope: 'sentinel', token_use: 'access', sid: sessionId },
      auth.jwtSecret,
      base,
    ),
    expires_in: auth.idTokenTtlSeconds,
    token_type: 'Bearer' as const,
  };
}

// Every authenticated request verifies a token. Given a string, jsonwebtoken first tries to parse it as a PEM public key
// and falls back to a secret key only after that throws: about 30% of the API's CPU on authenticated reads. So one
// KeyObject per configuration.
const verificationKeys = new WeakMap<Config['auth'], KeyObject>();

function verificationKey(auth: Config['auth']): KeyObject {
  let key = verificationKeys.get(auth);
  if (!key) {
    key = createSecretKey(Buffer.from(auth.jwtSecret));
    verificationKeys.set(auth, key);
  }
  return key;
}

// A client sends the same id_token with every request for its hour. Its signature and claims are checked once per
// configuration; after that only its expiry is (a token is immutable: the same string verifies the same way until it
// expires). Only valid tokens are kept, at most VERIFIED_MAX per configuration, the oldest forgotten first.
const VERIFIED_MAX = 20_000;
const verifiedTokens = new WeakMap<Config['auth'], Map<string, { claims: IdTokenClaims; expiresAtMs: number }>>();

/**
 * Returns the claims of a valid id_token, or null for anything else (expired, tampered, alg none, access token, one
 * issued before sessions existed, without `sid`). Whether its session still goes on is the caller's to check.
 */
export function verifyIdToken({ auth }: Pick<Config, 'auth'>, token: string): IdTokenClaims | null {
  let verified = verifiedTokens.get(auth);
  if (!verified) {
    verified = new Map();
    verifiedTokens.set(auth, verified);
  }
  const known = verified.get(token);
  if (known) {
    if (known.expiresAtMs > Date.now()) return known.claims;
    verified.delete(token);
    return null;
  }
  const claims = checkIdToken(auth, token);
  if (claims && typeof claims.exp === 'number') {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, { claims, expiresAtMs: claims.exp * 1000 });
  }
  return claims;
}

function checkIdToken(auth: Config['auth'], token: string): (IdTokenClaims & { exp?: number }) | null {
  try {
    const claims = jwt.verify(token, verificationKey(auth), {
      algorithms: ['HS256'],
      issuer: auth.issuer,
      audience: AUDIENCE,
    });
    if (
      typeof claims !== 'object' ||
      claims.token_use !== 'id' ||
      typeof claims.sub !== 'string' ||
      typeof claims.tid !== 'string' ||
      typeof claims.sid !== 'string' ||
      typeof claims.iat !== 'number'
    ) {
      return null;
    }
    return claims as unknown as IdTokenClaims & { exp?: number };
  } catch {
    return null;
  }
}

/** Refresh tokens are opaque: `<row id>.<secret>`. Only a SHA-256 of the secret is stored. */
export function newRefreshSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: sha256(secret) };
}
