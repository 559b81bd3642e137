import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { dashboardQuery, dayRangeQuery } from './dashboard.schema.js';

/** /api/dashboard: admins only (dashboard:view), always of the caller's own company. */
export function dashboardRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const dashboard = c.services.dashboard;
  const admin = [requireAuth(c), requireAdmin()];

  router.get('/dashboard', ...admin, async (ctx) => {
    ctx.body = await dashboard.overview(ctx.state.user, validate(dashboardQuery, ctx.query));
  });

  router.get('/dashboard/ticketsUsers', ...admin, async (ctx) => {
    ctx.body = await dashboard.ticketsUsers(ctx.state.user, validate(dayRangeQuery, ctx.query));
  });

  router.get('/dashboard/ticketsDay', ...admin, async (ctx) => {
    ctx.body = await dashboard.ticketsDay(ctx.state.user, validate(dayRangeQuery, ctx.query));
  });

  return router;
}
