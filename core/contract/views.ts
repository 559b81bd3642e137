/**
 * What the API answers and the live frames carry, declared once: the server builds these views
 * and the web reads them (`import type`, so the bundle gets nothing from here). Only types and
 * the constant lists they come from; no imports.
 */

export type ConnectionStatus = 'OPENING' | 'qrcode' | 'PAIRING' | 'CONNECTED' | 'DISCONNECTED' | 'TIMEOUT';

/** The providers a connection may name (`whatsapps.provider`). */
export const PROVIDERS = ['baileys', 'simulator'] as const;
export type Provider = (typeof PROVIDERS)[number];

export type MediaType = 'image' | 'audio' | 'video' | 'application' | 'sticker' | 'locationMessage' | 'vcard' | 'call_log';

/** Where an outgoing message stands in the durable send queue; 'received' for everything inbound. */
export type SendStatus = 'received' | 'queued' | 'sent' | 'failed';

export type TicketStatus = 'pending' | 'open' | 'closed';

export interface MessageLocation {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/** A queue as users, connections and tickets name it. */
export interface QueueSummary {
  id: number;
  name: string;
  color: string;
}

/** A message as GET /api/messages/:ticketId and the company-{id}-appMessage frames carry it. */
export interface MessageView {
  id: number;
  wid: string;
  ticketId: number;
  contactId: number | null;
  userId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  /** 0 waiting, 1 sent, 2 delivered, 3 read, 4–5 played. */
  ack: number;
  mediaType: MediaType | null;
  /** Authenticated: the client fetches it with its token, as a blob. */
  mediaUrl: string | null;
  mediaName: string | null;
  mediaMime: string | null;
  location: MessageLocation | null;
  vcard: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  sendStatus: SendStatus;
  sendError: string | null;
  quotedMsg: MessageView | null;
  createdAt: string;
  updatedAt: string;
}

/** The contact of a ticket, reduced to what a ticket row and header need. */
export interface TicketContact {
  id: number;
  uuid: string;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
}

/** A ticket as GET /api/tickets and the company-{id}-ticket frames carry it (the ticket graph). */
export interface TicketView {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  unreadMessages: number;
  lastMessage: string;
  isGroup: boolean;
  fromMe: boolean;
  userId: number | null;
  contactId: number;
  whatsappId: number | null;
  queueId: number | null;
  queueOptionId: number | null;
  chatbot: boolean;
  useIntegration: boolean;
  integrationId: number | null;
  promptId: number | null;
  /** How many times the queue menu was sent in this attendance. */
  amountUsedBotQueues: number;
  createdAt: string;
  updatedAt: string;
  contact: TicketContact;
  queue: QueueSummary | null;
  user: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
  tags: { id: number; name: string; color: string }[];
}

/** A note as the ticket drawer shows it. */
export interface TicketNoteView {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** A connection as GET /api/whatsapp answers it; `token` only to admins (and never in live frames, which every user gets). */
export interface WhatsappView {
  id: number;
  companyId: number;
  name: string;
  provider: Provider;
  status: ConnectionStatus;
  qrcode: string;
  retries: number;
  number: string;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  timeToTransfer: number | null;
  transferQueueId: number | null;
  promptId: number | null;
  integrationId: number | null;
  token?: string;
  createdAt: string;
  updatedAt: string;
  queues: QueueSummary[];
}

/** A contact as lists and live frames show it. */
export interface ContactView {
  id: number;
  uuid: string;
  companyId: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  whatsappId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /contacts/:id adds the extra fields and the connection the contact came through. */
export interface ContactDetail extends ContactView {
  extraInfo: { id: number; name: string; value: string }[];
  whatsapp: { id: number; name: string } | null;
}
