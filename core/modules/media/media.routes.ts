import path from 'node:path';
import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAuth } from '../../http/auth.middleware.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { z } from 'zod';
import type { RouteDoc } from '../../http/api-docs.js';

/** The public route's description (GET /api/openapi.json). */
export const mediaDocs: RouteDoc[] = [
  { method: 'GET', path: '/media/:file', tag: 'messages', summary: "A message's file", description: "The file a message's mediaUrl names.", params: z.object({ file: z.string() }), answer: { status: 200, description: 'The file\'s bytes' } },
];

/** Shown in the page rather than downloaded; everything else is sent as an attachment. */
const INLINE = /^(image|audio|video)\//;

/**
 * GET /api/media/:file: a stored file of the caller's own company, streamed, fetched by the client
 * as a blob with its token (spec: media by URL from the backend). A name that is not a stored
 * name, or a file of another company, answers 404; a message's file follows its ticket's
 * visibility. A download carries the file's original name when a message knows it.
 */
export function mediaRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();

  router.get('/media/:file', requireAuth(c), async (ctx) => {
    const user = ctx.state.user;
    const file = ctx.params.file ?? '';
    const { name } = await c.services.messages.mediaFile(user, file);
    const { stream, size } = await c.media.open(user.companyId, file);
    ctx.type = path.extname(file) || 'application/octet-stream';
    if (!INLINE.test(ctx.type)) ctx.attachment(name ?? file);
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.body = stream;
    ctx.length = size;
  });

  return router;
}
