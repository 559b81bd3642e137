import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Message } from '../../core/modules/messages/message.model.js';
import { Ticket } from '../../core/modules/tickets/ticket.model.js';
import { createConnection, customerWrites, eventually, outbox, type InboxTenant } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ran } from '../fixtures/plugins/bots/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));
const GREETING = 'Bem-vindo à Acme!';

let server: TestServer;
let withBots: InboxTenant;
let withoutBots: InboxTenant;
let numberSeq = 0;

function customerNumber(): string {
  numberSeq += 1;
  return `55219${String(60_000_000 + numberSeq).padStart(8, '0')}`;
}

/** The bots plugin's flag is useOpenAi; each company has a plan of its own. */
const limits = { users: 10, connections: 5, queues: 5 };

const connections = new Map<InboxTenant, number>();

beforeAll(async () => {
  server = await startTestServer({ simulator: true, stepTimeoutMs: 500, plugins: [path.join(fixtures, 'bots')] });
  withBots = await withPlan(server, { features: { useOpenAi: true }, limits });
  withoutBots = await withPlan(server, { features: { useOpenAi: false }, limits });
  for (const t of [withBots, withoutBots]) connections.set(t, await createConnection(server, t, 'Main', { greetingMessage: GREETING }));
});
afterAll(async () => {
  await server?.close();
});

function db() {
  return server.atende.container.db;
}

/** The customer writes; answers the stored message once the pipeline and its steps are done. */
async function writes(t: InboxTenant, number: string, body: string): Promise<Message> {
  const wid = await customerWrites(server, t, connections.get(t)!, { from: number, name: 'Ana', body });
  const stored = await eventually(async () => Message.query(db()).findOne({ companyId: t.companyId, wid }), 5000, 'the message stored');
  await server.atende.container.services.pipeline.idle();
  return stored;
}

/** What the customer received so far, once the send queue has nothing left for them. */
async function received(t: InboxTenant, number: string): Promise<string[]> {
  await server.atende.container.services.pipeline.idle();
  const contact = await Contact.query(db()).findOne({ companyId: t.companyId, number });
  if (contact) {
    await eventually(async () => {
      const queued = await Message.query(db()).join('tickets', 'tickets.id', 'messages.ticketId').where({ 'tickets.contactId': contact.id, 'messages.sendStatus': 'queued' }).resultSize();
      return queued === 0;
    }, 5000, 'the send queue to drain');
  }
  return (await outbox(server, t, connections.get(t)!)).messages.filter((m) => m.to === number).map((m) => m.body);
}

function stepsFor(body: string): string[] {
  return ran.filter((r) => r.body === body).map((r) => r.step);
}

