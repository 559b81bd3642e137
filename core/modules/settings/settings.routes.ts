import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { settingUpdateSchema } from './settings.schema.js';

/** /api/settings: the caller's company settings; any user reads them, admins change them. */
export function settingsRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const settings = c.services.settings;

  router.get('/settings', requireAuth(c), async (ctx) => {
    ctx.body = await settings.list(ctx.state.user.companyId);
  });

  router.put('/settings/:key', requireAuth(c), requireAdmin(), async (ctx) => {
    const { value } = validate(settingUpdateSchema, ctx.request.body);
    ctx.body = await settings.update(ctx.state.user.companyId, ctx.params.key!, value);
  });

  return router;
}
