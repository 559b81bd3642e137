import type { NormalizedMessage } from '../channels/driver.js';
import type { ContactView } from '../modules/contacts/contacts.service.js';
import type { MessageView } from '../modules/messages/message-view.js';
import type { SettingValue } from '../modules/settings/settings.schema.js';
import type { Ticket } from '../modules/tickets/ticket.model.js';
import type { Actor, UserView } from '../contract/views.js';

/**
 * Domain event names, kept in one place (dotted, past tense), each with its payload below. The
 * facts (ticket.*, message.created, message.status, contact.*) are emitted after the write that
 * made them has committed, never for a rolled-back one; their payloads are the API's shapes.
 */
export const Events = {
  companyCreated: 'company.created',
  companyUpdated: 'company.updated',
  companyDeleted: 'company.deleted',
  companyBlocked: 'company.blocked',
  companyUnblocked: 'company.unblocked',
  userCreated: 'user.created',
  userUpdated: 'user.updated',
  userDeleted: 'user.deleted',
  userLoggedIn: 'user.logged_in',
  settingUpdated: 'setting.updated',
  planUpdated: 'plan.updated',
  ticketCreated: 'ticket.created',
  ticketUpdated: 'ticket.updated',
  ticketTransferred: 'ticket.transferred',
  ticketClosed: 'ticket.closed',
  messageCreated: 'message.created',
  messageStatus: 'message.status',
  contactCreated: 'contact.created',
  contactUpdated: 'contact.updated',
  /** The driver's raw message, before anything is stored (the pipeline's input). */
  messageReceived: 'message.received',
  messageAck: 'message.ack',
  messageRevoked: 'message.revoked',
  messageEdited: 'message.edited',
  /** An outgoing message was taken by WhatsApp. */
  messageSent: 'message.sent',
  /** An outgoing message failed its last attempt. */
  messageSendFailed: 'message.send_failed',
  callReceived: 'call.received',
  contactSeen: 'contact.seen',
  /** A connection's session reached CONNECTED (saved). */
  whatsappConnected: 'whatsapp.connected',
  /** A connection's session left CONNECTED (saved): closed, reconnecting, logged out. */
  whatsappDisconnected: 'whatsapp.disconnected',
  /** The provider limits the connection's sending (Baileys 7's reach-out time lock), or lifts the limit. */
  whatsappLimited: 'whatsapp.limited',
  /** The progress of a message sent with whatsapp.sendDirect (outside any ticket). */
  whatsappAck: 'whatsapp.ack',
} as const;

/** A ticket as the API answers it (with its contact, queue, user, connection and tags). */
export type TicketPayload = Ticket;

/** A field's value before and after the write. */
export interface Change<T> {
  before: T;
  after: T;
}

/** What a ticket update changed; only the changed fields are present. */
export interface TicketChanges {
  status?: Change<Ticket['status']>;
  userId?: Change<number | null>;
  queueId?: Change<number | null>;
  tags?: Change<number[]>;
}

export interface TicketPlace {
  userId: number | null;
  queueId: number | null;
}

/**
 * A driver's raw event as the session manager reports it (the inbound pipeline's input, typed
 * there): plugins listen to message.created and contact.* instead.
 */
interface DriverEvent {
  connectionId: number;
  companyId: number;
  [key: string]: unknown;
}

/** A provider's ack, revoke or edit of a message, by its provider id. */
interface ProviderMessageEvent {
  connectionId: number;
  companyId: number;
  id: string;
}

export interface EventPayloads {
  'company.created': { action: 'create'; company: unknown };
  'company.updated': { action: 'update'; company: unknown };
  'company.deleted': { action: 'delete'; companyId: number };
  'company.blocked': { companyId: number };
  'company.unblocked': { companyId: number };
  'user.created': { user: UserView };
  'user.updated': { user: UserView };
  'user.deleted': { userId: number };
  'user.logged_in': { userId: number };
  'setting.updated': SettingValue;
  'plan.updated': unknown;
  /** `actor`: the person or API token whose request did it; null when the app did (a customer's message, a bot, a job). */
  'ticket.created': { ticket: TicketPayload; actor: Actor | null };
  'ticket.updated': { ticket: TicketPayload; changes: TicketChanges; actor: Actor | null };
  'ticket.transferred': { ticket: TicketPayload; from: TicketPlace; to: TicketPlace; actor: Actor | null };
  'ticket.closed': { ticket: TicketPayload; actor: Actor | null };
  /** A stored message, inbound or outbound (an outbound one while still queued); `actor` its author (agent or API token), null for customers, bots and automatic texts. */
  'message.created': { message: MessageView; ticket: TicketPayload; actor: Actor | null };
  /** A provider ack (a number), or the send queue's outcome. */
  'message.status': { messageId: number; ticketId: number; status: number | 'sent' | 'failed' };
  'contact.created': { contact: ContactView };
  'contact.updated': { contact: ContactView };
  'message.received': DriverEvent & { message: NormalizedMessage };
  'message.ack': ProviderMessageEvent & { ack: number };
  'message.revoked': ProviderMessageEvent;
  'message.edited': ProviderMessageEvent & { body: string };
  'message.sent': { messageId: number; ticketId: number };
  'message.send_failed': { messageId: number; ticketId: number; error: string };
  'call.received': DriverEvent;
  'contact.seen': DriverEvent;
  'whatsapp.connected': { connectionId: number; companyId: number };
  'whatsapp.disconnected': { connectionId: number; companyId: number; status: string };
  /** `active` false lifts it; `until` (ISO) when the provider says when it ends; `reason` the provider's word. */
  'whatsapp.limited': { connectionId: number; companyId: number; active: boolean; until?: string; reason: string };
  /** `messageId` is the id given to sendDirect. */
  'whatsapp.ack': { whatsappId: number; companyId: number; messageId: string; status: DirectMessageStatus };
}

/** How far a directly sent message got. */
export type DirectMessageStatus = 'sent' | 'delivered' | 'read' | 'played';

export type KnownEventName = keyof EventPayloads;

/** Any event name; the catalogue's are typed, others (a plugin's own) carry what they carry. */
export type EventName = KnownEventName | (string & {});

export type PayloadOf<N extends EventName> = N extends KnownEventName ? EventPayloads[N] : unknown;

export interface DomainEvent<T = unknown> {
  name: EventName;
  companyId: number | null;
  payload: T;
}

/** The event of one name, its payload typed from the catalogue. */
export type EventOf<N extends EventName> = DomainEvent<PayloadOf<N>> & { name: N };
