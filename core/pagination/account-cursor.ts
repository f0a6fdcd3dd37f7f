import { AppError } from '../errors';

// Keyset cursors of GET /accounts, one shape per order, each opaque to clients (base64url JSON like ./cursor.ts):
// `connected` carries the last account's created_at to the microsecond (PostgreSQL's precision: a millisecond
// cursor would repeat or skip accounts connected within the same millisecond) and its id; `srs` carries its score
// (null: unscored, which sort last) and its AWS account id. A cursor of the other order is malformed (400).

export type AccountKeyset =
  | { sort: 'connected'; createdAt: string; id: string }
  | { sort: 'srs'; srs: number | null; awsAccountId: string };

const MICRO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ACCOUNT_ID = /^acc_[0-9A-Za-z_]{1,40}$/;
const AWS_ACCOUNT_ID = /^[0-9]{12}$/;

export function encodeAccountCursor(key: AccountKeyset): string {
  const parts = key.sort === 'connected' ? ['connected', key.createdAt, key.id] : ['srs', key.srs, key.awsAccountId];
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

function parse(token: string, sort: AccountKeyset['sort']): AccountKeyset | undefined {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 3 || parts[0] !== sort) return undefined;
  const [, first, second] = parts as unknown[];
  if (sort === 'connected') {
    const valid =
      typeof first === 'string' &&
      MICRO_UTC.test(first) &&
      !Number.isNaN(Date.parse(first)) &&
      typeof second === 'string' &&
      ACCOUNT_ID.test(second);
    return valid ? { sort, createdAt: first, id: second } : undefined;
  }
  const score = first === null || (Number.isInteger(first) && (first as number) >= 0 && (first as number) <= 100);
  return score && typeof second === 'string' && AWS_ACCOUNT_ID.test(second)
    ? { sort, srs: first as number | null, awsAccountId: second }
    : undefined;
}

/** The keyset to read after, from a request's optional next_token, for the page's order. */
export function afterAccountCursor(token: string | undefined, sort: AccountKeyset['sort']): AccountKeyset | undefined {
  if (!token) return undefined;
  const key = parse(token, sort);
  if (!key)
    throw new AppError(
      'invalid_cursor',
      'next_token is not a valid cursor for this sort: pass the value from the previous response',
    );
  return key;
}
