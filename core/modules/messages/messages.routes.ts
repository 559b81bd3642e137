import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAuth } from '../../http/auth.middleware.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { routeId, validate } from '../../http/validate.js';
import { multipartBody, takeUploads } from '../media/media-upload.js';
import { editMessageSchema, listMessagesQuery, sendMediaFieldsSchema, sendMessageSchema } from './messages.schema.js';
import type { SendRequest } from './messages.service.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { z } from 'zod';
import type { RouteDoc } from '../../http/api-docs.js';
import { messagePageSchema, messageViewSchema } from '../../contract/view-schemas.js';

const NO_TICKET = ErrorCode.ERR_NO_TICKET_FOUND;
const NO_MESSAGE = ErrorCode.ERR_NO_MESSAGE_FOUND;
/** Files one message request may carry. */
const MAX_FILES = 10;

/** The public routes' descriptions (GET /api/openapi.json), with the schemas the routes validate with. */
export const messagesDocs: RouteDoc[] = [
  { method: 'GET', path: '/messages/:ticketId', tag: 'messages', summary: "A ticket's messages", description: '20 a page from the newest, each page oldest first.', query: listMessagesQuery, answer: { status: 200, description: 'A page of messages', schema: messagePageSchema } },
  {
    method: 'POST',
    path: '/messages/:ticketId',
    tag: 'messages',
    summary: 'Send on a ticket',
    description: 'A text (JSON), or files (multipart, the body as the first caption), queued for sending. The ticket must be open.',
    body: sendMessageSchema,
    multipart: { fields: sendMediaFieldsSchema, files: 'medias' },
    answer: { status: 201, description: 'The queued messages', schema: z.object({ messages: z.array(messageViewSchema) }) },
  },
  { method: 'DELETE', path: '/messages/:id', tag: 'messages', summary: 'Delete a sent message for everyone', answer: { status: 200, description: 'The message, deleted', schema: messageViewSchema } },
  { method: 'PUT', path: '/messages/:id', tag: 'messages', summary: 'Edit a sent text', body: editMessageSchema, answer: { status: 200, description: 'The message, edited', schema: messageViewSchema } },
];

/** Multipart only when the request is multipart: the same route takes JSON (the app's parser). */
const multipartMedias = multipartBody({ maxFiles: MAX_FILES, optional: true });

/** /api/messages: a ticket's conversation, sending on it, and deleting or editing what was sent. */
export function messagesRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const messages = c.services.messages;
  const auth = requireAuth(c);

  router.get('/messages/:ticketId', auth, async (ctx) => {
    const { pageNumber } = validate(listMessagesQuery, ctx.query);
    ctx.body = await messages.list(ctx.state.user, routeId(ctx.params.ticketId, NO_TICKET), pageNumber);
  });

  router.post('/messages/:ticketId', auth, multipartMedias, async (ctx) => {
    const ticketId = routeId(ctx.params.ticketId, NO_TICKET);
    let request: SendRequest;
    if (ctx.is('multipart')) {
      const fields = validate(sendMediaFieldsSchema, ctx.request.body);
      request = { body: fields.body, ptt: fields.ptt, quotedMsgId: fields.quotedMsgId, files: takeUploads(ctx, 'medias') };
    } else {
      const input = validate(sendMessageSchema, ctx.request.body);
      request = { body: input.body, quotedMsgId: input.quotedMsg?.id, quickMessageId: input.quickMessageId };
    }
    ctx.status = 201;
    ctx.body = { messages: await messages.send(ctx.state.user, ticketId, request) };
  });

  router.delete('/messages/:id', auth, async (ctx) => {
    ctx.body = await messages.remove(ctx.state.user, routeId(ctx.params.id, NO_MESSAGE));
  });

  router.put('/messages/:id', auth, async (ctx) => {
    const { body } = validate(editMessageSchema, ctx.request.body);
    ctx.body = await messages.edit(ctx.state.user, routeId(ctx.params.id, NO_MESSAGE), body);
  });

  return router;
}
