import { validate, type AppRouter, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { billingOf } from '../billing-of.js';
import { checkoutSchema } from './checkout.schema.js';

/** /api/subscription: the caller's own company (the session's); the service says who may pay. */
export function checkoutRoutes(router: AppRouter, app: PluginApp<BillingConfig>): void {
  const checkout = billingOf(app).checkout;

  router.get('/subscription', async (ctx) => {
    ctx.body = await checkout.view(ctx.state.user);
  });

  router.post('/subscription', async (ctx) => {
    ctx.body = await checkout.checkout(ctx.state.user, validate(checkoutSchema, ctx.request.body));
  });
}
