import type { ConnectionStatus, MediaType } from '../contract/views.js';
import { ErrorCode } from '../contract/error-codes.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { MediaStorage } from '../storage/media-storage.js';

/**
 * The contract between a WhatsApp provider and the rest of Atende (DESIGN.md §5). A driver turns
 * its provider into these normalized events and carries out these commands; the inbound pipeline,
 * the session manager and the routes never see provider types.
 */

export type { ConnectionStatus, MediaType };

/** A message as the provider delivered it (inbound, or sent from the connected phone itself). */
export interface NormalizedMessage {
  /** The provider's message id: unique per connection, the key for idempotent storage. */
  id: string;
  /** Canonical chat id: digits of the phone number for people, the group id for groups. */
  chatId: string;
  isGroup: boolean;
  /** Sent by the connected device itself (the phone or another linked client). */
  fromMe: boolean;
  /** The author: the contact's number (digits) and push name; in groups, the participant. */
  from: { number: string; name: string; lid?: string };
  body: string;
  mediaType?: MediaType;
  /** Media already saved by the driver through MediaStorage (path = the stored name). */
  media?: { path: string; name: string; mimeType: string; size: number };
  quotedId?: string;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  vcard?: string;
  /** When the provider says it was sent (ISO string). */
  timestamp: string;
  /** The provider's raw message, JSON-serialisable, kept for replies and retries. */
  raw?: unknown;
}

export type DriverEvent =
  | { type: 'status'; status: ConnectionStatus; qrcode?: string; retries?: number; number?: string }
  | { type: 'message'; message: NormalizedMessage }
  | { type: 'ack'; id: string; ack: 0 | 1 | 2 | 3 | 4 | 5 }
  | { type: 'revoke'; id: string }
  | { type: 'edit'; id: string; body: string }
  | { type: 'call'; from: { number: string; name: string }; timestamp: string }
  | { type: 'contact'; number: string; name?: string; lid?: string; profilePicUrl?: string }
  /** The provider stops (active) or lets again (not active) the connection reach people; `until` ISO when known. */
  | { type: 'limit'; active: boolean; until?: string; reason: string };

export interface OutgoingMedia {
  /** Absolute path of a local file holding the bytes (MediaStorage.localCopy), there until the send answers. */
  path: string;
  fileName: string;
  mimeType: string;
  caption?: string;
  /** Send audio as a voice note. */
  ptt?: boolean;
}

export interface SendOptions {
  /** The provider id of the message this one replies to. */
  quotedId?: string;
  /**
   * The id the message must have, chosen by the sender before the first attempt: a send retried
   * after a crash reuses it, so the provider never holds the message twice.
   */
  id?: string;
}

export interface SentMessage {
  id: string;
  timestamp: string;
  raw?: unknown;
}

/** What the session manager does with one connection's provider. */
export interface ChannelDriver {
  /** Connects (or reconnects with stored credentials); events flow to the listener given at creation. */
  start(): Promise<void>;
  /** Closes the connection, keeping credentials (shutdown). */
  stop(): Promise<void>;
  /** Ends the WhatsApp session and forgets its credentials. */
  logout(): Promise<void>;
  sendText(to: string, body: string, options?: SendOptions): Promise<SentMessage>;
  sendMedia(to: string, media: OutgoingMedia, options?: SendOptions): Promise<SentMessage>;
  sendLocation(to: string, location: { latitude: number; longitude: number; name?: string }, options?: SendOptions): Promise<SentMessage>;
  delete(to: string, id: string): Promise<void>;
  edit(to: string, id: string, body: string): Promise<void>;
  markRead(to: string, ids: string[]): Promise<void>;
  /** The canonical number of a WhatsApp user, or null when the number has no WhatsApp. */
  checkNumber(number: string): Promise<string | null>;
  profilePicture(number: string): Promise<string | null>;
}

/** What a driver gets: its connection, where media goes, and where its events go. */
export interface DriverContext {
  connectionId: number;
  companyId: number;
  /** Saves downloaded media for this company (NormalizedMessage.media.path is the stored name). */
  media: MediaStorage;
  log: Logger;
  /**
   * Hands an event over. Resolves once it is durably journaled (messages and calls; at once for
   * the rest): only then may the driver acknowledge it to its provider. Rejects when it could not
   * be written.
   */
  emit(event: DriverEvent): Promise<void>;
}

export type DriverFactory = (context: DriverContext) => ChannelDriver;

/** What a session that is not running (or not connected) answers a command: 400 ERR_WAPP_NOT_INITIALIZED. */
export function sessionNotInitialized(): AppError {
  return new AppError(ErrorCode.ERR_WAPP_NOT_INITIALIZED, 400, 'Session not initialized');
}
