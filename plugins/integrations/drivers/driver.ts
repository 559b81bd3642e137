import type { BotMessage } from '../integration.contract.js';
import type { QueueIntegration } from '../queue-integration.model.js';
import type { BotHttp } from './bot-http.js';

/** What a driver knows of one customer message: the documented JSON of n8n and webhook calls. */
export interface ExchangeContext {
  /** 'test' from the dialog's test-bot button (a sample contact, nothing stored). */
  event: 'message' | 'test';
  company: { id: number; name: string };
  connection: { id: number; name: string };
  ticket: { id: number; uuid: string; status: string; queueId: number | null };
  contact: { id: number; name: string; number: string };
  /** `type` 'text' or the media kind; the file itself is not sent, only its name. */
  message: { id: number; body: string; type: string; mediaName: string | null; fromMe: false; timestamp: string };
}

/** One exchange with the integration's service. */
export interface Exchange {
  integration: QueueIntegration;
  /** The integration's secrets, opened. */
  secrets: { webhookSecret: string; jsonContent: string };
  context: ExchangeContext;
  /** The service's session for this ticket (typebot's sessionId), null before the first exchange. */
  sessionId: string | null;
  /** When the ticket last talked to the integration (null in a new session): typebot's expiry. */
  lastActivityAt: string | null;
  /** Outgoing calls: the URL check, timeouts and size limits of the product. */
  http: BotHttp;
  signal: AbortSignal;
}

/** What the service answered: messages for the customer in order, and what becomes of the ticket. */
export interface BotActions {
  messages: BotMessage[];
  /**
   * The bot lets go: the ticket waits for a person in `queueId` (default: where it stands) or goes
   * to `userId`. Absent: the bot keeps the ticket.
   */
  handoff?: { queueId?: number | null; userId?: number | null };
  /** Resolve the ticket (typebot's finish keyword, a webhook's `close`). */
  close?: boolean;
  /** The service's new session (undefined keeps it, null forgets it). */
  sessionId?: string | null;
  /** Wait this long before each message (typebot's delay). */
  delayMs?: number;
}

/**
 * One kind of integration. `reply` runs an exchange for a customer's message and for the dialog's
 * test-bot button alike (a fresh session, a sample contact). A failure throws: the ticket then goes
 * to a person and the error shows on the integration.
 */
export interface IntegrationDriver {
  reply(exchange: Exchange): Promise<BotActions>;
}
