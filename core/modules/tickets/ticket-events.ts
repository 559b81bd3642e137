import type { Knex } from 'knex';
import type { AuthUser } from '../../auth/auth-user.js';
import type { RealtimeHub, RoomsProvider } from '../../realtime/hub.js';
import type { Contact } from '../contacts/contact.model.js';
import type { Message } from '../messages/message.model.js';
import { toMessageView } from '../messages/message-view.js';
import type { Ticket } from './ticket.model.js';

type Audience = Pick<Ticket, 'id' | 'userId' | 'queueId'>;

/**
 * Who may see a ticket (spec §4 and §6): admins, its user, users of its queue, and for a ticket
 * without queue the users whose allTicket is enabled. Those are rooms every socket is put in by
 * userTicketRooms, so an event reaches exactly those sockets. The chat box's `ticket:<id>` room is
 * deliberately not among them: everyone who may see the ticket is already here, and a socket that
 * joined the chat box earlier must not keep hearing a ticket that moved out of its user's sight.
 */
export function ticketRooms(ticket: Audience): string[] {
  const rooms = ['admins', ticket.queueId ? `queue:${ticket.queueId}` : 'queueless'];
  if (ticket.userId) rooms.push(`user:${ticket.userId}`);
  return rooms;
}

/** The provided rooms of a user's sockets: `queue:<id>` per queue, `queueless` with allTicket enabled. */
export function userTicketRooms(db: Knex): RoomsProvider {
  return async (user: AuthUser) => {
    const [queues, row] = await Promise.all([
      db('userQueues').where({ userId: user.id }).select('queueId') as Promise<{ queueId: number }[]>,
      db('users').where({ id: user.id }).first('allTicket') as Promise<{ allTicket: string } | undefined>,
    ]);
    const rooms = queues.map((q) => `queue:${q.queueId}`);
    if (row?.allTicket === 'enabled') rooms.push('queueless');
    return rooms;
  };
}

/**
 * The live events of tickets, messages and contacts (spec §7 channels). Every ticket event goes to
 * the ticket's audience; an update also to the audience it had before, so a ticket moved to
 * another queue or user leaves the lists that showed it.
 */
export class TicketEvents {
  constructor(private readonly realtime: RealtimeHub) {}

  /** `ticket` must carry its graph (loadTicket / withTicketGraph). */
  updated(ticket: Ticket, before?: Audience): void {
    const rooms = new Set([...ticketRooms(ticket), ...(before ? ticketRooms({ ...before, id: ticket.id }) : [])]);
    this.realtime.publish(ticket.companyId, `company-${ticket.companyId}-ticket`, { action: 'update', ticket }, [...rooms]);
  }

  unreadReset(ticket: Ticket): void {
    this.realtime.publish(ticket.companyId, `company-${ticket.companyId}-ticket`, { action: 'updateUnread', ticketId: ticket.id }, ticketRooms(ticket));
  }

  deleted(ticket: Ticket): void {
    this.realtime.publish(ticket.companyId, `company-${ticket.companyId}-ticket`, { action: 'delete', ticketId: ticket.id }, ticketRooms(ticket));
  }

  /** A message created or changed (ack, edit, revoke, send failure); `ticket` with its graph. */
  message(action: 'create' | 'update', message: Message, ticket: Ticket): void {
    this.realtime.publish(
      ticket.companyId,
      `company-${ticket.companyId}-appMessage`,
      { action, message: toMessageView(message), ticket, contact: ticket.contact },
      ticketRooms(ticket),
    );
  }

  /** Contacts are the whole company's (the contacts page). */
  contact(contact: Contact): void {
    this.realtime.publish(contact.companyId, `company-${contact.companyId}-contact`, { action: 'update', contact });
  }
}
