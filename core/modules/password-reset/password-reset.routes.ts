import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { changePasswordSchema, requestResetSchema } from './password-reset.schema.js';

/** The spec's public recovery calls: ask for a link by e-mail, then set the password with it. */
export function passwordResetRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const resets = c.services.passwordResets;

  router.post('/users/reset/password', async (ctx) => {
    await resets.request(validate(requestResetSchema, ctx.request.body), ctx.ip);
    ctx.body = { message: 'If an account uses this e-mail, a recovery link is on its way to it' };
  });

  router.post('/users/reset/change-password', async (ctx) => {
    await resets.change(validate(changePasswordSchema, ctx.request.body), ctx.ip);
    ctx.body = { message: 'Password changed' };
  });

  return router;
}
