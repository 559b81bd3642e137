import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import { Ticket } from './ticket.model.js';

/**
 * The ticket as the API and the live events show it: the row with its contact, queue, user,
 * connection and tags, each reduced to what a ticket row and header need.
 */
export const TICKET_GRAPH = '[contact, queue, user, whatsapp, tags]';

export function withTicketGraph<Q extends QueryBuilder<Ticket, Ticket[]> | QueryBuilder<Ticket, Ticket | undefined>>(query: Q): Q {
  return query
    .withGraphFetched(TICKET_GRAPH)
    .modifyGraph('contact', (b) => b.select('id', 'uuid', 'name', 'number', 'email', 'profilePicUrl', 'isGroup'))
    .modifyGraph('queue', (b) => b.select('id', 'name', 'color'))
    .modifyGraph('user', (b) => b.select('id', 'name'))
    .modifyGraph('whatsapp', (b) => b.select('id', 'name'))
    .modifyGraph('tags', (b) => b.select('tags.id', 'tags.name', 'tags.color')) as Q;
}

/** One ticket of a company with its graph, or undefined. */
export async function loadTicket(db: Knex, companyId: number, id: number): Promise<Ticket | undefined> {
  return withTicketGraph(Ticket.query(db).findOne({ 'tickets.id': id, 'tickets.companyId': companyId }));
}
