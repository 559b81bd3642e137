import { idParam } from '../../http/validate.js';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { RealtimeHub } from '../../realtime/hub.js';
import { visibleTicket } from './ticket-access.js';

/**
 * joinChatBox(ticketId): only a ticket the user may see, by the rule GET /tickets/:id applies.
 * The room carries nothing of its own: ticket frames go to the ticket's audience (ticket-events.ts),
 * so a chat box whose ticket moves out of the user's sight goes quiet at once.
 */
export function defineTicketJoinPolicies(hub: RealtimeHub, db: Database): void {
  hub.definePolicy('joinChatBox', async (user, data) => {
    const id = idParam.safeParse(data);
    if (!id.success) return null;
    try {
      await visibleTicket(db, user, id.data);
      return `ticket:${id.data}`;
    } catch (err) {
      if (err instanceof AppError) return null;
      throw err;
    }
  });
}
