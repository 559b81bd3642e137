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

/** Stores a driver's message on a ticket; its quoted message (when known here) is attached for the view. */
export async function insertMessage(
  db: Knex,
  input: { companyId: number; ticket: Pick<Ticket, 'id' | 'queueId'>; contactId: number; message: NormalizedMessage },
): Promise<Message> {
  const { companyId, ticket, message } = input;
  const quoted = message.quotedId ? await messageByWid(db, companyId, message.quotedId) : undefined;
  const now = new Date().toISOString();
  // Plain knex: this runs for every inbound message, and the row comes back as written.
  const [written] = (await db('messages')
    .insert({
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
    })
    .returning('*')) as Record<string, unknown>[];
  const row = Message.fromDatabaseJson(written!);
  row.quotedMsg = quoted ?? null;
  return row;
}

/**
 * The ticket after a message: its last message and direction, moved to the top of the list, one
 * more unread message from the customer, none once the company answered from the phone. A closed
 * ticket (a rating answer) keeps its unread count: nobody works it any more. Answers the row as
 * written.
 */
export async function touchTicket(db: Knex, ticket: Ticket, message: NormalizedMessage): Promise<Ticket> {
  const counted = ticket.status !== 'closed';
  const patch = {
    lastMessage: lastMessageLabel(message),
    fromMe: message.fromMe,
    updatedAt: new Date().toISOString(),
    ...(counted && { unreadMessages: message.fromMe ? 0 : db.raw('?? + 1', ['unreadMessages']) }),
  };
  const [written] = (await db('tickets').where({ id: ticket.id }).update(patch).returning('*')) as Record<string, unknown>[];
  if (!written) throw new Error(`ticket ${ticket.id} vanished while storing a message`);
  return Ticket.fromDatabaseJson(written);
}
