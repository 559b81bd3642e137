import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAuth } from '../../http/auth.middleware.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { actorOf } from '../../auth/auth-user.js';
import { routeId, validate } from '../../http/validate.js';
import { createTagSchema, listTagsQuery, syncTagsSchema, updateTagSchema } from './tags.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { z } from 'zod';
import type { RouteDoc } from '../../http/api-docs.js';
import { tagViewSchema } from '../../contract/view-schemas.js';

/** The public routes' descriptions (GET /api/openapi.json), with the schemas the routes validate with. */
export const tagsDocs: RouteDoc[] = [
  { method: 'GET', path: '/tags', tag: 'tags', summary: 'List tags', query: listTagsQuery, answer: { status: 200, description: 'A page of tags', schema: z.object({ tags: z.array(tagViewSchema), count: z.number().int(), hasMore: z.boolean() }) } },
  { method: 'GET', path: '/tags/list', tag: 'tags', summary: 'Every tag', answer: { status: 200, description: 'The tags', schema: z.array(tagViewSchema) } },
  { method: 'POST', path: '/tags/sync', tag: 'tags', summary: "Replace a ticket's tags", body: syncTagsSchema, answer: { status: 200, description: "The ticket's tags" } },
  { method: 'GET', path: '/tags/:id', tag: 'tags', summary: 'Show a tag', answer: { status: 200, description: 'The tag', schema: tagViewSchema } },
  { method: 'POST', path: '/tags', tag: 'tags', summary: 'Create a tag', body: createTagSchema, answer: { status: 201, description: 'The tag', schema: tagViewSchema } },
  { method: 'PUT', path: '/tags/:id', tag: 'tags', summary: 'Update a tag', body: updateTagSchema, answer: { status: 200, description: 'The tag', schema: tagViewSchema } },
  { method: 'DELETE', path: '/tags/:id', tag: 'tags', summary: 'Delete a tag', answer: { status: 204, description: 'Deleted' } },
];

/** /api/tags: every user of a company; the service holds who may delete and set the kanban flag. */
export function tagsRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const tags = c.services.tags;
  const auth = requireAuth(c);

  router.get('/tags', auth, async (ctx) => {
    ctx.body = await tags.list(ctx.state.user, validate(listTagsQuery, ctx.query));
  });

  router.get('/tags/list', auth, async (ctx) => {
    ctx.body = await tags.listAll(ctx.state.user);
  });

  router.post('/tags/sync', auth, async (ctx) => {
    const { tagIds, ...synced } = await tags.sync(ctx.state.user, validate(syncTagsSchema, ctx.request.body));
    // The ticket's row shows its tags: its audience hears the change.
    await c.services.tickets.publish(ctx.state.user.companyId, synced.ticketId, tagIds, actorOf(ctx.state.user));
    ctx.body = synced;
  });

  router.get('/tags/:id', auth, async (ctx) => {
    ctx.body = await tags.show(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_TAG_FOUND));
  });

  router.post('/tags', auth, async (ctx) => {
    const input = validate(createTagSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await tags.create(ctx.state.user, input);
  });

  router.put('/tags/:id', auth, async (ctx) => {
    const id = routeId(ctx.params.id, ErrorCode.ERR_NO_TAG_FOUND);
    ctx.body = await tags.update(ctx.state.user, id, validate(updateTagSchema, ctx.request.body));
  });

  router.delete('/tags/:id', auth, async (ctx) => {
    await tags.remove(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_TAG_FOUND));
    ctx.status = 204;
  });

  return router;
}
