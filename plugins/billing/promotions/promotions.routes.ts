import { ErrorCode, ForbiddenError, routeId, validate, type AppContext, type AppRouter, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { billingOf } from '../billing-of.js';
import { promotionSchema } from './promotions.schema.js';

/** Super users only, before the body is read: anyone else gets 403 whatever they send. */
async function superOnly(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  if (!ctx.state.user.super) throw new ForbiddenError();
  await next();
}

/** /api/promotions: super users write the promotion codes. */
export function promotionsRoutes(router: AppRouter, app: PluginApp<BillingConfig>): void {
  const promotions = billingOf(app).promotions;
  const id = (raw: string | undefined) => routeId(raw, ErrorCode.ERR_NO_PROMOTION_FOUND);

  router.get('/promotions', superOnly, async (ctx) => {
    ctx.body = await promotions.list(ctx.state.user);
  });

  router.post('/promotions', superOnly, async (ctx) => {
    ctx.body = await promotions.create(ctx.state.user, validate(promotionSchema, ctx.request.body));
    ctx.status = 201;
  });

  router.put('/promotions/:id', superOnly, async (ctx) => {
    ctx.body = await promotions.update(ctx.state.user, id(ctx.params.id), validate(promotionSchema, ctx.request.body));
  });

  router.delete('/promotions/:id', superOnly, async (ctx) => {
    await promotions.remove(ctx.state.user, id(ctx.params.id));
    ctx.status = 204;
  });
}
