import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { NotFoundError } from '../errors.js';
import type { Container } from '../container.js';
import type { AppRouter, AppState } from './context.js';
import { errorMiddleware, requestLogMiddleware, securityHeadersMiddleware } from './middleware.js';
import { webAppMiddleware } from './web-app.js';
import { authRoutes } from '../modules/auth/auth.routes.js';
import { usersRoutes } from '../modules/users/users.routes.js';
import { companiesRoutes } from '../modules/companies/companies.routes.js';
import { plansRoutes } from '../modules/plans/plans.routes.js';
import { settingsRoutes } from '../modules/settings/settings.routes.js';
import { helpsRoutes } from '../modules/helps/helps.routes.js';
import { contactsRoutes } from '../modules/contacts/contacts.routes.js';
import { whatsappRoutes } from '../modules/whatsapp/whatsapp.routes.js';
import { whatsappSessionRoutes } from '../modules/whatsapp/whatsapp-session.routes.js';
import { simulatorRoutes } from '../channels/simulator/simulator.routes.js';
import { queuesRoutes } from '../modules/queues/queues.routes.js';
import { queueOptionsRoutes } from '../modules/queue-options/queue-options.routes.js';
import { tagsRoutes } from '../modules/tags/tags.routes.js';
import { quickMessagesRoutes } from '../modules/quick-messages/quick-messages.routes.js';
import { mediaRoutes } from '../modules/media/media.routes.js';
import { messagesRoutes } from '../modules/messages/messages.routes.js';
import { ticketsRoutes } from '../modules/tickets/tickets.routes.js';
import { ticketNotesRoutes } from '../modules/tickets/ticket-notes.routes.js';
import { dashboardRoutes } from '../modules/dashboard/dashboard.routes.js';
import { ErrorCode } from '../contract/error-codes.js';

export const JSON_BODY_LIMIT = '1mb';

/** Core routers, each mounted under /api with its own paths. */
const coreRoutes: ((c: Container) => AppRouter)[] = [
  authRoutes,
  usersRoutes,
  companiesRoutes,
  plansRoutes,
  settingsRoutes,
  helpsRoutes,
  contactsRoutes,
  whatsappRoutes,
  whatsappSessionRoutes,
  simulatorRoutes,
  queuesRoutes,
  queueOptionsRoutes,
  tagsRoutes,
  quickMessagesRoutes,
  mediaRoutes,
  ticketsRoutes,
  ticketNotesRoutes,
  messagesRoutes,
  dashboardRoutes,
];

/**
 * The Koa app: error handling first, then request id and access log, security headers, body
 * parsing for /api, the API routers (core, then plugins), a JSON 404 for unknown /api paths,
 * and the web app for everything else.
 */
export interface HttpApp {
  app: Koa<AppState>;
  /** Every API route (method and full path): what the route-walking tests cover. */
  routes: ApiRoute[];
}

export interface ApiRoute {
  method: string;
  path: string;
}

export function createHttpApp(c: Container, extraRouters: AppRouter[] = []): HttpApp {
  // ctx.ip: the entry `trustProxy` hops from the right of X-Forwarded-For (Koa keeps the last maxIpsCount).
  const app = new Koa<AppState>({ proxy: c.config.trustProxy > 0, maxIpsCount: c.config.trustProxy });
  app.use(errorMiddleware());
  app.use(requestLogMiddleware(c.log.child({ part: 'http' })));
  app.use(securityHeadersMiddleware());

  const bodyParser = koaBody({
      jsonLimit: JSON_BODY_LIMIT,
      formLimit: JSON_BODY_LIMIT,
      textLimit: JSON_BODY_LIMIT,
      multipart: false,
      onError: (err) => {
        throw Object.assign(err, { status: (err as { status?: number }).status ?? 400, expose: true });
      },
  });
  app.use(async (ctx, next) => (ctx.path.startsWith('/api/') ? bodyParser(ctx, next) : next()));

  const api: AppRouter = new Router<AppState>({ prefix: '/api' });
  api.get('/version', (ctx) => {
    ctx.body = { version: c.config.version };
  });
  for (const router of [...coreRoutes.map((make) => make(c)), ...extraRouters]) {
    api.use(router.routes(), router.allowedMethods({ throw: true }));
  }
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: true }));
  app.use(async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) {
      throw new NotFoundError(ErrorCode.ERR_ROUTE_NOT_FOUND, 'No such API route');
    }
    await next();
  });
  app.use(webAppMiddleware());
  const routes = api.stack.flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
  );
  return { app, routes };
}
