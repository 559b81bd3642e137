import { pageNumberQuery, required, z } from 'atende/plugin';
import { DEFAULT_PRIORITY, type AnnouncementPriority } from './announcement.contract.js';

/** GET /announcements: 20 a page. */
export const ANNOUNCEMENTS_PAGE_SIZE = 20;
/** GET /announcements/active: the top bar lists at most this many (the most important first). */
export const ACTIVE_LIMIT = 50;

/** The spec's message (§5): title and text required, 'Obrigatório'. */
const title = z.string({ error: required('Obrigatório') }).trim().min(1, 'Obrigatório').max(255, 'Too Long!');
const text = z.string({ error: required('Obrigatório') }).trim().min(1, 'Obrigatório').max(10_000, 'Too Long!');
const PRIORITY_MESSAGE = 'Must be 1 (high), 2 (medium) or 3 (low)';
const priority = z
  .number()
  .int(PRIORITY_MESSAGE)
  .min(1, PRIORITY_MESSAGE)
  .max(3, PRIORITY_MESSAGE)
  .transform((value) => value as AnnouncementPriority);
const status = z.boolean();

export const createAnnouncementSchema = z.object({
  title,
  text,
  priority: priority.default(DEFAULT_PRIORITY),
  status: status.default(true),
});

export const updateAnnouncementSchema = z.object({
  title: title.optional(),
  text: text.optional(),
  priority: priority.optional(),
  status: status.optional(),
});

export const listAnnouncementsQuery = z.object({
  searchParam: z.string().trim().toLowerCase().max(100, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
});

export type CreateAnnouncementInput = z.infer<typeof createAnnouncementSchema>;
export type UpdateAnnouncementInput = z.infer<typeof updateAnnouncementSchema>;
export type ListAnnouncementsQuery = z.infer<typeof listAnnouncementsQuery>;
