import type { Knex } from 'knex';
import { sessionNotInitialized } from '../../channels/driver.js';
import type { SessionCommands, SessionManager } from '../../channels/session-manager.js';
import { AppError } from '../../errors.js';
import type { TicketEvents } from '../tickets/ticket-events.js';
import type { Ticket } from '../tickets/ticket.model.js';
import { loadTicket } from '../tickets/ticket-view.js';
import { Message } from './message.model.js';
import { ErrorCode } from '../../contract/error-codes.js';

/** A message with what its view shows of the message it quotes. */
export async function loadMessage(db: Knex, id: number): Promise<Message | undefined> {
  return Message.query(db).findById(id).withGraphFetched('[quotedMsg, author]');
}

/**
 * The live events of a stored message (with its quoted one) and, when `ticketToo`, of its ticket
 * (a new message moves it up the lists).
 */
export async function publishMessage(
  db: Knex,
  events: TicketEvents,
  action: 'create' | 'update',
  messageId: number,
  ticketToo = false,
): Promise<Message | undefined> {
  const message = await loadMessage(db, messageId);
  const ticket = message && (await loadTicket(db, message.companyId, message.ticketId));
  if (!message || !ticket) return message;
  events.message(action, message, ticket);
  if (ticketToo) events.updated(ticket);
  return message;
}

/** The driver of a ticket's connection and the chat it talks to (a number, or a group's id). */
export async function chatOf(
  db: Knex,
  sessions: SessionManager,
  ticket: Pick<Ticket, 'whatsappId' | 'contactId'>,
): Promise<{ driver: SessionCommands; to: string }> {
  if (!ticket.whatsappId) throw sessionNotInitialized();
  const driver = await sessions.commandsFor(ticket.whatsappId);
  const contact = (await db('contacts').where({ id: ticket.contactId }).first('number')) as { number: string } | undefined;
  if (!contact) throw new AppError(ErrorCode.ERR_WAPP_INVALID_CONTACT, 400, 'The ticket has no contact to write to');
  return { driver, to: contact.number };
}
