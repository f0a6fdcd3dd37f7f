import { AppError } from './errors';

// Keyset cursors: the sort key of the last row of a page, base64url-encoded JSON. Opaque to clients; a
// cursor that does not decode to the expected shape is a 400, never a 500.

export interface Keyset {
  at: string; // ISO timestamp of the last row
  id: string; // its id, the tie-breaker
}

export function encodeCursor(key: Keyset): string {
  return Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url');
}

export function decodeCursor(token: string): Keyset {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [at, id] = parsed as unknown[];
      if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at)) && id.length <= 64) return { at, id };
    }
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('invalid_cursor', 'next_token is not a valid cursor: pass the value from the previous response');
}
