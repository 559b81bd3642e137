import { routeId, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import type { WebhooksConfig } from './deliveries.service.js';
import { webhooksOf } from './webhooks-of.js';
import { createWebhookSchema, deliveriesQuery, updateWebhookSchema } from './webhooks.schema.js';
import { ERR_NO_DELIVERY, ERR_NO_WEBHOOK } from './webhooks.service.js';

/** /api/webhooks: admins register endpoints, read their deliveries and resend one (behind login and the flag). */
export function webhookRoutes(router: AppRouter, app: PluginApp<WebhooksConfig>): void {
  const { webhooks, deliveries } = webhooksOf(app);
  const webhookId = (raw: string | undefined) => routeId(raw, ERR_NO_WEBHOOK);

  router.get('/webhooks', async (ctx) => {
    ctx.body = { webhooks: await webhooks.list(ctx.state.user) };
  });

  router.post('/webhooks', async (ctx) => {
    const input = validate(createWebhookSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await webhooks.create(ctx.state.user, input);
  });

  router.get('/webhooks/:id', async (ctx) => {
    ctx.body = await webhooks.show(ctx.state.user, webhookId(ctx.params.id));
  });

  router.put('/webhooks/:id', async (ctx) => {
    const id = webhookId(ctx.params.id);
    ctx.body = await webhooks.update(ctx.state.user, id, validate(updateWebhookSchema, ctx.request.body));
  });

  router.delete('/webhooks/:id', async (ctx) => {
    await webhooks.remove(ctx.state.user, webhookId(ctx.params.id));
    ctx.status = 204;
  });

  router.get('/webhooks/:id/secret', async (ctx) => {
    ctx.body = await webhooks.revealSecret(ctx.state.user, webhookId(ctx.params.id));
  });

  router.post('/webhooks/:id/secret', async (ctx) => {
    ctx.body = await webhooks.rotateSecret(ctx.state.user, webhookId(ctx.params.id));
  });

  router.get('/webhooks/:id/deliveries', async (ctx) => {
    const id = webhookId(ctx.params.id);
    const { pageNumber } = validate(deliveriesQuery, ctx.query);
    ctx.body = await webhooks.deliveries(ctx.state.user, id, pageNumber);
  });

  router.post('/webhooks/:id/deliveries/:deliveryId/resend', async (ctx) => {
    const id = webhookId(ctx.params.id);
    ctx.body = await deliveries.resend(ctx.state.user, id, routeId(ctx.params.deliveryId, ERR_NO_DELIVERY));
  });
}
