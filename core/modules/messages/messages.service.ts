import type { Infrastructure } from '../../infrastructure.js';
import { isAdmin, type AuthUser } from '../../auth/auth-user.js';
import type { SessionManager } from '../../channels/session-manager.js';
import { AppError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import { Events } from '../../events/event-bus.js';
import { displayFileName, isStoredName, type MediaSource } from '../../storage/media-storage.js';
import type { UploadedFile } from '../media/media-upload.js';
import { QuickMessage } from '../quick-messages/quick-message.model.js';
import { visibleTicket } from '../tickets/ticket-access.js';
import type { TicketEvents } from '../tickets/ticket-events.js';
import type { Ticket } from '../tickets/ticket.model.js';
import { loadTicket } from '../tickets/ticket-view.js';
import { Message } from './message.model.js';
import { refreshLastMessage } from './last-message.js';
import { chatOf, loadMessage, publishMessage } from './message-events.js';
import { messageViews, toMessageView, type MessageView } from './message-view.js';
import { MESSAGES_PAGE_SIZE } from './messages.schema.js';
import type { OutboundService } from './outbound.service.js';
import { outgoingMediaKind } from './outgoing-media.js';
import { asVoiceNote } from './voice-note.js';
import { ErrorCode } from '../../contract/error-codes.js';

const NO_MESSAGE = ErrorCode.ERR_NO_MESSAGE_FOUND;

/** What an agent sends on a ticket in one request. */
export interface SendRequest {
  body: string;
  quotedMsgId?: number | null;
  /** Uploaded files; `body` is the caption of the first. */
  files?: UploadedFile[];
  /** The files are the composer's voice recording. */
  ptt?: boolean;
  /** A quick reply whose stored attachment goes with `body`. */
  quickMessageId?: number;
}

export interface MessagesPage {
  messages: MessageView[];
  ticket: Ticket;
  count: number;
  hasMore: boolean;
}

/** A file to send, its name and bytes made ready when its turn comes. */
type Attachment = () => Promise<{ name: string; source: MediaSource }>;

interface ProviderEvent {
  companyId: number;
  id: string;
}

/** Messages of a ticket: paging, read marks, delete and edit, and the provider's acks, revokes and edits. */
export class MessagesService {
  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: { sessions: SessionManager; events: TicketEvents; outbound: OutboundService },
  ) {
    const on = <P>(name: string, handle: (payload: P) => Promise<void>) => infra.bus.on(name, (event) => handle(event.payload as P), 'messages');
    on<ProviderEvent & { ack: number }>(Events.messageAck, (e) => this.acked(e));
    on<ProviderEvent>(Events.messageRevoked, (e) => this.revoked(e));
    on<ProviderEvent & { body: string }>(Events.messageEdited, (e) => this.edited(e));
  }

  /**
   * GET /messages/:ticketId: the contact's conversation across all of its tickets (each message
   * says its ticket, so the client draws where attendances started and ended), 20 a page, page 1
   * the newest, each page oldest first. The ticket's own user reading it marks it read.
   */
  async list(actor: AuthUser, ticketId: number, pageNumber: number): Promise<MessagesPage> {
    const ticket = await visibleTicket(this.infra.db, actor, ticketId, loadTicket);
    if (ticket.userId === actor.id) await this.markRead(ticket);
    const db = this.infra.db;
    const history = () =>
      // The tickets are the company's contact's, so no company filter here: one would lead SQLite
      // to walk the company's messages instead of the (ticket_id, created_at) index.
      db('messages').whereIn('messages.ticketId', db('tickets').select('id').where({ companyId: ticket.companyId, contactId: ticket.contactId }));
    const offset = (pageNumber - 1) * MESSAGES_PAGE_SIZE;
    const [newestFirst, counted] = await Promise.all([
      messageViews(history().orderBy('messages.createdAt', 'desc').orderBy('messages.id', 'desc').limit(MESSAGES_PAGE_SIZE).offset(offset)),
      history().count({ total: '*' }).first() as Promise<{ total: number | string }>,
    ]);
    const count = Number(counted.total);
    return { messages: newestFirst.reverse(), ticket, count, hasMore: offset + newestFirst.length < count };
  }

  /**
   * Everything of the ticket is read: its messages, its unread count (updateUnread to its
   * audience) and, best effort, the customer's phone (blue ticks). The ticket keeps its place in
   * the lists: its updatedAt does not change.
   */
  async markRead(ticket: Pick<Ticket, 'id' | 'companyId' | 'userId' | 'queueId' | 'whatsappId' | 'contactId' | 'unreadMessages'>): Promise<void> {
    const db = this.infra.db;
    const unread = (await db('messages').where({ ticketId: ticket.id, read: false }).select('wid', 'fromMe')) as { wid: string; fromMe: boolean | number }[];
    if (unread.length === 0 && ticket.unreadMessages === 0) return;
    if (unread.length > 0) await db('messages').where({ ticketId: ticket.id, read: false }).update({ read: true });
    await db('tickets').where({ id: ticket.id }).update({ unreadMessages: 0 });
    ticket.unreadMessages = 0;
    this.deps.events.unreadReset(ticket as Ticket);
    const inbound = unread.filter((m) => !m.fromMe).map((m) => m.wid);
    if (inbound.length === 0) return;
    chatOf(db, this.deps.sessions, ticket)
      .then(({ driver, to }) => driver.markRead(to, inbound))
      .catch((err: unknown) => this.infra.log.debug({ err, ticketId: ticket.id }, 'read receipts not sent'));
  }

  /**
   * POST /messages/:ticketId: a text, files (the caption on the first) or a quick reply's
   * attachment, each queued for sending. Only on an open ticket, by its user or an admin.
   */
  async send(actor: AuthUser, ticketId: number, request: SendRequest): Promise<MessageView[]> {
    const ticket = await this.writableTicket(actor, ticketId);
    const files: Attachment[] = (request.files ?? []).map(
      (file) => () => (request.ptt ? asVoiceNote(file, this.infra.log) : Promise.resolve({ name: file.name, source: file })),
    );
    if (request.quickMessageId !== undefined) {
      const reply = await this.quickReply(actor, request.quickMessageId);
      const stored = reply.mediaPath;
      if (stored) files.push(async () => ({ name: reply.mediaName ?? stored, source: (await this.infra.media.open(actor.companyId, stored)).stream }));
    }
    // A blank caption is no caption; a blank text is refused.
    const body = request.body.trim() ? request.body : '';
    if (!body && files.length === 0) throw new ValidationError('body: Obrigatório');
    const quotedMsgId = request.quotedMsgId ? await this.quotable(ticket, request.quotedMsgId) : null;

    // A token is the author of what it sends, not the admin who made it.
    const author = actor.apiToken ? { userId: null, apiToken: actor.apiToken } : { userId: actor.id };
    const base = { companyId: actor.companyId, ticketId: ticket.id, ...author, quotedMsgId };
    if (files.length === 0) return [await this.view(await this.deps.outbound.enqueue({ ...base, body }))];
    const sent: MessageView[] = [];
    for (const [index, attachment] of files.entries()) {
      const file = await attachment();
      // Each message owns its copy (a quick reply's file may be replaced or removed later).
      const stored = await this.infra.media.save(actor.companyId, file.name, file.source);
      const kind = outgoingMediaKind(file.name, request.ptt);
      const media = { path: stored.name, name: displayFileName(file.name), mime: kind.mime, type: kind.type, ptt: kind.ptt };
      let queued: Message;
      try {
        queued = await this.deps.outbound.enqueue({ ...base, body: index === 0 ? body : '', media });
      } catch (err) {
        // No message owns the file: it goes with the failed write.
        await this.infra.media.remove(actor.companyId, stored.name);
        throw err;
      }
      sent.push(await this.view(queued));
    }
    return sent;
  }

  /**
   * The ticket if the actor may send messages on it (the rule of POST /messages/:ticketId, for
   * whoever else sends on an agent's behalf): visible to them (404 ERR_NO_TICKET_FOUND, 403), open
   * (400 ERR_TICKET_NOT_OPEN), and theirs unless they are an admin (403 ERR_NO_PERMISSION).
   */
  async writableTicket(actor: AuthUser, ticketId: number): Promise<Ticket> {
    const ticket = await visibleTicket(this.infra.db, actor, ticketId, loadTicket);
    if (ticket.status !== 'open') throw new AppError(ErrorCode.ERR_TICKET_NOT_OPEN, 400, 'Accept or reopen the ticket to send messages');
    if (!isAdmin(actor) && ticket.userId !== actor.id) throw new ForbiddenError();
    return ticket;
  }

  /**
   * GET /media/:file: a message's file is read under its ticket's visibility (the read's rule);
   * answers its original name. Files no message owns (a quick reply's, a schedule's) are the
   * company's.
   */
  async mediaFile(actor: AuthUser, storedName: string): Promise<{ name?: string }> {
    if (!isStoredName(storedName)) throw new NotFoundError(ErrorCode.ERR_NO_MEDIA_FOUND);
    const message = (await this.infra.db('messages').where({ companyId: actor.companyId, mediaPath: storedName }).first('ticketId', 'mediaName')) as
      | Pick<Message, 'ticketId' | 'mediaName'>
      | undefined;
    if (!message) return {};
    await visibleTicket(this.infra.db, actor, message.ticketId);
    return { name: message.mediaName ?? undefined };
  }

  /**
   * DELETE /messages/:id: a message the company sent, by its author or an admin. One not sent yet
   * is withdrawn; a sent one is deleted for everyone on WhatsApp first (ERR_DELETE_WAPP_MSG when
   * that fails, and nothing changes).
   */
  async remove(actor: AuthUser, id: number): Promise<MessageView> {
    const { message, ticket } = await this.visibleMessage(actor, id);
    if (!message.fromMe || (!isAdmin(actor) && !wroteIt(actor, message))) throw new ForbiddenError();
    if (message.isDeleted) return toMessageView(message);
    const withdrawn = message.sendStatus === 'failed' || (message.sendStatus === 'queued' && (await this.deps.outbound.withdraw(message)));
    if (!withdrawn) {
      try {
        const { driver, to } = await chatOf(this.infra.db, this.deps.sessions, ticket);
        await driver.delete(to, message.wid);
      } catch (err) {
        this.infra.log.info({ err, messageId: message.id }, 'message not deleted on WhatsApp');
        throw new AppError(ErrorCode.ERR_DELETE_WAPP_MSG, 400, 'Could not delete the message from WhatsApp');
      }
    }
    await Message.query(this.infra.db).findById(message.id).patch({ isDeleted: true });
    return toMessageView((await this.publishChange(message))!);
  }

  /** PUT /messages/:id: the author edits a text they sent; WhatsApp first (ERR_EDIT_WAPP_MSG when that fails). */
  async edit(actor: AuthUser, id: number, body: string): Promise<MessageView> {
    const { message, ticket } = await this.visibleMessage(actor, id);
    if (!message.fromMe || !wroteIt(actor, message)) throw new ForbiddenError();
    if (message.mediaPath || message.isDeleted || message.sendStatus !== 'sent') {
      throw new AppError(ErrorCode.ERR_EDIT_WAPP_MSG, 400, 'Only a sent text message can be edited');
    }
    try {
      const { driver, to } = await chatOf(this.infra.db, this.deps.sessions, ticket);
      await driver.edit(to, message.wid, body);
    } catch (err) {
      this.infra.log.info({ err, messageId: message.id }, 'message not edited on WhatsApp');
      throw new AppError(ErrorCode.ERR_EDIT_WAPP_MSG, 400, 'Could not edit the message on WhatsApp');
    }
    await Message.query(this.infra.db).findById(message.id).patch({ body, isEdited: true });
    return toMessageView((await this.publishChange(message))!);
  }

  // ---- what the provider reports --------------------------------------------------------------

  /** Acks only grow: a late or replayed lower one changes nothing. */
  private async acked(event: ProviderEvent & { ack: number }): Promise<void> {
    const changed = await this.byWid(event).where('ack', '<', event.ack).update({ ack: event.ack, updatedAt: new Date().toISOString() });
    if (changed === 0) return;
    const message = await this.announce(event);
    if (message) await this.infra.bus.emit(Events.messageStatus, event.companyId, { messageId: message.id, ticketId: message.ticketId, status: event.ack });
  }

  private async revoked(event: ProviderEvent): Promise<void> {
    const changed = await this.byWid(event).where('isDeleted', false).update({ isDeleted: true, updatedAt: new Date().toISOString() });
    if (changed > 0) await this.textChanged(event);
  }

  private async edited(event: ProviderEvent & { body: string }): Promise<void> {
    const changed = await this.byWid(event).update({ body: event.body, isEdited: true, updatedAt: new Date().toISOString() });
    if (changed > 0) await this.textChanged(event);
  }

  private async textChanged(event: ProviderEvent): Promise<void> {
    const message = await Message.query(this.infra.db).findOne({ companyId: event.companyId, wid: event.id }).select('id', 'ticketId');
    if (message) await this.publishChange(message);
  }

  private byWid(event: ProviderEvent) {
    return this.infra.db('messages').where({ companyId: event.companyId, wid: event.id });
  }

  private async announce(event: ProviderEvent): Promise<Pick<Message, 'id' | 'ticketId'> | undefined> {
    const message = await Message.query(this.infra.db).findOne({ companyId: event.companyId, wid: event.id }).select('id', 'ticketId');
    if (message) await publishMessage(this.infra.db, this.deps.events, 'update', message.id);
    return message;
  }

  // ---- helpers ------------------------------------------------------------------------------

  private async view(queued: Message): Promise<MessageView> {
    return toMessageView((await loadMessage(this.infra.db, queued.id)) ?? queued);
  }

  /** A message of the caller's company (404 otherwise) on a ticket the caller may see, with that ticket. */
  private async visibleMessage(actor: AuthUser, id: number): Promise<{ message: Message; ticket: Ticket }> {
    const message = await Message.query(this.infra.db).findOne({ id, companyId: actor.companyId }).withGraphFetched('quotedMsg');
    if (!message) throw new NotFoundError(NO_MESSAGE);
    return { message, ticket: await visibleTicket(this.infra.db, actor, message.ticketId) };
  }

  /** A quick reply the caller may use: their own or one shared with the company. */
  private async quickReply(actor: AuthUser, id: number): Promise<QuickMessage> {
    const reply = await QuickMessage.query(this.infra.db)
      .findOne({ id, companyId: actor.companyId })
      .where((w) => w.where('geral', true).orWhere('userId', actor.id));
    if (!reply) throw new NotFoundError(ErrorCode.ERR_NO_QUICK_MESSAGE_FOUND);
    return reply;
  }

  /** The id of a message of this contact's conversation, to reply to. */
  private async quotable(ticket: Ticket, id: number): Promise<number> {
    const quoted = await Message.query(this.infra.db)
      .findOne({ 'messages.id': id, 'messages.companyId': ticket.companyId })
      .join('tickets', 'tickets.id', 'messages.ticketId')
      .where('tickets.contactId', ticket.contactId)
      .select('messages.id');
    if (!quoted) throw new ValidationError('quotedMsg: not a message of this conversation');
    return quoted.id;
  }

  /**
   * A message was deleted or edited: its ticket's lastMessage follows, and the message (with the
   * ticket, when that changed) goes out live so open lists change.
   */
  private async publishChange(message: Pick<Message, 'id' | 'ticketId'>): Promise<Message | undefined> {
    const ticketChanged = await refreshLastMessage(this.infra.db, message.ticketId);
    return publishMessage(this.infra.db, this.deps.events, 'update', message.id, ticketChanged);
  }
}

/** Whether the caller is the message's author: the same API token, or the same person without one. */
function wroteIt(actor: AuthUser, message: Pick<Message, 'userId' | 'apiTokenId'>): boolean {
  return actor.apiToken ? message.apiTokenId === actor.apiToken.id : message.apiTokenId === null && message.userId === actor.id;
}
