import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import { routeId, validate } from '../../http/validate.js';
import { listQueuesQuery, queueCreateSchema, queueUpdateSchema } from './queues.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { z } from 'zod';
import type { RouteDoc } from '../../http/api-docs.js';
import { queueViewSchema } from '../../contract/view-schemas.js';

/** The public routes' descriptions (GET /api/openapi.json), with the schemas the routes validate with. */
export const queuesDocs: RouteDoc[] = [
  { method: 'GET', path: '/queue', tag: 'queues', summary: 'List queues', query: listQueuesQuery, answer: { status: 200, description: 'The queues', schema: z.array(queueViewSchema) } },
  { method: 'GET', path: '/queue/:id', tag: 'queues', summary: 'Show a queue', answer: { status: 200, description: 'The queue', schema: queueViewSchema } },
  { method: 'POST', path: '/queue', tag: 'queues', summary: 'Create a queue', body: queueCreateSchema, answer: { status: 201, description: 'The queue', schema: queueViewSchema } },
  { method: 'PUT', path: '/queue/:id', tag: 'queues', summary: 'Update a queue', body: queueUpdateSchema, answer: { status: 200, description: 'The queue', schema: queueViewSchema } },
  { method: 'DELETE', path: '/queue/:id', tag: 'queues', summary: 'Delete a queue', answer: { status: 204, description: 'Deleted' } },
];

/** /api/queue: every user of the company reads the queues; admins write them. */
export function queuesRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const queues = c.services.queues;
  const auth = requireAuth(c);
  const adminOnly = [auth, requireAdmin()];

  router.get('/queue', auth, async (ctx) => {
    const { companyId } = validate(listQueuesQuery, ctx.query);
    ctx.body = await queues.list(ctx.state.user, companyId);
  });

  router.get('/queue/:id', auth, async (ctx) => {
    ctx.body = await queues.show(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_QUEUE_FOUND));
  });

  router.post('/queue', ...adminOnly, async (ctx) => {
    const input = validate(queueCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await queues.create(ctx.state.user, input);
  });

  router.put('/queue/:id', ...adminOnly, async (ctx) => {
    const id = routeId(ctx.params.id, ErrorCode.ERR_NO_QUEUE_FOUND);
    ctx.body = await queues.update(ctx.state.user, id, validate(queueUpdateSchema, ctx.request.body));
  });

  router.delete('/queue/:id', ...adminOnly, async (ctx) => {
    await queues.remove(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_QUEUE_FOUND));
    ctx.status = 204;
  });

  return router;
}
