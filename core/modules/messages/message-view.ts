import type { Message } from './message.model.js';

/** A message as the API and the live events show it; media by its authenticated URL. */
export interface MessageView {
  id: number;
  wid: string;
  ticketId: number;
  contactId: number | null;
  userId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  mediaType: Message['mediaType'];
  mediaUrl: string | null;
  mediaName: string | null;
  mediaMime: string | null;
  location: Message['location'];
  vcard: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  sendStatus: Message['sendStatus'];
  sendError: string | null;
  quotedMsg: MessageView | null;
  createdAt: string;
  updatedAt: string;
}

export function toMessageView(m: Message): MessageView {
  return {
    id: m.id,
    wid: m.wid,
    ticketId: m.ticketId,
    contactId: m.contactId,
    userId: m.userId,
    body: m.body,
    fromMe: m.fromMe,
    read: m.read,
    ack: m.ack,
    mediaType: m.mediaType,
    mediaUrl: m.mediaPath ? `/api/media/${encodeURIComponent(m.mediaPath)}` : null,
    mediaName: m.mediaName,
    mediaMime: m.mediaMime,
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
