import { validate, type AppRouter, type PluginApp } from 'atende/plugin';
import { campaignsOf } from '../campaigns-of.js';
import { saveCampaignSettingsSchema } from './campaign-settings.schema.js';

/** /api/campaign-settings (the spec's paths): every user reads, admins save. */
export function campaignSettingsRoutes(router: AppRouter, app: PluginApp): void {
  const { settings, gate } = campaignsOf(app);

  router.get('/campaign-settings', gate.guard, async (ctx) => {
    ctx.body = await settings.list(ctx.state.user);
  });

  router.post('/campaign-settings', gate.guard, async (ctx) => {
    ctx.body = await settings.save(ctx.state.user, validate(saveCampaignSettingsSchema, ctx.request.body));
  });
}
