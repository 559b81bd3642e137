import { z } from 'zod';
import { booleanQuery, id, idParam, jsonIdsQuery, pageNumberQuery } from '../../http/validate.js';
import { required } from '../users/users.schema.js';

/** GET /tickets: 40 a page, newest update first. */
export const TICKETS_PAGE_SIZE = 40;

const status = z.enum(['open', 'pending', 'closed'], { error: 'Must be open, pending or closed' });

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'Must be a date YYYY-MM-DD');

export const listTicketsQuery = z.object({
  pageNumber: pageNumberQuery,
  status: status.optional(),
  /** Lowercased: matches contact name, number or any message of the ticket. */
  searchParam: z.string().trim().toLowerCase().max(200, 'Too Long!').default(''),
  showAll: booleanQuery.default(false),
  tags: jsonIdsQuery.optional(),
  users: jsonIdsQuery.optional(),
  queueIds: jsonIdsQuery.optional(),
  /** Created on this day (the company's time zone). */
  date: day.optional(),
  /** Updated on this day (the company's time zone). */
  updatedAt: day.optional(),
  withUnreadMessages: booleanQuery.default(false),
});

/** POST /tickets: the ticket opens assigned to the caller; `userId` and `status` are the client's echo and ignored. */
export const createTicketSchema = z.object({
  contactId: z.coerce.number({ error: required('Selecione um contato') }).int().positive('Selecione um contato').pipe(id),
  queueId: idParam.nullish(),
  whatsappId: idParam.nullish(),
  userId: idParam.nullish(),
  status: status.optional(),
});

/**
 * PUT /tickets/:id. `queueId` names the target queue of a transfer (null or absent keeps the
 * queue); `userId` null unassigns; the service decides which transition the body asks for.
 */
export const updateTicketSchema = z.object({
  status: status.optional(),
  userId: idParam.nullish(),
  queueId: idParam.nullish().transform((value) => value ?? undefined),
  whatsappId: idParam.nullish().transform((value) => value ?? undefined),
  useIntegration: z.boolean({ error: 'Must be true or false' }).optional(),
  promptId: idParam.nullish(),
  integrationId: idParam.nullish(),
});

/** GET /tickets/u/:uuid */
export const ticketUuid = z.uuid();

/** Ticket notes (spec §5: at least 2 characters). */
export const createNoteSchema = z.object({
  note: z.string({ error: required('Observação muito curta') }).trim().min(2, 'Observação muito curta').max(5000, 'Too Long!'),
  ticketId: idParam,
  contactId: idParam,
});

export const listNotesQuery = z.object({
  ticketId: idParam,
  contactId: idParam,
});

export type ListTicketsQuery = z.infer<typeof listTicketsQuery>;
export type CreateTicketInput = z.infer<typeof createTicketSchema>;
export type UpdateTicketInput = z.infer<typeof updateTicketSchema>;
export type CreateNoteInput = z.infer<typeof createNoteSchema>;
export type ListNotesQuery = z.infer<typeof listNotesQuery>;
