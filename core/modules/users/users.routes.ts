import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAdmin, requireAuth } from '../../http/auth.middleware.js';
import { routeId, validate } from '../../http/validate.js';
import { setRefreshCookie } from '../auth/refresh-cookie.js';
import { createUserSchema, listNamesQuery, listUsersQuery, updateUserSchema } from './users.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

export function usersRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const users = c.services.users;
  const auth = requireAuth(c);

  router.get('/users', auth, requireAdmin(), async (ctx) => {
    ctx.body = await users.list(ctx.state.user, validate(listUsersQuery, ctx.query));
  });

  router.get('/users/list', auth, async (ctx) => {
    const { companyId } = validate(listNamesQuery, ctx.query);
    ctx.body = { users: await users.listNames(ctx.state.user, companyId) };
  });

  router.get('/users/:id', auth, async (ctx) => {
    ctx.body = await users.show(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_USER_FOUND));
  });

  router.post('/users', auth, requireAdmin(), async (ctx) => {
    const input = validate(createUserSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await users.createFor(ctx.state.user, input);
  });

  // A user who changes their own password keeps this session: the answer carries its new access
  // token (and the new refresh cookie); every other session of that user has ended.
  router.put('/users/:id', auth, async (ctx) => {
    const id = routeId(ctx.params.id, ErrorCode.ERR_NO_USER_FOUND);
    const { user, passwordChanged } = await users.update(ctx.state.user, id, validate(updateUserSchema, ctx.request.body));
    if (passwordChanged && id === ctx.state.user.id) {
      const session = await c.services.auth.renewSession(id);
      setRefreshCookie(ctx, c.config, session.refreshToken);
      ctx.body = { ...user, token: session.token };
      return;
    }
    ctx.body = user;
  });

  router.delete('/users/:id', auth, requireAdmin(), async (ctx) => {
    await users.remove(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_USER_FOUND));
    ctx.status = 204;
  });

  return router;
}
