import { booleanQuery, contactEmail, contactName, contactNumber, idParam, pageNumberQuery, required, z } from 'atende/plugin';

/** Lists and items come 20 a page, by name. */
export const CONTACT_LISTS_PAGE_SIZE = 20;
export const CONTACT_LIST_ITEMS_PAGE_SIZE = 20;

/** The spec shows no rule for a list's name: required, at most 100 characters. */
const listName = z.string({ error: required('Required') }).trim().min(1, 'Required').max(100, 'Too Long!');

export const contactListSchema = z.object({ name: listName });

const search = z.string().trim().toLowerCase().max(100, 'Too Long!').default('');

export const listContactListsQuery = z.object({ searchParam: search, pageNumber: pageNumberQuery });

/**
 * The spec's item rules (§5): name required, 2 to 50 ('Too Short!', 'Too Long!', 'Required');
 * number 8 to 50 digits, kept canonical (the Brazilian ninth digit); e-mail valid ('Invalid email')
 * or empty. These are the core's contact rules, through the SDK.
 */
export const createItemSchema = z.object({
  name: contactName,
  number: contactNumber,
  email: contactEmail.default(''),
  // The spec's client sends it; the list is checked to be the caller company's.
  contactListId: idParam,
});

export const updateItemSchema = z.object({ name: contactName.optional(), number: contactNumber.optional(), email: contactEmail.optional() });

export const listItemsQuery = z.object({
  searchParam: search,
  pageNumber: pageNumberQuery,
  contactListId: idParam,
});

export const uploadQuery = z.object({ dryRun: booleanQuery.default(false) });

export type ListContactListsQuery = z.infer<typeof listContactListsQuery>;
export type CreateItemInput = z.infer<typeof createItemSchema>;
export type UpdateItemInput = z.infer<typeof updateItemSchema>;
export type ListItemsQuery = z.infer<typeof listItemsQuery>;
