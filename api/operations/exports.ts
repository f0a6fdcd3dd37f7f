import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { attachment } from '../../exports/storage';
import { PUBLIC } from '../openapi/registry';
import { csvExportQuery, panicExportInput, panicExportOutput } from '../../core/schemas/exports';
import { openSignalsCsv } from '../../core/exports/csv-export';
import { openExportDownload, requestPanicExport } from '../../core/exports/panic-export';
import { ACCOUNT } from './accounts';
import { endpoint, respond } from './operation';

// Checked by the storage (exports/storage.ts), not by zod: the signed link's parameters.
const downloadLinkQuery = z.object({
  expires: z.string().meta({ description: 'When the link stops working (Unix seconds)', pattern: '^[0-9]{1,12}$' }),
  signature: z.string().meta({ description: 'HMAC-SHA256 over the export id and the expiry' }),
});

/**
 * Streams a body with backpressure. Once the first byte is out the status cannot change, so a failure
 * mid-way is logged and the connection is cut: the client sees a truncated transfer, never a "complete" file.
 */
async function send(req: Request, res: Response, body: Readable): Promise<void> {
  try {
    await pipeline(body, res);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE')
      req.log.info('client closed the connection mid-download');
    else req.log.error({ err }, 'download failed mid-stream');
    res.destroy();
  }
}

export const exportOperations = [
  endpoint({
    operationId: 'downloadExport',
    method: 'get',
    path: '/exports/{export_id}/download',
    tag: 'Exports',
    access: PUBLIC,
    summary: 'Download a panic export package (signed link)',
    description: 'The link handed out by the panic export, valid 15 minutes; its signature is the proof.',
    query: downloadLinkQuery,
    rawInput: true,
    success: { status: 200, description: 'The zip package', media: 'application/zip' },
    errors: ['link_invalid', 'link_expired', 'not_found'],
    handler: async ({ deps, params, query, req }) => {
      const file = await openExportDownload(deps, {
        exportId: params.export_id,
        expires: query.expires,
        signature: query.signature,
        clientAddress: req.ip,
      });
      return respond((res) => {
        res.set({
          'Content-Type': 'application/zip',
          'Content-Length': String(file.size),
          'Content-Disposition': attachment(file.filename),
          'Cache-Control': 'no-store',
        });
        return send(req, res, file.stream);
      });
    },
  }),
  endpoint({
    operationId: 'exportSignalsCsv',
    method: 'get',
    path: `${ACCOUNT}/export`,
    tag: 'Exports',
    access: 'viewer',
    summary: 'Every signal of the account as CSV',
    description: 'RFC 4180, UTF-8, streamed. Plans team, agency and enterprise. No query parameters.',
    query: csvExportQuery,
    success: { status: 200, description: 'The CSV file (an attachment)', media: 'text/csv' },
    errors: ['not_found', 'plan_feature_unavailable'],
    handler: async ({ deps, caller, params, req }) => {
      const csv = await openSignalsCsv(deps, caller, params.account_id);
      return respond((res) => {
        res.set({
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': attachment(csv.filename),
          'Cache-Control': 'no-store',
        });
        return send(req, res, Readable.from(csv.chunks, { objectMode: false }));
      });
    },
  }),
  endpoint({
    operationId: 'panicExport',
    method: 'post',
    path: `${ACCOUNT}/panic`,
    tag: 'Exports',
    access: 'member',
    summary: 'Build an emergency export package and get a download link',
    description:
      'No body (an empty object is accepted). The link is valid 15 minutes. At most 10 per account and hour.',
    body: panicExportInput,
    bodyOptional: true,
    success: { status: 200, description: 'The package is stored', schema: panicExportOutput },
    errors: ['not_found', 'rate_limited', 'temporal_unavailable', 'export_failed'],
    handler: ({ deps, caller, params }) => requestPanicExport(deps, caller, params.account_id),
  }),
];
