import { ErrorCode, multipartBody, routeId, takeUpload, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import { campaignsOf } from '../campaigns-of.js';
import { createCampaignSchema, listCampaignsQuery, updateCampaignSchema } from './campaigns.schema.js';

const NOT_FOUND = ErrorCode.ERR_NO_CAMPAIGN_FOUND;

/**
 * /api/campaigns (the spec's paths), behind the plan flag and campaignsEnabled. Cancel and restart
 * (POST /campaigns/:id/cancel, /restart) belong to the dispatch.
 */
export function campaignsRoutes(router: AppRouter, app: PluginApp): void {
  const { campaigns, gate } = campaignsOf(app);
  const guard = gate.guard;

  router.get('/campaigns', guard, async (ctx) => {
    ctx.body = await campaigns.list(ctx.state.user, validate(listCampaignsQuery, ctx.query));
  });

  router.get('/campaigns/:id', guard, async (ctx) => {
    ctx.body = await campaigns.show(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/campaigns', guard, async (ctx) => {
    const input = validate(createCampaignSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await campaigns.create(ctx.state.user, input);
  });

  router.put('/campaigns/:id', guard, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await campaigns.update(ctx.state.user, id, validate(updateCampaignSchema, ctx.request.body));
  });

  router.delete('/campaigns/:id', guard, async (ctx) => {
    await campaigns.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });

  // One attachment, of the kinds a WhatsApp message carries, at most the upload limit.
  router.post('/campaigns/:id/media-upload', guard, multipartBody(), async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await campaigns.attach(ctx.state.user, id, takeUpload(ctx));
  });

  router.delete('/campaigns/:id/media-upload', guard, async (ctx) => {
    ctx.body = await campaigns.detach(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });
}
