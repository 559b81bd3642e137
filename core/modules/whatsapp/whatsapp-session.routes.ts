import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import { routeId } from '../../http/validate.js';
import { ErrorCode } from '../../contract/error-codes.js';

const NOT_FOUND = ErrorCode.ERR_NO_WAPP_FOUND;

/** The session buttons of the connections page (admins): start / try again, new QR code, disconnect. */
export function whatsappSessionRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const whatsapps = c.services.whatsapps;
  const admin = [requireAuth(c), requireAdmin()] as const;

  router.post('/whatsappsession/:id', ...admin, async (ctx) => {
    await whatsapps.startSession(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.body = { message: 'Starting session.' };
  });

  router.put('/whatsappsession/:id', ...admin, async (ctx) => {
    await whatsapps.renewSession(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.body = { message: 'Starting session.' };
  });

  router.delete('/whatsappsession/:id', ...admin, async (ctx) => {
    await whatsapps.logoutSession(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.body = { message: 'Session disconnected.' };
  });

  return router;
}
