import type { Knex } from 'knex';
import type { Actor, MessageView } from '../../contract/views.js';
import type { Message } from './message.model.js';

export type { MessageView };

/** Who wrote a message Atende sent: its API token or its agent (with `author` loaded); null for customers, bots and automatic texts. */
export function messageActor(m: Message): Actor | null {
  if (m.apiTokenId !== null && m.apiTokenId !== undefined) return { type: 'apiToken', id: m.apiTokenId, name: m.apiTokenName ?? '' };
  if (m.userId !== null && m.author) return { type: 'user', id: m.userId, name: m.author.name };
  return null;
}

/** What a message view is made of: the stored message (a model, or a row read for a view) and the one it quotes. */
type ViewedMessage = Pick<Message, (typeof VIEW_COLUMNS)[number]> & { quotedMsg?: ViewedMessage | null };

export function toMessageView(m: ViewedMessage): MessageView {
  return {
    id: m.id,
    wid: m.wid,
    ticketId: m.ticketId,
    contactId: m.contactId,
    userId: m.userId,
    apiToken: m.apiTokenId === null || m.apiTokenId === undefined ? null : { id: m.apiTokenId, name: m.apiTokenName ?? '' },
    body: m.body,
    fromMe: m.fromMe,
    bot: m.bot ?? null,
    read: m.read,
    ack: m.ack,
    mediaType: m.mediaType,
    mediaUrl: m.mediaPath ? `/api/media/${encodeURIComponent(m.mediaPath)}` : null,
    mediaName: m.mediaName,
    mediaMime: m.mediaMime,
    transcript: m.transcript ?? null,
    location: m.location,
    vcard: m.vcard,
    isDeleted: m.isDeleted,
    isEdited: m.isEdited,
    sendStatus: m.sendStatus,
    sendError: m.sendError,
    quotedMsg: m.quotedMsg ? toMessageView(m.quotedMsg) : null,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

/** The columns a view shows. */
const VIEW_COLUMNS = [
  'id', 'wid', 'ticketId', 'contactId', 'userId', 'apiTokenId', 'apiTokenName', 'body', 'fromMe', 'bot', 'read', 'ack', 'mediaType',
  'mediaPath', 'mediaName', 'mediaMime', 'transcript', 'location', 'vcard', 'isDeleted', 'isEdited', 'sendStatus', 'sendError',
  'createdAt', 'updatedAt',
] as const;

const BOOLEAN_COLUMNS = ['fromMe', 'read', 'isDeleted', 'isEdited'] as const;

/** The quoted message's columns are selected as `quoted<Column>` (quotedBody). */
const quoted = (column: string) => `quoted${column[0]!.toUpperCase()}${column.slice(1)}`;

/** A row's message, as the model would read it: booleans (SQLite 0/1), ISO timestamps (PostgreSQL Dates), location parsed. */
function messageOf(row: Record<string, unknown>, name: (column: string) => string): ViewedMessage {
  const m: Record<string, unknown> = {};
  for (const column of VIEW_COLUMNS) m[column] = row[name(column)];
  for (const column of BOOLEAN_COLUMNS) m[column] = m[column] === true || m[column] === 1;
  for (const column of ['createdAt', 'updatedAt']) if (m[column] instanceof Date) m[column] = (m[column] as Date).toISOString();
  if (typeof m.location === 'string') m.location = JSON.parse(m.location) as unknown;
  return m as ViewedMessage;
}

/**
 * The messages `query` (on `messages`, filtered, ordered, limited) selects, as views in its order,
 * each with the message it quotes: one statement, no model hydration.
 */
export async function messageViews(query: Knex.QueryBuilder): Promise<MessageView[]> {
  const rows = (await query
    .leftJoin('messages as q', 'q.id', 'messages.quotedMsgId')
    .select(VIEW_COLUMNS.map((column) => `messages.${column}`))
    .select(VIEW_COLUMNS.map((column) => `q.${column} as ${quoted(column)}`))) as Record<string, unknown>[];
  return rows.map((row) => {
    const message = messageOf(row, (column) => column);
    message.quotedMsg = row[quoted('id')] === null ? null : messageOf(row, quoted);
    return toMessageView(message);
  });
}
