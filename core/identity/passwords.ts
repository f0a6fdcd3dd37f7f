import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { passwordHashes } from '../../observability/metrics';

// scrypt is memory-hard and ships with Node. N=2^15, r=8 costs 32 MiB and tens of milliseconds a hash: the one
// piece of work a request can make expensive, so every run is counted (`sentinel_password_hashes_total`) and every
// public endpoint refuses what it can before it asks for one.
const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, keylen: number, opts: object) => Promise<Buffer>;
const PARAMS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  passwordHashes.inc({ use: 'set' });
  const key = await scryptAsync(password, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const opts = { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem };
  passwordHashes.inc({ use: 'check' });
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, opts);
  return timingSafeEqual(actual, expected);
}

// Hashed when the e-mail is unknown, so a wrong e-mail costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummyHash);
}
