import pino, { type Logger } from 'pino';

export type { Logger };

// Anything that can carry a credential is redacted wherever it appears in a log line.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
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

export function createLogger({ level, name }: { level: string; name: string }): Logger {
  return pino({ name, level, redact: { paths: REDACT, censor: '[redacted]' } });
}