describe('conversation steps', () => {
  it('a step that claims answers the customer; later steps and the chatbot do not run', async () => {
    const number = customerNumber();
    await writes(withBots, number, 'ping');
    expect(await received(withBots, number)).toEqual(['pong Ana']);
    expect(stepsFor('ping')).toEqual(['echo']);
  });

  it('steps that pass run in plugin order, then the chatbot greets the new ticket', async () => {
    const number = customerNumber();
    await writes(withBots, number, 'bom dia');
    expect(stepsFor('bom dia')).toEqual(['echo', 'boom', 'stall', 'farewell']);
    expect(await received(withBots, number)).toEqual([GREETING]);
  });

  it('a step may answer and close the ticket', async () => {
    const number = customerNumber();
    const message = await writes(withBots, number, 'bye');
    expect(await received(withBots, number)).toContain('Até logo');
    expect((await Ticket.query(db()).findById(message.ticketId))!.status).toBe('closed');
  });

  it('a step that throws hands the ticket to the agents: pending, message kept, no later step nor chatbot', async () => {
    const number = customerNumber();
    const message = await writes(withBots, number, 'boom');
    expect(stepsFor('boom')).toEqual(['echo', 'boom']);
    expect(await Ticket.query(db()).findById(message.ticketId)).toMatchObject({ status: 'pending', userId: null });
    expect(await received(withBots, number)).toEqual([]);
    // The next chat flows as usual.
    const next = customerNumber();
    await writes(withBots, next, 'ping');
    expect(await received(withBots, next)).toEqual(['pong Ana']);
  });

  it('a step that outlives its time is cut off: the ticket waits for the agents, its late reply is refused, other chats flow meanwhile', async () => {
    const slow = customerNumber();
    const wid = await customerWrites(server, withBots, connections.get(withBots)!, { from: slow, name: 'Ana', body: 'stall' });
    const other = customerNumber();
    await customerWrites(server, withBots, connections.get(withBots)!, { from: other, name: 'Ana', body: 'ping' });
    // The other chat of the same number is answered while the slow step still runs.
    await eventually(async () => (await outbox(server, withBots, connections.get(withBots)!)).messages.some((m) => m.to === other && m.body === 'pong Ana'), 3000, 'the other chat answered');
    expect(stepsFor('stall')).toEqual(['echo', 'boom', 'stall']);

    await server.atende.container.services.pipeline.idle();
    const message = await Message.query(db()).findOne({ companyId: withBots.companyId, wid });
    expect(message).toBeDefined();
    expect(await Ticket.query(db()).findById(message!.ticketId)).toMatchObject({ status: 'pending', userId: null });
    expect(stepsFor('stall')).toEqual(['echo', 'boom', 'stall']);
    expect(await received(withBots, slow)).toEqual([]);
  });

  it("a ticket's turns run one at a time in order: a later message waits for the earlier one's steps", async () => {
    const number = customerNumber();
    const before = ran.length;
    await customerWrites(server, withBots, connections.get(withBots)!, { from: number, name: 'Ana', body: 'stall' });
    const wid = await customerWrites(server, withBots, connections.get(withBots)!, { from: number, name: 'Ana', body: 'ping' });
    await eventually(async () => Message.query(db()).findOne({ companyId: withBots.companyId, wid }), 5000, 'the second message stored');
    await server.atende.container.services.pipeline.idle();
    const order = ran.slice(before).filter((r) => r.step === 'stall' || r.step === 'echo').map((r) => `${r.step}:${r.body}`);
    expect(order).toEqual(['echo:stall', 'stall:stall', 'echo:ping']);
    expect(await received(withBots, number)).toEqual(['pong Ana']);
  });

  it('a message stored while an earlier turn still runs meets the ticket as that turn left it: closed, no step answers', async () => {
    const number = customerNumber();
    const first = await customerWrites(server, withBots, connections.get(withBots)!, { from: number, name: 'Ana', body: 'bye slowly' });
    await eventually(async () => stepsFor('bye slowly').includes('farewell'), 5000, 'the farewell step to start');
    const before = ran.length;
    const wid = await customerWrites(server, withBots, connections.get(withBots)!, { from: number, name: 'Ana', body: 'ping' });
    const second = await eventually(async () => Message.query(db()).findOne({ companyId: withBots.companyId, wid }), 5000, 'the second message stored');
    await server.atende.container.services.pipeline.idle();
    const closing = await Message.query(db()).findOne({ companyId: withBots.companyId, wid: first });
    expect(second.ticketId).toBe(closing!.ticketId);
    expect((await Ticket.query(db()).findById(second.ticketId))!.status).toBe('closed');
    expect(ran.slice(before)).toEqual([]);
    expect(await received(withBots, number)).not.toContain('pong Ana');
  });

  it("steps are skipped for a company whose plan lacks the plugin's flag: the chatbot answers", async () => {
    const before = ran.length;
    const number = customerNumber();
    await writes(withoutBots, number, 'ping');
    expect(ran.length).toBe(before);
    expect(await received(withoutBots, number)).toEqual([GREETING]);
  });
});
