import { z } from 'zod';
import { pageNumberQuery } from '../../http/validate.js';
import { required } from '../users/users.schema.js';

/** Commercial spec §5: the shortcode is required ('Obrigatório'). */
const shortcode = z.string({ error: required('Obrigatório') }).trim().min(1, 'Obrigatório').max(100, 'Too Long!');
const message = z.preprocess((value) => (value === null ? '' : value), z.string({ error: 'Must be text' }).max(10_000, 'Too Long!'));
const geral = z.boolean({ error: 'Must be true or false' });

export const createQuickMessageSchema = z.object({
  shortcode,
  message: message.default(''),
  geral: geral.default(false),
});

export const updateQuickMessageSchema = z.object({
  shortcode: shortcode.optional(),
  message: message.optional(),
  geral: geral.optional(),
});

/** GET /quick-messages: 20 per page, by shortcode; the search (lowercased) looks at shortcode and message. */
export const QUICK_MESSAGES_PAGE_SIZE = 20;

export const listQuickMessagesQuery = z.object({
  searchParam: z.string().trim().toLowerCase().max(100, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
});

export type CreateQuickMessageInput = z.infer<typeof createQuickMessageSchema>;
export type UpdateQuickMessageInput = z.infer<typeof updateQuickMessageSchema>;
