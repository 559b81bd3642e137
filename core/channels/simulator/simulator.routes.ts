import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import { routeId } from '../../http/validate.js';
import { simulatorActions } from './simulator-actions.js';
import { ErrorCode } from '../../contract/error-codes.js';

/**
 * The simulator's test API: what a phone (scan, unlink) and a customer (write) would do to a
 * simulated connection. Company admins drive their own connections, super users any; with
 * ATENDE_SIMULATOR_URL the phone answering is at the simulator server, whichever node runs the
 * session. With the simulator off there are no routes, so every path answers 404.
 */
export function simulatorRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const simulator = c.simulator;
  if (!simulator) return router;
  const admin = [requireAuth(c), requireAdmin()] as const;

  for (const [name, action] of Object.entries(simulatorActions)) {
    const path = `/simulator/:whatsappId/${name}`;
    const handler: Parameters<typeof router.post>[2] = async (ctx) => {
      const run = action.prepare(ctx.request.body);
      const id = await simulator.visible(ctx.state.user, routeId(ctx.params.whatsappId, ErrorCode.ERR_NO_WAPP_FOUND));
      const answer = await run(simulator.api, id);
      ctx.status = answer.status;
      ctx.body = answer.body;
    };
    if (action.method === 'GET') router.get(path, ...admin, handler);
    else router.post(path, ...admin, handler);
  }

  return router;
}
