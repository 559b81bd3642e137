import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/socket.js';
import { createConnection, createMember, createQueue, createTenant, eventually, outbox, type InboxTenant, type Member } from '../helpers/inbox.js';

/**
 * The ticket transitions of spec §4 with their side effects (reference §6–§7): who the ticket
 * belongs to afterwards, its attendance (ticket_tracking) and the automatic message the customer
 * receives, as it reaches the simulated phone.
 */
let server: TestServer;

let t: InboxTenant;
let queueA: number;
let queueB: number;
/** Agents of queue A (two of them) and of queue B. */
let ana: Member;
let alice: Member;
let bruno: Member;
let connection: number;
let spare: number;

const GREETING = /^(Bom dia|Boa tarde|Boa noite|Boa madrugada) \*João Silva\*, meu nome é \*ana\* e agora vou prosseguir com seu atendimento!$/;
const RATING = 'Digite de 1 à 3 para qualificar nosso atendimento:\n\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_';

let numberSeq = 0;
async function insertContact(name = 'João Silva', isGroup = false): Promise<{ id: number; number: string }> {
  numberSeq += 1;
  const number = isGroup ? `1203630${String(40000000 + numberSeq)}` : `55119${String(60000000 + numberSeq)}`;
  const now = new Date().toISOString();
  const [row] = await server.atende.container.db('contacts').insert({ companyId: t.companyId, uuid: randomUUID(), name, number, isGroup, createdAt: now, updatedAt: now }).returning('id');
  return { id: row.id as number, number };
}

interface Fixture {
  id: number;
  contactId: number;
  number: string;
}

/** A ticket on the scanned connection, pending in queue A unless told otherwise. */
async function insertTicket(row: Record<string, unknown> = {}, contact?: { id: number; number: string }): Promise<Fixture> {
  const who = contact ?? (await insertContact());
  const now = new Date().toISOString();
  const [ticket] = await server.atende.container
    .db('tickets')
    .insert({ companyId: t.companyId, uuid: randomUUID(), status: 'pending', queueId: queueA, whatsappId: connection, createdAt: now, updatedAt: now, ...row, contactId: who.id })
    .returning('id');
  return { id: ticket.id as number, contactId: who.id, number: who.number };
}

async function put(token: string, id: number, body: Record<string, unknown>) {
  return server.call('PUT', `/api/tickets/${id}`, { token, body });
}

