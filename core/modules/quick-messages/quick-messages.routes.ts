import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAuth } from '../../http/auth.middleware.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { routeId, validate } from '../../http/validate.js';
import { multipartBody, takeUpload } from '../media/media-upload.js';
import { createQuickMessageSchema, listQuickMessagesQuery, updateQuickMessageSchema } from './quick-messages.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

const NOT_FOUND = ErrorCode.ERR_NO_QUICK_MESSAGE_FOUND;

/** /api/quick-messages: every user of a company; the service holds who sees and changes which reply. */
export function quickMessagesRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const quickMessages = c.services.quickMessages;
  const auth = requireAuth(c);

  router.get('/quick-messages', auth, async (ctx) => {
    ctx.body = await quickMessages.list(ctx.state.user, validate(listQuickMessagesQuery, ctx.query));
  });

  // The spec's client sends companyId and userId; the answer is always the caller's own view.
  router.get('/quick-messages/list', auth, async (ctx) => {
    ctx.body = await quickMessages.picker(ctx.state.user);
  });

  router.get('/quick-messages/:id', auth, async (ctx) => {
    ctx.body = await quickMessages.show(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/quick-messages', auth, async (ctx) => {
    const input = validate(createQuickMessageSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await quickMessages.create(ctx.state.user, input);
  });

  router.put('/quick-messages/:id', auth, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await quickMessages.update(ctx.state.user, id, validate(updateQuickMessageSchema, ctx.request.body));
  });

  router.delete('/quick-messages/:id', auth, async (ctx) => {
    await quickMessages.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });

  router.post('/quick-messages/:id/media-upload', auth, multipartBody(), async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    const file = takeUpload(ctx);
    ctx.body = await quickMessages.attach(ctx.state.user, id, file);
  });

  router.delete('/quick-messages/:id/media-upload', auth, async (ctx) => {
    ctx.body = await quickMessages.detach(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  return router;
}
