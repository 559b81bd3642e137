import { ErrorCode, routeId, type AppRouter, type PluginApp } from 'atende/plugin';
import { campaignsOf } from '../campaigns-of.js';

const NOT_FOUND = ErrorCode.ERR_NO_CAMPAIGN_FOUND;

/** /api/campaigns/:id/cancel, /restart (the spec's) and /report, behind the plan flag and campaignsEnabled. */
export function dispatchRoutes(router: AppRouter, app: PluginApp): void {
  const { dispatch, gate } = campaignsOf(app);

  router.post('/campaigns/:id/cancel', gate.guard, async (ctx) => {
    ctx.body = await dispatch.cancel(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/campaigns/:id/restart', gate.guard, async (ctx) => {
    ctx.body = await dispatch.restart(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.get('/campaigns/:id/report', gate.guard, async (ctx) => {
    ctx.body = await dispatch.report(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });
}
