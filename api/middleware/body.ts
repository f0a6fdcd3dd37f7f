import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../../core/errors';

const BODY_LIMIT = '100kb';
const jsonParser = express.json({ limit: BODY_LIMIT, strict: true, type: () => true });

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * JSON bodies only. A body with another Content-Type, malformed JSON or more than 100 kB is a clear 400
 * (codes unsupported_content_type, invalid_json, body_too_large) before any handler runs.
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
    if (!err) return next();
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') return next(new AppError('body_too_large', `Request body exceeds ${BODY_LIMIT}`));
    if (type === 'entity.parse.failed') return next(new AppError('invalid_json', 'Request body is not valid JSON'));
    if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
      return next(new AppError('unsupported_content_type', 'Request body must be UTF-8 JSON'));
    }
    // Anything else the client caused (an aborted request, a corrupt gzip stream, a length mismatch) is a 4xx too.
    const status = (err as { status?: number }).status;
    if (status !== undefined && status >= 400 && status < 500)
      return next(new AppError('invalid_json', 'Request body could not be read'));
    next(err);
  });
}

const RAW_BODY_LIMIT = '1mb';
const rawParser = express.raw({ type: 'application/json', limit: RAW_BODY_LIMIT });

/**
 * Reads the exact bytes sent into `req.body`, as a Buffer: a signature covers them, not a re-serialised object.
 * A body too large, in another charset or cut short is a 400, as with the JSON parser.
 */
export function readRawJsonBody(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    rawParser(req, res, (err?: unknown) => {
      if (!err) return resolve();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large')
        return reject(new AppError('body_too_large', `Request body exceeds ${RAW_BODY_LIMIT}`));
      if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
        return reject(new AppError('unsupported_content_type', 'Request body must be UTF-8 JSON'));
      }
      // Other 4xx are bodies that could not be read in full (an aborted request, a length that does not match
      // Content-Length, a corrupt gzip stream): the sender's doing, not a server error.
      const status = (err as { status?: number }).status ?? 500;
      if (status < 500) return reject(new AppError('invalid_json', 'The request body could not be read in full'));
      reject(err);
    });
  });
}
