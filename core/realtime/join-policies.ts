import { z } from 'zod';
import type { RealtimeHub } from './hub.js';

const ticketStatus = z.enum(['open', 'pending', 'closed']);

/**
 * The rooms every user may join inside their own company. Rooms that need a record check
 * (a ticket's chat box) are defined by the module that owns the record.
 */
export function defineCoreJoinPolicies(hub: RealtimeHub): void {
  hub.definePolicy('joinNotification', () => 'notification');
  hub.definePolicy('joinTickets', (_user, data) => {
    const status = ticketStatus.safeParse(data);
    return status.success ? `status:${status.data}` : null;
  });
}
