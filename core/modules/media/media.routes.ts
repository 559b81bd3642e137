import path from 'node:path';
import Router from '@koa/router';
import type { Container } from '../../container.js';
import { NotFoundError } from '../../errors.js';
import { requireAuth } from '../../http/auth.middleware.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { safeFileName } from '../../storage/media-storage.js';

/** Shown in the page rather than downloaded; everything else is sent as an attachment. */
const INLINE = /^(image|audio|video)\//;

/**
 * GET /api/media/:file: a stored file of the caller's own company, fetched by the client as a
 * blob with its token (spec: media by URL from the backend). A name that is not a plain stored
 * name, or a file of another company, answers 404.
 */
export function mediaRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();

  router.get('/media/:file', requireAuth(c), async (ctx) => {
    const file = ctx.params.file ?? '';
    if (file !== safeFileName(file)) throw new NotFoundError('ERR_NO_MEDIA_FOUND');
    let data: Buffer;
    try {
      data = await c.media.read(ctx.state.user.companyId, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError('ERR_NO_MEDIA_FOUND');
      throw err;
    }
    ctx.type = path.extname(file) || 'application/octet-stream';
    if (!INLINE.test(ctx.type)) ctx.attachment(file);
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.body = data;
  });

  return router;
}
