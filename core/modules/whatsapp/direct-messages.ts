import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import type { ConnectionStatus, SentMessage } from '../../channels/driver.js';
import type { SessionCommands, SessionManager } from '../../channels/session-manager.js';
import { AppError, NotFoundError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { Events } from '../../events/event-bus.js';
import type { DirectMessageStatus } from '../../events/catalogue.js';
import { newMessageId } from '../messages/outbound.service.js';
import { withLocalCopy } from '../../storage/media-storage.js';
import { Whatsapp } from './whatsapp.model.js';

/** A message to a number, outside any ticket. */
export interface DirectMessage {
  companyId: number;
  whatsappId: number;
  /** Canonical digits. */
  number: string;
  /** From newMessageId(), chosen and stored by the caller before the first attempt; a retry reuses it. */
  messageId: string;
  body?: string;
  /** A file in MediaStorage of the company (its stored name), with `body` as caption. */
  media?: { path: string; name: string; mime: string };
}

/** The connection is not CONNECTED (or went away during the send): nothing left. */
export class WhatsappNotConnectedError extends AppError {
  constructor(message = 'The connection is not connected') {
    super(ErrorCode.ERR_WAPP_NOT_INITIALIZED, 400, message);
    this.name = 'WhatsappNotConnectedError';
  }
}

/** The provider refused the send for sending too much (Baileys: rate-overlimit). */
export class WhatsappRateLimitedError extends AppError {
  constructor(message = 'WhatsApp limits this connection for now') {
    super(ErrorCode.ERR_WAPP_RATE_LIMITED, 429, message);
    this.name = 'WhatsappRateLimitedError';
  }
}

const ACK_STATUS: Record<number, DirectMessageStatus> = { 1: 'sent', 2: 'delivered', 3: 'read', 4: 'played' };

/** Echoes and acks of direct sends are recognised for this long; older rows are pruned. */
const KEEP_DAYS = 30;
export const DIRECT_PRUNE_JOB = 'whatsapp.direct.prune';

/**
 * Sends outside tickets (the SDK's `app.services.whatsapp`): the provider id is recorded in
 * direct_messages before the driver is asked, so the echo the provider sends back is dropped by
 * the inbound pipeline (no ticket, no message row) and its acks become whatsapp.ack events.
 */
export class DirectMessages {
  constructor(
    private readonly infra: Infrastructure,
    private readonly sessions: SessionManager,
  ) {
    infra.bus.on(Events.messageAck, (event) => this.acked(event.payload as { connectionId: number; companyId: number; id: string; ack: number }));
    infra.jobs.define(DIRECT_PRUNE_JOB, () => this.prune());
  }

  /** A new provider message id (the outbound queue's shape). */
  newMessageId(): string {
    return newMessageId();
  }

  /** The connection's session status, on whichever node runs it. */
  status(whatsappId: number): Promise<ConnectionStatus> {
    return this.sessions.currentStatus(whatsappId);
  }

  /**
   * Answers once the driver accepted the message. 404 ERR_NO_WAPP_FOUND for a connection not of
   * the company; WhatsappNotConnectedError when it is not connected; WhatsappRateLimitedError when
   * the provider refuses for sending too much; other AppErrors (a missing file) as they come.
   */
  async sendDirect(message: DirectMessage): Promise<SentMessage> {
    const { companyId, whatsappId } = message;
    const connection = await Whatsapp.query(this.infra.db).findOne({ id: whatsappId, companyId }).select('id');
    if (!connection) throw new NotFoundError(ErrorCode.ERR_NO_WAPP_FOUND);
    // Here or on the node running the session; not connected anywhere: nothing is recorded.
    const driver = await this.sessions.commandsFor(whatsappId).catch((err: unknown) => {
      throw err instanceof AppError && err.code === ErrorCode.ERR_WAPP_NOT_INITIALIZED ? new WhatsappNotConnectedError(err.message) : err;
    });
    await this.remember(this.infra.db, message);
    try {
      return await this.deliver(driver, message);
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.ERR_WAPP_NOT_INITIALIZED) throw new WhatsappNotConnectedError(err.message);
      if (err instanceof AppError && err.code === ErrorCode.ERR_WAPP_RATE_LIMITED) throw new WhatsappRateLimitedError(err.message);
      // A socket closing under the send: the caller retries with the same id once it is back.
      if ((await this.sessions.currentStatus(whatsappId)) !== 'CONNECTED') throw new WhatsappNotConnectedError();
      throw err;
    }
  }

  /** Whether a provider id is one of our direct sends (the pipeline drops its echo). */
  async isDirect(db: Knex, companyId: number, wid: string): Promise<boolean> {
    return (await db('direct_messages').where({ companyId, wid }).first('id')) !== undefined;
  }

  private async remember(db: Knex, message: DirectMessage): Promise<void> {
    await db('direct_messages')
      .insert({ companyId: message.companyId, whatsappId: message.whatsappId, wid: message.messageId, createdAt: new Date().toISOString() })
      .onConflict(['companyId', 'wid'])
      .ignore();
  }

  private deliver(driver: SessionCommands, message: DirectMessage): Promise<SentMessage> {
    const options = { id: message.messageId };
    if (!message.media) return driver.sendText(message.number, message.body ?? '', options);
    const media = message.media;
    return withLocalCopy(this.infra.media, message.companyId, media.path, (file) =>
      driver.sendMedia(
        message.number,
        { path: file, fileName: media.name, mimeType: media.mime, ...(message.body && { caption: message.body }) },
        options,
      ),
    );
  }

  private async acked(event: { connectionId: number; companyId: number; id: string; ack: number }): Promise<void> {
    const status = ACK_STATUS[event.ack];
    if (!status || !(await this.isDirect(this.infra.db, event.companyId, event.id))) return;
    await this.infra.bus.emit(Events.whatsappAck, event.companyId, { whatsappId: event.connectionId, companyId: event.companyId, messageId: event.id, status });
  }

  private async prune(): Promise<void> {
    const before = new Date(Date.now() - KEEP_DAYS * 86_400_000).toISOString();
    await this.infra.db('direct_messages').where('createdAt', '<', before).delete();
  }
}
