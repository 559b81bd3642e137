import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Message } from '../../core/modules/messages/message.model.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, type InboxTenant, type Member } from '../helpers/inbox.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { recorded, sleeping, SLOW_TEXT, type Recorded } from '../fixtures/plugins/recorder/index.js';
import { calls, delivered } from '../fixtures/plugins/durable-hook/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));

let server: TestServer;
let acme: InboxTenant;
let connectionId: number;
let numberSeq = 0;

function customerNumber(): string {
  numberSeq += 1;
  return `55219${String(70_000_000 + numberSeq).padStart(8, '0')}`;
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true, plugins: [path.join(fixtures, 'recorder'), path.join(fixtures, 'durable-hook')] });
  await Plan.query(server.atende.container.db).patch({ users: 50, connections: 50, queues: 50 });
  acme = await createTenant(server, 'Acme Events');
  connectionId = await createConnection(server, acme, 'Main', { isDefault: true });
});
afterAll(async () => {
  await server?.close();
});

/** The company's recorded events of `name` that match, once the hooks have run. */
async function seen(name: string, match: (event: Recorded) => boolean = () => true): Promise<Recorded[]> {
  await server.atende.container.services.pipeline.idle();
  await server.atende.container.bus.idle();
  return recorded.filter((e) => e.name === name && e.companyId === acme.companyId && match(e));
}

