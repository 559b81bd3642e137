import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import type { MediaType, SentMessage } from '../../channels/driver.js';
import type { SessionManager } from '../../channels/session-manager.js';
import { AppError, NotFoundError } from '../../errors.js';
import { Events } from '../../events/event-bus.js';
import type { TicketEvents } from '../tickets/ticket-events.js';
import { Ticket } from '../tickets/ticket.model.js';
import { Message } from './message.model.js';
import { chatOf, publishMessage } from './message-events.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { withLocalCopy } from '../../storage/media-storage.js';

/** A message Atende sends on a ticket: an agent's reply or an automatic text. */
export interface OutgoingMessage {
  companyId: number;
  ticketId: number;
  body: string;
  /** The agent who wrote it; null or absent for automatic messages and API tokens. */
  userId?: number | null;
  /** The company API token that wrote it (then no userId). */
  apiToken?: { id: number; name: string } | null;
  /** The bot that wrote it (a conversation step's name); absent for people and automatic messages. */
  bot?: string | null;
  /** Our id (messages.id) of the message it replies to. */
  quotedMsgId?: number | null;
  /** A file already in MediaStorage (its stored name), sent with `body` as caption. */
  media?: { path: string; name: string; mime: string; type: MediaType; ptt?: boolean };
  /** What a voice note in `media` says (a bot's spoken answer): shown under it and read by bots as its text. */
  transcript?: string | null;
}

/** The job that sends one queued message: `{ messageId }`. */
export const SEND_JOB = 'messages.send';

/** A send job or a withdrawal handed to the node running the ticket's session (its lanes). */
const SEND_CALL = 'outbound.send';
const WITHDRAW_CALL = 'outbound.withdraw';

/** What the agent sees when a message could not be sent after every attempt. */
export const SEND_FAILED = ErrorCode.ERR_SENDING_WAPP_MSG;

