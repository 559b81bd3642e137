import type { Knex } from 'knex';
import { Contact } from '../contacts/contact.model.js';
import { Message } from '../messages/message.model.js';
import { Ticket } from '../tickets/ticket.model.js';
import { activeTicketOf, type TicketKey } from './find-or-create-ticket.js';
import { messageByWid } from './store-message.js';

/** Values per `where in` list: well under both databases' bound-parameter limits. */
const CHUNK = 500;

/** The message's chat as the store looks it up. */
export interface ChatRef {
  companyId: number;
  connectionId: number;
  wid: string;
  /** The chat's contact number. */
  number: string;
}

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const ticketKeyOf = (contactId: number, whatsappId: number | null) => `${contactId}:${whatsappId}`;

/**
 * The reads the store makes for each message (replay by provider id, the chat's contact, its
 * active ticket), answered from what a batch read ahead with one query per kind, and otherwise
 * by the per-message query. A message stored alone reads through (`StoreReads.direct`); a batch
 * reads ahead (`StoreReads.ahead`) and keeps the answers current as its messages are written,
 * so a later message of the batch sees an earlier one's rows.
 */
export class StoreReads {
  /** null: read ahead and absent. Missing key: not read ahead (ask the database). */
  private readonly messages = new Map<string, Message | null>();
  private readonly contacts = new Map<string, Contact | null>();
  private readonly tickets = new Map<string, Ticket | null>();
  /** Provider ids this transaction is storing. */
  private readonly claimed = new Set<string>();
  /** Contacts this transaction created: nobody else can have a ticket of theirs yet. */
  private readonly created = new Set<number>();

  private constructor(private readonly trx: Knex) {}

  static direct(trx: Knex): StoreReads {
    return new StoreReads(trx);
  }

  static async ahead(trx: Knex, chats: ChatRef[]): Promise<StoreReads> {
    const reads = new StoreReads(trx);
    for (const [companyId, ofCompany] of groupBy(chats, (c) => c.companyId)) {
      await reads.readAhead(companyId, ofCompany);
    }
    return reads;
  }

  async message(companyId: number, wid: string): Promise<Message | undefined> {
    const known = this.messages.get(`${companyId}:${wid}`);
    return known === undefined ? messageByWid(this.trx, companyId, wid) : (known ?? undefined);
  }

  /** Takes a provider id for this transaction; false when an earlier message of it took the id (a replay). */
  claim(companyId: number, wid: string): boolean {
    const key = `${companyId}:${wid}`;
    if (this.claimed.has(key)) return false;
    this.claimed.add(key);
    return true;
  }

  /** The contact of a number: undefined when not read ahead, null when read ahead and absent. */
  contact(companyId: number, number: string): Contact | null | undefined {
    return this.contacts.get(`${companyId}:${number}`);
  }

  /** Whether this transaction created the contact. */
  isNew(contact: Contact): boolean {
    return this.created.has(contact.id);
  }

  async activeTicket(key: TicketKey): Promise<Ticket | undefined> {
    if (this.created.has(key.contactId)) return this.tickets.get(ticketKeyOf(key.contactId, key.whatsappId)) ?? undefined;
    const known = this.tickets.get(ticketKeyOf(key.contactId, key.whatsappId));
    return known === undefined ? activeTicketOf(this.trx, key) : (known ?? undefined);
  }

  /** What the batch just wrote or read, for its later messages; `created`: the contact is new. */
  wrote(companyId: number, rows: { message?: Message; contact?: Contact; ticket?: Ticket }, created = false): void {
    const { message, contact, ticket } = rows;
    if (message) this.messages.set(`${companyId}:${message.wid}`, message);
    if (contact) this.contacts.set(`${companyId}:${contact.number}`, contact);
    if (contact && created) this.created.add(contact.id);
    if (ticket) this.tickets.set(ticketKeyOf(ticket.contactId, ticket.whatsappId), ticket.status === 'closed' ? null : ticket);
  }

  private async readAhead(companyId: number, chats: ChatRef[]): Promise<void> {
    const db = this.trx;
    const wids = [...new Set(chats.map((c) => c.wid))];
    for (const wid of wids) this.messages.set(`${companyId}:${wid}`, null);
    for (const part of chunks(wids)) {
      const rows = (await db('messages').where({ companyId }).whereIn('wid', part)) as Record<string, unknown>[];
      for (const row of rows) this.wrote(companyId, { message: Message.fromDatabaseJson(row) as Message });
    }

    const numbers = [...new Set(chats.map((c) => c.number))];
    for (const number of numbers) this.contacts.set(`${companyId}:${number}`, null);
    const read: Contact[] = [];
    for (const part of chunks(numbers)) {
      const rows = (await db('contacts').where({ companyId }).whereIn('number', part)) as Record<string, unknown>[];
      for (const row of rows) read.push(Contact.fromDatabaseJson(row) as Contact);
    }

    // Every (contact, connection) asked about is known: absent unless an active ticket is found.
    const connectionsOf = groupBy(chats, (c) => c.number);
    for (const contact of read) {
      this.wrote(companyId, { contact });
      for (const chat of connectionsOf.get(contact.number) ?? []) this.tickets.set(ticketKeyOf(contact.id, chat.connectionId), null);
    }
    const contactIds = read.map((c) => c.id);
    for (const part of chunks(contactIds)) {
      // By contact alone (they are the company's): with the company too, SQLite walks the
      // company's open and pending tickets by a list index (~100 ms at 100k tickets) rather than
      // taking the contact index.
      const rows = (await db('tickets').whereIn('contactId', part).whereIn('status', ['open', 'pending'])) as Record<string, unknown>[];
      for (const row of rows) this.wrote(companyId, { ticket: Ticket.fromDatabaseJson(row) as Ticket });
    }
  }
}
