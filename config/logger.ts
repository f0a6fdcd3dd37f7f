import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

// Anything that can carry a credential is redacted wherever it appears in a log line.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.password_hash',
  '*.access_token',
  '*.id_token',
  '*.refresh_token',
  '*.token',
  '*.secret',
  '*.external_id',
  '*.credentials',
];

/** `destination` defaults to stdout; tests pass a stream to read what would be logged. */
export function createLogger({
  level,
  name,
  destination,
}: {
  level: string;
  name: string;
  destination?: DestinationStream;
}): Logger {
  return pino({ name, level, redact: { paths: REDACT, censor: '[redacted]' } }, destination);
}
