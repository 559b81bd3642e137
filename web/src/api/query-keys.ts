/**
 * The keys of the query cache: the pages that load a record and the live frames that change it
 * name it the same way. Each key starts with its kind, so a kind (e.g. every search of one list)
 * can be updated or invalidated at once.
 */
export const queryKeys = {
  /** A paged list of `path` (usePagedList); without search, every search of it. */
  pagedList: (path: string, search?: string) => (search === undefined ? ['pagedList', path] : ['pagedList', path, search]),
  /** A whole list of `path`, e.g. '/whatsapp' or '/settings'. */
  records: (path: string) => ['records', path],
  /** The ticket of /tickets/:uuid. */
  ticket: (uuid: string) => ['ticket', uuid],
  /** The messages shown in a ticket's conversation, page by page. */
  messages: (ticketId: number) => ['messages', ticketId],
} as const;
