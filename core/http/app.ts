import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { NotFoundError } from '../errors.js';
import type { Container } from '../container.js';
import type { AppRouter, AppState } from './context.js';
import { errorMiddleware, requestLogMiddleware, securityHeadersMiddleware } from './middleware.js';
import { webAppMiddleware, webRootOf } from './web-app.js';
import { rawBodyParser } from './raw-body.js';
import { assertNoShadowing, ownedRoutes } from './route-conflicts.js';
import { authRoutes } from '../modules/auth/auth.routes.js';
import { passwordResetRoutes } from '../modules/password-reset/password-reset.routes.js';
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
import type { RouteDoc } from './api-docs.js';
import { apiDocsRoutes } from './api-docs.routes.js';
import { ticketsDocs } from '../modules/tickets/tickets.routes.js';
import { ticketNotesDocs } from '../modules/tickets/ticket-notes.routes.js';
import { messagesDocs } from '../modules/messages/messages.routes.js';
import { mediaDocs } from '../modules/media/media.routes.js';
import { contactsDocs } from '../modules/contacts/contacts.routes.js';
import { tagsDocs } from '../modules/tags/tags.routes.js';
import { queuesDocs } from '../modules/queues/queues.routes.js';

export const JSON_BODY_LIMIT = '1mb';
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Core routers, each mounted under /api with its own paths. */
const coreRoutes: ((c: Container) => AppRouter)[] = [
  authRoutes,
  passwordResetRoutes,
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

/** The core's routes that API clients may call, described for the OpenAPI document. */
const coreDocs: RouteDoc[] = [...ticketsDocs, ...ticketNotesDocs, ...messagesDocs, ...mediaDocs, ...contactsDocs, ...tagsDocs, ...queuesDocs];

export interface HttpApp {
  app: Koa<AppState>;
  /** Every API route (method and full path): what the route-walking tests cover. */
  routes: ApiRoute[];

}

export interface ApiRoute {
  method: string;
  path: string;
}

/** A plugin's router as the host hands it over: who owns it, and whether its routes keep the raw body. */
export interface PluginRouter {
  owner: string;
  router: AppRouter;
  rawBody: boolean;
  /** Its routes' descriptions for the OpenAPI document. */
  docs?: RouteDoc[];
}

/**
 * The Koa app: error handling first, then request id and access log, security headers, body
 * parsing for /api, the API routers (plugins, then the core; neither shadows the other), a JSON
 * 404 for unknown /api paths, and the web app for everything else. A worker node serves only
 * GET /api/version, the health check of process managers and balancers: the API and the app are
 * the web nodes'.
 */
export function createHttpApp(c: Container, allPlugins: PluginRouter[] = []): HttpApp {
  const servesApp = c.config.role !== 'worker';
  const plugins = servesApp ? allPlugins : [];
  const api: AppRouter = new Router<AppState>({ prefix: '/api' });
  api.get('/version', (ctx) => {
    ctx.body = { version: c.config.version };
  });
  const docs = [...coreDocs, ...plugins.flatMap((p) => p.docs ?? [])];
  const core = servesApp ? [...coreRoutes.map((make) => make(c)), apiDocsRoutes(c, docs)] : [];
  assertNoShadowing(
    [{ owner: 'the core', method: 'GET', path: '/version' }, ...core.flatMap((router) => ownedRoutes('the core', router))],
    plugins.flatMap(({ owner, router }) => ownedRoutes(owner, router)),
  );

  // ctx.ip: the entry `trustProxy` hops from the right of X-Forwarded-For (Koa keeps the last maxIpsCount).
  const app = new Koa<AppState>({ proxy: c.config.trustProxy > 0, maxIpsCount: c.config.trustProxy });
  // Outermost, so an error's answer gets the security headers and no-store too.
  app.use(securityHeadersMiddleware());
  app.use(errorMiddleware());
  app.use(requestLogMiddleware(c.log.child({ part: 'http' })));

  const bodyParser = koaBody({
      jsonLimit: JSON_BODY_LIMIT,
      formLimit: JSON_BODY_LIMIT,
      textLimit: JSON_BODY_LIMIT,
      multipart: false,
      onError: (err) => {
        throw Object.assign(err, { status: (err as { status?: number }).status ?? 400, expose: true });
      },
  });
  const rawBody = rawBodyParser(BODY_LIMIT_BYTES);
  const rawRouters = plugins.filter((p) => p.rawBody).map((p) => p.router);
  const wantsRawBody = (path: string, method: string) =>
    rawRouters.some((router) => router.match(path.slice('/api'.length), method).route);
  app.use(async (ctx, next) => {
    if (!ctx.path.startsWith('/api/')) return next();
    return wantsRawBody(ctx.path, ctx.method) ? rawBody(ctx, next) : bodyParser(ctx, next);
  });

  // Plugins first: a plugin route may narrow a core one (GET /tags/kanban beside GET /tags/:id), see assertNoShadowing.
  for (const router of [...plugins.map((p) => p.router), ...core]) {
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
  if (servesApp) app.use(webAppMiddleware(webRootOf(c.config.webDir)));
  // What fails after the answer started (a file's stream) reaches Koa's own handler, which would
  // print it: into the log instead, a browser leaving mid-download as the ordinary event it is.
  const log = c.log.child({ part: 'http' });
  app.on('error', (err: NodeJS.ErrnoException) => {
    // (Node's premature close is told by its message: the error catalogue's test keeps ERR_ codes ours.)
    if (err.message === 'Premature close' || err.code === 'ECONNRESET' || err.code === 'EPIPE') log.debug({ code: err.code }, 'client left during the answer');
    else log.error({ err }, 'error after the answer started');
  });
  const routes = api.stack.flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
  );
  return { app, routes };
}
