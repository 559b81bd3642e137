import type { Knex } from 'knex';
import type { PartialModelObject } from 'objection';
import type { Ticket } from './ticket.model.js';
import { TicketTracking } from './ticket-tracking.model.js';

type TicketRef = Pick<Ticket, 'id' | 'companyId' | 'whatsappId' | 'queueId' | 'userId'>;

/** A ticket's new attendance, as the ticket stands: queued from `now` when it is in a queue. */
function attendanceRow(ticket: TicketRef, now: string) {
  return {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    whatsappId: ticket.whatsappId,
    queueId: ticket.queueId,
    userId: ticket.userId,
    queuedAt: ticket.queueId ? now : null,
    rated: false,
  };
}

type TrackingPatch = Pick<PartialModelObject<TicketTracking>, 'queueId' | 'userId' | 'queuedAt' | 'startedAt' | 'finishedAt' | 'ratingAt' | 'chatbotAt' | 'rated' | 'rate' | 'whatsappId'>;

/** The id of the ticket's attendance in progress (finishedAt null, the latest), as a subquery. */
function inProgress(db: Knex, ticketId: number): Knex.QueryBuilder {
  return db('ticketTracking').select('id').where({ ticketId, finishedAt: null }).orderBy('id', 'desc').limit(1);
}

/**
 * Ticket tracking: one row per attendance (queued → started → finished → rated), written in the
 * same transaction as the ticket change it records. The dashboard's waiting and support times
 * come from these rows.
 */
export const tracking = {
  /** The attendance in progress (finishedAt null), created when there is none. */
  async current(db: Knex, ticket: TicketRef): Promise<TicketTracking> {
    const open = await TicketTracking.query(db).where({ ticketId: ticket.id, finishedAt: null }).orderBy('id', 'desc').first();
    if (open) return open;
    return TicketTracking.query(db).insertAndFetch(attendanceRow(ticket, new Date().toISOString()));
  },

  /** The first attendance of tickets just created (they have none yet), by one insert. */
  async opened(db: Knex, tickets: TicketRef[]): Promise<void> {
    if (tickets.length === 0) return;
    const now = new Date().toISOString();
    // One plain insert for all: the timestamps the model would set are set here.
    await db('ticketTracking').insert(tickets.map((ticket) => ({ ...attendanceRow(ticket, now), createdAt: now, updatedAt: now })));
  },

  /** The attendance in progress changed by one statement; created first when there is none. */
  async update(db: Knex, ticket: TicketRef, patch: TrackingPatch): Promise<TicketTracking> {
    const [row] = (await TicketTracking.query(db).patch(patch).where('id', inProgress(db, ticket.id)).returning('*')) as unknown as TicketTracking[];
    if (row) return row;
    return (await tracking.current(db, ticket)).$query(db).patchAndFetch(patch);
  },

  /** The ticket entered a queue (or went back to waiting): the wait starts now. */
  queued(db: Knex, ticket: TicketRef): Promise<TicketTracking> {
    return tracking.update(db, ticket, { queueId: ticket.queueId, queuedAt: new Date().toISOString(), startedAt: null, userId: null });
  },

  /** An agent took it. */
  started(db: Knex, ticket: TicketRef, userId: number): Promise<TicketTracking> {
    return tracking.update(db, ticket, { userId, queueId: ticket.queueId, startedAt: new Date().toISOString(), ratingAt: null, rated: false });
  },

  /** The bot began handling it (the menu was sent); kept from the first time. */
  chatbot(db: Knex, ticket: TicketRef): Promise<TicketTracking> {
    return tracking.update(db, ticket, { chatbotAt: db.raw('coalesce(??, ?)', ['chatbotAt', new Date().toISOString()]) });
  },

  /** The rating question was sent; the attendance stays open until the answer (or the next close). */
  ratingAsked(db: Knex, ticket: TicketRef): Promise<TicketTracking> {
    return tracking.update(db, ticket, { ratingAt: new Date().toISOString() });
  },

  async finished(db: Knex, ticket: TicketRef, rate?: number): Promise<TicketTracking> {
    const patch = rate === undefined ? {} : { rate, rated: true };
    return tracking.update(db, ticket, { finishedAt: new Date().toISOString(), ...patch });
  },

  /**
   * Ends whatever attendance is still open (a rating question never answered, say) so that the
   * next tracking.current begins a fresh one: a reopened or transferred closed ticket.
   */
  async endAll(db: Knex, ticketId: number): Promise<void> {
    await TicketTracking.query(db).where({ ticketId, finishedAt: null }).patch({ finishedAt: new Date().toISOString() });
  },

  /** The attendance whose rating question is waiting for the customer's answer, if any. */
  async awaitingRating(db: Knex, ticketId: number): Promise<TicketTracking | undefined> {
    return TicketTracking.query(db).where({ ticketId, finishedAt: null }).whereNotNull('ratingAt').whereNotNull('userId').orderBy('id', 'desc').first();
  },
};
