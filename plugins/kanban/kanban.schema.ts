import { jsonIdsQuery, z } from 'atende/plugin';

/** GET /ticket/kanban?queueIds=[1,2]: the queues to show (the caller's own, for an agent); none: every visible one. */
export const kanbanCardsQuery = z.object({
  queueIds: jsonIdsQuery.optional(),
});
