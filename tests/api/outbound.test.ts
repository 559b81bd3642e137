import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { restartableDatabase, startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';
import { createConnection, createMember, createTenant, eventually, outbox, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';
import { Events } from '../../core/events/event-bus.js';
import { SEND_JOB } from '../../core/modules/messages/outbound.service.js';

let numbers = 0;

/** The inbound pipeline is not under test here: an open ticket of `userId` straight into the tables. */
async function openTicket(on: TestServer, companyId: number, whatsappId: number, userId: number): Promise<{ ticketId: number; number: string }> {
  const db = on.atende.container.db;
  const now = new Date().toISOString();
  numbers += 1;
  const number = `5511966${String(numbers).padStart(6, '0')}`;
  const [contact] = await db('contacts').insert({ companyId, uuid: randomUUID(), name: 'Cliente', number, createdAt: now, updatedAt: now }).returning('id');
  const [ticket] = await db('tickets')
    .insert({ companyId, uuid: randomUUID(), status: 'open', contactId: contact.id, userId, whatsappId, createdAt: now, updatedAt: now })
    .returning('id');
  return { ticketId: ticket.id as number, number };
}

function row(on: TestServer, id: number) {
  return on.atende.container.db('messages').where({ id }).first();
}

async function send(on: TestServer, token: string, ticketId: number, body: string): Promise<{ id: number; wid: string }> {
  const res = await on.call('POST', `/api/messages/${ticketId}`, { token, body: { body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.messages[0];
}

/** The phone unlinks the connection: its session ends until it is started and scanned again. */
async function unlink(on: TestServer, tenant: InboxTenant, connectionId: number): Promise<void> {
  const res = await on.call('POST', `/api/simulator/${connectionId}/disconnect`, { token: tenant.admin.token });
  expect(res.status).toBe(200);
}

const undoRetries: (() => void)[] = [];
afterEach(() => {
  for (const undo of undoRetries.splice(0)) undo();
});

/** Retries far apart enough to watch, close enough to wait for (until the test ends). */
function quickRetries(on: TestServer, retry = { maxAttempts: 50, firstDelayMs: 100, maxDelayMs: 300 }): void {
  const { outbound } = on.atende.container.services;
  const before = outbound.retry;
  outbound.retry = retry;
  undoRetries.push(() => {
    outbound.retry = before;
  });
}

/** Every send job of a message has run (none waits to retry). */
async function retriesDone(on: TestServer, messageId: number, atLeast = 2): Promise<void> {
  await eventually(
    async () => {
      const { jobs } = await on.atende.container.jobs.query({ name: SEND_JOB, data: { messageId } });
      return jobs.length >= atLeast && jobs.every((j) => j.state === 'completed');
    },
    10_000,
    `the retries of message ${messageId}`,
  );
}

/** "Try again" on the connections page, then the phone scans the new QR code. */
async function relink(on: TestServer, tenant: InboxTenant, connectionId: number): Promise<void> {
  expect((await on.call('POST', `/api/whatsappsession/${connectionId}`, { token: tenant.admin.token })).status).toBe(200);
  await eventually(async () => (await on.call('POST', `/api/simulator/${connectionId}/scan`, { token: tenant.admin.token })).status === 200, 5000, 'a QR code to scan');
}

describe('the send queue', () => {
  let server: TestServer;
  let tenant: InboxTenant;
  let agent: Member;
  let socket: TestSocket;
  /** A connection that stays up (the plan allows five). */
  let steady: number;

  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Loja Envios');
    agent = await createMember(server, tenant, 'agente');
    socket = await openSocket(server.url, agent.token);
    steady = await createConnection(server, tenant, 'Estável');
  });
  afterAll(async () => {
    await socket?.close();
    await server?.close();
  });

  it('enqueue stores the message queued with a WhatsApp-style id, then sends it under that id', async () => {
    const connectionId = steady;
    const { ticketId, number } = await openTicket(server, tenant.companyId, connectionId, agent.id);
    const { outbound } = server.atende.container.services;

    const message = await outbound.enqueue({ companyId: tenant.companyId, ticketId, body: 'Olá, tudo bem?', userId: null });
    expect(message).toMatchObject({ sendStatus: 'queued', ack: 0, fromMe: true, read: true, userId: null, sendAttempts: 0 });
    expect(message.wid).toMatch(/^3EB0[0-9A-F]{18}$/);

    const sent = await eventually(async () => (await outbox(server, tenant, connectionId)).messages.find((m) => m.id === message.wid));
    expect(sent).toMatchObject({ to: number, kind: 'text', body: 'Olá, tudo bem?' });
    expect(await eventually(async () => (await row(server, message.id)).sendStatus === 'sent' && row(server, message.id))).toMatchObject({ sendAttempts: 1, wid: message.wid });
    expect((await server.atende.container.db('tickets').where({ id: ticketId }).first()).lastMessage).toBe('Olá, tudo bem?');
  });

  it('inside a transaction nothing is announced nor sent before the commit, and nothing at all after a rollback', async () => {
    const connectionId = steady;
    const { ticketId, number } = await openTicket(server, tenant.companyId, connectionId, agent.id);
    const { db, services } = server.atende.container;

    await expect(
      db.transaction(async (trx) => {
        await services.outbound.enqueue({ companyId: tenant.companyId, ticketId, body: 'Desfeita' }, trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    const kept = await db.transaction((trx) => services.outbound.enqueue({ companyId: tenant.companyId, ticketId, body: 'Confirmada' }, trx));
    await eventually(async () => (await outbox(server, tenant, connectionId)).messages.find((m) => m.id === kept.wid));
    await socket.next((f) => f.channel === `company-${tenant.companyId}-appMessage` && (f.data as { message: { id: number } }).message.id === kept.id);
    expect((await outbox(server, tenant, connectionId)).messages.filter((m) => m.to === number).map((m) => m.body)).toEqual(['Confirmada']);
    expect(await db('messages').where({ ticketId }).select('body')).toEqual([{ body: 'Confirmada' }]);
  });

  it('a message written while the connection is down waits queued, then goes once (in order) when it is back', async () => {
    const connectionId = await createConnection(server, tenant, 'Instável');
    const { ticketId } = await openTicket(server, tenant.companyId, connectionId, agent.id);
    await unlink(server, tenant, connectionId);
    quickRetries(server);
    const first = await send(server, agent.token, ticketId, 'Primeira');
    const second = await send(server, agent.token, ticketId, 'Segunda');
    const tried = await eventually(async () => {
      const r = await row(server, first.id);
      return r.sendAttempts >= 1 && r;
    });
    expect(tried).toMatchObject({ sendStatus: 'queued', ack: 0, sendError: 'ERR_WAPP_NOT_INITIALIZED' });
    await socket.next((f) => f.channel === `company-${tenant.companyId}-appMessage` && (f.data as { message: { id: number; sendError: string } }).message.sendError === 'ERR_WAPP_NOT_INITIALIZED');

    await relink(server, tenant, connectionId);
    const box = await eventually(async () => {
      const b = await outbox(server, tenant, connectionId);
      return b.messages.length === 2 && b;
    });
    expect(box.messages.map((m) => [m.id, m.body])).toEqual([
      [first.wid, 'Primeira'],
      [second.wid, 'Segunda'],
    ]);
    for (const { id } of [first, second]) {
      expect(await eventually(async () => (await row(server, id)).sendStatus === 'sent' && row(server, id))).toMatchObject({ sendError: null });
    }
    // The retries already scheduled find them sent and send nothing.
    await retriesDone(server, first.id);
    await retriesDone(server, second.id);
    expect((await outbox(server, tenant, connectionId)).messages).toHaveLength(2);
  });

  it('a message deleted before it could be sent is withdrawn: WhatsApp never gets it', async () => {
    const connectionId = await createConnection(server, tenant, 'Retirada');
    const { ticketId } = await openTicket(server, tenant.companyId, connectionId, agent.id);
    await unlink(server, tenant, connectionId);
    quickRetries(server);
    const message = await send(server, agent.token, ticketId, 'Melhor não');
    const res = await server.call('DELETE', `/api/messages/${message.id}`, { token: agent.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ isDeleted: true, sendStatus: 'queued' });

    await relink(server, tenant, connectionId);
    await retriesDone(server, message.id, 1);
    const box = await outbox(server, tenant, connectionId);
    expect(box.messages).toEqual([]);
    expect(box.operations).toEqual([]);
  });

  it('a send retried after a crash (the phone already has it) is not sent twice', async () => {
    const connectionId = steady;
    const { ticketId, number } = await openTicket(server, tenant.companyId, connectionId, agent.id);
    const { db, sessions, jobs } = server.atende.container;
    // Stored queued and already handed to the phone when the process died: the row still says queued.
    const now = new Date().toISOString();
    const wid = '3EB0AAAAAAAAAAAAAAAAAA';
    await sessions.driverFor(connectionId).sendText(number, 'Antes da queda', { id: wid });
    const [stored] = await db('messages')
      .insert({ companyId: tenant.companyId, wid, ticketId, body: 'Antes da queda', fromMe: true, read: true, ack: 0, sendStatus: 'queued', createdAt: now, updatedAt: now })
      .returning('id');

    await jobs.now(SEND_JOB, { messageId: stored.id as number });
    await eventually(async () => (await row(server, stored.id)).sendStatus === 'sent');
    const box = await outbox(server, tenant, connectionId);
    expect(box.messages.filter((m) => m.to === number)).toMatchObject([{ id: wid, body: 'Antes da queda' }]);
  });

  it('after the last attempt the message is marked failed, live, with a code the agent understands', async () => {
    const connectionId = await createConnection(server, tenant, 'Sem volta');
    const { ticketId } = await openTicket(server, tenant.companyId, connectionId, agent.id);
    await unlink(server, tenant, connectionId);
    quickRetries(server, { maxAttempts: 3, firstDelayMs: 20, maxDelayMs: 40 });
    const message = await send(server, agent.token, ticketId, 'Não vai');
    const frame = await socket.next(
      (f) =>
        f.channel === `company-${tenant.companyId}-appMessage` &&
        (f.data as { message: { id: number; sendStatus: string } }).message.id === message.id &&
        (f.data as { message: { sendStatus: string } }).message.sendStatus === 'failed',
      15_000,
    );
    expect((frame.data as { message: unknown }).message).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG', ack: 0 });
    expect(await row(server, message.id)).toMatchObject({ sendStatus: 'failed', sendAttempts: 3, sendError: 'ERR_SENDING_WAPP_MSG' });
  });

  it('acks only grow: a late lower ack changes nothing', async () => {
    const connectionId = steady;
    const { ticketId } = await openTicket(server, tenant.companyId, connectionId, agent.id);
    const message = await send(server, agent.token, ticketId, 'Lida?');
    await eventually(async () => (await row(server, message.id)).ack === 3, 5000, 'ack 3');
    await server.atende.container.bus.emit(Events.messageAck, tenant.companyId, { connectionId, companyId: tenant.companyId, id: message.wid, ack: 1 });
    expect((await row(server, message.id)).ack).toBe(3);
    await server.atende.container.bus.emit(Events.messageAck, tenant.companyId, { connectionId, companyId: tenant.companyId, id: message.wid, ack: 4 });
    expect((await row(server, message.id)).ack).toBe(4);
  });
});

describe('after a restart on the same database', () => {
  let databaseUrl: string;
  let drop: () => Promise<void>;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    ({ databaseUrl, drop } = await restartableDatabase());
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await drop();
  });

  async function boot(): Promise<TestServer> {
    const s = await startTestServer({ simulator: true, databaseUrl });
    servers.push(s);
    return s;
  }

  it('a message queued before the stop is sent once when the connection comes back', async () => {
    const first = await boot();
    let tenant = await createTenant(first, 'Loja Reinício');
    const agent = await createMember(first, tenant, 'agente');
    const connectionId = await createConnection(first, tenant, 'Principal');
    const { ticketId } = await openTicket(first, tenant.companyId, connectionId, agent.id);
    await unlink(first, tenant, connectionId);
    quickRetries(first);
    const message = await send(first, agent.token, ticketId, 'Enviada depois');
    await eventually(async () => (await row(first, message.id)).sendAttempts >= 1);
    servers.splice(servers.indexOf(first), 1);
    await first.close();

    const second = await boot();
    quickRetries(second);
    tenant = { ...tenant, admin: { ...tenant.admin, token: (await second.login(tenant.admin.email, PASSWORD)).token } };
    expect(await row(second, message.id)).toMatchObject({ sendStatus: 'queued', ack: 0 });
    await eventually(async () => (await second.call('POST', `/api/simulator/${connectionId}/scan`, { token: tenant.admin.token })).status === 200, 5000, 'a QR code');
    const sent = await eventually(async () => (await outbox(second, tenant, connectionId)).messages.find((m) => m.id === message.wid));
    expect(sent.body).toBe('Enviada depois');
    await eventually(async () => (await row(second, message.id)).sendStatus === 'sent');
    // The retry the first process scheduled runs here, and finds nothing to do.
    await retriesDone(second, message.id);
    expect((await outbox(second, tenant, connectionId)).messages).toHaveLength(1);
  });
});
