import type { Knex } from 'knex';
import type { Ticket } from '../tickets/ticket.model.js';
import { tracking } from '../tickets/tracking.js';
import { lastClosedTicketOf, type TicketKey } from './find-or-create-ticket.js';

/** The customer's rating: 1 Insatisfeito, 2 Satisfeito, 3 Muito Satisfeito ("1", " 2 ", "3\n"). */
export function ratingOf(body: string): number | undefined {
  const match = /^([123])$/.exec(body.trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * The first customer message after a ticket was closed with the rating question. An answer 1 to
 * 3 is recorded on the attendance and the message belongs to that closed ticket (answers the
 * ticket and the rate); anything else drops the rating and the message opens a new ticket as usual
 * (answers undefined): a customer who writes something else needs an agent, and the message is
 * never lost.
 */
export async function takeRatingAnswer(db: Knex, key: TicketKey, body: string): Promise<{ ticket: Ticket; rate: number } | undefined> {
  const closed = await lastClosedTicketOf(db, key);
  if (!closed || !(await tracking.awaitingRating(db, closed.id))) return undefined;
  const rate = ratingOf(body);
  if (rate === undefined) {
    await tracking.finished(db, closed);
    return undefined;
  }
  await tracking.finished(db, closed, rate);
  return { ticket: closed, rate };
}
