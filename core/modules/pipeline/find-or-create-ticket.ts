import type { Knex } from 'knex';
import { newTicketRow, Ticket } from '../tickets/ticket.model.js';
import { tracking } from '../tickets/tracking.js';

/** The contact and connection a ticket belongs to. */
export interface TicketKey {
  companyId: number;
  contactId: number;
  whatsappId: number;
  isGroup: boolean;
}

/**
 * The ticket a contact's message goes to (docs/decisions.md, Inbound pipeline): the open or
 * pending ticket of the contact on that connection. Closed tickets are history and never come
 * back; the partial unique index keeps one open or pending ticket per contact and connection.
 */
export async function activeTicketOf(db: Knex, key: TicketKey): Promise<Ticket | undefined> {
  // Plain knex: this runs for every inbound message.
  const row = (await db('tickets')
    .where({ companyId: key.companyId, contactId: key.contactId, whatsappId: key.whatsappId })
    .whereIn('status', ['open', 'pending'])
    .first()) as Record<string, unknown> | undefined;
  return row && Ticket.fromDatabaseJson(row);
}

/** The contact's latest closed ticket on the connection (a rating answer may be due on it). */
export async function lastClosedTicketOf(db: Knex, key: TicketKey): Promise<Ticket | undefined> {
  // A contact belongs to one company: by contact alone, so SQLite takes the contact index rather
  // than walking the company's closed tickets.
  return Ticket.query(db)
    .where({ contactId: key.contactId, whatsappId: key.whatsappId, status: 'closed' })
    .orderBy('updatedAt', 'desc')
    .orderBy('id', 'desc')
    .first();
}

/** Tickets per insert: well under both databases' bound-parameter limits. */
const NEW_TICKETS_CHUNK = 200;

/**
 * New pending tickets (distinct keys), without queue or user, each with its first attendance row:
 * one insert of tickets and one of attendances per chunk. Answers them in the order of `keys`.
 */
export async function createPendingTickets(db: Knex, keys: TicketKey[]): Promise<Ticket[]> {
  const now = new Date().toISOString();
  const made: Ticket[] = [];
  for (let i = 0; i < keys.length; i += NEW_TICKETS_CHUNK) {
    const rows = keys.slice(i, i + NEW_TICKETS_CHUNK).map((key) => ({ ...newTicketRow({ ...key, userId: null, queueId: null }), createdAt: now, updatedAt: now }));
    const written = (await db('tickets').insert(rows).returning('*')) as Record<string, unknown>[];
    const byUuid = new Map(written.map((row) => [row.uuid, Ticket.fromDatabaseJson(row) as Ticket]));
    const tickets = rows.map((row) => byUuid.get(row.uuid)!);
    await tracking.opened(db, tickets);
    made.push(...tickets);
  }
  return made;
}