async function setting(key: string, value: string): Promise<void> {
  const res = await server.call('PUT', `/api/settings/${key}`, { token: t.admin.token, body: { value } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function trackingOf(ticketId: number) {
  return server.atende.container.db('ticketTracking').where({ ticketId }).orderBy('id');
}

async function messagesOf(ticketId: number): Promise<{ body: string; fromMe: unknown; userId: number | null }[]> {
  return server.atende.container.db('messages').where({ ticketId }).orderBy('id');
}

/** The texts the simulated phone sent to this number, once `count` of them arrived. */
async function sentTo(number: string, count: number): Promise<string[]> {
  return eventually(async () => {
    const box = await outbox(server, t, connection);
    const bodies = box.messages.filter((m) => m.to.includes(number)).map((m) => m.body);
    return bodies.length >= count ? bodies : undefined;
  }, 10_000, `${count} message(s) to ${number}`);
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await createTenant(server, 'Transicoes');
  queueA = await createQueue(server, t, 'Vendas');
  queueB = await createQueue(server, t, 'Suporte');
  ana = await createMember(server, t, 'ana', { queueIds: [queueA] });
  alice = await createMember(server, t, 'alice', { queueIds: [queueA] });
  bruno = await createMember(server, t, 'bruno', { queueIds: [queueB] });
  connection = await createConnection(server, t, 'Principal');
  spare = await createConnection(server, t, 'Reserva', {}, false);
});
afterAll(async () => {
  await server?.close();
});

describe('accept', () => {
  it('pending → open for the caller: attendance started, unread reset, and the greeting naming the agent when enabled', async () => {
    await setting('sendGreetingAccepted', 'enabled');
    const ticket = await insertTicket({ unreadMessages: 3, chatbot: true });
    const socket = await openSocket(server.url, ana.token);
    const res = await put(ana.token, ticket.id, { status: 'open', userId: ana.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'open', userId: ana.id, user: { id: ana.id, name: 'ana' }, chatbot: false, queueOptionId: null, unreadMessages: 0 });
    const [row] = await trackingOf(ticket.id);
    expect(row).toMatchObject({ userId: ana.id, queueId: queueA, finishedAt: null });
    expect(row.startedAt).toBeTruthy();
    const [greeting] = await sentTo(ticket.number, 1);
    expect(greeting).toMatch(GREETING);
    const [stored] = await messagesOf(ticket.id);
    expect(stored!.body).toMatch(GREETING);
    expect(stored!.userId).toBeNull();
    await socket.next((f) => f.channel === `company-${t.companyId}-ticket` && (f.data as { action: string; ticketId?: number }).action === 'updateUnread' && (f.data as { ticketId: number }).ticketId === ticket.id);
    await socket.close();
  });

  it('no greeting when the setting is off, nor to a group', async () => {
    await setting('sendGreetingAccepted', 'disabled');
    const quiet = await insertTicket();
    expect((await put(ana.token, quiet.id, { status: 'open' })).body.status).toBe('open');
    await setting('sendGreetingAccepted', 'enabled');
    const group = await insertTicket({ isGroup: true }, await insertContact('Grupo da Família', true));
    expect((await put(ana.token, group.id, { status: 'open' })).body.status).toBe('open');
    expect(await messagesOf(quiet.id)).toEqual([]);
    expect(await messagesOf(group.id)).toEqual([]);
    await setting('sendGreetingAccepted', 'disabled');
  });
});

describe('return', () => {
  it('open → pending: the user is cleared and the wait starts again', async () => {
    const ticket = await insertTicket({ status: 'open', userId: ana.id });
    const res = await put(ana.token, ticket.id, { status: 'pending', userId: null });
    expect(res.body).toMatchObject({ status: 'pending', userId: null, user: null, queueId: queueA });
    const [row] = await trackingOf(ticket.id);
    expect(row).toMatchObject({ userId: null, startedAt: null, queueId: queueA });
    expect(row.queuedAt).toBeTruthy();
  });
});

describe('resolve', () => {
  beforeAll(async () => {
    await server.atende.container.db('whatsapps').where({ id: connection }).update({ complationMessage: 'Obrigado pelo contato, {{firstName}}!', ratingMessage: 'Sua opinião importa, {{name}}.' });
  });

  it('closes at once for the caller, queue kept, integration cleared; the completion message ends the attendance', async () => {
    const ticket = await insertTicket({ status: 'open', userId: ana.id, useIntegration: true, promptId: 3, integrationId: 4, chatbot: true });
    const res = await put(alice.token, ticket.id, { status: 'closed' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'closed', userId: alice.id, queueId: queueA, useIntegration: false, promptId: null, integrationId: null, chatbot: false });
    expect(await sentTo(ticket.number, 1)).toEqual(['Obrigado pelo contato, João!']);
    const [row] = await trackingOf(ticket.id);
    expect(row.finishedAt).toBeTruthy();
    expect(row.ratingAt).toBeNull();
  });

  it('with userRating on, a ticket that had an agent gets the rating question (once) and waits for the answer, closed', async () => {
    await setting('userRating', 'enabled');
    const ticket = await insertTicket({ status: 'open', userId: ana.id });
    const res = await put(ana.token, ticket.id, { status: 'closed' });
    expect(res.body).toMatchObject({ status: 'closed', userId: ana.id });
    expect(await sentTo(ticket.number, 1)).toEqual([`Sua opinião importa, João Silva.\n\n${RATING}`]);
    const [row] = await trackingOf(ticket.id);
    expect(row.ratingAt).toBeTruthy();
    expect(row.finishedAt).toBeNull();
    expect(row.userId).toBe(ana.id);

    // A ticket nobody attended is not rated: the completion message goes instead.
    const waiting = await insertTicket();
    await put(ana.token, waiting.id, { status: 'closed' });
    expect(await sentTo(waiting.number, 1)).toEqual(['Obrigado pelo contato, João!']);
    expect((await trackingOf(waiting.id))[0].finishedAt).toBeTruthy();
    await setting('userRating', 'disabled');
  });

  it('a group ticket closes without automatic texts', async () => {
    const group = await insertTicket({ status: 'open', userId: ana.id, isGroup: true }, await insertContact('Grupo', true));
    expect((await put(ana.token, group.id, { status: 'closed' })).body.status).toBe('closed');
    expect(await messagesOf(group.id)).toEqual([]);
    expect((await trackingOf(group.id))[0].finishedAt).toBeTruthy();
  });
});

describe('reopen', () => {
  it('closed → open for the caller in a new attendance; the unanswered rating’s attendance is ended', async () => {
    const ticket = await insertTicket({ status: 'closed', userId: ana.id });
    const now = new Date().toISOString();
    await server.atende.container.db('ticketTracking').insert({ companyId: t.companyId, ticketId: ticket.id, userId: ana.id, ratingAt: now, rated: false, createdAt: now, updatedAt: now });
    const res = await put(alice.token, ticket.id, { status: 'open' });
    expect(res.body).toMatchObject({ status: 'open', userId: alice.id, queueId: queueA });
    const rows = await trackingOf(ticket.id);
    expect(rows).toHaveLength(2);
    expect(rows[0].finishedAt).toBeTruthy();
    expect(rows[1]).toMatchObject({ userId: alice.id, finishedAt: null, ratingAt: null });
    expect(rows[1].startedAt).toBeTruthy();
  });

  it('another open ticket of the contact on the connection → 409 ERR_OTHER_OPEN_TICKET, nothing changes', async () => {
    const contact = await insertContact('Maria');
    const closed = await insertTicket({ status: 'closed' }, contact);
    const open = await insertTicket({ status: 'open', userId: bruno.id, queueId: queueB }, contact);
    const res = await put(ana.token, closed.id, { status: 'open' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect(JSON.parse(res.body.message)).toMatchObject({ id: open.id, user: { id: bruno.id, name: 'bruno' }, queue: { id: queueB, name: 'Suporte' }, status: 'open' });
    expect((await server.atende.container.db('tickets').where({ id: closed.id }).first()).status).toBe('closed');
  });

  it('a closed ticket otherwise stays as it is: agents cannot transfer it, admins can (it waits again)', async () => {
    const ticket = await insertTicket({ status: 'closed', userId: ana.id });
    expect((await put(ana.token, ticket.id, { queueId: queueB })).status).toBe(403);
    const ignored = await put(ana.token, ticket.id, { useIntegration: true });
    expect(ignored.body).toMatchObject({ status: 'closed', useIntegration: false });
    const moved = await put(t.admin.token, ticket.id, { queueId: queueB });
    expect(moved.body).toMatchObject({ status: 'pending', userId: null, queueId: queueB });
  });
});

describe('transfer', () => {
  beforeAll(async () => {
    await setting('sendMsgTransfTicket', 'enabled');
  });
  afterAll(async () => {
    await setting('sendMsgTransfTicket', 'disabled');
  });

  it('to another queue without agent: waits there (pending) and the customer hears the department', async () => {
    const ticket = await insertTicket({ status: 'open', userId: ana.id });
    const res = await put(ana.token, ticket.id, { queueId: queueB, userId: null, status: 'pending' });
    expect(res.body).toMatchObject({ status: 'pending', userId: null, queueId: queueB, queue: { name: 'Suporte' } });
    expect(await sentTo(ticket.number, 1)).toEqual(['*Mensagem automática*:\nVocê foi transferido para o departamento *Suporte*\naguarde, já vamos te atender!']);
    const [row] = await trackingOf(ticket.id);
    expect(row).toMatchObject({ queueId: queueB, userId: null, startedAt: null });
    expect(row.queuedAt).toBeTruthy();
  });

  it('to a colleague of the same queue: open and theirs, the customer hears the agent', async () => {
    const ticket = await insertTicket({ status: 'open', userId: ana.id });
    const res = await put(ana.token, ticket.id, { queueId: queueA, userId: alice.id });
    expect(res.body).toMatchObject({ status: 'open', userId: alice.id, queueId: queueA });
    expect(await sentTo(ticket.number, 1)).toEqual(['*Mensagem automática*:\nFoi transferido para o atendente *alice*\naguarde, já vamos te atender!']);
    expect((await trackingOf(ticket.id))[0]).toMatchObject({ userId: alice.id, queueId: queueA });
  });

  it('to an agent of another queue: both named in one message', async () => {
    const ticket = await insertTicket();
    const res = await put(ana.token, ticket.id, { queueId: queueB, userId: bruno.id });
    expect(res.body).toMatchObject({ status: 'open', userId: bruno.id, queueId: queueB });
    expect(await sentTo(ticket.number, 1)).toEqual(['*Mensagem automática*:\nVocê foi transferido para o departamento *Suporte* e contará com a presença de *bruno*!']);
    const [row] = await trackingOf(ticket.id);
    expect(row).toMatchObject({ userId: bruno.id, queueId: queueB });
    expect(row.startedAt).toBeTruthy();
  });

  it('refuses an agent outside the queue, a user or queue of another company, and a hand-over without queue', async () => {
    const ticket = await insertTicket({ status: 'open', userId: ana.id });
    const outside = await put(ana.token, ticket.id, { queueId: queueA, userId: bruno.id });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toBe('ERR_VALIDATION');
    const other = await createTenant(server, 'Outra Empresa');
    const stranger = await createMember(server, other, 'estranho');
    const foreignQueue = (await server.atende.container.db('queues').where({ companyId: other.companyId }).first('id')).id;
    expect((await put(ana.token, ticket.id, { queueId: queueA, userId: stranger.id })).body.error).toBe('ERR_NO_USER_FOUND');
    expect((await put(ana.token, ticket.id, { queueId: foreignQueue })).status).toBe(404);
    const noQueue = await put(ana.token, ticket.id, { userId: alice.id });
    expect(noQueue.status).toBe(400);
    expect(noQueue.body.message).toBe('Selecione uma fila');
    const row = await server.atende.container.db('tickets').where({ id: ticket.id }).first();
    expect(row).toMatchObject({ status: 'open', userId: ana.id, queueId: queueA });
    expect(await messagesOf(ticket.id)).toEqual([]);
  });

  it('no notice when the setting is off or to a group', async () => {
    const group = await insertTicket({ status: 'open', userId: ana.id, isGroup: true }, await insertContact('Grupo', true));
    expect((await put(ana.token, group.id, { queueId: queueB })).body.queueId).toBe(queueB);
    await setting('sendMsgTransfTicket', 'disabled');
    const quiet = await insertTicket({ status: 'open', userId: ana.id });
    expect((await put(ana.token, quiet.id, { queueId: queueB })).body.queueId).toBe(queueB);
    expect(await messagesOf(group.id)).toEqual([]);
    expect(await messagesOf(quiet.id)).toEqual([]);
    await setting('sendMsgTransfTicket', 'enabled');
  });
});

describe('other fields and rules', () => {
  it('an agent takes an open ticket of their queue for themselves; integration fields are kept until resolved', async () => {
    const ticket = await insertTicket({ status: 'open', userId: alice.id });
    const res = await put(ana.token, ticket.id, { userId: ana.id, useIntegration: true, promptId: 7, integrationId: 9 });
    expect(res.body).toMatchObject({ status: 'open', userId: ana.id, useIntegration: true, promptId: 7, integrationId: 9 });
    expect((await trackingOf(ticket.id))[0]).toMatchObject({ userId: ana.id });
  });

  it('changing the connection checks the contact’s open tickets there', async () => {
    const contact = await insertContact('Pedro');
    const ticket = await insertTicket({ status: 'open', userId: ana.id }, contact);
    const elsewhere = await insertTicket({ status: 'pending', whatsappId: spare }, contact);
    const refused = await put(ana.token, ticket.id, { whatsappId: spare });
    expect(refused.status).toBe(409);
    expect(refused.body.ticket.id).toBe(elsewhere.id);
    await server.atende.container.db('tickets').where({ id: elsewhere.id }).update({ status: 'closed' });
    expect((await put(ana.token, ticket.id, { whatsappId: spare })).body).toMatchObject({ whatsappId: spare, whatsapp: { name: 'Reserva' } });
    const other = await createTenant(server, 'Conexao Alheia');
    const foreign = await createConnection(server, other, 'Deles', {}, false);
    expect((await put(ana.token, ticket.id, { whatsappId: foreign })).status).toBe(404);
  });

  it('bad bodies answer 400', async () => {
    const ticket = await insertTicket({ status: 'open', userId: ana.id });
    for (const body of [{ status: 'archived' }, { userId: 'x' }, { useIntegration: 'yes' }]) {
      expect((await put(ana.token, ticket.id, body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('service methods for the jobs', () => {
  it('closeTicket with a farewell: sent, no rating, attendance ended; a second run does nothing', async () => {
    await setting('userRating', 'enabled');
    const ticket = await insertTicket({ status: 'open', userId: ana.id });
    const tickets = server.atende.container.services.tickets;
    const closed = await tickets.closeTicket(t.companyId, ticket.id, { farewell: 'Atendimento encerrado por inatividade, {{firstName}}.' });
    expect(closed).toMatchObject({ status: 'closed', userId: ana.id });
    expect(await sentTo(ticket.number, 1)).toEqual(['Atendimento encerrado por inatividade, João.']);
    expect((await trackingOf(ticket.id))[0].finishedAt).toBeTruthy();
    await tickets.closeTicket(t.companyId, ticket.id, { farewell: 'de novo' });
    expect(await messagesOf(ticket.id)).toHaveLength(1);
    expect(await tickets.closeTicket(t.companyId, 999_999)).toBeUndefined();
    await setting('userRating', 'disabled');
  });

  it('transfer moves a waiting ticket to a queue', async () => {
    const ticket = await insertTicket({ queueId: null });
    const moved = await server.atende.container.services.tickets.transfer(t.companyId, ticket.id, { queueId: queueB }, { notify: false });
    expect(moved).toMatchObject({ status: 'pending', queueId: queueB, userId: null, queue: { name: 'Suporte' } });
    expect((await trackingOf(ticket.id))[0]).toMatchObject({ queueId: queueB });
  });
});
