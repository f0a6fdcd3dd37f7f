import { AppError } from './errors';

// The keyset of an events page: the last event's time and id (AWS's event id, not ours), base64url-encoded JSON.
// Opaque to clients; a token that does not decode to that shape is a 400.

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EVENT_ID = /^[\x21-\x7e]{1,128}$/;

export function encodeEventCursor(key: { at: string; id: string }): string {
  return Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url');
}

export function decodeEventCursor(token: string): { at: string; id: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [at, id] = parsed as unknown[];
      if (typeof at === 'string' && ISO_UTC.test(at) && !Number.isNaN(Date.parse(at)) && typeof id === 'string' && EVENT_ID.test(id)) {
        return { at, id };
      }
    }
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('invalid_cursor', 'next_token is not a valid cursor: pass the value from the previous response');
}
