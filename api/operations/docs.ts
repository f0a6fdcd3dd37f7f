import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { PUBLIC } from '../openapi/registry';
import { endpoint, respond } from './operation';

// Swagger UI from the pinned swagger-ui-dist package, served by us: the page works offline and its CSP allows
// nothing but this origin (plus the data: URIs of the stylesheet's icons).
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);

const CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Sentinel API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// Inline scripts are refused by the CSP, so the configuration is a script of its own.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const pageHeaders = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

const openApiDocument = z.looseObject({ openapi: z.literal('3.1.0') }).meta({ description: 'This document' });

/** The documentation's operations, given the document to serve (the list of operations includes these). */
export const docsOperations = (documentJson: () => string) => [
  endpoint({
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: '/openapi.json',
    tag: 'Documentation',
    access: PUBLIC,
    database: false,
    summary: 'This document (OpenAPI 3.1)',
    success: { status: 200, description: 'The document', schema: openApiDocument },
    errors: [],
    handler: () =>
      respond((res) => {
        res
          .set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' })
          .type('application/json')
          .send(documentJson());
      }),
  }),
  endpoint({
    operationId: 'getApiDocs',
    method: 'get',
    path: '/docs',
    tag: 'Documentation',
    access: PUBLIC,
    database: false,
    summary: 'Interactive documentation of this document',
    success: {
      status: 200,
      description: 'An HTML page (its scripts and styles are served under /docs/)',
      media: 'text/html',
    },
    errors: [],
    handler: () => respond((res) => res.set(pageHeaders).type('html').send(PAGE)),
  }),
];

/** The pinned assets under /docs/ (middleware, not operations: they are files, not part of the API). */
export function docsAssets(req: Request, res: Response, next: NextFunction): void {
  const name = req.path.slice(1);
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  if (name === 'init.js') {
    res.set(pageHeaders).type('text/javascript').send(INIT);
    return;
  }
  if (!ASSETS.has(name)) return next();
  res.sendFile(
    path.join(SWAGGER_UI_DIR, name),
    { headers: { 'X-Content-Type-Options': 'nosniff' }, maxAge: '1h' },
    (err) => {
      if (err) next(err);
    },
  );
}
