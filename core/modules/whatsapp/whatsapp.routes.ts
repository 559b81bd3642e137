import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import { routeId, validate } from '../../http/validate.js';
import { createWhatsappSchema, updateWhatsappSchema } from './whatsapp.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

const NOT_FOUND = ErrorCode.ERR_NO_WAPP_FOUND;

/** Connections: every user of the company reads them (the token only admins); admins change them. */
export function whatsappRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const whatsapps = c.services.whatsapps;
  const auth = requireAuth(c);

  // `?session=0` (the old client's) changes nothing: the QR code is always part of the answer.
  router.get('/whatsapp', auth, async (ctx) => {
    ctx.body = await whatsapps.list(ctx.state.user);
  });

  router.get('/whatsapp/:id', auth, async (ctx) => {
    ctx.body = await whatsapps.show(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/whatsapp', auth, requireAdmin(), async (ctx) => {
    const input = validate(createWhatsappSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await whatsapps.create(ctx.state.user, input);
  });

  router.put('/whatsapp/:id', auth, requireAdmin(), async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await whatsapps.update(ctx.state.user, id, validate(updateWhatsappSchema, ctx.request.body));
  });

  router.delete('/whatsapp/:id', auth, requireAdmin(), async (ctx) => {
    await whatsapps.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });

  router.post('/whatsapp/:id/token', auth, requireAdmin(), async (ctx) => {
    ctx.body = await whatsapps.regenerateToken(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  return router;
}
