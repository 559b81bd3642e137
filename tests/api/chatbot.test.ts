import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/socket.js';
import { createConnection, createQueue, createTenant, customerWrites, eventually, outbox, type InboxTenant } from '../helpers/inbox.js';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Message } from '../../core/modules/messages/message.model.js';
import type { Chatbot } from '../../core/modules/pipeline/chatbot/chatbot.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { TicketTracking } from '../../core/modules/tickets/ticket-tracking.model.js';
import { Ticket } from '../../core/modules/tickets/ticket.model.js';

let server: TestServer;
let acme: InboxTenant;

let numberSeq = 0;
function customerNumber(): string {
  numberSeq += 1;
  return `55219${String(80_000_000 + numberSeq).padStart(8, '0')}`;
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  await Plan.query(server.atende.container.db).patch({ users: 50, connections: 50, queues: 50 });
  acme = await createTenant(server, 'Acme Chatbot');
});
afterAll(async () => {
  await server?.close();
});

function db() {
  return server.atende.container.db;
}

async function ticketOf(number: string): Promise<Ticket> {
  const contact = await Contact.query(db()).findOne({ companyId: acme.companyId, number });
  const ticket = contact && (await Ticket.query(db()).where({ contactId: contact.id }).orderBy('id', 'desc').first());
  if (!ticket) throw new Error(`no ticket for ${number}`);
  return ticket;
}

/**
 * What the customer received so far, in order, once everything is settled: the pipeline has
 * handled every message and the send queue has nothing left for this contact.
 */
async function received(connectionId: number, number: string): Promise<string[]> {
  await server.atende.container.services.pipeline.idle();
  const contact = await Contact.query(db()).findOne({ companyId: acme.companyId, number });
  if (contact) {
    await eventually(async () => {
      const queued = await Message.query(db())
        .join('tickets', 'tickets.id', 'messages.ticketId')
        .where({ 'tickets.contactId': contact.id, 'messages.sendStatus': 'queued' })
        .resultSize();
      return queued === 0;
    }, 5000, 'the send queue to drain');
  }
  return (await outbox(server, acme, connectionId)).messages.filter((m) => m.to === number).map((m) => m.body);
}

/** The customer writes and the conversation settles; answers what the customer got for it. */
async function exchange(connectionId: number, number: string, body: string): Promise<string[]> {
  const before = (await received(connectionId, number)).length;
  const wid = await customerWrites(server, acme, connectionId, { from: number, name: 'Ana Souza', body });
  // The driver's event reaches the pipeline a moment after the simulator answers.
  await eventually(async () => Message.query(db()).findOne({ companyId: acme.companyId, wid }), 5000, 'the message to be stored');
  return (await received(connectionId, number)).slice(before);
}

