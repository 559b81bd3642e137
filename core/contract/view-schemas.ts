import { z } from 'zod';
import type { ContactDetail, ContactView, MessageView, QueueView, TagView, TicketNoteView, TicketView } from './views.js';

/**
 * The API's answers (views.ts) as zod schemas, for the OpenAPI document only (the server's
 * answers are typed by views.ts; the web never imports zod from here). Each is checked against
 * its interface, so a field renamed or retyped there fails the typecheck here.
 */

const instant = z.string().meta({ format: 'date-time' });
const named = z.object({ id: z.number().int(), name: z.string() });

export const queueSummarySchema = z.object({ id: z.number().int(), name: z.string(), color: z.string() });

const messageFields = {
  id: z.number().int(),
  wid: z.string(),
  ticketId: z.number().int(),
  contactId: z.number().int().nullable(),
  userId: z.number().int().nullable().describe('The agent who sent it; null when an API token did (see apiToken)'),
  apiToken: z.object({ id: z.number().int(), name: z.string() }).nullable().describe('The company API token that sent it; null otherwise'),
  body: z.string(),
  fromMe: z.boolean(),
  bot: z.string().nullable(),
  read: z.boolean(),
  ack: z.number().int().describe('0 waiting, 1 sent, 2 delivered, 3 read, 4–5 played'),
  mediaType: z.enum(['image', 'audio', 'video', 'application', 'sticker', 'locationMessage', 'vcard', 'call_log']).nullable(),
  mediaUrl: z.string().nullable().describe('GET it with the same bearer'),
  mediaName: z.string().nullable(),
  mediaMime: z.string().nullable(),
  transcript: z.string().nullable(),
  location: z.object({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional() }).nullable(),
  vcard: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  sendStatus: z.enum(['received', 'queued', 'sent', 'failed']),
  sendError: z.string().nullable(),
  createdAt: instant,
  updatedAt: instant,
};

export const messageViewSchema: z.ZodType<MessageView> = z.object({
  ...messageFields,
  // One level: a quoted message's own quote is not followed.
  quotedMsg: z.object({ ...messageFields, quotedMsg: z.null() }).nullable(),
});

export const ticketViewSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  companyId: z.number().int(),
  status: z.enum(['pending', 'open', 'closed']),
  unreadMessages: z.number().int(),
  lastMessage: z.string(),
  isGroup: z.boolean(),
  fromMe: z.boolean(),
  userId: z.number().int().nullable(),
  contactId: z.number().int(),
  whatsappId: z.number().int().nullable(),
  queueId: z.number().int().nullable(),
  queueOptionId: z.number().int().nullable(),
  chatbot: z.boolean(),
  useIntegration: z.boolean(),
  integrationId: z.number().int().nullable(),
  promptId: z.number().int().nullable(),
  amountUsedBotQueues: z.number().int(),
  createdAt: instant,
  updatedAt: instant,
  contact: z.object({
    id: z.number().int(),
    uuid: z.string(),
    name: z.string(),
    number: z.string(),
    email: z.string(),
    profilePicUrl: z.string(),
    isGroup: z.boolean(),
  }),
  queue: queueSummarySchema.nullable(),
  user: named.nullable(),
  whatsapp: named.nullable(),
  tags: z.array(z.object({ id: z.number().int(), name: z.string(), color: z.string() })),
}) satisfies z.ZodType<TicketView>;

export const contactViewSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  companyId: z.number().int(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  whatsappId: z.number().int().nullable(),
  createdAt: instant,
  updatedAt: instant,
}) satisfies z.ZodType<ContactView>;

export const contactDetailSchema = contactViewSchema.extend({
  extraInfo: z.array(z.object({ id: z.number().int(), name: z.string(), value: z.string() })),
  whatsapp: named.nullable(),
}) satisfies z.ZodType<ContactDetail>;

export const tagViewSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  color: z.string(),
  kanban: z.number().int(),
  userId: z.number().int().nullable(),
  ticketsCount: z.number().int(),
  createdAt: instant,
  updatedAt: instant,
}) satisfies z.ZodType<TagView>;

export const queueViewSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  completionMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  orderQueue: z.number().int().nullable(),
  integrationId: z.number().int().nullable(),
  promptId: z.number().int().nullable(),
  schedules: z.array(
    z.object({
      weekday: z.string(),
      weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
      startTime: z.string(),
      endTime: z.string(),
    }),
  ),
  createdAt: instant,
  updatedAt: instant,
}) satisfies z.ZodType<QueueView>;

export const ticketNoteViewSchema = z.object({
  id: z.number().int(),
  note: z.string(),
  ticketId: z.number().int(),
  contactId: z.number().int(),
  userId: z.number().int().nullable(),
  user: named.nullable(),
  apiToken: named.nullable().describe('The company API token that wrote it; null otherwise'),
  createdAt: instant,
  updatedAt: instant,
}) satisfies z.ZodType<TicketNoteView>;

/** GET /tickets and /messages/:ticketId pages. */
export const ticketPageSchema = z.object({ tickets: z.array(ticketViewSchema), count: z.number().int(), hasMore: z.boolean() });
export const messagePageSchema = z.object({ messages: z.array(messageViewSchema), ticket: ticketViewSchema, count: z.number().int(), hasMore: z.boolean() });
