import type { Knex } from 'knex';
import { isAdmin, type AuthUser } from '../../auth/auth-user.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import { Ticket } from './ticket.model.js';
import { ErrorCode } from '../../contract/error-codes.js';

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

type Visibility = Pick<Ticket, 'companyId' | 'userId' | 'queueId'>;

/** How a guard loads the ticket it checks: the bare row, or with its graph (loadTicket). */
export type TicketLoader = (db: Knex, companyId: number, id: number) => Promise<Ticket | undefined>;

export async function loadViewer(db: Knex, user: AuthUser): Promise<TicketViewer> {
  const [queues, row] = await Promise.all([
    db('userQueues').where({ userId: user.id }).select('queueId') as Promise<{ queueId: number }[]>,
    db('users').where({ id: user.id }).first('allTicket') as Promise<{ allTicket: string } | undefined>,
  ]);
  return { user, admin: isAdmin(user), queueIds: queues.map((q) => q.queueId), queueless: row?.allTicket === 'enabled' };
}

export function canSee(viewer: TicketViewer, ticket: Visibility): boolean {
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

/**
 * The ticket if the actor may see it, as the read answers: 404 ERR_NO_TICKET_FOUND when it does
 * not exist in the actor's company, 403 ERR_NO_PERMISSION when it is not the actor's to see.
 */
export async function assertVisible<T extends Visibility>(db: Knex, actor: AuthUser, ticket: T | undefined): Promise<T> {
  if (!ticket || ticket.companyId !== actor.companyId) throw new NotFoundError(ErrorCode.ERR_NO_TICKET_FOUND);
  if (!canSee(await loadViewer(db, actor), ticket)) throw new ForbiddenError();
  return ticket;
}

/**
 * The one guard of everything that reaches a ticket by its id (routes, writes through a message,
 * a note or a tag sync, socket joins): the ticket, loaded by `load`, if the actor may see it.
 */
export async function visibleTicket(db: Knex, actor: AuthUser, id: number, load: TicketLoader = ticketRow): Promise<Ticket> {
  return assertVisible(db, actor, await load(db, actor.companyId, id));
}

async function ticketRow(db: Knex, companyId: number, id: number): Promise<Ticket | undefined> {
  return Ticket.query(db).findOne({ id, companyId });
}
