import type { MessageView } from '../../contract/views.js';
import type { Message } from './message.model.js';

export type { MessageView };


export function toMessageView(m: Message): MessageView {
  return {
    id: m.id,
    wid: m.wid,
    ticketId: m.ticketId,
    contactId: m.contactId,
    userId: m.userId,
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
