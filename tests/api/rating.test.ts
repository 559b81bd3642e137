import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createTenant, customerWrites, eventually, outbox, type InboxTenant, type Member } from '../helpers/inbox.js';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Message } from '../../core/modules/messages/message.model.js';
import { TicketTracking } from '../../core/modules/tickets/ticket-tracking.model.js';
import { Ticket } from '../../core/modules/tickets/ticket.model.js';
import { tracking } from '../../core/modules/tickets/tracking.js';
import { ratingOf } from '../../core/modules/pipeline/rating.js';

let server: TestServer;
let tenant: InboxTenant;
let agent: Member;
let connectionId: number;

let numberSeq = 0;
function customerNumber(): string {
  numberSeq += 1;
  return `55419${String(50_000_000 + numberSeq).padStart(8, '0')}`;
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  tenant = await createTenant(server, 'Rating Co');
  agent = await createMember(server, tenant, 'agent-rating');
  connectionId = await createConnection(server, tenant, 'Rating', { complationMessage: 'Obrigado pela avaliação, {{firstName}}!' });
});
afterAll(async () => {
  await server?.close();
});

function db() {
  return server.atende.container.db;
}

async function ticketsOf(number: string): Promise<Ticket[]> {
  const contact = await Contact.query(db()).findOne({ companyId: tenant.companyId, number });
  return contact ? Ticket.query(db()).where({ contactId: contact.id }).orderBy('id') : [];
}

/**
 * A conversation an agent attended and closed with the rating question: the ticket closed, its
 * attendance started by the agent and asked for a rating (what closing does with userRating on).
 */
async function closedAskingRating(number: string): Promise<Ticket> {
  await customerWrites(server, tenant, connectionId, { from: number, name: 'Carla Dias', body: 'preciso de ajuda' });
  const [ticket] = await eventually(async () => {
    const list = await ticketsOf(number);
    return list.length ? list : undefined;
  });
  await server.atende.container.services.pipeline.idle();
  await db().transaction(async (trx) => {
    await tracking.started(trx, ticket!, agent.id);
    await Ticket.query(trx).findById(ticket!.id).patch({ status: 'closed', userId: agent.id });
    await tracking.ratingAsked(trx, { ...ticket!, userId: agent.id });
  });
  return (await Ticket.query(db()).findById(ticket!.id))!;
}

/** What the customer got for the message `wid`, once the pipeline and the send queue are done. */
async function received(number: string, wid: string): Promise<string[]> {
  // The driver's event reaches the pipeline a moment after the simulator answers.
  await eventually(async () => Message.query(db()).findOne({ companyId: tenant.companyId, wid }), 5000, 'the message to be stored');
  await server.atende.container.services.pipeline.idle();
  await eventually(async () => (await Message.query(db()).where({ companyId: tenant.companyId, sendStatus: 'queued' }).resultSize()) === 0);
  return (await outbox(server, tenant, connectionId)).messages.filter((m) => m.to === number).map((m) => m.body);
}

describe('rating answers', () => {
  it('read 1, 2 or 3 (spaces around allowed), nothing else', () => {
    expect(ratingOf('1')).toBe(1);
    expect(ratingOf(' 3 ')).toBe(3);
    expect(ratingOf('2\n')).toBe(2);
    expect(ratingOf('4')).toBeUndefined();
    expect(ratingOf('0')).toBeUndefined();
    expect(ratingOf('1.5')).toBeUndefined();
    expect(ratingOf('nota 3')).toBeUndefined();
  });

  it('an answer is recorded on the attendance and kept on the closed ticket, with the completion message', async () => {
    const number = customerNumber();
    const closed = await closedAskingRating(number);
    const answer = await customerWrites(server, tenant, connectionId, { from: number, name: 'Carla Dias', body: '3 ' });
    expect(await received(number, answer)).toEqual(['Obrigado pela avaliação, Carla!']);

    const attendance = await TicketTracking.query(db()).where({ ticketId: closed.id }).orderBy('id', 'desc').first();
    expect(attendance).toMatchObject({ rated: true, rate: 3, userId: agent.id });
    expect(attendance!.finishedAt).toBeTruthy();
    const tickets = await ticketsOf(number);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ id: closed.id, status: 'closed' });
    const messages = await Message.query(db()).where({ ticketId: closed.id }).orderBy('id');
    expect(messages.map((m) => [m.body, m.fromMe])).toEqual([
      ['preciso de ajuda', false],
      ['3 ', false],
      ['Obrigado pela avaliação, Carla!', true],
    ]);

    // Rated: the customer's next message is a new conversation.
    await customerWrites(server, tenant, connectionId, { from: number, name: 'Carla Dias', body: '2' });
    const after = await eventually(async () => {
      const list = await ticketsOf(number);
      return list.length === 2 ? list : undefined;
    });
    expect(after[1]).toMatchObject({ status: 'pending', lastMessage: '2' });
    expect((await TicketTracking.query(db()).findOne({ ticketId: closed.id }))!.rate).toBe(3);
  });

  it('any other answer drops the rating and opens a new ticket with the message', async () => {
    const number = customerNumber();
    const closed = await closedAskingRating(number);
    const other = await customerWrites(server, tenant, connectionId, { from: number, name: 'Carla Dias', body: 'ainda não resolveu' });
    const tickets = await eventually(async () => {
      const list = await ticketsOf(number);
      return list.length === 2 ? list : undefined;
    });
    expect(tickets[1]).toMatchObject({ status: 'pending', lastMessage: 'ainda não resolveu', unreadMessages: 1 });
    const attendance = await TicketTracking.query(db()).where({ ticketId: closed.id }).orderBy('id', 'desc').first();
    expect(attendance).toMatchObject({ rated: false, rate: null });
    expect(attendance!.finishedAt).toBeTruthy();
    expect(await Message.query(db()).where({ ticketId: closed.id }).resultSize()).toBe(1);
    expect(await received(number, other)).toEqual([]);
  });
});
