import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../../core/errors';
import { JSON_MAX_DEPTH, nestsDeeperThan, parseJsonWithin } from '../../domain/json-budget';
import { requestBodies } from '../../observability/metrics';

// Every JSON the API reads from a client goes through here, within one budget, before it is parsed into objects:
// at most 100 kB (the raw bodies of the event ingestion and the Stripe webhook 1 MB: EventBridge batches and Stripe
// events are larger) and nested at most JSON_MAX_DEPTH deep (domain/json-budget.ts), checked on the bytes as read.
// Past either, a 400 naming the limit (body_too_large, body_too_deep) and nothing parsed.

const BODY_LIMIT = '100kb';
const RAW_BODY_LIMIT = '1mb';

/** Thrown by the parsers' `verify` hook: body-parser carries its `type` to the error it hands on. */
class TooDeep extends Error {
  readonly type = 'entity.too.deep';
}

/** The bytes as read (after any Content-Encoding is undone): refused before parsing when they nest too deep. */
function withinDepth(_req: Request, _res: Response, bytes: Buffer, encoding: string | null): void {
  // JSON between systems is UTF-8 (RFC 8259): the scan reads its bytes as they are.
  if (encoding !== null && encoding !== 'utf-8')
    throw new AppError('unsupported_content_type', 'Request body must be UTF-8 JSON');
  if (nestsDeeperThan(bytes)) throw new TooDeep();
}

const jsonParser = express.json({ limit: BODY_LIMIT, strict: true, type: () => true, verify: withinDepth });
const rawParser = express.raw({ type: 'application/json', limit: RAW_BODY_LIMIT, verify: withinDepth });

const tooDeep = () =>
  new AppError('body_too_deep', `Request body nests arrays and objects more than ${JSON_MAX_DEPTH} deep`);

/**
 * What a parser's error means for the client: the error to answer, and the outcome it is counted under. Only an
 * error of the server's own (none of the sender's doing) is handed on as it is.
 */
function bodyError(err: unknown, limit: string): { error: unknown; outcome: 'too_large' | 'too_deep' | 'invalid' } {
  const { type, status = 500 } = err as { type?: string; status?: number };
  if (type === 'entity.too.large')
    return { error: new AppError('body_too_large', `Request body exceeds ${limit}`), outcome: 'too_large' };
  if (type === 'entity.too.deep') return { error: tooDeep(), outcome: 'too_deep' };
  if (err instanceof AppError) return { error: err, outcome: 'invalid' };
  if (type === 'entity.parse.failed')
    return { error: new AppError('invalid_json', 'Request body is not valid JSON'), outcome: 'invalid' };
  if (type === 'charset.unsupported' || type === 'encoding.unsupported')
    return { error: new AppError('unsupported_content_type', 'Request body must be UTF-8 JSON'), outcome: 'invalid' };
  // Anything else the client caused (an aborted request, a corrupt gzip stream, a length that does not match
  // Content-Length) is a 4xx too.
  if (status < 500)
    return { error: new AppError('invalid_json', 'Request body could not be read in full'), outcome: 'invalid' };
  return { error: err, outcome: 'invalid' };
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * JSON bodies only, for every REST operation after the parser and for /trpc. A body with another Content-Type,
 * malformed JSON, more than 100 kB or nested too deep is a clear 400 (codes unsupported_content_type, invalid_json,
 * body_too_large, body_too_deep) before any handler runs.
 */
export function jsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!hasBody(req)) {
    req.body = undefined;
    return next();
  }
  if (!req.is('application/json')) {
    return next(new AppError('unsupported_content_type', 'Request body must be JSON (Content-Type: application/json)'));
  }
  jsonParser(req, res, (err?: unknown) => {
    if (!err) {
      requestBodies.inc({ reader: 'json', outcome: 'read' });
      return next();
    }
    const { error, outcome } = bodyError(err, BODY_LIMIT);
    requestBodies.inc({ reader: 'json', outcome });
    next(error);
  });
}

/**
 * Reads the exact bytes sent, within the raw budget (1 MB, JSON_MAX_DEPTH deep), into `req.body` as a Buffer and
 * answers them: a signature covers them, not a re-serialised object. A body too large, too deep, in another charset
 * or cut short is a 400, as with the JSON parser. A body of another Content-Type is not read: an empty Buffer.
 */
export function readRawJsonBody(req: Request): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Express gives every request its response; the parser only hands it on to `verify`.
    rawParser(req, req.res!, (err?: unknown) => {
      if (err) {
        const { error, outcome } = bodyError(err, RAW_BODY_LIMIT);
        requestBodies.inc({ reader: 'raw', outcome });
        return reject(error);
      }
      if (!Buffer.isBuffer(req.body)) return resolve(Buffer.alloc(0));
      requestBodies.inc({ reader: 'raw', outcome: 'read' });
      resolve(req.body);
    });
  });
}

/** JSON text from a client that is not a request body (tRPC's `input` query parameter), within the same depth budget. */
export function parseJsonText(text: string, what: string): unknown {
  const parsed = parseJsonWithin(text);
  if (parsed.ok) return parsed.value;
  if (parsed.problem === 'too_deep') throw tooDeep();
  throw new AppError('invalid_json', `${what} is not valid JSON`);
}
