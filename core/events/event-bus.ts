import type { Logger } from '../logger.js';

/** Domain event names, kept in one place (dotted, past tense). */
export const Events = {
  companyCreated: 'company.created',
  companyUpdated: 'company.updated',
  companyDeleted: 'company.deleted',
  userCreated: 'user.created',
  userUpdated: 'user.updated',
  userDeleted: 'user.deleted',
  userLoggedIn: 'user.logged_in',
  settingUpdated: 'setting.updated',
  planUpdated: 'plan.updated',
  messageReceived: 'message.received',
  messageAck: 'message.ack',
  messageRevoked: 'message.revoked',
  messageEdited: 'message.edited',
  /** An outgoing message was taken by WhatsApp: `{ messageId, ticketId }`. */
  messageSent: 'message.sent',
  /** An outgoing message failed its last attempt: `{ messageId, ticketId, error }`. */
  messageSendFailed: 'message.send_failed',
  callReceived: 'call.received',
  contactSeen: 'contact.seen',
  /** A connection's session reached CONNECTED (saved): `{ connectionId, companyId }`. */
  whatsappConnected: 'whatsapp.connected',
} as const;

export type EventName = (typeof Events)[keyof typeof Events] | (string & {});

export interface DomainEvent<T = unknown> {
  name: EventName;
  companyId: number | null;
  payload: T;
}

export type EventHandler = (event: DomainEvent) => Promise<void> | void;

/**
 * In-process domain events. Handlers run after the write that emitted them; a failing handler is
 * logged and never fails the emitter nor the other handlers.
 */
export class EventBus {
  private readonly handlers = new Map<string, { label: string; handler: EventHandler }[]>();

  constructor(private readonly log: Logger) {}

  on(name: EventName, handler: EventHandler, label = 'core'): () => void {
    const list = this.handlers.get(name) ?? [];
    const entry = { label, handler };
    list.push(entry);
    this.handlers.set(name, list);
    return () => {
      const current = this.handlers.get(name) ?? [];
      this.handlers.set(
        name,
        current.filter((e) => e !== entry),
      );
    };
  }

  async emit<T>(name: EventName, companyId: number | null, payload: T): Promise<void> {
    const event: DomainEvent<T> = { name, companyId, payload };
    for (const { label, handler } of this.handlers.get(name) ?? []) {
      try {
        await handler(event);
      } catch (err) {
        this.log.error({ err, event: name, handler: label }, 'event handler failed');
      }
    }
  }
}
