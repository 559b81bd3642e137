import { z } from 'zod';
import { idParam, pageNumberQuery } from '../../http/validate.js';
import { required } from '../users/users.schema.js';

/** The spec's messages for a tag name (§5): required 'Obrigatório', at least 3 'Mensagem muito curta'. */
const name = z.string({ error: required('Obrigatório') }).trim().min(1, 'Obrigatório').min(3, 'Mensagem muito curta').max(100, 'Too Long!');
/** A CSS hex colour (#rgb, #rrggbb or with alpha), what the colour picker sends; the column holds 9. */
const color = z
  .string({ error: 'Must be a hex colour' })
  .trim()
  .regex(/^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i, 'Must be a hex colour');
/** 0/1 as the spec has it; booleans from a switch are taken too. */
const kanban = z
  .union([z.literal(0), z.literal(1), z.boolean()], { error: 'Must be 0 or 1' })
  .transform((value): 0 | 1 => (value === true || value === 1 ? 1 : 0));

export const DEFAULT_TAG_COLOR = '#5C59A0';

export const createTagSchema = z.object({
  name,
  color: color.default(DEFAULT_TAG_COLOR),
  kanban: kanban.optional(),
});

export const updateTagSchema = z.object({
  name: name.optional(),
  color: color.optional(),
  kanban: kanban.optional(),
});

/** GET /tags: 20 per page, by name; the search is lowercased. */
export const TAGS_PAGE_SIZE = 20;

export const listTagsQuery = z.object({
  searchParam: z.string().trim().toLowerCase().max(100, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
});

/** POST /tags/sync: the ticket's whole set of tags (an empty list clears them). */
export const syncTagsSchema = z.object({
  ticketId: idParam,
  tags: z
    .array(z.object({ id: idParam }), { error: 'Must be a list of { id }' })
    .max(100, 'Too many tags')
    .transform((tags) => [...new Set(tags.map((t) => t.id))]),
});

export type CreateTagInput = z.infer<typeof createTagSchema>;
export type UpdateTagInput = z.infer<typeof updateTagSchema>;
export type SyncTagsInput = z.infer<typeof syncTagsSchema>;
