import { ErrorCode, MAX_ID, NotFoundError, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import { chatsOf } from './chats-of.js';
import { createChatSchema, pageQuery, readChatSchema, sendMessageSchema, updateChatSchema } from './chats.schema.js';
import type { ChatKey } from './chats.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** :id is the chat's id or its uuid (the page's address); anything else names no chat (404). */
function chatKey(raw: string | undefined): ChatKey {
  if (raw && /^\d{1,10}$/.test(raw) && Number(raw) > 0 && Number(raw) <= MAX_ID) return { id: Number(raw) };
  if (raw && UUID.test(raw)) return { uuid: raw.toLowerCase() };
  throw new NotFoundError(ErrorCode.ERR_NO_CHAT_FOUND, 'Chat not found');
}

/** /api/chats: the host puts login and the useInternalChat check in front of each route. */
export function chatsRoutes(router: AppRouter, app: PluginApp): void {
  const chats = chatsOf(app);

  router.get('/chats', async (ctx) => {
    ctx.body = await chats.list(ctx.state.user, validate(pageQuery, ctx.query).pageNumber);
  });

  router.post('/chats', async (ctx) => {
    const input = validate(createChatSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await chats.create(ctx.state.user, input);
  });

  router.get('/chats/:id', async (ctx) => {
    ctx.body = await chats.show(ctx.state.user, chatKey(ctx.params.id));
  });

  router.put('/chats/:id', async (ctx) => {
    const key = chatKey(ctx.params.id);
    ctx.body = await chats.update(ctx.state.user, key, validate(updateChatSchema, ctx.request.body));
  });

  router.delete('/chats/:id', async (ctx) => {
    await chats.remove(ctx.state.user, chatKey(ctx.params.id));
    ctx.status = 204;
  });

  router.post('/chats/:id/read', async (ctx) => {
    const key = chatKey(ctx.params.id);
    ctx.body = await chats.markRead(ctx.state.user, key, validate(readChatSchema, ctx.request.body).userId);
  });

  router.get('/chats/:id/messages', async (ctx) => {
    const key = chatKey(ctx.params.id);
    ctx.body = await chats.messages(ctx.state.user, key, validate(pageQuery, ctx.query).pageNumber);
  });

  router.post('/chats/:id/messages', async (ctx) => {
    const key = chatKey(ctx.params.id);
    const { message } = validate(sendMessageSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await chats.send(ctx.state.user, key, message);
  });
}
