import type { Knex } from 'knex';
import type { MediaType, NormalizedMessage } from '../../channels/driver.js';
import { Message } from '../messages/message.model.js';
import { Ticket } from '../tickets/ticket.model.js';

/** The provider's raw message is kept (for replies and retries) only up to this size. */
const RAW_MAX_CHARS = 64 * 1024;

/** What the ticket list shows as the last message: the text, or what the media is (a stored row's too). */
export function lastMessageLabel(
  message: Pick<NormalizedMessage, 'body' | 'location'> & { mediaType?: MediaType | null; media?: { name: string } },
): string {
  const body = message.body.trim();
  if (body) return body;
  if (message.mediaType === 'locationMessage' || message.location) return 'Localização';
  if (message.mediaType === 'vcard') return 'Contato';
  return message.media?.name ?? '';
}

function rawJson(raw: unknown): string | null {
  if (raw === undefined) return null;
  try {
    const json = JSON.stringify(raw);
    return json !== undefined && json.length <= RAW_MAX_CHARS ? json : null;
  } catch {
    return null; // cyclic or otherwise not serialisable: not worth failing the message for
  }
}

/** A message of the company by the provider's id (replays, echoes, quoted messages). */
export async function messageByWid(db: Knex, companyId: number, wid: string): Promise<Message | undefined> {
  const row = (await db('messages').where({ companyId, wid }).first()) as Record<string, unknown> | undefined;
  return row && Message.fromDatabaseJson(row);
}

/** Rows written by one insert: well under both databases' bound-parameter limits. */
const INSERT_CHUNK = 400;

/** A driver's message to store on a ticket. */
export interface MessageToInsert {
  companyId: number;
  ticket: Pick<Ticket, 'id' | 'queueId'>;
  contactId: number;
  message: NormalizedMessage;
}

function messageRow(input: MessageToInsert, quoted: Message | undefined, now: string): Record<string, unknown> {
  const { companyId, ticket, message } = input;
  return {
    companyId,
    wid: message.id,
    ticketId: ticket.id,
    contactId: input.contactId,
    queueId: ticket.queueId,
    userId: null,
    body: message.body,
    fromMe: message.fromMe,
    read: message.fromMe,
    ack: message.fromMe ? 1 : 0,
    mediaType: message.mediaType ?? null,
    mediaPath: message.media?.path ?? null,
    mediaName: message.media?.name ?? null,
    mediaMime: message.media?.mimeType ?? null,
    location: message.location ? JSON.stringify(message.location) : null,
    vcard: message.vcard ?? null,
    isDeleted: false,
    isEdited: false,
    quotedMsgId: quoted?.id ?? null,
    remoteJid: message.chatId,
    participant: message.isGroup && !message.fromMe ? message.from.number : null,
    dataJson: rawJson(message.raw),
    sendStatus: 'received',
    sendError: null,
    sendAttempts: 0,
    createdAt: message.timestamp,
    updatedAt: now,
  };
}

/**
 * Stores drivers' messages (distinct provider ids) by one insert per chunk; answers the rows as
 * written, in the order given, each with its quoted message (when known here) for the view.
 */
export async function insertMessages(db: Knex, inputs: MessageToInsert[]): Promise<Message[]> {
  const now = new Date().toISOString();
  const quotes = await Promise.all(inputs.map(({ companyId, message }) => (message.quotedId ? messageByWid(db, companyId, message.quotedId) : undefined)));
  const written = new Map<string, Message>();
  for (let i = 0; i < inputs.length; i += INSERT_CHUNK) {
    const rows = inputs.slice(i, i + INSERT_CHUNK).map((input, k) => messageRow(input, quotes[i + k], now));
    // Plain knex: this runs for every inbound message. Rows are matched back by provider id.
    const stored = (await db('messages').insert(rows).returning('*')) as Record<string, unknown>[];
    for (const row of stored) {
      const message = Message.fromDatabaseJson(row) as Message;
      written.set(`${message.companyId}:${message.wid}`, message);
    }
  }
  return inputs.map((input, k) => {
    const row = written.get(`${input.companyId}:${input.message.id}`);
    if (!row) throw new Error(`message ${input.message.id} not returned by its insert`);
    row.quotedMsg = quotes[k] ?? null;
    return row;
  });
}

/** A message just stored on a ticket, for the ticket's counters. */
export interface TicketTouch {
  ticket: Ticket;
  message: NormalizedMessage;
}

/**
 * The tickets after their messages (one statement): each one's last message and direction, moved
 * to the top of the list, one more unread message per customer message, none once the company
 * answered from the phone. A closed ticket (a rating answer) keeps its unread count: nobody works
 * it any more. Answers the rows as written, by ticket id.
 */
export async function touchTickets(db: Knex, touches: TicketTouch[]): Promise<Map<number, Ticket>> {
  // Per ticket, its messages in order: the last one's label and direction; what they do to the unread count.
  const byTicket = new Map<number, { id: number; last: NormalizedMessage; reset: boolean; added: number }>();
  for (const { ticket, message } of touches) {
    const entry = byTicket.get(ticket.id) ?? { id: ticket.id, last: message, reset: false, added: 0 };
    entry.last = message;
    if (ticket.status !== 'closed') {
      if (message.fromMe) Object.assign(entry, { reset: true, added: 0 });
      else entry.added += 1;
    }
    byTicket.set(ticket.id, entry);
  }
  const entries = [...byTicket.values()];
  const written = new Map<number, Ticket>();
  if (entries.length === 0) return written;
  // One CASE per column, by ticket id; the casts give PostgreSQL the parameters' types.
  const byId = (then: string, values: (e: (typeof entries)[number]) => Knex.Value[]) =>
    db.raw(`case ?? ${entries.map(() => `when ? then ${then}`).join(' ')} end`, ['id', ...entries.flatMap((e) => [e.id, ...values(e)])]);
  const rows = (await db('tickets')
    .whereIn(
      'id',
      entries.map((e) => e.id),
    )
    .update({
      lastMessage: byId('cast(? as text)', (e) => [lastMessageLabel(e.last)]),
      fromMe: byId('cast(? as boolean)', (e) => [e.last.fromMe]),
      unreadMessages: byId('cast(? as integer) + (case when cast(? as integer) = 1 then 0 else ?? end)', (e) => [e.added, e.reset ? 1 : 0, 'unreadMessages']),
      updatedAt: new Date().toISOString(),
    })
    .returning('*')) as Record<string, unknown>[];
  for (const row of rows) {
    const ticket = Ticket.fromDatabaseJson(row) as Ticket;
    written.set(ticket.id, ticket);
  }
  for (const { id } of entries) if (!written.has(id)) throw new Error(`ticket ${id} vanished while storing a message`);
  return written;
}
