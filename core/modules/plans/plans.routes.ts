import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAuth, requireSuper } from '../../http/auth.middleware.js';
import type { AppContext, AppRouter, AppState } from '../../http/context.js';
import { routeId, validate } from '../../http/validate.js';
import { planCreateSchema, planUpdateSchema } from './plans.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

/**
 * /api/plans. The lists are public (signup picks a plan before anyone logs in); writes, single
 * plans and the catalogue of flags and limits (GET /plans/features) are for super users.
 */
export function plansRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const plans = c.services.plans;
  const superOnly = [requireAuth(c), requireSuper()];

  const list: (ctx: AppContext) => Promise<void> = async (ctx) => {
    ctx.body = await plans.list();
  };
  router.get('/plans/list', list);
  router.get('/plans/all', list);

  router.post('/plans', ...superOnly, async (ctx) => {
    const input = validate(planCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await plans.create(input);
  });

  // Before /plans/:id, which would take "features" for an id.
  router.get('/plans/features', ...superOnly, (ctx) => {
    ctx.body = plans.catalogue.view();
  });

  router.get('/plans/:id', ...superOnly, async (ctx) => {
    ctx.body = await plans.view(routeId(ctx.params.id, ErrorCode.ERR_NO_PLAN_FOUND));
  });

  router.put('/plans/:id', ...superOnly, async (ctx) => {
    const id = routeId(ctx.params.id, ErrorCode.ERR_NO_PLAN_FOUND);
    ctx.body = await plans.update(id, validate(planUpdateSchema, ctx.request.body));
  });

  router.delete('/plans/:id', ...superOnly, async (ctx) => {
    await plans.remove(routeId(ctx.params.id, ErrorCode.ERR_NO_PLAN_FOUND));
    ctx.status = 204;
  });

  return router;
}
