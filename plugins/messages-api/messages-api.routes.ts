import { multipartBody, PlanFeatureDisabledError, routeId, takeUploads, validate, ErrorCode, type AppContext, type AppRouter, type PluginApp } from 'atende/plugin';
import type { TokenHolder } from './api-tokens.service.js';
import { messagesApiOf } from './messages-api-of.js';
import { idempotencyKey, MAX_FILES, sendSchema } from './send.schema.js';

type App = PluginApp<{ rateLimitPerMinute: number }>;
const NO_CONNECTION = ErrorCode.ERR_NO_WAPP_FOUND;

/** /api/messages-api/tokens: admins make, list and revoke their connections' tokens (behind login and the flag). */
export function tokenRoutes(router: AppRouter, app: App): void {
  const { tokens } = messagesApiOf(app);

  router.get('/messages-api/tokens', async (ctx) => {
    ctx.body = { tokens: await tokens.list(ctx.state.user) };
  });

  router.post('/messages-api/tokens/:whatsappId', async (ctx) => {
    ctx.status = 201;
    ctx.body = await tokens.generate(ctx.state.user, routeId(ctx.params.whatsappId, NO_CONNECTION));
  });

  router.delete('/messages-api/tokens/:whatsappId', async (ctx) => {
    await tokens.revoke(ctx.state.user, routeId(ctx.params.whatsappId, NO_CONNECTION));
    ctx.status = 204;
  });
}

/** POST /api/messages/send: no login; the bearer is the connection's token. */
export function sendRoutes(router: AppRouter, app: App): void {
  const { tokens, sender, rateLimit } = messagesApiOf(app);
  const holders = new WeakMap<AppContext, TokenHolder>();

  // The token, the plan and the rate are checked before any file is read.
  const holderOf = async (ctx: AppContext, next: () => Promise<unknown>) => {
    const holder = await tokens.authenticate(ctx.get('authorization'));
    if (!(await app.services.plans.isEnabled(holder.companyId, 'useExternalApi'))) throw new PlanFeatureDisabledError('useExternalApi');
    rateLimit.take(holder.tokenId);
    holders.set(ctx, holder);
    await next();
  };

  router.post('/messages/send', holderOf, multipartBody({ maxFiles: MAX_FILES, optional: true }), async (ctx) => {
    const holder = holders.get(ctx)!;
    const input = validate(sendSchema, ctx.request.body);
    const files = ctx.is('multipart') && Object.keys(ctx.request.files ?? {}).length > 0 ? takeUploads(ctx, 'medias') : [];
    const rawKey = ctx.get('idempotency-key');
    const key = rawKey ? validate(idempotencyKey, rawKey) : undefined;
    ctx.body = await sender.send(holder, input, files, key);
  });
}
