import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import { routeId, validate } from '../../http/validate.js';
import { INBOUND_BATCH_MAX, inboundBatchSchema, inboundSchema, limitSchema, scanSchema, type InboundBody } from './simulator.schema.js';
import type { InboundInput } from './simulator.js';
import { ValidationError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';

const NOT_FOUND = ErrorCode.ERR_NO_WAPP_FOUND;

function inboundInput(input: InboundBody): InboundInput {
  return {
    id: input.id,
    from: input.from,
    name: input.name,
    body: input.body,
    quotedId: input.quotedId,
    media:
      input.mediaType && input.mediaBase64
        ? { type: input.mediaType, data: Buffer.from(input.mediaBase64, 'base64'), name: input.mediaName }
        : undefined,
  };
}

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

  /** One message answers `{ message }`; an array of them `{ messages }`, once all are journaled. */
  router.post('/simulator/:whatsappId/inbound', ...admin, async (ctx) => {
    const body: unknown = ctx.request.body;
    const batch = Array.isArray(body);
    if (batch && body.length > INBOUND_BATCH_MAX) {
      throw new ValidationError(`At most ${INBOUND_BATCH_MAX} messages per request`, undefined, ErrorCode.ERR_SIMULATOR_TOO_MANY_MESSAGES);
    }
    const inputs = batch ? validate(inboundBatchSchema, body) : [validate(inboundSchema, body)];
    const device = await simulator.device(ctx.state.user, routeId(ctx.params.whatsappId, NOT_FOUND));
    const messages = await device.inboundMany(inputs.map(inboundInput));
    ctx.status = 201;
    ctx.body = batch ? { messages } : { message: messages[0] };
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
