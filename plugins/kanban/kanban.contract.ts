/**
 * The kanban API's answers, declared once for the server and the plugin's pages (which import them
 * as types). No imports, so a page pulls in nothing of the server.
 */

/** A lane of the board: a tag of the company with the kanban flag. */
export interface KanbanLane {
  id: number;
  name: string;
  color: string;
}

/** GET /tags/kanban (the spec's name for the list). */
export interface KanbanLanesAnswer {
  lista: KanbanLane[];
}

/** PUT and DELETE /ticket-tags/:ticketId: the ticket's tags now. */
export interface TicketTagsAnswer {
  ticketId: number;
  tags: { id: number; name: string; color: string; kanban: number }[];
}
