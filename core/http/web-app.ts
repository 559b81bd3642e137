import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Next } from 'koa';
import type { AppContext } from './context.js';

function isWebBuild(dir: string): boolean {
  return existsSync(path.join(dir, 'index.html')) && existsSync(path.join(dir, 'assets'));
}

/**
 * The package's built SPA: dist/web (vite build), beside dist/core when built, or under dist/ from
 * the sources. ATENDE_WEB_ROOT names another build (browser tests of two checkouts' builds side by side).
 */
export const defaultWebRoot = [
  ...(process.env.ATENDE_WEB_ROOT ? [path.resolve(process.env.ATENDE_WEB_ROOT)] : []),
  fileURLToPath(new URL('../../web', import.meta.url)),
  fileURLToPath(new URL('../../dist/web', import.meta.url)),
].find(isWebBuild);

/** The installation's own admin, built with its plugins' pages by `atende build-web`, once there is one; else the package's. */
export function webRootOf(webDir: string): string | undefined {
  return isWebBuild(webDir) ? webDir : defaultWebRoot;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Serves the web app: hashed files under /assets/ cached for a year, every other GET that is not
 * a file answers index.html (history fallback) that is never cached, so a deploy is seen at once.
 */
export function webAppMiddleware(root: string | undefined = defaultWebRoot) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/') || ctx.path === '/ws') {
      await next();
      return;
    }
    if (!root) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built: run `npm run build`.';
      return;
    }
    const relative = decodeURIComponent(ctx.path).replace(/^\/+/, '');
    const file = path.resolve(root, relative);
    const inside = file.startsWith(root + path.sep);
    if (inside && existsSync(file) && statSync(file).isFile()) {
      const immutable = relative.startsWith('assets/');
      ctx.set('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      sendFile(ctx, file);
      return;
    }
    if (relative.startsWith('assets/')) {
      ctx.status = 404;
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    sendFile(ctx, path.join(root, 'index.html'));
  };
}

/** The build's precompressed copies (core/web-build/precompress.ts), smallest first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
];

/** Streams a file of the build, as its brotli or gzip copy when the browser takes one and the build made it. */
function sendFile(ctx: AppContext, file: string): void {
  ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  ctx.vary('Accept-Encoding');
  // Ours first: browsers list gzip before br at the same weight, and brotli is a fifth smaller.
  const accepted = ctx.acceptsEncodings();
  const encoding = ENCODINGS.find((candidate) => accepted.includes(candidate.name) && existsSync(file + candidate.suffix));
  const sent = encoding ? file + encoding.suffix : file;
  if (encoding) ctx.set('Content-Encoding', encoding.name);
  ctx.length = statSync(sent).size;
  ctx.body = createReadStream(sent);
}
