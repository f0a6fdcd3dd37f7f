import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Request, type Response, Router } from 'express';
import { attachment } from '../../exports/storage';
import { type AppDeps, forRequest } from '../context';
import { callerOf, requireAuth, requireRole } from '../middleware/auth';
import { csvExportQuery, panicExportInput } from '../schemas/exports';
import { openSignalsCsv } from '../services/csv-export';
import { openExportDownload, requestPanicExport } from '../services/panic-export';
import { parseInput } from '../validation';

export function exportsRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);

  router.get('/accounts/:accountId/export', auth, async (req, res) => {
    parseInput(csvExportQuery, req.query, 'query');
    const csv = await openSignalsCsv(forRequest(deps, req), callerOf(req), String(req.params.accountId));
    res.set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': attachment(csv.filename),
      'Cache-Control': 'no-store',
    });
    await send(req, res, Readable.from(csv.chunks, { objectMode: false }));
  });

  router.post('/accounts/:accountId/panic', auth, requireRole('member'), async (req, res) => {
    parseInput(panicExportInput, req.body);
    res.json(await requestPanicExport(forRequest(deps, req), callerOf(req), String(req.params.accountId)));
  });

  // Public: the signed query string is the proof of access (links are handed out by the panic export).
  router.get('/exports/:exportId/download', async (req, res) => {
    const file = await openExportDownload(forRequest(deps, req), {
      exportId: String(req.params.exportId), expires: req.query.expires, signature: req.query.signature,
    });
    res.set({
      'Content-Type': 'application/zip',
      'Content-Length': String(file.size),
      'Content-Disposition': attachment(file.filename),
      'Cache-Control': 'no-store',
    });
    await send(req, res, file.stream);
  });

  return router;
}

/**
 * Streams a body with backpressure. Once the first byte is out the status cannot change, so a failure
 * mid-way is logged and the connection is cut: the client sees a truncated transfer, never a "complete" file.
 */
async function send(req: Request, res: Response, body: Readable): Promise<void> {
  try {
    await pipeline(body, res);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') req.log.info('client closed the connection mid-download');
    else req.log.error({ err }, 'download failed mid-stream');
    res.destroy();
  }
}
