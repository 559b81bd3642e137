import { ErrorCode, routeId, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import { apiTokensOf } from './api-tokens-of.js';
import { createApiTokenSchema } from './api-tokens.schema.js';

/** /api/api-tokens: admins list, make and revoke the company's API tokens (behind login and the flag). */
export function apiTokenRoutes(router: AppRouter, app: PluginApp): void {
  const tokens = apiTokensOf(app);

  router.get('/api-tokens', async (ctx) => {
    ctx.body = { tokens: await tokens.list(ctx.state.user) };
  });

  router.post('/api-tokens', async (ctx) => {
    const input = validate(createApiTokenSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await tokens.create(ctx.state.user, input);
  });

  router.delete('/api-tokens/:id', async (ctx) => {
    await tokens.revoke(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_API_TOKEN_FOUND));
    ctx.status = 204;
  });
}
