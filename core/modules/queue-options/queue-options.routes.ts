import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import { routeId, validate } from '../../http/validate.js';
import { listOptionsQuery, optionCreateSchema, optionUpdateSchema } from './queue-options.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

/** /api/queue-options: the chatbot menus of the company's queues; admins write them. */
export function queueOptionsRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const options = c.services.queueOptions;
  const auth = requireAuth(c);
  const adminOnly = [auth, requireAdmin()];

  router.get('/queue-options', auth, async (ctx) => {
    ctx.body = await options.list(ctx.state.user, validate(listOptionsQuery, ctx.query));
  });

  router.post('/queue-options', ...adminOnly, async (ctx) => {
    const input = validate(optionCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await options.create(ctx.state.user, input);
  });

  router.put('/queue-options/:id', ...adminOnly, async (ctx) => {
    const id = routeId(ctx.params.id, ErrorCode.ERR_NO_QUEUE_OPTION_FOUND);
    ctx.body = await options.update(ctx.state.user, id, validate(optionUpdateSchema, ctx.request.body));
  });

  router.delete('/queue-options/:id', ...adminOnly, async (ctx) => {
    await options.remove(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_QUEUE_OPTION_FOUND));
    ctx.status = 204;
  });

  return router;
}
