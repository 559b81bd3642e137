import { z } from 'zod';
import { booleanQuery, idParam, pageNumberQuery } from '../../http/validate.js';

/** GET /messages/:ticketId: 20 a page, page 1 the newest. */
export const MESSAGES_PAGE_SIZE = 20;

/** WhatsApp refuses longer texts. */
const MAX_BODY = 65_536;

const body = z.string({ error: 'Must be text' }).max(MAX_BODY, 'Too Long!');

export const listMessagesQuery = z.object({ pageNumber: pageNumberQuery });

/**
 * POST /messages/:ticketId as JSON: a text (optionally a reply), or a quick reply's attachment.
 * The spec's client also sends read, fromMe and mediaUrl: ignored.
 */
export const sendMessageSchema = z.object({
  body: body.default(''),
  quotedMsg: z.object({ id: idParam }).nullish(),
  quickMessageId: idParam.optional(),
});

/** POST /messages/:ticketId as multipart: the fields that come with the `medias` files. */
export const sendMediaFieldsSchema = z.object({
  body: body.default(''),
  /** The composer's recording: send audio as a voice note. */
  ptt: booleanQuery.default(false),
  quotedMsgId: idParam.optional(),
});

export const editMessageSchema = z.object({
  body: body.trim().min(1, 'Obrigatório'),
});

export type SendMessageInput = z.infer<typeof sendMessageSchema>;
