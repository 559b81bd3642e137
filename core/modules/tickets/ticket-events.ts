import type { Knex } from 'knex';
import type { AuthUser } from '../../auth/auth-user.js';
import type { Actor } from '../../contract/views.js';
import type { TicketChanges } from '../../events/catalogue.js';
import { Events, type EventBus } from '../../events/event-bus.js';
import type { RealtimeHub, RoomsProvider } from '../../realtime/hub.js';
import type { Contact } from '../contacts/contact.model.js';
import { toContactView } from '../contacts/contacts.service.js';
import type { Message } from '../messages/message.model.js';
import { messageActor, toMessageView } from '../messages/message-view.js';
import type { Ticket } from './ticket.model.js';

type Audience = Pick<Ticket, 'id' | 'userId' | 'queueId'>;

/** A ticket as it was before a write: whom it showed to, and what ticket.updated compares. */
export type TicketBefore = Pick<Ticket, 'id' | 'userId' | 'queueId' | 'status'>;

export function ticketBefore(ticket: TicketBefore): TicketBefore {
  return { id: ticket.id, userId: ticket.userId, queueId: ticket.queueId, status: ticket.status };
}

/** The fields ticket.updated reports that differ between `before` and `after`. */
function changesOf(before: TicketBefore, after: TicketBefore): TicketChanges {
  const changes: TicketChanges = {};
  if (before.status !== after.status) changes.status = { before: before.status, after: after.status };
  if (before.userId !== after.userId) changes.userId = { before: before.userId, after: after.userId };
  if (before.queueId !== after.queueId) changes.queueId = { before: before.queueId, after: after.queueId };
  return changes;
}

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
 * What happened to tickets, messages and contacts, told once after the write's commit to both
 * dispatchers: the live frames (spec §7 channels) and the domain events of the bus (ticket.*,
 * message.created, contact.*). Every ticket frame goes to the ticket's audience; an update also to
 * the audience it had before, so a ticket moved to another queue or user leaves the lists that
 * showed it.
 */
export class TicketEvents {
  constructor(
    private readonly realtime: RealtimeHub,
    private readonly bus: EventBus,
  ) {}

  /** A new ticket; with its graph (loadTicket / ticketViews). `actor`: whose request opened it (null: the app's). */
  created(ticket: Ticket, actor: Actor | null = null): void {
    this.frame(ticket);
    void this.bus.emit(Events.ticketCreated, ticket.companyId, { ticket, actor });
  }

  /**
   * `ticket` must carry its graph (loadTicket / ticketViews). Given the ticket as it was
   * before the write, what changed goes out as ticket.updated, and ticket.closed or (when the
   * write was a transfer) ticket.transferred with it; without `before` only the frame goes out
   * (a new last message, say). `options.actor`: whose request made the change (null: the app's).
   */
  updated(ticket: Ticket, before?: TicketBefore, options: { transferred?: boolean; actor?: Actor | null } = {}): void {
    this.frame(ticket, before);
    if (!before) return;
    const changes = changesOf(before, ticket);
    const actor = options.actor ?? null;
    if (Object.keys(changes).length > 0) void this.bus.emit(Events.ticketUpdated, ticket.companyId, { ticket, changes, actor });
    if (options.transferred) {
      const place = (t: TicketBefore) => ({ userId: t.userId, queueId: t.queueId });
      void this.bus.emit(Events.ticketTransferred, ticket.companyId, { ticket, from: place(before), to: place(ticket), actor });
    }
    if (changes.status?.after === 'closed') void this.bus.emit(Events.ticketClosed, ticket.companyId, { ticket, actor });
  }

  /** A ticket's tags were replaced (ticket.updated with the tag ids before and after). */
  tagged(ticket: Ticket, tags: { before: number[]; after: number[] }, actor: Actor | null = null): void {
    this.frame(ticket);
    void this.bus.emit(Events.ticketUpdated, ticket.companyId, { ticket, changes: { tags }, actor });
  }

  private frame(ticket: Ticket, before?: Audience): void {
    const rooms = new Set([...ticketRooms(ticket), ...(before ? ticketRooms({ ...before, id: ticket.id }) : [])]);
    this.realtime.publish(ticket.companyId, `company-${ticket.companyId}-ticket`, { action: 'update', ticket }, [...rooms]);
  }

  unreadReset(ticket: Ticket): void {
    this.realtime.publish(ticket.companyId, `company-${ticket.companyId}-ticket`, { action: 'updateUnread', ticketId: ticket.id }, ticketRooms(ticket));
  }

  deleted(ticket: Ticket): void {
    this.realtime.publish(ticket.companyId, `company-${ticket.companyId}-ticket`, { action: 'delete', ticketId: ticket.id }, ticketRooms(ticket));
  }

  /** A message stored ('create': message.created too) or changed (ack, edit, revoke, send failure); `ticket` with its graph. */
  message(action: 'create' | 'update', message: Message, ticket: Ticket): void {
    const view = toMessageView(message);
    this.realtime.publish(ticket.companyId, `company-${ticket.companyId}-appMessage`, { action, message: view, ticket, contact: ticket.contact }, ticketRooms(ticket));
    if (action === 'create') void this.bus.emit(Events.messageCreated, ticket.companyId, { message: view, ticket, actor: messageActor(message) });
  }

  /** A contact created or changed by a chat; contacts are the whole company's (the contacts page). */
  contact(contact: Contact, created = false): void {
    this.realtime.publish(contact.companyId, `company-${contact.companyId}-contact`, { action: 'update', contact });
    void this.bus.emit(created ? Events.contactCreated : Events.contactUpdated, contact.companyId, { contact: toContactView(contact) });
  }
}
