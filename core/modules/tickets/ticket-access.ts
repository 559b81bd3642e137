import type { Knex } from 'knex';
import { isAdmin, type AuthUser } from '../../auth/auth-user.js';
import type { Ticket } from './ticket.model.js';

/**
 * Who is looking at tickets, with what the visibility rule needs (spec §4 and §6): admins see the
 * whole company; a user sees a ticket assigned to them, one of their queues' tickets, and tickets
 * without a queue when their allTicket is enabled. The same rule as the socket rooms of
 * ticket-events.ts, so a list and its live events agree.
 */
export interface TicketViewer {
  user: AuthUser;
  admin: boolean;
  /** The user's queues (user_queues). */
  queueIds: number[];
  /** allTicket enabled: may see tickets that have no queue. */
  queueless: boolean;
}

export async function loadViewer(db: Knex, user: AuthUser): Promise<TicketViewer> {
  const [queues, row] = await Promise.all([
    db('userQueues').where({ userId: user.id }).select('queueId') as Promise<{ queueId: number }[]>,
    db('users').where({ id: user.id }).first('allTicket') as Promise<{ allTicket: string } | undefined>,
  ]);
  return { user, admin: isAdmin(user), queueIds: queues.map((q) => q.queueId), queueless: row?.allTicket === 'enabled' };
}

export function canSee(viewer: TicketViewer, ticket: Pick<Ticket, 'companyId' | 'userId' | 'queueId'>): boolean {
  if (ticket.companyId !== viewer.user.companyId) return false;
  if (viewer.admin) return true;
  if (ticket.userId === viewer.user.id) return true;
  return ticket.queueId === null ? viewer.queueless : viewer.queueIds.includes(ticket.queueId);
}

/** Narrows a query on `tickets` to what the viewer may see (nothing to add for admins). */
export function whereVisible(query: Knex.QueryBuilder, viewer: TicketViewer): Knex.QueryBuilder {
  if (viewer.admin) return query;
  return query.where((w) => {
    w.where('tickets.userId', viewer.user.id);
    if (viewer.queueIds.length > 0) w.orWhereIn('tickets.queueId', viewer.queueIds);
    if (viewer.queueless) w.orWhereNull('tickets.queueId');
  });
}
