import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAuth } from '../../http/auth.middleware.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { routeId, validate } from '../../http/validate.js';
import { createTagSchema, listTagsQuery, syncTagsSchema, updateTagSchema } from './tags.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

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
    await c.services.tickets.publish(ctx.state.user.companyId, synced.ticketId, tagIds);
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
