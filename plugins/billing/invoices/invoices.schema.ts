import { pageNumberQuery, z } from 'atende/plugin';

export const INVOICES_PAGE_SIZE = 20;

export const listInvoicesQuery = z.object({
  searchParam: z.string().trim().max(100).optional().default(''),
  pageNumber: pageNumberQuery,
});

export type ListInvoicesQuery = z.infer<typeof listInvoicesQuery>;
