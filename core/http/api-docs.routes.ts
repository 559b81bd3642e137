import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import type { Container } from '../container.js';
import { NotFoundError } from '../errors.js';
import { ErrorCode } from '../contract/error-codes.js';
import { openApiDocument, type RouteDoc } from './api-docs.js';
import type { AppRouter, AppState } from './context.js';

/** Swagger UI's own files, served from its npm package (the server has no internet, so no CDN). */
const VIEWER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const viewerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Atende API</title>
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

// A file of its own: the app's Content-Security-Policy allows no inline script.
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: false });\n`;

/**
 * GET /api/openapi.json (the OpenAPI 3.1 document of the described routes, built once from their
 * zod schemas) and /api/docs (Swagger UI reading it), both public: they describe, never answer data.
 */
export function apiDocsRoutes(c: Container, docs: readonly RouteDoc[]): AppRouter {
  const router = new Router<AppState>();
  let document: Record<string, unknown> | undefined;

  router.get('/openapi.json', (ctx) => {
    document ??= openApiDocument(docs, { version: c.config.version, serverUrl: '/' });
    ctx.body = document;
  });

  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });

  router.get('/docs/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = INIT;
  });

  router.get('/docs/:file', async (ctx) => {
    const type = VIEWER_FILES[ctx.params.file ?? ''];
    if (!type) throw new NotFoundError(ErrorCode.ERR_ROUTE_NOT_FOUND, 'No such API route');
    ctx.type = type;
    ctx.body = await readFile(path.join(viewerDir, ctx.params.file!));
  });

  return router;
}
