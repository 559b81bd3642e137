import { Events, type EventOf, type KnownEventName } from 'atende/plugin';
import type { WebhookEvent } from './webhooks.contract.js';

/** A domain event as a webhook sees it: its name for receivers, the key it is ordered by, its data. */
export interface WebhookFact {
  event: WebhookEvent;
  /** `ticket:<id>` or `contact:<id>`: one endpoint gets a key's events one after another. */
  orderKey: string;
  data: unknown;
}

/** The core's events a webhook is made of. */
export const SOURCE_EVENTS = [Events.messageCreated, Events.messageStatus, Events.ticketCreated, Events.ticketUpdated, Events.contactCreated, Events.contactUpdated] as const;

type SourceEvent = (typeof SOURCE_EVENTS)[number];

/**
 * The core's event as a webhook: a stored message is `message.received` from the customer or
 * `message.sent` when it is ours (an agent, a bot, the API, an automatic text); acks and the send
 * queue's outcome are `message.status`; ticket.* and contact.* keep their names. Messages and
 * tickets carry the `actor` whose request made them (a user or an API token; null for the app's own).
 */
export function factOf(e: EventOf<KnownEventName>): WebhookFact | undefined {
  switch (e.name as SourceEvent) {
    case Events.messageCreated: {
      const { message, ticket, actor } = (e as EventOf<'message.created'>).payload;
      return { event: message.fromMe ? 'message.sent' : 'message.received', orderKey: `ticket:${ticket.id}`, data: { message, ticket, actor } };
    }
    case Events.messageStatus: {
      const payload = (e as EventOf<'message.status'>).payload;
      return { event: 'message.status', orderKey: `ticket:${payload.ticketId}`, data: payload };
    }
    case Events.ticketCreated: {
      const { ticket, actor } = (e as EventOf<'ticket.created'>).payload;
      return { event: 'ticket.created', orderKey: `ticket:${ticket.id}`, data: { ticket, actor } };
    }
    case Events.ticketUpdated: {
      const { ticket, changes, actor } = (e as EventOf<'ticket.updated'>).payload;
      return { event: 'ticket.updated', orderKey: `ticket:${ticket.id}`, data: { ticket, changes, actor } };
    }
    case Events.contactCreated:
    case Events.contactUpdated: {
      const { contact } = (e as EventOf<'contact.created'>).payload;
      return { event: e.name as 'contact.created' | 'contact.updated', orderKey: `contact:${contact.id}`, data: { contact } };
    }
    default:
      return undefined;
  }
}
