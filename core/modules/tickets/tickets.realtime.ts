import { z } from 'zod';
import type { Database } from '../../db/database.js';
import type { RealtimeHub } from '../../realtime/hub.js';

const ticketId = z.coerce.number().int().positive();

/** joinChatBox(ticketId): only a ticket of the caller's own company. */
export function defineTicketJoinPolicies(hub: RealtimeHub, db: Database): void {
  hub.definePolicy('joinChatBox', async (user, data) => {
    const id = ticketId.safeParse(data);
    if (!id.success) return null;
    const ticket = await db('tickets').where({ id: id.data, companyId: user.companyId }).first('id');
    return ticket ? `ticket:${id.data}` : null;
  });
}
