/**
 * The keys of the query cache: the pages that load a record and the live frames that change it
 * name it the same way. Each key starts with its kind, so a kind (e.g. every search of one list)
 * can be updated or invalidated at once.
 */
export const queryKeys = {
  /** A paged list of `path` (usePagedList); without search, every search of it. */
  pagedList: (path: string, search?: string) => (search === undefined ? ['pagedList', path] : ['pagedList', path, search]),
  /** What GET `path` answers, e.g. '/whatsapp' or '/settings'; with `query`, one of its queries. */
  records: (path: string, query?: Record<string, unknown>) => (query === undefined ? ['records', path] : ['records', path, query]),
  /** A list of the tickets panel: its scope and filters (TicketsQuery). */
  tickets: (query: object) => ['tickets', query],
  /** The ticket of /tickets/:uuid. */
  ticket: (uuid: string) => ['ticket', uuid],
  /** The bell's tickets with unread messages, for one user and what decides which are theirs. */
  unreadTickets: (userId: number, scope: Record<string, unknown>) => ['unreadTickets', userId, scope],
  /** A company's admins with their e-mails (the super user's Usuário modal). */
  /** The messages shown in a ticket's conversation, page by page. */
  messages: (ticketId: number) => ['messages', ticketId],
} as const;
