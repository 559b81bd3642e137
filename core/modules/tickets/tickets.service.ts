import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import { actorOf, isAdmin, type Actor, type AuthUser } from '../../auth/auth-user.js';
import { isPostgres } from '../../db/database.js';
import { uniqueOr } from '../../db/unique-violation.js';
import { AppError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import { Contact } from '../contacts/contact.model.js';
import type { OutboundService } from '../messages/outbound.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import { Queue } from '../queues/queue.model.js';
import type { SettingsService } from '../settings/settings.service.js';
import { User } from '../users/user.model.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';
import { assertVisible, loadViewer, visibleTicket } from './ticket-access.js';
import { ticketBefore, type TicketBefore, type TicketEvents } from './ticket-events.js';
import { newTicketRow, Ticket } from './ticket.model.js';
import { findTicket, loadTicket } from './ticket-view.js';
import { acceptGreeting, ratingRequest, transferNotice } from './ticket-texts.js';
import type { TemplateContext } from './templates.js';
import { renderTemplate } from './templates.js';
import { listTicketCards, listTickets, type TicketPage } from './tickets-list.js';
import type { TicketCardView } from '../../contract/views.js';
import type { CreateTicketInput, ListTicketsQuery, UpdateTicketInput } from './tickets.schema.js';
import { tracking } from './tracking.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { OtherOpenTicketView as OtherOpenTicket } from '../../contract/views.js';

type TicketPatch = Partial<Pick<Ticket, 'status' | 'userId' | 'queueId' | 'whatsappId' | 'queueOptionId' | 'chatbot' | 'useIntegration' | 'promptId' | 'integrationId'>>;

/**
 * 409 ERR_OTHER_OPEN_TICKET. The spec's client reads the message as JSON (to name the user and
 * queue already attending, or to open the ticket when it is the caller's); the same object is in
 * `ticket` for everyone else.
 */
export class OtherOpenTicketError extends ConflictError {
  constructor(readonly ticket: OtherOpenTicket) {
    super(ErrorCode.ERR_OTHER_OPEN_TICKET, JSON.stringify(ticket));
  }
}

/** The partial unique index decided a race the check before it could not see. */
class OpenTicketRace extends ConflictError {
  constructor(readonly key: { companyId: number; contactId: number; whatsappId: number | null; exceptId?: number }) {
    super(ErrorCode.ERR_OTHER_OPEN_TICKET, 'An open ticket already exists for this contact');
  }
}

/** What closeTicket does besides closing. */
export interface CloseOptions {
  /** The agent who resolves it (the ticket's user becomes theirs); absent keeps the ticket's user. */
  userId?: number | null;
  /**
   * Sends this text (rendered: {{name}}, {{ms}}…) instead of the rating question or completion
   * message, and ends the attendance unrated; '' sends nothing. The inactivity job passes the
   * connection's expiresInactiveMessage.
   */
  farewell?: string;
}

/** A transfer: the target queue and, optionally, the agent (none: the ticket waits in the queue). */
/** No bot holds the ticket: an agent took it, it moved to another queue or was resolved. */
const NO_BOT = { useIntegration: false, promptId: null, integrationId: null } as const;

export interface TransferTarget {
  queueId: number | null;
  userId?: number | null;
}

type Step =
  | { kind: 'none' }
  | { kind: 'resolve' }
  | { kind: 'reopen'; status: 'open' | 'pending' }
  | { kind: 'accept' }
  | { kind: 'assume' }
  | { kind: 'return' }
  | { kind: 'transfer'; target: TransferTarget };

/** Which transition of spec §4 a PUT body asks for. */
function classify(ticket: Ticket, input: UpdateTicketInput, me: number): Step {
  if (input.status === 'closed') return ticket.status === 'closed' ? { kind: 'none' } : { kind: 'resolve' };
  const queueChanged = input.queueId !== undefined && input.queueId !== ticket.queueId;
  const toSomeoneElse = input.userId !== undefined && input.userId !== null && input.userId !== me && input.userId !== ticket.userId;
  if (queueChanged || toSomeoneElse) {
    // Giving a ticket to someone else is a transfer, and a transfer names its queue (spec §5).
    if (input.queueId === undefined) throw new ValidationError('Selecione uma fila');
    return { kind: 'transfer', target: { queueId: input.queueId, userId: input.userId ?? null } };
  }
  if (ticket.status === 'closed') {
    return input.status === 'open' || input.status === 'pending' ? { kind: 'reopen', status: input.status } : { kind: 'none' };
  }
  if (input.status === 'pending' || (input.userId === null && input.status === undefined)) {
    return ticket.status === 'open' ? { kind: 'return' } : { kind: 'none' };
  }
  if (input.status === 'open' || input.userId === me) {
    if (ticket.status === 'pending') return { kind: 'accept' };
    if (ticket.userId !== me) return { kind: 'assume' };
  }
  return { kind: 'none' };
}

/**
 * Tickets: the list and its visibility, creation, the transitions of spec §4 and their side
 * effects (reference §6–§7): tracking rows, automatic messages, live events. Every transition is
 * one transaction; its events go out after the commit, to the audience the ticket had before and
 * the one it has now.
 */
export class TicketsService {
  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: { settings: SettingsService; events: TicketEvents; outbound: OutboundService; messages: MessagesService },
  ) {}

  // ---- reads ----------------------------------------------------------------------------------

  /** GET /tickets */
  async list(actor: AuthUser, query: ListTicketsQuery): Promise<TicketPage> {
    const db = this.infra.db;
    const [viewer, timeZone] = await Promise.all([loadViewer(db, actor), this.deps.settings.get(actor.companyId, 'timezone', db)]);
    return listTickets(db, viewer, query, timeZone);
  }

  /**
   * The open and pending tickets the caller may see, as board cards (newest first, at most
   * TICKET_CARDS_CAP): the visibility of GET /tickets/:id, narrowed to `queueIds` as GET /tickets
   * narrows (an agent to their own queues).
   */
  async cards(actor: AuthUser, query: { queueIds?: number[] } = {}): Promise<{ tickets: TicketCardView[]; hasMore: boolean }> {
    return listTicketCards(this.infra.db, await loadViewer(this.infra.db, actor), query.queueIds);
  }

  /** A ticket with its graph: 404 for another company's, 403 when the caller may not see it. */
  async show(actor: AuthUser, id: number): Promise<Ticket> {
    return visibleTicket(this.infra.db, actor, id, loadTicket);
  }

  async showByUuid(actor: AuthUser, uuid: string): Promise<Ticket> {
    return assertVisible(this.infra.db, actor, await findTicket(this.infra.db, actor.companyId, { uuid }));
  }

  // ---- writes from the API ----------------------------------------------------------------------

  /**
   * POST /tickets: an open ticket assigned to the caller, on the given connection, the caller's
   * default one or the company's. One open or pending ticket per contact and connection.
   */
  async create(actor: AuthUser, input: CreateTicketInput): Promise<Ticket> {
    const db = this.infra.db;
    const companyId = actor.companyId;
    const viewer = await loadViewer(db, actor);
    const queueId = input.queueId ?? null;
    if (queueId === null && !viewer.admin) throw new ValidationError('Selecione uma fila');
    const contact = await Contact.query(db).findOne({ id: input.contactId, companyId });
    if (!contact) throw new NotFoundError(ErrorCode.ERR_NO_CONTACT_FOUND);
    if (queueId !== null) {
      await this.findQueue(db, companyId, queueId);
      if (!viewer.admin && !viewer.queueIds.includes(queueId)) throw new ForbiddenError();
    }
    const whatsappId = await this.connectionFor(db, companyId, actor.id, input.whatsappId ?? null);

    const id = await this.guardOpenTicket(() =>
      db.transaction(async (trx) => {
        await this.assertNoOtherOpen(trx, { companyId, contactId: contact.id, whatsappId });
        return (await this.insertTicket(trx, contact, { whatsappId, queueId, userId: actor.id })).id;
      }),
    );
    const ticket = (await loadTicket(db, companyId, id))!;
    this.deps.events.created(ticket, actorOf(actor));
    return ticket;
  }

  /**
   * PUT /tickets/:id: one of the transitions of spec §4 (see classify), plus connection and
   * integration fields. The assigned agent working on the ticket has read it (unread reset).
   */
  async update(actor: AuthUser, id: number, input: UpdateTicketInput): Promise<Ticket> {
    const { before, transferred } = await this.guardOpenTicket(() =>
      this.infra.db.transaction(async (trx) => {
        const ticket = await assertVisible(trx, actor, await this.lock(trx, actor.companyId, id));
        const step = classify(ticket, input, actor.id);
        if (ticket.status === 'closed' && step.kind === 'transfer' && !isAdmin(actor)) {
          throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION, 'A resolved ticket can only be reopened');
        }
        await this.apply(trx, ticket, step, actor, input);
        return { before: ticketBefore(ticket), transferred: step.kind === 'transfer' };
      }),
    );
    const ticket = (await loadTicket(this.infra.db, actor.companyId, id))!;
    if (ticket.userId === actor.id) {
      await this.deps.messages.markRead(ticket).catch((err: unknown) => this.infra.log.error({ err, ticketId: id }, 'ticket not marked read'));
    }
    this.deps.events.updated(ticket, before, { transferred, actor: actorOf(actor) });
    return ticket;
  }

  /** DELETE /tickets/:id (admins): messages, notes and tracking go with it (foreign keys cascade). */
  async remove(actor: AuthUser, id: number): Promise<void> {
    if (!isAdmin(actor)) throw new ForbiddenError();
    const ticket = await visibleTicket(this.infra.db, actor, id);
    await Ticket.query(this.infra.db).deleteById(id);
    this.deps.events.deleted(ticket);
  }

  // ---- for the pipeline, the jobs and other modules -----------------------------------------------

  /**
   * Resolves a ticket as the system does (the inactivity job) or for an agent: the same side
   * effects as PUT status closed. A ticket already closed is left as it is (a job run twice sends
   * nothing twice). Answers the ticket with its graph, or undefined when it does not exist.
   */
  async closeTicket(companyId: number, ticketId: number, options: CloseOptions = {}): Promise<Ticket | undefined> {
    const outcome = await this.infra.db.transaction(async (trx) => {
      const ticket = await this.lock(trx, companyId, ticketId).catch((err: unknown) => {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      });
      if (!ticket || ticket.status === 'closed') return { changed: false as const, exists: ticket !== undefined };
      await this.resolve(trx, ticket, options.userId ?? ticket.userId, options.farewell);
      return { changed: true as const, before: ticketBefore(ticket) };
    });
    if (!outcome.changed) return outcome.exists ? loadTicket(this.infra.db, companyId, ticketId) : undefined;
    return this.announce(companyId, ticketId, outcome.before);
  }

  /**
   * Transfers a ticket to a queue and optionally an agent, as the system does (the auto-transfer
   * job): the transfer notice follows the sendMsgTransfTicket setting unless `notify` is false.
   */
  async transfer(companyId: number, ticketId: number, target: TransferTarget, options: { notify?: boolean } = {}): Promise<Ticket> {
    const before = await this.guardOpenTicket(() =>
      this.infra.db.transaction(async (trx) => {
        const ticket = await this.lock(trx, companyId, ticketId);
        await this.moveTo(trx, ticket, target, options.notify ?? true);
        return ticketBefore(ticket);
      }),
    );
    return this.announce(companyId, ticketId, before, { transferred: true });
  }

  /** A bot takes a waiting ticket (useIntegration on, its prompt or integration) or lets go of it (null): Turn.hold. */
  async setBot(companyId: number, ticketId: number, bot: { promptId: number | null; integrationId: number | null } | null): Promise<Ticket> {
    const before = await this.infra.db.transaction(async (trx) => {
      const ticket = await this.lock(trx, companyId, ticketId);
      await this.patch(trx, ticket, { useIntegration: bot !== null, promptId: bot?.promptId ?? null, integrationId: bot?.integrationId ?? null });
      return ticketBefore(ticket);
    });
    return this.announce(companyId, ticketId, before);
  }

  /**
   * The ticket a message written for a contact by `authorId` goes on, inside the caller's
   * transaction (a scheduled message): the contact's most recent open or pending ticket on a
   * connection, else a new one as POST /tickets makes it, on the author's default connection or
   * the company's (ERR_NO_DEF_WAPP_FOUND when there is none). The new ticket is open and the
   * author's, or pending when the author is gone (null); ticket.created goes out once `trx` commits.
   * With `whatsappId` (a connection of the company), only that connection's tickets count and a
   * new one opens there (the external messages API: a token reaches its own connection only).
   */
  async ticketForOutgoing(trx: Knex.Transaction, companyId: number, contactId: number, authorId: number | null, whatsappId?: number): Promise<Ticket> {
    const current = await Ticket.query(trx)
      .where({ companyId, contactId })
      .whereIn('status', ['open', 'pending'])
      .modify((q) => (whatsappId === undefined ? q.whereNotNull('whatsappId') : q.where('whatsappId', whatsappId)))
      .orderBy([{ column: 'updatedAt', order: 'desc' }, { column: 'id', order: 'desc' }])
      .first();
    if (current) return current;
    const contact = await Contact.query(trx).findOne({ id: contactId, companyId });
    if (!contact) throw new NotFoundError(ErrorCode.ERR_NO_CONTACT_FOUND);
    const connectionId = await this.connectionFor(trx, companyId, authorId, whatsappId ?? null);
    const ticket = await this.insertTicket(trx, contact, { whatsappId: connectionId, queueId: null, userId: authorId });
    const announce = async () => {
      const created = await loadTicket(this.infra.db, companyId, ticket.id);
      if (created) this.deps.events.created(created);
    };
    trx.executionPromise
      .then(announce, () => undefined) // rolled back: nothing happened
      .catch((err: unknown) => this.infra.log.error({ err, ticketId: ticket.id }, 'new ticket not announced'));
    return ticket;
  }

  /** Publishes a ticket's current state to its audience; with `tags` (ids before and after a change), ticket.updated too, told as `actor`'s. */
  async publish(companyId: number, ticketId: number, tags?: { before: number[]; after: number[] }, actor: Actor | null = null): Promise<void> {
    const ticket = await loadTicket(this.infra.db, companyId, ticketId);
    if (!ticket) return;
    const retagged = tags && (tags.before.length !== tags.after.length || tags.before.some((id) => !tags.after.includes(id)));
    if (retagged) this.deps.events.tagged(ticket, tags, actor);
    else this.deps.events.updated(ticket);
  }

  // ---- transitions --------------------------------------------------------------------------------

  private async apply(trx: Knex.Transaction, ticket: Ticket, step: Step, actor: AuthUser, input: UpdateTicketInput): Promise<Ticket> {
    switch (step.kind) {
      case 'resolve':
        return this.resolve(trx, ticket, actor.id);
      case 'transfer':
        return this.withFields(trx, await this.moveTo(trx, ticket, step.target, true), input);
      case 'reopen':
        return this.withFields(trx, await this.reopen(trx, ticket, step.status, actor), input);
      case 'accept':
        return this.withFields(trx, await this.accept(trx, ticket, actor), input);
      case 'assume': {
        const next = await this.patch(trx, ticket, { status: 'open', userId: actor.id });
        await tracking.started(trx, next, actor.id);
        return this.withFields(trx, next, input);
      }
      case 'return': {
        const next = await this.patch(trx, ticket, { status: 'pending', userId: null });
        await tracking.queued(trx, next);
        return this.withFields(trx, next, input);
      }
      case 'none':
        // A resolved ticket changes only by being reopened (or transferred by an admin).
        return ticket.status === 'closed' ? ticket : this.withFields(trx, ticket, input);
    }
  }

  /** Accept: the caller takes a waiting ticket; the greeting naming them when sendGreetingAccepted is on. */
  private async accept(trx: Knex.Transaction, ticket: Ticket, actor: AuthUser): Promise<Ticket> {
    // The agent takes the ticket from any bot holding it.
    const next = await this.patch(trx, ticket, { status: 'open', userId: actor.id, chatbot: false, queueOptionId: null, ...NO_BOT });
    await tracking.started(trx, next, actor.id);
    if ((await this.mayTalk(trx, next)) && (await this.setting(trx, next, 'sendGreetingAccepted')) === 'enabled') {
      await this.say(trx, next, acceptGreeting(await this.templateContext(trx, next), actor.name));
    }
    return next;
  }

  /**
   * Resolve: closed at once with the closer as its user. With userRating on, a ticket that had an
   * agent and whose attendance was not asked yet gets the rating question, and the attendance
   * waits for the answer (the pipeline records it); otherwise the completion message ends it.
   */
  private async resolve(trx: Knex.Transaction, ticket: Ticket, closerId: number | null, farewell?: string): Promise<Ticket> {
    const attendance = await tracking.current(trx, ticket);
    const next = await this.patch(trx, ticket, {
      status: 'closed',
      userId: closerId,
      ...NO_BOT,
      chatbot: false,
      queueOptionId: null,
    });
    if (!(await this.mayTalk(trx, next))) {
      await tracking.finished(trx, next);
      return next;
    }
    const ctx = await this.templateContext(trx, next);
    if (farewell !== undefined) {
      const text = renderTemplate(farewell, ctx).trim();
      if (text) await this.say(trx, next, text);
      await tracking.finished(trx, next);
      return next;
    }
    const connection = await Whatsapp.query(trx).findById(next.whatsappId!);
    const askRating = ticket.userId !== null && attendance.ratingAt === null && (await this.setting(trx, next, 'userRating')) === 'enabled';
    if (askRating) {
      await this.say(trx, next, ratingRequest(connection?.ratingMessage ?? '', ctx));
      await tracking.ratingAsked(trx, next);
      return next;
    }
    const completion = renderTemplate(connection?.complationMessage ?? '', ctx).trim();
    if (completion) await this.say(trx, next, completion);
    await tracking.finished(trx, next);
    return next;
  }

  /** Reopen: a new attendance, unless the contact has another open ticket on that connection. */
  private async reopen(trx: Knex.Transaction, ticket: Ticket, status: 'open' | 'pending', actor: AuthUser): Promise<Ticket> {
    await this.assertNoOtherOpen(trx, { companyId: ticket.companyId, contactId: ticket.contactId, whatsappId: ticket.whatsappId, exceptId: ticket.id });
    await tracking.endAll(trx, ticket.id);
    const userId = status === 'open' ? actor.id : null;
    const next = await this.patch(trx, ticket, { status, userId, chatbot: false, queueOptionId: null }, true);
    await tracking.current(trx, next);
    if (userId) await tracking.started(trx, next, userId);
    else await tracking.queued(trx, next);
    return next;
  }

  /**
   * Transfer: to a queue of the company and optionally an agent of it (who must be in that queue,
   * unless an admin). Without an agent the ticket waits (pending); with one it is open and theirs.
   */
  private async moveTo(trx: Knex.Transaction, ticket: Ticket, target: TransferTarget, notify: boolean): Promise<Ticket> {
    const queueId = target.queueId;
    const userId = target.userId ?? null;
    const queue = queueId === null ? undefined : await this.findQueue(trx, ticket.companyId, queueId);
    const user = userId === null ? undefined : await this.findMember(trx, ticket.companyId, userId, queueId);
    const reopening = ticket.status === 'closed';
    if (reopening) {
      await this.assertNoOtherOpen(trx, { companyId: ticket.companyId, contactId: ticket.contactId, whatsappId: ticket.whatsappId, exceptId: ticket.id });
      await tracking.endAll(trx, ticket.id);
    }
    const next = await this.patch(trx, ticket, { queueId, userId, status: userId ? 'open' : 'pending', chatbot: false, queueOptionId: null, ...NO_BOT }, reopening);
    if (reopening) await tracking.current(trx, next);
    const queueChanged = queueId !== ticket.queueId;
    const userChanged = userId !== null && userId !== ticket.userId;
    if (queueChanged || userId === null) await tracking.queued(trx, next);
    if (userId !== null && (queueChanged || userChanged || reopening)) await tracking.started(trx, next, userId);

    if (notify && (await this.mayTalk(trx, next)) && (await this.setting(trx, next, 'sendMsgTransfTicket')) === 'enabled') {
      const notice = transferNotice({ queue: queueChanged ? queue?.name : undefined, user: userChanged ? user?.name : undefined });
      if (notice) await this.say(trx, next, notice);
    }
    return next;
  }

  /** The fields a PUT may carry besides a transition: the connection and the integration of the ticket. */
  private async withFields(trx: Knex.Transaction, ticket: Ticket, input: UpdateTicketInput): Promise<Ticket> {
    const patch: TicketPatch = {};
    if (input.whatsappId !== undefined && input.whatsappId !== ticket.whatsappId) {
      const connection = await Whatsapp.query(trx).findOne({ id: input.whatsappId, companyId: ticket.companyId });
      if (!connection) throw new NotFoundError(ErrorCode.ERR_NO_WAPP_FOUND);
      await this.assertNoOtherOpen(trx, { companyId: ticket.companyId, contactId: ticket.contactId, whatsappId: connection.id, exceptId: ticket.id });
      Object.assign(patch, { whatsappId: connection.id, chatbot: false, queueOptionId: null });
    }
    if (input.useIntegration !== undefined) patch.useIntegration = input.useIntegration;
    if (input.promptId !== undefined) patch.promptId = input.promptId;
    if (input.integrationId !== undefined) patch.integrationId = input.integrationId;
    return Object.keys(patch).length === 0 ? ticket : this.patch(trx, ticket, patch, patch.whatsappId !== undefined);
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /**
   * A new ticket of `contact` with its attendance: open and the user's, or pending without one.
   * One open or pending ticket per contact and connection: a race lost at the unique index is an
   * OpenTicketRace (guardOpenTicket turns it into the usual 409).
   */
  private async insertTicket(
    trx: Knex.Transaction,
    contact: Contact,
    { whatsappId, queueId, userId }: { whatsappId: number; queueId: number | null; userId: number | null },
  ): Promise<Ticket> {
    const companyId = contact.companyId;
    const ticket = await uniqueOr(
      () =>
        Ticket.query(trx).insertAndFetch(newTicketRow({ companyId, contactId: contact.id, whatsappId, isGroup: contact.isGroup, userId, queueId })),
      () => new OpenTicketRace({ companyId, contactId: contact.id, whatsappId }),
    );
    await tracking.current(trx, ticket);
    if (userId === null) await tracking.queued(trx, ticket);
    else await tracking.started(trx, ticket, userId);
    return ticket;
  }

  /** The ticket row, locked for the transaction on PostgreSQL (SQLite has one writer anyway). */
  private async lock(trx: Knex.Transaction, companyId: number, id: number): Promise<Ticket> {
    const query = Ticket.query(trx).findOne({ id, companyId });
    const ticket = await (isPostgres(trx) ? query.forUpdate() : query);
    if (!ticket) throw new NotFoundError(ErrorCode.ERR_NO_TICKET_FOUND);
    return ticket;
  }

  /** Writes a patch; one that may open a second attendance of the contact goes past the unique index. */
  private async patch(trx: Knex.Transaction, ticket: Ticket, patch: TicketPatch, opensAttendance = false): Promise<Ticket> {
    // By id, not through the instance: callers compare the ticket before and after.
    const write = () => Ticket.query(trx).patchAndFetchById(ticket.id, patch);
    if (!opensAttendance) return write();
    const key = { companyId: ticket.companyId, contactId: ticket.contactId, whatsappId: patch.whatsappId ?? ticket.whatsappId, exceptId: ticket.id };
    return uniqueOr(write, () => new OpenTicketRace(key));
  }

  private async announce(companyId: number, ticketId: number, before: TicketBefore, options: { transferred?: boolean } = {}): Promise<Ticket> {
    const ticket = (await loadTicket(this.infra.db, companyId, ticketId))!;
    this.deps.events.updated(ticket, before, options);
    return ticket;
  }

  private async findQueue(db: Knex, companyId: number, id: number): Promise<Queue> {
    const queue = await Queue.query(db).findOne({ id, companyId });
    if (!queue) throw new NotFoundError(ErrorCode.ERR_NO_QUEUE_FOUND, 'Queue not found');
    return queue;
  }

  /** A transfer's agent: a user of the company, in the target queue unless an admin. */
  private async findMember(db: Knex, companyId: number, id: number, queueId: number | null): Promise<User> {
    const user = await User.query(db).findOne({ id, companyId });
    if (!user) throw new NotFoundError(ErrorCode.ERR_NO_USER_FOUND);
    if (queueId !== null && user.profile !== 'admin' && !user.super) {
      const member = await db('userQueues').where({ userId: id, queueId }).first('userId');
      if (!member) throw new ValidationError('The chosen user does not attend this queue');
    }
    return user;
  }

  /** The connection of a new ticket: the one asked for, else the user's default, else the company's. */
  private async connectionFor(db: Knex, companyId: number, userId: number | null, asked: number | null): Promise<number> {
    if (asked !== null) {
      const connection = await Whatsapp.query(db).findOne({ id: asked, companyId });
      if (!connection) throw new NotFoundError(ErrorCode.ERR_NO_WAPP_FOUND);
      return connection.id;
    }
    const own =
      userId === null
        ? undefined
        : await db('users')
            .join('whatsapps', 'whatsapps.id', 'users.whatsappId')
            .where({ 'users.id': userId, 'whatsapps.companyId': companyId })
            .first('whatsapps.id as id');
    if (own) return own.id as number;
    const fallback = await Whatsapp.query(db).where({ companyId, isDefault: true }).orderBy('id').first();
    if (!fallback) throw new AppError(ErrorCode.ERR_NO_DEF_WAPP_FOUND, 400, 'No default WhatsApp connection found: check the connections page');
    return fallback.id;
  }

  private async assertNoOtherOpen(db: Knex, key: { companyId: number; contactId: number; whatsappId: number | null; exceptId?: number }): Promise<void> {
    const other = await this.otherOpen(db, key);
    if (other) throw new OtherOpenTicketError(other);
  }

  private async otherOpen(db: Knex, key: { companyId: number; contactId: number; whatsappId: number | null; exceptId?: number }): Promise<OtherOpenTicket | undefined> {
    const query = Ticket.query(db)
      .where({ 'tickets.companyId': key.companyId, 'tickets.contactId': key.contactId, 'tickets.whatsappId': key.whatsappId })
      .whereIn('tickets.status', ['open', 'pending'])
      .withGraphFetched('[user, queue]')
      .modifyGraph('user', (b) => b.select('id', 'name'))
      .modifyGraph('queue', (b) => b.select('id', 'name'))
      .orderBy('tickets.id')
      .first();
    if (key.exceptId !== undefined) query.whereNot('tickets.id', key.exceptId);
    const other = await query;
    if (!other) return undefined;
    return {
      id: other.id,
      uuid: other.uuid,
      userId: other.userId,
      user: other.user ? { id: other.user.id, name: other.user.name } : null,
      queue: other.queue ? { id: other.queue.id, name: other.queue.name } : null,
      status: other.status,
    };
  }

  /** Runs a write; a race lost at the unique index becomes the same 409 the check gives, with its details. */
  private async guardOpenTicket<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof OpenTicketRace)) throw err;
      const other = await this.otherOpen(this.infra.db, err.key);
      throw other ? new OtherOpenTicketError(other) : err;
    }
  }

  /** Automatic texts go to one-to-one conversations on a connection, never to groups. */
  private async mayTalk(trx: Knex.Transaction, ticket: Ticket): Promise<boolean> {
    if (ticket.whatsappId === null || ticket.isGroup) return false;
    const contact = await Contact.query(trx).findById(ticket.contactId).select('isGroup');
    return contact !== undefined && !contact.isGroup;
  }

  private setting(trx: Knex.Transaction, ticket: Ticket, key: 'sendGreetingAccepted' | 'sendMsgTransfTicket' | 'userRating'): Promise<string> {
    return this.deps.settings.get(ticket.companyId, key, trx);
  }

  private async templateContext(trx: Knex.Transaction, ticket: Ticket): Promise<TemplateContext> {
    const [contact, timeZone] = await Promise.all([
      Contact.query(trx).findById(ticket.contactId).select('name'),
      this.deps.settings.get(ticket.companyId, 'timezone', trx),
    ]);
    return { name: contact?.name ?? '', timeZone, ticketId: ticket.id };
  }

  /** An automatic message: stored with the transition, sent once it commits. */
  private async say(trx: Knex.Transaction, ticket: Ticket, body: string): Promise<void> {
    await this.deps.outbound.enqueue({ companyId: ticket.companyId, ticketId: ticket.id, body, userId: null }, trx);
  }
}
