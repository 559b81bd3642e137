import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAuth, requireSuper } from '../../http/auth.middleware.js';
import type { AppContext, AppRouter, AppState } from '../../http/context.js';
import { routeId, validate } from '../../http/validate.js';
import { helpCreateSchema, helpUpdateSchema } from './helps.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

/** /api/helps: every signed-in user reads the gallery; super users write it. */
export function helpsRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const helps = c.services.helps;
  const auth = requireAuth(c);
  const superOnly = [auth, requireSuper()];

  const list = async (ctx: AppContext) => {
    ctx.body = await helps.list();
  };
  router.get('/helps', auth, list);
  router.get('/helps/list', auth, list);

  router.post('/helps', ...superOnly, async (ctx) => {
    const input = validate(helpCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await helps.create(input);
  });

  router.put('/helps/:id', ...superOnly, async (ctx) => {
    const id = routeId(ctx.params.id, ErrorCode.ERR_NO_HELP_FOUND);
    ctx.body = await helps.update(id, validate(helpUpdateSchema, ctx.request.body));
  });

  router.delete('/helps/:id', ...superOnly, async (ctx) => {
    await helps.remove(routeId(ctx.params.id, ErrorCode.ERR_NO_HELP_FOUND));
    ctx.status = 204;
  });

  return router;
}
