import type { Next } from 'koa';
import { isAdmin } from '../auth/auth-user.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { Container } from '../container.js';
import type { AppContext } from './context.js';

/**
 * Bearer access token → ctx.state.user, checked against the users table on every request; a
 * company API token (a registered prefix) is checked against the route's scope as well.
 */
export function requireAuth(c: Container) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    const header = ctx.get('Authorization');
    const [scheme, token] = header.split(' ');
    if (scheme !== 'Bearer' || !token) throw new UnauthorizedError();
    ctx.state.user = await c.services.auth.authenticateRequest(token, ctx.method, ctx.path);
    await next();
  };
}

/** Company administrators (and super users). */
export function requireAdmin() {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    if (!isAdmin(ctx.state.user)) throw new ForbiddenError();
    await next();
  };
}

/** Platform administrators: the super flag. */
export function requireSuper() {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    if (!ctx.state.user.super) throw new ForbiddenError();
    await next();
  };
}
