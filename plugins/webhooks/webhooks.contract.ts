/** What the webhooks API answers, shared by the server and the web page. */

/** The events an endpoint may ask for (the names receivers see in X-Atende-Event). */
export const WEBHOOK_EVENTS = [
  'message.received',
  'message.sent',
  'message.status',
  'ticket.created',
  'ticket.updated',
  'contact.created',
  'contact.updated',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export type DeliveryStatus = 'pending' | 'sent' | 'failed';

/** An endpoint, without its secret. */
export interface WebhookView {
  id: number;
  url: string;
  events: WebhookEvent[];
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** POST /webhooks and the secret's reveal or rotation: the secret with it. */
export interface WebhookWithSecret extends WebhookView {
  secret: string;
}

/** One event for one endpoint. */
export interface DeliveryView {
  id: number;
  webhookId: number;
  eventId: string;
  event: WebhookEvent;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

/** GET /webhooks/:id/deliveries, newest first. */
export interface DeliveryPage {
  deliveries: DeliveryView[];
  hasMore: boolean;
}
