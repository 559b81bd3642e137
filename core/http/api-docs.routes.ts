import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import type { Container } from '../container.js';
import { NotFoundError } from '../errors.js';
import { ErrorCode } from '../contract/error-codes.js';
import { openApiDocument, type RouteDoc } from './api-docs.js';
import type { AppContext, AppRouter, AppState } from './context.js';

/** Swagger UI's own files, served from its npm package (the server has no internet, so no CDN). */
const VIEWER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const viewerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const viewerVersion = (JSON.parse(readFileSync(path.join(viewerDir, 'package.json'), 'utf8')) as { version: string }).version;
/** The viewer's files live under its package version: a new version is a new URL, so each URL is cached for good. */
const VIEWER = `/api/docs/swagger-ui/${viewerVersion}`;
const IMMUTABLE = 'public, max-age=31536000, immutable';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Atende API</title>
<link rel="icon" type="image/png" href="${VIEWER}/favicon-32x32.png">
<link rel="stylesheet" href="${VIEWER}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${VIEWER}/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

// A file of its own: the app's Content-Security-Policy allows no inline script.
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: false });\n`;

/**
 * GET /api/openapi.json (the OpenAPI 3.1 document of the described routes, built once from their
 * zod schemas, never cached: it follows the server) and /api/docs (Swagger UI reading it), both
 * public: they describe, never answer data. The page and its init script are revalidated (ETag);
 * the viewer's files, under their version, are immutable.
 */
export function apiDocsRoutes(c: Container, docs: readonly RouteDoc[]): AppRouter {
  const router = new Router<AppState>();
  let document: Record<string, unknown> | undefined;

  router.get('/openapi.json', (ctx) => {
    document ??= openApiDocument(docs, { version: c.config.version, serverUrl: '/' });
    ctx.body = document;
  });

  router.get('/docs', (ctx) => revalidated(ctx, 'text/html; charset=utf-8', PAGE));
  router.get('/docs/init.js', (ctx) => revalidated(ctx, 'text/javascript; charset=utf-8', INIT));

  router.get('/docs/swagger-ui/:version/:file', async (ctx) => {
    const type = VIEWER_FILES[ctx.params.file ?? ''];
    if (!type || ctx.params.version !== viewerVersion) throw new NotFoundError(ErrorCode.ERR_ROUTE_NOT_FOUND, 'No such API route');
    ctx.set('Cache-Control', IMMUTABLE);
    ctx.type = type;
    ctx.body = await readFile(path.join(viewerDir, ctx.params.file!));
  });

  return router;
}

/** A small text of ours: kept by the browser, asked again each time with its ETag (304 when unchanged). */
function revalidated(ctx: AppContext, type: string, text: string): void {
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('ETag', `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`);
  ctx.type = type;
  // freshness is judged on a successful answer only
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = text;
}