/** How often, and how far apart, a send is tried before the message is marked failed. */
export interface SendRetryPolicy {
  maxAttempts: number;
  /** Delay after the first failed attempt; it doubles after each one, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** 2 s, 4 s, 8 s … capped at 5 min: about 13 minutes of trying before the agent is told. */
export const DEFAULT_SEND_RETRY: SendRetryPolicy = { maxAttempts: 10, firstDelayMs: 2000, maxDelayMs: 5 * 60_000 };

/** A WhatsApp-style message id, as Baileys makes them for its own sends. */
export function newMessageId(): string {
  return `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;
}

/** What a message row keeps about how to send its media (messages.data_json of outgoing ones). */
interface SendExtras {
  ptt?: boolean;
}

type WithdrawCall = Pick<Message, 'id' | 'ticketId'>;
interface SendCall {
  messageId: number;
  ticketId: number;
}

function errorCode(err: unknown): string {
  return err instanceof AppError ? err.code : SEND_FAILED;
}

/**
 * The durable send queue (DESIGN §5): a message is stored as 'queued' first, then sent by a job
 * with retries while the connection is down. Its WhatsApp id is chosen before the first attempt,
 * so a retry after a crash can never make a second message.
 *
 * Sends of one ticket run one at a time, oldest first: a job that finds older messages of its
 * ticket still queued sends them before its own, so a burst written while the connection was down
 * arrives in the order it was written. With several nodes, a job runs on whichever node picked it,
 * and hands its send to the node running the ticket's session: each ticket's lane is there alone.
 */
export class OutboundService {
  /** Public so an operator (or a test) can shorten it; read at every failed attempt. */
  retry: SendRetryPolicy;
  /** The tail of each ticket's chain of sends. */
  private readonly lanes = new Map<number, Promise<void>>();

  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: { sessions: SessionManager; events: TicketEvents },
    options: { retry?: Partial<SendRetryPolicy> } = {},
  ) {
    this.retry = { ...DEFAULT_SEND_RETRY, ...options.retry };
    infra.jobs.define<{ messageId: number }>(SEND_JOB, (data) => this.sendJob(Number(data.messageId)), { lockLifetime: 2 * 60_000 });
    infra.cluster.calls.handle(SEND_CALL, (args) => this.sendHere(args as SendCall));
    infra.cluster.calls.handle(WITHDRAW_CALL, (args) => this.withdrawHere(args as WithdrawCall));
    infra.bus.on(Events.whatsappConnected, (event) => {
      const { connectionId } = event.payload as { connectionId: number };
      // Not awaited: the session manager waits for its event handlers, and sends can take long.
      this.flush(connectionId).catch((err: unknown) => this.infra.log.error({ err, connectionId }, 'queued messages not flushed'));
    });
  }

  /** Stores the message as queued (inside `trx` when given) and sends it once that commits. */
  async enqueue(input: OutgoingMessage, trx?: Knex.Transaction): Promise<Message> {
    const db = trx ?? this.infra.db;
    const ticket = await Ticket.query(db).findOne({ id: input.ticketId, companyId: input.companyId });
    if (!ticket) throw new NotFoundError(ErrorCode.ERR_NO_TICKET_FOUND);
    const media = input.media;
    const extras: SendExtras = media?.ptt ? { ptt: true } : {};
    const message = await Message.query(db).insert({
      companyId: input.companyId,
      wid: newMessageId(),
      ticketId: ticket.id,
      contactId: ticket.contactId,
      queueId: ticket.queueId,
      userId: input.userId ?? null,
      apiTokenId: input.apiToken?.id ?? null,
      apiTokenName: input.apiToken?.name ?? null,
      body: input.body,
      fromMe: true,
      bot: input.bot ?? null,
      read: true,
      ack: 0,
      mediaType: media?.type ?? null,
      mediaPath: media?.path ?? null,
      mediaName: media?.name ?? null,
      mediaMime: media?.mime ?? null,
      transcript: input.transcript ?? null,
      quotedMsgId: input.quotedMsgId ?? null,
      dataJson: Object.keys(extras).length > 0 ? JSON.stringify(extras) : null,
      sendStatus: 'queued',
      sendAttempts: 0,
    });
    await Ticket.query(db)
      .findById(ticket.id)
      .patch({ lastMessage: input.body || input.transcript || media?.name || '', fromMe: true, updatedAt: new Date().toISOString() });

    const announce = async () => {
      // Published before the job exists, so the 'create' frame never follows the job's 'update'.
      await publishMessage(this.infra.db, this.deps.events, 'create', message.id, true).catch((err: unknown) => {
        this.infra.log.error({ err, messageId: message.id }, 'queued message not announced');
      });
      await this.infra.jobs.now(SEND_JOB, { messageId: message.id }).catch((err: unknown) => {
        // The row is the queue: the next time the connection comes up its messages are flushed.
        this.infra.log.error({ err, messageId: message.id }, 'send job not scheduled');
      });
    };
    if (trx) {
      void trx.executionPromise.then(announce, () => undefined);
    } else {
      await announce();
    }
    return message;
  }

  /**
   * Withdraws a message not sent yet (the agent deleted it): marked deleted, its send job then
   * does nothing. Answers false when it was sent meanwhile (the provider must delete it).
   */
  async withdraw(message: WithdrawCall): Promise<boolean> {
    const call: WithdrawCall = { id: message.id, ticketId: message.ticketId };
    return this.whereSessionRuns(message.ticketId, WITHDRAW_CALL, call, () => this.withdrawHere(call));
  }

  private withdrawHere(message: WithdrawCall): Promise<boolean> {
    return this.lane(message.ticketId, async () => {
      const current = await Message.query(this.infra.db).findById(message.id);
      if (!current || current.sendStatus === 'sent') return false;
      await Message.query(this.infra.db).findById(message.id).patch({ isDeleted: true });
      return true;
    });
  }

  // ---- sending ------------------------------------------------------------------------------

  private async sendJob(messageId: number): Promise<void> {
    const message = await Message.query(this.infra.db).findById(messageId).select('id', 'ticketId');
    if (!message) return;
    try {
      const call: SendCall = { messageId, ticketId: message.ticketId };
      await this.whereSessionRuns(message.ticketId, SEND_CALL, call, () => this.sendHere(call));
    } catch (err) {
      // The owner did not answer (it may be dying: its lease then moves, and the new owner flushes
      // the queue once connected). Counted like a failed send, so the message is tried again.
      const target = await Message.query(this.infra.db).findById(messageId);
      if (target && this.pending(target)) await this.failed(target, err);
    }
  }

  private async sendHere({ messageId, ticketId }: SendCall): Promise<void> {
    await this.lane(ticketId, async () => {
      const target = await Message.query(this.infra.db).findById(messageId);
      if (!target || !this.pending(target)) return;
      // Never ahead of an older message: if one still cannot go, this one waits its next turn.
      for (const earlier of await this.queuedOf(target.ticketId, target.id)) {
        const error = await this.attempt(earlier, false);
        if (error !== undefined) return this.failed(target, error);
      }
      await this.attempt(target, true);
    });
  }

  /** The connection is back: its queued messages go now, each ticket's in order. */
  async flush(connectionId: number): Promise<void> {
    const tickets: { ticketId: number }[] = await this.infra
      .db('messages')
      .join('tickets', 'tickets.id', 'messages.ticketId')
      .where('tickets.whatsappId', connectionId)
      .where('messages.sendStatus', 'queued')
      .where('messages.isDeleted', false)
      .distinct('messages.ticketId as ticketId');
    await Promise.all(
      tickets.map(({ ticketId }) =>
        this.lane(ticketId, async () => {
          // Not counted as attempts: each message keeps its own retry schedule.
          for (const message of await this.queuedOf(ticketId)) {
            if ((await this.attempt(message, false)) !== undefined) return;
          }
        }),
      ),
    );
  }

  /** A ticket's messages waiting to be sent, oldest first (only those before `beforeId` when given). */
  private async queuedOf(ticketId: number, beforeId?: number): Promise<Message[]> {
    const query = Message.query(this.infra.db).where({ ticketId, sendStatus: 'queued', isDeleted: false }).orderBy('id');
    if (beforeId !== undefined) query.where('id', '<', beforeId);
    return query;
  }

  private pending(message: Message): boolean {
    return message.sendStatus === 'queued' && !message.isDeleted;
  }

  /**
   * One try at sending. A counted attempt that fails is recorded and retried later (or, after the
   * last one, the message is marked failed); an uncounted one (a flush, an older message sent
   * ahead of a newer one) leaves the message to its own schedule. Answers the error of a failed
   * try, undefined once sent.
   */
  private async attempt(message: Message, counted: boolean): Promise<unknown> {
    let sent: SentMessage;
    try {
      sent = await this.send(message);
    } catch (err) {
      if (counted) await this.failed(message, err);
      else this.infra.log.debug({ err, messageId: message.id }, 'queued message still not sent');
      return err ?? new Error('send failed');
    }
    const db = this.infra.db;
    await Message.query(db)
      .findById(message.id)
      .patch({
        sendStatus: 'sent',
        sendError: null,
        // The driver was asked for our id; should one choose its own, acks and echoes carry that.
        wid: sent.id || message.wid,
        sendAttempts: db.raw('?? + 1', ['sendAttempts']) as unknown as number,
        // Acks only grow: one may have come in before this write.
        ack: db.raw('case when ?? < 1 then 1 else ?? end', ['ack', 'ack']) as unknown as number,
      });
    await publishMessage(db, this.deps.events, 'update', message.id);
    await this.infra.bus.emit(Events.messageSent, message.companyId, { messageId: message.id, ticketId: message.ticketId });
    await this.infra.bus.emit(Events.messageStatus, message.companyId, { messageId: message.id, ticketId: message.ticketId, status: 'sent' });
    return undefined;
  }

  private async failed(message: Message, err: unknown): Promise<void> {
    const attempts = message.sendAttempts + 1;
    const last = attempts >= this.retry.maxAttempts;
    const code = errorCode(err);
    this.infra.log[last ? 'warn' : 'debug']({ err, messageId: message.id, attempts }, last ? 'message not sent, giving up' : 'message not sent, will retry');
    await Message.query(this.infra.db)
      .findById(message.id)
      .patch({ sendAttempts: attempts, sendError: last ? SEND_FAILED : code, ...(last && { sendStatus: 'failed' as const }) });
    if (!last) {
      const delay = Math.min(this.retry.firstDelayMs * 2 ** (attempts - 1), this.retry.maxDelayMs);
      await this.infra.jobs.schedule(new Date(Date.now() + delay), SEND_JOB, { messageId: message.id });
    }
    await publishMessage(this.infra.db, this.deps.events, 'update', message.id);
    if (!last) return;
    await this.infra.bus.emit(Events.messageSendFailed, message.companyId, { messageId: message.id, ticketId: message.ticketId, error: SEND_FAILED });
    await this.infra.bus.emit(Events.messageStatus, message.companyId, { messageId: message.id, ticketId: message.ticketId, status: 'failed' });
  }

  /** Hands the message to its ticket's connection, with its own id. */
  private async send(message: Message): Promise<SentMessage> {
    const db = this.infra.db;
    const ticket = await Ticket.query(db).findById(message.ticketId).select('whatsappId', 'contactId');
    if (!ticket) throw new AppError(SEND_FAILED, 400, 'The ticket is gone');
    const { driver, to } = await chatOf(db, this.deps.sessions, ticket);
    const quoted = message.quotedMsgId ? await Message.query(db).findById(message.quotedMsgId).select('wid') : undefined;
    const options = { id: message.wid, ...(quoted && { quotedId: quoted.wid }) };
    const stored = message.mediaPath;
    if (!stored) return driver.sendText(to, message.body, options);
    const extras = (message.dataJson ? JSON.parse(message.dataJson) : {}) as SendExtras;
    return withLocalCopy(this.infra.media, message.companyId, stored, (file) =>
      driver.sendMedia(
        to,
        {
          path: file,
          fileName: message.mediaName ?? stored,
          mimeType: message.mediaMime ?? 'application/octet-stream',
          ...(message.body && { caption: message.body }),
          ...(extras.ptt && { ptt: true }),
        },
        options,
      ),
    );
  }

  // ---- helpers ------------------------------------------------------------------------------

  /**
   * Runs `here` on this node when it runs the ticket's session or no node does (the send then
   * fails and is retried, as on one node); otherwise asks the node that runs it. Without Redis no
   * other node exists: nothing to look up.
   */
  private async whereSessionRuns<T>(ticketId: number, method: string, args: unknown, here: () => Promise<T>): Promise<T> {
    if (!this.infra.cluster.shared) return here();
    const ticket = await Ticket.query(this.infra.db).findById(ticketId).select('whatsappId');
    const owner = ticket?.whatsappId ? await this.deps.sessions.otherOwner(ticket.whatsappId) : undefined;
    return owner ? this.infra.cluster.calls.call<T>(owner, method, args) : here();
  }

  /** Runs `task` after every earlier task of the same ticket. */
  private lane<T>(ticketId: number, task: () => Promise<T>): Promise<T> {
    const run = (this.lanes.get(ticketId) ?? Promise.resolve()).then(task);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.lanes.set(ticketId, tail);
    void tail.then(() => {
      if (this.lanes.get(ticketId) === tail) this.lanes.delete(ticketId);
    });
    return run;
  }
}
