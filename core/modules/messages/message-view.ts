import type { Actor, MessageView } from '../../contract/views.js';
import type { Message } from './message.model.js';

export type { MessageView };

/** Who wrote a message Atende sent: its API token or its agent (with `author` loaded); null for customers, bots and automatic texts. */
export function messageActor(m: Message): Actor | null {
  if (m.apiTokenId !== null && m.apiTokenId !== undefined) return { type: 'apiToken', id: m.apiTokenId, name: m.apiTokenName ?? '' };
  if (m.userId !== null && m.author) return { type: 'user', id: m.userId, name: m.author.name };
  return null;
}

export function toMessageView(m: Message): MessageView {
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
