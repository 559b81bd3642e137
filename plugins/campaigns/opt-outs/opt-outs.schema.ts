import { contactNumber, pageNumberQuery, z } from 'atende/plugin';

/** GET /campaign-opt-outs: 20 a page, newest first. */
export const OPT_OUTS_PAGE_SIZE = 20;

export const listOptOutsQuery = z.object({
  // Digits only, as numbers are kept: '+55 (11) 9…' finds the same entries.
  searchParam: z.string().trim().max(100, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
});

/** POST /campaign-opt-outs: a number as a contact's is written (canonical digits, the ninth digit put back). */
export const addOptOutSchema = z.object({ number: contactNumber });

export type ListOptOutsQuery = z.infer<typeof listOptOutsQuery>;