async function addOption(queueId: number, option: string, title: string, message: string, parentId: number | null = null): Promise<number> {
  const res = await server.call('POST', '/api/queue-options', { token: acme.admin.token, body: { queueId, parentId, option, title, message } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

async function setting(key: string, value: string): Promise<void> {
  const res = await server.call('PUT', `/api/settings/${key}`, { token: acme.admin.token, body: { value } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('a connection without queues', () => {
  it("greets the new ticket's customer once, with the template filled in", async () => {
    const connectionId = await createConnection(server, acme, 'Greeting', { greetingMessage: 'Olá {{firstName}}, bem-vindo!' });
    const number = customerNumber();
    expect(await exchange(connectionId, number, 'oi')).toEqual(['Olá Ana, bem-vindo!']);
    expect(await exchange(connectionId, number, 'tudo bem?')).toEqual([]);
    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ status: 'pending', queueId: null, chatbot: false, lastMessage: 'tudo bem?' });
    // The greeting is a stored automatic message of the ticket, sent.
    const automatic = await Message.query(db()).where({ ticketId: ticket.id, fromMe: true });
    expect(automatic).toMatchObject([{ body: 'Olá Ana, bem-vindo!', userId: null, sendStatus: 'sent' }]);
  });

  it('says nothing when the connection has no greeting', async () => {
    const connectionId = await createConnection(server, acme, 'Silent');
    expect(await exchange(connectionId, customerNumber(), 'oi')).toEqual([]);
  });
});

describe('a connection with one queue', () => {
  it("puts the ticket in the queue and sends the queue's greeting; the connection's greeting too when the setting says so", async () => {
    const queueId = await createQueue(server, acme, 'Única', { greetingMessage: 'Você está na fila Única.' });
    const connectionId = await createConnection(server, acme, 'One Queue', { greetingMessage: 'Olá {{name}}!', queueIds: [queueId] });

    const first = customerNumber();
    expect(await exchange(connectionId, first, 'oi')).toEqual(['Você está na fila Única.']);
    const ticket = await ticketOf(first);
    expect(ticket).toMatchObject({ queueId, chatbot: false, status: 'pending' });
    const attendance = await TicketTracking.query(db()).findOne({ ticketId: ticket.id });
    expect(attendance).toMatchObject({ queueId });
    expect(attendance!.queuedAt).toBeTruthy();
    expect(await exchange(connectionId, first, 'alô?')).toEqual([]);

    await setting('sendGreetingMessageOneQueues', 'enabled');
    try {
      const second = customerNumber();
      expect(await exchange(connectionId, second, 'oi')).toEqual(['Olá Ana Souza!', 'Você está na fila Única.']);
    } finally {
      await setting('sendGreetingMessageOneQueues', 'disabled');
    }
  });
  it('twenty new chats at once: each ticket enters the queue, its attendance queued, and each customer is greeted once', async () => {
    const queueId = await createQueue(server, acme, 'Rajada', { greetingMessage: 'Fila Rajada, {{name}}.' });
    const connectionId = await createConnection(server, acme, 'Burst', { queueIds: [queueId] });
    const numbers = Array.from({ length: 20 }, () => customerNumber());
    // One array: the steps of the twenty new tickets are ready together and written together.
    const res = await server.call('POST', `/api/simulator/${connectionId}/inbound`, {
      token: acme.admin.token,
      body: numbers.map((from, k) => ({ from, name: `Rajada ${k}`, body: 'oi' })),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await eventually(async () => (await Message.query(db()).where({ companyId: acme.companyId, body: 'oi' }).whereIn('contactId', Contact.query(db()).whereIn('number', numbers).select('id')).resultSize()) === 20, 5000, 'the twenty messages');
    for (const [k, number] of numbers.entries()) {
      expect(await received(connectionId, number)).toEqual([`Fila Rajada, Rajada ${k}.`]);
      const ticket = await ticketOf(number);
      expect(ticket).toMatchObject({ queueId, status: 'pending', lastMessage: `Fila Rajada, Rajada ${k}.` });
      const attendances = await TicketTracking.query(db()).where({ ticketId: ticket.id });
      expect(attendances).toHaveLength(1);
      expect(attendances[0]).toMatchObject({ queueId, finishedAt: null });
      expect(attendances[0]!.queuedAt).toBeTruthy();
    }
  });
});

describe('the queue menu', () => {
  let connectionId: number;
  let sales: number;
  let support: number;
  const menu = 'Bem-vindo! Escolha:\n\n*[ 1 ]* - Vendas Menu\n*[ 2 ]* - Suporte Menu';

  beforeAll(async () => {
    // Created in reverse: the menu follows orderQueue, not creation.
    support = await createQueue(server, acme, 'Suporte Menu', { greetingMessage: 'Suporte: descreva o problema.', orderQueue: 2 });
    sales = await createQueue(server, acme, 'Vendas Menu', { greetingMessage: 'Vendas: o que procura?', orderQueue: 1 });
    connectionId = await createConnection(server, acme, 'Menu', { greetingMessage: 'Bem-vindo! Escolha:', queueIds: [support, sales], maxUseBotQueues: 3 });
  });

  it('offers the queues, repeats the menu on an invalid choice and takes a valid one', async () => {
    const number = customerNumber();
    const admin = await openSocket(server.url, acme.admin.token);
    try {
      expect(await exchange(connectionId, number, 'olá')).toEqual([menu]);
      let ticket = await ticketOf(number);
      expect(ticket).toMatchObject({ queueId: null, chatbot: true, amountUsedBotQueues: 1 });
      expect((await TicketTracking.query(db()).findOne({ ticketId: ticket.id }))!.chatbotAt).toBeTruthy();
      await admin.next((f) => f.channel === `company-${acme.companyId}-ticket` && (f.data as { ticket?: { id: number; chatbot: boolean } }).ticket?.id === ticket.id && (f.data as { ticket: { chatbot: boolean } }).ticket.chatbot);

      expect(await exchange(connectionId, number, '7')).toEqual([menu]);
      expect(await exchange(connectionId, number, ' 2 ')).toEqual(['Suporte: descreva o problema.']);
      ticket = await ticketOf(number);
      expect(ticket).toMatchObject({ queueId: support, chatbot: false });
      await admin.next((f) => f.channel === `company-${acme.companyId}-ticket` && (f.data as { ticket?: { id: number; queueId: number } }).ticket?.queueId === support);
      // In the queue now: the next messages are for the agents.
      expect(await exchange(connectionId, number, 'meu pedido atrasou')).toEqual([]);
    } finally {
      await admin.close();
    }
  });

  it("a transfer made while the bot answers stands: the bot's step is undone and it says nothing", async () => {
    const number = customerNumber();
    expect(await exchange(connectionId, number, 'olá')).toEqual([menu]);
    const seen = await ticketOf(number);
    // An admin sends the ticket to Support after the bot read it and before it writes its answer to '1'.
    const moved = await server.call('PUT', `/api/tickets/${seen.id}`, { token: acme.admin.token, body: { queueId: support, userId: null } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const chatbot = (server.atende.container.services.pipeline as unknown as { chatbot: Chatbot }).chatbot;
    const contact = await Contact.query(db()).findById(seen.contactId);
    await chatbot.handle({ ticket: seen, contact: contact!, connectionId, text: '1', firstMessage: false });
    expect(await received(connectionId, number)).toEqual([menu]);
    expect(await ticketOf(number)).toMatchObject({ queueId: support, status: 'pending', userId: null });
  });

  it('stops after maxUseBotQueues menus; the ticket waits without queue', async () => {
    const number = customerNumber();
    expect(await exchange(connectionId, number, 'olá')).toEqual([menu]);
    expect(await exchange(connectionId, number, 'quero falar com alguém')).toEqual([menu]);
    expect(await exchange(connectionId, number, 'alguém?')).toEqual([menu]);
    expect(await exchange(connectionId, number, 'ei')).toEqual([]);
    expect(await exchange(connectionId, number, 'ei!')).toEqual([]);
    expect(await ticketOf(number)).toMatchObject({ queueId: null, chatbot: false, amountUsedBotQueues: 3, status: 'pending' });
  });

  it('does not resend the menu within timeUseBotQueues minutes', async () => {
    const waiting = await createConnection(server, acme, 'Menu Wait', { greetingMessage: 'Escolha:', queueIds: [sales, support], timeUseBotQueues: 10 });
    const number = customerNumber();
    expect(await exchange(waiting, number, 'olá')).toEqual(['Escolha:\n\n*[ 1 ]* - Vendas Menu\n*[ 2 ]* - Suporte Menu']);
    expect(await exchange(waiting, number, 'hein?')).toEqual([]);
    expect(await exchange(waiting, number, '1')).toEqual(['Vendas: o que procura?']);
  });
});

describe("a queue's options tree", () => {
  it('walks down and back, restarts on #, repeats on an invalid key and stops at a leaf', async () => {
    const finance = await createQueue(server, acme, 'Financeiro Tree', { greetingMessage: 'Financeiro, {{firstName}}. Escolha:' });
    const other = await createQueue(server, acme, 'Outros Tree', { greetingMessage: 'Outros assuntos.' });
    const bills = await addOption(finance, '1', 'Boletos', 'Boletos: escolha');
    await addOption(finance, '2', 'Falar com atendente', 'Aguarde um atendente.');
    await addOption(finance, '2', 'Segunda via', 'A segunda via está no site.', bills);
    const pay = await addOption(finance, '1', 'Pagamentos', 'Pagamentos: escolha', bills);
    await addOption(finance, '1', 'Pix', 'Nossa chave Pix é 123.', pay);
    const connectionId = await createConnection(server, acme, 'Tree', { greetingMessage: 'Menu principal:', queueIds: [finance, other] });

    const main = 'Menu principal:\n\n*[ 1 ]* - Financeiro Tree\n*[ 2 ]* - Outros Tree';
    const roots = 'Financeiro, Ana. Escolha:\n\n*[ 1 ]* - Boletos\n*[ 2 ]* - Falar com atendente\n*[ # ] -* Menu inicial';
    const billsMenu = 'Boletos: escolha\n\n*[ 1 ]* - Pagamentos\n*[ 2 ]* - Segunda via\n*[ 0 ]* - Voltar\n*[ # ] -* Menu inicial';
    const payMenu = 'Pagamentos: escolha\n\n*[ 1 ]* - Pix\n*[ 0 ]* - Voltar\n*[ # ] -* Menu inicial';

    const number = customerNumber();
    expect(await exchange(connectionId, number, 'oi')).toEqual([main]);
    expect(await exchange(connectionId, number, '1')).toEqual([roots]);
    expect(await ticketOf(number)).toMatchObject({ queueId: finance, chatbot: true, queueOptionId: null });
    expect(await exchange(connectionId, number, '1')).toEqual([billsMenu]);
    expect((await ticketOf(number)).queueOptionId).toBe(bills);
    expect(await exchange(connectionId, number, '1')).toEqual([payMenu]);
    expect(await exchange(connectionId, number, '0')).toEqual([billsMenu]);
    expect(await exchange(connectionId, number, '9')).toEqual([billsMenu]);
    expect(await exchange(connectionId, number, '0')).toEqual([roots]);
    expect((await ticketOf(number)).queueOptionId).toBeNull();
    expect(await exchange(connectionId, number, 'x')).toEqual([roots]);
    expect(await exchange(connectionId, number, '#')).toEqual([main]);
    expect(await ticketOf(number)).toMatchObject({ queueId: null, chatbot: true, queueOptionId: null, amountUsedBotQueues: 1 });

    expect(await exchange(connectionId, number, '1')).toEqual([roots]);
    expect(await exchange(connectionId, number, '1')).toEqual([billsMenu]);
    expect(await exchange(connectionId, number, '2')).toEqual(['A segunda via está no site.']);
    // A leaf: the ticket waits for an agent with the bot still on; other texts get no answer.
    expect(await ticketOf(number)).toMatchObject({ queueId: finance, chatbot: true, status: 'pending' });
    expect(await exchange(connectionId, number, 'obrigada')).toEqual([]);
    expect(await exchange(connectionId, number, '0')).toEqual([billsMenu]);
  });

  it('a single queue with options sends them at once', async () => {
    const queueId = await createQueue(server, acme, 'Só Opções', { greetingMessage: '' });
    await addOption(queueId, '1', 'Horários', 'Abrimos às 8h.');
    const connectionId = await createConnection(server, acme, 'Tree One', { queueIds: [queueId] });
    const number = customerNumber();
    expect(await exchange(connectionId, number, 'oi')).toEqual(['*[ 1 ]* - Horários\n*[ # ] -* Menu inicial']);
    expect(await exchange(connectionId, number, '1')).toEqual(['Abrimos às 8h.']);
    expect(await ticketOf(number)).toMatchObject({ queueId, chatbot: true });
  });
});
