import { ErrorCode, routeId, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import type { PromptsConfig } from './prompts-config.js';
import { promptsOf } from './prompts-of.js';
import { createPromptSchema, updatePromptSchema } from './prompts.schema.js';

const NOT_FOUND = ErrorCode.ERR_NO_PROMPT_FOUND;

/** /api/prompt (spec §7): the host puts login and the useOpenAi check in front of each route. */
export function promptsRoutes(router: AppRouter, app: PluginApp<PromptsConfig>): void {
  const prompts = promptsOf(app).service;

  router.get('/prompt', async (ctx) => {
    ctx.body = await prompts.list(ctx.state.user);
  });

  router.get('/prompt/:id', async (ctx) => {
    ctx.body = await prompts.show(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/prompt', async (ctx) => {
    const input = validate(createPromptSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await prompts.create(ctx.state.user, input);
  });

  router.put('/prompt/:id', async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await prompts.update(ctx.state.user, id, validate(updatePromptSchema, ctx.request.body));
  });

  router.delete('/prompt/:id', async (ctx) => {
    ctx.body = await prompts.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });
}
