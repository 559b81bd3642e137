import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAuth } from '../../http/auth.middleware.js';
import { validate } from '../../http/validate.js';
import { UnauthorizedError } from '../../errors.js';
import { loginSchema } from './auth.schema.js';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie.js';

export function authRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const auth = c.services.auth;

  router.post('/auth/login', async (ctx) => {
    const input = validate(loginSchema, ctx.request.body);
    const session = await auth.login(input, ctx.ip);
    setRefreshCookie(ctx, c.config, session.refreshToken);
    ctx.body = { token: session.token, user: session.user };
  });

  // A refresh that fails for any reason also drops the cookie: that session is over.
  router.post('/auth/refresh_token', async (ctx) => {
    try {
      const refreshToken = readRefreshCookie(ctx);
      if (!refreshToken) throw new UnauthorizedError();
      const session = await auth.refresh(refreshToken);
      setRefreshCookie(ctx, c.config, session.refreshToken);
      ctx.body = { token: session.token, user: session.user };
    } catch (err) {
      clearRefreshCookie(ctx, c.config);
      throw err;
    }
  });

  router.delete('/auth/logout', requireAuth(c), async (ctx) => {
    await auth.logout(ctx.state.user);
    clearRefreshCookie(ctx, c.config);
    ctx.status = 204;
  });

  router.get('/auth/me', requireAuth(c), async (ctx) => {
    ctx.body = { user: await auth.me(ctx.state.user) };
  });

  return router;
}
