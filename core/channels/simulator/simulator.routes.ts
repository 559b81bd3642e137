import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import { routeId, validate } from '../../http/validate.js';
import { inboundSchema, limitSchema, scanSchema } from './simulator.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

const NOT_FOUND = ErrorCode.ERR_NO_WAPP_FOUND;

/**
 * The simulator's test API: what a phone (scan, unlink) and a customer (write) would do to a
 * simulated connection. Company admins drive their own connections, super users any. With the
 * simulator off there are no routes, so every path answers 404.
 */
export function simulatorRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const simulator = c.simulator;
  if (!simulator) return router;
  const admin = [requireAuth(c), requireAdmin()] as const;

  router.post('/simulator/:whatsappId/scan', ...admin, async (ctx) => {
    const { number } = validate(scanSchema, ctx.request.body);
    const device = await simulator.device(ctx.state.user, routeId(ctx.params.whatsappId, NOT_FOUND));
    ctx.body = { status: 'CONNECTED', number: await device.scan(number) };
  });

  router.post('/simulator/:whatsappId/inbound', ...admin, async (ctx) => {
    const input = validate(inboundSchema, ctx.request.body);
    const device = await simulator.device(ctx.state.user, routeId(ctx.params.whatsappId, NOT_FOUND));
    const message = await device.inbound({
      id: input.id,
      from: input.from,
      name: input.name,
      body: input.body,
      quotedId: input.quotedId,
      media:
        input.mediaType && input.mediaBase64
          ? { type: input.mediaType, data: Buffer.from(input.mediaBase64, 'base64'), name: input.mediaName }
          : undefined,
    });
    ctx.status = 201;
    ctx.body = { message };
  });

  router.get('/simulator/:whatsappId/outbox', ...admin, async (ctx) => {
    ctx.body = await simulator.outbox(ctx.state.user, routeId(ctx.params.whatsappId, NOT_FOUND));
  });

  router.post('/simulator/:whatsappId/disconnect', ...admin, async (ctx) => {
    const device = await simulator.device(ctx.state.user, routeId(ctx.params.whatsappId, NOT_FOUND));
    device.disconnect();
    ctx.body = { status: 'DISCONNECTED' };
  });

  router.post('/simulator/:whatsappId/limit', ...admin, async (ctx) => {
    const { active, until } = validate(limitSchema, ctx.request.body);
    const device = await simulator.device(ctx.state.user, routeId(ctx.params.whatsappId, NOT_FOUND));
    device.limit(active, until);
    ctx.body = { active };
  });

  return router;
}