async function api(method: string, route: string, body?: unknown, status = 200) {
  const res = await server.call(method, route, { token: acme.admin.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

describe('a customer writes', () => {
  it('a first message is contact.created, ticket.created and message.created, each once and after its commit', async () => {
    const number = customerNumber();
    const wid = await customerWrites(server, acme, connectionId, { from: number, name: 'Bia', body: 'Olá, tudo bem?' });
    const stored = await eventually(async () => Message.query(server.atende.container.db).findOne({ wid }), 5000, 'the message stored');

    const contacts = await seen('contact.created', (e) => e.payload.contact.number === number);
    expect(contacts).toHaveLength(1);
    const tickets = await seen('ticket.created', (e) => e.payload.ticket.id === stored.ticketId);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.payload.ticket).toMatchObject({ status: 'pending', userId: null, contact: { number } });
    const messages = await seen('message.created', (e) => e.payload.message.id === stored.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.payload).toMatchObject({ message: { body: 'Olá, tudo bem?', fromMe: false, ticketId: stored.ticketId }, ticket: { id: stored.ticketId } });
    for (const event of [...contacts, ...tickets, ...messages]) expect(event.committed).toBe(true);
  });

  it('a second message of the same chat is one more message.created and no new ticket or contact', async () => {
    const number = customerNumber();
    await customerWrites(server, acme, connectionId, { from: number, body: 'um' });
    const wid = await customerWrites(server, acme, connectionId, { from: number, body: 'dois' });
    const stored = await eventually(async () => Message.query(server.atende.container.db).findOne({ wid }), 5000, 'the message stored');
    expect(await seen('ticket.created', (e) => e.payload.ticket.id === stored.ticketId)).toHaveLength(1);
    expect(await seen('contact.created', (e) => e.payload.contact.number === number)).toHaveLength(1);
    expect((await seen('message.created', (e) => e.payload.ticket.id === stored.ticketId)).map((e) => e.payload.message.body)).toEqual(['um', 'dois']);
  });
});

describe('agents work a ticket', () => {
  let member: Member;
  let queueId: number;
  let otherQueueId: number;
  let contactId: number;
  let ticketId: number;

  beforeAll(async () => {
    queueId = await createQueue(server, acme, 'Vendas');
    otherQueueId = await createQueue(server, acme, 'Suporte');
    member = await createMember(server, acme, 'carla', { queueIds: [queueId] });
  });

  it('a contact made by hand is contact.created; its change contact.updated', async () => {
    const contact = await api('POST', '/api/contacts', { name: 'Davi', number: customerNumber(), email: '' }, 201);
    contactId = contact.id;
    expect(await seen('contact.created', (e) => e.payload.contact.id === contactId)).toMatchObject([{ committed: true, payload: { contact: { name: 'Davi' } } }]);
    await api('PUT', `/api/contacts/${contactId}`, { name: 'Davi Lima' });
    expect(await seen('contact.updated', (e) => e.payload.contact.id === contactId)).toMatchObject([{ payload: { contact: { name: 'Davi Lima' } } }]);
  });

  it('a ticket opened by an agent is ticket.created once; a refused second one (rolled back) is nothing', async () => {
    const ticket = await api('POST', '/api/tickets', { contactId }, 201);
    ticketId = ticket.id;
    const created = await seen('ticket.created', (e) => e.payload.ticket.contactId === contactId);
    expect(created).toHaveLength(1);
    expect(created[0]!.payload.ticket).toMatchObject({ id: ticketId, status: 'open', userId: acme.admin.id });
    expect(created[0]!.committed).toBe(true);

    await api('POST', '/api/tickets', { contactId }, 409);
    expect(await seen('ticket.created', (e) => e.payload.ticket.contactId === contactId)).toHaveLength(1);
  });

  it("an agent's reply is message.created, then message.status sent", async () => {
    const [message] = (await api('POST', `/api/messages/${ticketId}`, { body: 'Como posso ajudar?' }, 201)).messages as { id: number }[];
    expect(await seen('message.created', (e) => e.payload.message.id === message!.id)).toMatchObject([{ committed: true, payload: { message: { fromMe: true, body: 'Como posso ajudar?' } } }]);
    const status = await eventually(async () => {
      const found = await seen('message.status', (e) => e.payload.messageId === message!.id && e.payload.status === 'sent');
      return found.length > 0 && found;
    }, 5000, 'message.status sent');
    expect(status).toMatchObject([{ payload: { ticketId, status: 'sent' } }]);
  });

  it('a transfer is ticket.updated with what changed and ticket.transferred; a refused one is nothing', async () => {
    await api('PUT', `/api/tickets/${ticketId}`, { queueId, userId: member.id });
    const updated = await seen('ticket.updated', (e) => e.payload.ticket.id === ticketId);
    expect(updated).toHaveLength(1);
    expect(updated[0]!.payload.changes).toEqual({ queueId: { before: null, after: queueId }, userId: { before: acme.admin.id, after: member.id } });
    expect(await seen('ticket.transferred', (e) => e.payload.ticket.id === ticketId)).toMatchObject([
      { payload: { from: { userId: acme.admin.id, queueId: null }, to: { userId: member.id, queueId } } },
    ]);

    // The member does not attend the other queue: the transaction is rolled back.
    const refused = await server.call('PUT', `/api/tickets/${ticketId}`, { token: acme.admin.token, body: { queueId: otherQueueId, userId: member.id } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await seen('ticket.updated', (e) => e.payload.ticket.id === ticketId)).toHaveLength(1);
    expect(await seen('ticket.transferred', (e) => e.payload.ticket.id === ticketId)).toHaveLength(1);
  });

  it("new tags are ticket.updated with the tag ids before and after; the same tags again are nothing", async () => {
    const tag = await api('POST', '/api/tags', { name: 'VIP' }, 201);
    await api('POST', '/api/tags/sync', { ticketId, tags: [{ id: tag.id }] });
    await api('POST', '/api/tags/sync', { ticketId, tags: [{ id: tag.id }] });
    const tagged = await seen('ticket.updated', (e) => e.payload.ticket.id === ticketId && e.payload.changes.tags);
    expect(tagged.map((e) => e.payload.changes)).toEqual([{ tags: { before: [], after: [tag.id] } }]);
  });

  it('resolving is ticket.closed and ticket.updated with the status, once', async () => {
    await api('PUT', `/api/tickets/${ticketId}`, { status: 'closed' });
    expect(await seen('ticket.closed', (e) => e.payload.ticket.id === ticketId)).toMatchObject([{ committed: true, payload: { ticket: { status: 'closed' } } }]);
    const status = await seen('ticket.updated', (e) => e.payload.ticket.id === ticketId && e.payload.changes.status);
    expect(status.map((e) => e.payload.changes.status)).toEqual([{ before: 'open', after: 'closed' }]);
  });
});

describe('delivery', () => {
  it('a durable hook that throws is delivered by its job on the next try', async () => {
    const contact = await api('POST', '/api/contacts', { name: 'Eva', number: customerNumber(), email: '' }, 201);
    const ticket = await api('POST', '/api/tickets', { contactId: contact.id }, 201);
    await eventually(async () => delivered.includes(ticket.id), 15_000, 'the durable hook delivered');
    expect(calls.get(ticket.id)).toBe(2);
  });

  it("a hook that sleeps on one chat's message does not delay another chat of the same connection", async () => {
    const slow = customerNumber();
    await customerWrites(server, acme, connectionId, { from: slow, body: SLOW_TEXT });
    await eventually(async () => sleeping.has(SLOW_TEXT), 3000, 'the slow hook to start');
    const wid = await customerWrites(server, acme, connectionId, { from: customerNumber(), body: 'sem pressa' });
    await eventually(async () => Message.query(server.atende.container.db).findOne({ wid }), 3000, 'the other chat stored');
    expect(sleeping.has(SLOW_TEXT)).toBe(true);
    // The slow chat's own message was stored too: the hook holds nothing of the inbound path.
    expect(await Message.query(server.atende.container.db).findOne({ body: SLOW_TEXT })).toBeDefined();
  });

  it('a durable hook whose server stopped before it ran is delivered by the next process', async () => {
    // Jobs stopped: the event's job is written, and nothing in this process will run it.
    await server.atende.container.jobs.stop();
    const contact = await api('POST', '/api/contacts', { name: 'Fábio', number: customerNumber(), email: '' }, 201);
    const ticket = await api('POST', '/api/tickets', { contactId: contact.id }, 201);
    await server.atende.container.bus.idle();
    expect(calls.get(ticket.id)).toBeUndefined();
    // Stopped (the last test of the file): its sessions are handed over, so the next process, without Redis as this one, may start.
    await server.atende.stop();

    const next = await startTestServer({ simulator: true, plugins: [path.join(fixtures, 'durable-hook')] }, { sameDatabaseAs: server });
    try {
      await eventually(async () => delivered.includes(ticket.id), 15_000, 'the durable hook delivered by the next process');
    } finally {
      await next.close();
    }
  });
});
