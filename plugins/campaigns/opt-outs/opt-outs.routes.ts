import { ErrorCode, routeId, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import { campaignsOf } from '../campaigns-of.js';
import { addOptOutSchema, listOptOutsQuery } from './opt-outs.schema.js';

const NOT_FOUND = ErrorCode.ERR_NO_CAMPAIGN_OPT_OUT_FOUND;

/** /api/campaign-opt-outs: the company's opt-out list, for admins; behind the plan flag and campaignsEnabled. */
export function optOutsRoutes(router: AppRouter, app: PluginApp): void {
  const { optOuts, gate } = campaignsOf(app);
  const guard = gate.guard;

  router.get('/campaign-opt-outs', guard, async (ctx) => {
    ctx.body = await optOuts.list(ctx.state.user, validate(listOptOutsQuery, ctx.query));
  });

  router.get('/campaign-opt-outs/export', guard, async (ctx) => {
    const csv = await optOuts.exportCsv(ctx.state.user);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.attachment('descadastros.csv');
    ctx.body = csv;
  });

  router.post('/campaign-opt-outs', guard, async (ctx) => {
    const { number } = validate(addOptOutSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await optOuts.add(ctx.state.user, number);
  });

  router.delete('/campaign-opt-outs/:id', guard, async (ctx) => {
    await optOuts.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });
}
