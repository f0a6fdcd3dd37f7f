import { AppError } from '../errors';

// Keyset cursors: the sort key of the last row of a page, base64url-encoded JSON. Opaque to clients; a
// cursor that does not decode to the expected shape is a 400, never a 500.

export interface Keyset {
  at: string; // ISO timestamp of the last row
  id: string; // its id, the tie-breaker
}

// What encodeCursor writes: toISOString() output and one of our ids. Anything else was not made by us.
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[a-z]+_[0-9A-Za-z_]{1,40}$/;

export function encodeCursor(key: Keyset): string {
  return Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url');
}

/** `id`: what the ids of the paged rows look like (ours unless told: AWS's event ids are another shape). */
export function decodeCursor(token: string, { id: idPattern = ID }: { id?: RegExp } = {}): Keyset {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [at, id] = parsed as unknown[];
      if (
        typeof at === 'string' &&
        ISO_UTC.test(at) &&
        !Number.isNaN(Date.parse(at)) &&
        typeof id === 'string' &&
        idPattern.test(id)
      ) {
        return { at, id };
      }
    }
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('invalid_cursor', 'next_token is not a valid cursor: pass the value from the previous response');
}

/** The keyset to read after, from a request's optional next_token. */
export function afterCursor(token: string | undefined): { at: Date; id: string } | undefined {
  if (!token) return undefined;
  const { at, id } = decodeCursor(token);
  return { at: new Date(at), id };
}

/**
 * Splits rows read with `limit + 1` (one more than the page tells whether another page exists, without a
 * count query) into the page and the cursor of the next one (null on the last page).
 */
export function keysetPage<T extends { id: string }>(
  rows: T[],
  limit: number,
  at: (row: T) => Date,
): { page: T[]; nextToken: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    page,
    nextToken: rows.length > limit && last ? encodeCursor({ at: at(last).toISOString(), id: last.id }) : null,
  };
}
