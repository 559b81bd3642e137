import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeMedia } from '../helpers/media.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, outbox, type InboxTenant } from '../helpers/inbox.js';
import { Events } from '../../core/events/event-bus.js';
import type { NormalizedMessage } from '../../core/channels/driver.js';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Message } from '../../core/modules/messages/message.model.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { Ticket } from '../../core/modules/tickets/ticket.model.js';
import { CALLS_DISABLED_MESSAGE } from '../../core/modules/pipeline/inbound-pipeline.js';

let server: TestServer;
let acme: InboxTenant;
let globex: InboxTenant;

/** A number nobody else in this file writes from. */
let numberSeq = 0;
function customerNumber(): string {
  numberSeq += 1;
  return `55119${String(70_000_000 + numberSeq).padStart(8, '0')}`;
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  // Room for a fresh connection per scenario.
  await Plan.query(server.atende.container.db).patch({ users: 50, connections: 50, queues: 50 });
  acme = await createTenant(server, 'Acme Pipeline');
  globex = await createTenant(server, 'Globex Pipeline');
});
afterAll(async () => {
  await server?.close();
});

function db() {
  return server.atende.container.db;
}

async function contactOf(companyId: number, number: string): Promise<Contact | undefined> {
  return Contact.query(db()).findOne({ companyId, number });
}

/** The contact's tickets, oldest first. */
async function ticketsOf(companyId: number, number: string): Promise<Ticket[]> {
  const contact = await contactOf(companyId, number);
  if (!contact) return [];
  return Ticket.query(db()).where({ companyId, contactId: contact.id }).orderBy('id');
}

async function messagesOf(ticketId: number): Promise<Message[]> {
  return Message.query(db()).where({ ticketId }).orderBy('id');
}

/** Waits until the socket is in `room`: a probe published to that room reaches it. */
async function inRoom(socket: TestSocket, companyId: number, room: string): Promise<void> {
  let probe = 0;
  await eventually(async () => {
    probe += 1;
    const tag = `${room}#${probe}`;
    server.atende.container.realtime.publish(companyId, 'probe', { tag }, room);
    return socket.next((f) => f.channel === 'probe' && (f.data as { tag: string }).tag === tag, 100).then(
      () => true,
      () => false,
    );
  });
}

type AppMessageFrame = { action: string; message: { id: number; body: string; quotedMsg: { id: number } | null; mediaUrl: string | null }; ticket: { id: number } };

function appMessage(socket: TestSocket, companyId: number, body: string): Promise<AppMessageFrame> {
  return socket
    .next((f) => f.channel === `company-${companyId}-appMessage` && (f.data as AppMessageFrame).message.body === body)
    .then((f) => f.data as AppMessageFrame);
}

function heard(socket: TestSocket, body: string): boolean {
  return socket.frames.some((f) => String(f.channel).endsWith('-appMessage') && (f.data as AppMessageFrame).message.body === body);
}

/** Emits a driver message on the bus, as the session manager does (own-device messages, groups). */
async function driverMessage(connectionId: number, companyId: number, message: Partial<NormalizedMessage> & Pick<NormalizedMessage, 'chatId' | 'body'>): Promise<void> {
  await server.atende.container.bus.emit(Events.messageReceived, companyId, {
    connectionId,
    companyId,
    message: {
      id: `EXT${Math.random().toString(16).slice(2).toUpperCase()}`,
      isGroup: false,
      fromMe: false,
      from: { number: message.chatId, name: '' },
      timestamp: new Date().toISOString(),
      ...message,
    },
  });
}

describe('storing inbound messages', () => {
  let connectionId: number;
  beforeAll(async () => {
    connectionId = await createConnection(server, acme, 'Store');
  });

  it('a first message creates the contact (named by its push name), a pending ticket and the message', async () => {
    const number = customerNumber();
    const wid = await customerWrites(server, acme, connectionId, { from: number, name: 'Maria Silva', body: 'Olá, preciso de ajuda' });
    const [ticket] = await eventually(async () => {
      const tickets = await ticketsOf(acme.companyId, number);
      return tickets.length ? tickets : undefined;
    });
    const contact = await contactOf(acme.companyId, number);
    expect(contact).toMatchObject({ name: 'Maria Silva', isGroup: false, whatsappId: connectionId });
    expect(ticket).toMatchObject({ status: 'pending', queueId: null, userId: null, whatsappId: connectionId, isGroup: false, unreadMessages: 1, lastMessage: 'Olá, preciso de ajuda', fromMe: false });
    const [message] = await messagesOf(ticket!.id);
    expect(message).toMatchObject({ wid, body: 'Olá, preciso de ajuda', fromMe: false, read: false, ack: 0, sendStatus: 'received', contactId: contact!.id, remoteJid: number });
  });

  it('counts unread messages and keeps the last one; a replayed id is stored once', async () => {
    const number = customerNumber();
    await customerWrites(server, acme, connectionId, { from: number, body: 'primeira', id: 'REPLAY-1' });
    await customerWrites(server, acme, connectionId, { from: number, body: 'primeira', id: 'REPLAY-1' });
    await customerWrites(server, acme, connectionId, { from: number, body: 'segunda' });
    const ticket = await eventually(async () => {
      const [t] = await ticketsOf(acme.companyId, number);
      return t?.lastMessage === 'segunda' ? t : undefined;
    });
    expect(ticket.unreadMessages).toBe(2);
    expect((await messagesOf(ticket.id)).map((m) => m.body)).toEqual(['primeira', 'segunda']);
  });

  it('a replay carrying the media its first delivery lacked completes the stored message', async () => {
    const number = customerNumber();
    const id = `MEDIA-LATE-${number}`;
    await driverMessage(connectionId, acme.companyId, { id, chatId: number, from: { number, name: 'Foto' }, body: 'olha', mediaType: 'image' });
    const stored = await eventually(async () => Message.query(db()).findOne({ companyId: acme.companyId, wid: id }));
    expect(stored.mediaPath).toBeNull();
    const path = await storeMedia(server, acme.companyId, 'foto.jpg', 'jpeg');
    await driverMessage(connectionId, acme.companyId, {
      id,
      chatId: number,
      from: { number, name: 'Foto' },
      body: 'olha',
      mediaType: 'image',
      media: { path, name: 'foto.jpg', mimeType: 'image/jpeg', size: 4 },
    });
    await server.atende.container.services.pipeline.idle();
    expect(await Message.query(db()).where({ companyId: acme.companyId, wid: id })).toMatchObject([{ mediaPath: path, mediaName: 'foto.jpg', mediaMime: 'image/jpeg' }]);
  });

  it("a message sent from the company's phone belongs to the chat's contact and clears the unread count", async () => {
    const number = customerNumber();
    await customerWrites(server, acme, connectionId, { from: number, name: 'Cliente Fone', body: 'oi' });
    await customerWrites(server, acme, connectionId, { from: number, name: 'Cliente Fone', body: 'tem alguém?' });
    await eventually(async () => (await ticketsOf(acme.companyId, number))[0]?.unreadMessages === 2);
    await driverMessage(connectionId, acme.companyId, { chatId: number, fromMe: true, from: { number: '5511900000000', name: '' }, body: 'Sim, pode falar' });
    const ticket = await eventually(async () => {
      const [t] = await ticketsOf(acme.companyId, number);
      return t?.lastMessage === 'Sim, pode falar' ? t : undefined;
    });
    expect(ticket).toMatchObject({ unreadMessages: 0, fromMe: true, status: 'pending' });
    const messages = await messagesOf(ticket.id);
    expect(messages.at(-1)).toMatchObject({ fromMe: true, read: true, ack: 1, contactId: (await contactOf(acme.companyId, number))!.id });
    expect((await contactOf(acme.companyId, number))!.name).toBe('Cliente Fone');
    expect(await contactOf(acme.companyId, '5511900000000')).toBeUndefined();
  });

  it('stores media and serves it at /api/media to the company', async () => {
    const number = customerNumber();
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    await customerWrites(server, acme, connectionId, { from: number, body: '', mediaType: 'image', mediaBase64: png.toString('base64') });
    const ticket = await eventually(async () => (await ticketsOf(acme.companyId, number))[0]);
    const [message] = await eventually(async () => {
      const list = await messagesOf(ticket.id);
      return list.length ? list : undefined;
    });
    expect(message).toMatchObject({ mediaType: 'image', mediaName: 'image.jpg', mediaMime: 'image/jpeg' });
    expect(message!.mediaPath).toBeTruthy();
    expect((await Ticket.query(db()).findById(ticket.id))!.lastMessage).toBe('image.jpg');
    const served = await fetch(`${server.url}/api/media/${encodeURIComponent(message!.mediaPath!)}`, { headers: { Authorization: `Bearer ${acme.admin.token}` } });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
    const foreign = await server.call('GET', `/api/media/${encodeURIComponent(message!.mediaPath!)}`, { token: globex.admin.token });
    expect(foreign.status).toBe(404);
  });

  it('a reply links the quoted message', async () => {
    const number = customerNumber();
    const socket = await openSocket(server.url, acme.admin.token);
    try {
      const first = await customerWrites(server, acme, connectionId, { from: number, body: 'qual o preço?' });
      await customerWrites(server, acme, connectionId, { from: number, body: 'respondendo', quotedId: first });
      const frame = await appMessage(socket, acme.companyId, 'respondendo');
      const quoted = await Message.query(db()).findOne({ companyId: acme.companyId, wid: first });
      expect(frame.message.quotedMsg?.id).toBe(quoted!.id);
      const reply = await Message.query(db()).findById(frame.message.id);
      expect(reply!.quotedMsgId).toBe(quoted!.id);
    } finally {
      await socket.close();
    }
  });

  it('a burst from several customers keeps each one in order, with one ticket each', async () => {
    const customers = Array.from({ length: 5 }, () => customerNumber());
    await Promise.all(
      customers.map(async (number) => {
        for (let i = 1; i <= 4; i += 1) await customerWrites(server, acme, connectionId, { from: number, body: `msg ${i}` });
      }),
    );
    for (const number of customers) {
      const tickets = await eventually(async () => {
        const list = await ticketsOf(acme.companyId, number);
        return list.length === 1 && list[0]!.unreadMessages === 4 ? list : undefined;
      });
      expect((await messagesOf(tickets[0]!.id)).map((m) => m.body)).toEqual(['msg 1', 'msg 2', 'msg 3', 'msg 4']);
    }
  });
});

describe('who hears a message', () => {
  let salesQueue: number;
  let supportQueue: number;
  let queuedConnection: number;
  let queuelessConnection: number;
  let admin: TestSocket;
  let sales: TestSocket;
  let support: TestSocket;
  let seesAll: TestSocket;
  let foreignAdmin: TestSocket;

  beforeAll(async () => {
    salesQueue = await createQueue(server, acme, 'Vendas Rooms');
    supportQueue = await createQueue(server, acme, 'Suporte Rooms');
    queuedConnection = await createConnection(server, acme, 'Rooms One Queue', { queueIds: [salesQueue] });
    queuelessConnection = await createConnection(server, acme, 'Rooms No Queue');
    const salesAgent = await createMember(server, acme, 'sales-rooms', { queueIds: [salesQueue] });
    const supportAgent = await createMember(server, acme, 'support-rooms', { queueIds: [supportQueue] });
    const allTickets = await createMember(server, acme, 'all-rooms', { queueIds: [supportQueue], allTicket: 'enabled' });
    admin = await openSocket(server.url, acme.admin.token);
    sales = await openSocket(server.url, salesAgent.token);
    support = await openSocket(server.url, supportAgent.token);
    seesAll = await openSocket(server.url, allTickets.token);
    foreignAdmin = await openSocket(server.url, globex.admin.token);
    await Promise.all([
      inRoom(admin, acme.companyId, 'admins'),
      inRoom(sales, acme.companyId, `queue:${salesQueue}`),
      inRoom(support, acme.companyId, `queue:${supportQueue}`),
      inRoom(seesAll, acme.companyId, 'queueless'),
      inRoom(foreignAdmin, globex.companyId, 'admins'),
    ]);
  });
  afterAll(async () => {
    await Promise.all([admin, sales, support, seesAll, foreignAdmin].map((s) => s?.close()));
  });

  it("a queued ticket's message reaches admins and its queue's agents, nobody else", async () => {
    const number = customerNumber();
    await customerWrites(server, acme, queuedConnection, { from: number, body: 'rooms: primeira' });
    // The one queue of the connection is taken at once; the next message is a queued ticket's.
    await eventually(async () => (await ticketsOf(acme.companyId, number))[0]?.queueId === salesQueue);
    await customerWrites(server, acme, queuedConnection, { from: number, body: 'rooms: segunda' });
    const [toAdmin, toSales] = await Promise.all([appMessage(admin, acme.companyId, 'rooms: segunda'), appMessage(sales, acme.companyId, 'rooms: segunda')]);
    expect(toAdmin.ticket.id).toBe(toSales.ticket.id);
    await sales.next((f) => f.channel === `company-${acme.companyId}-ticket` && (f.data as { ticket?: { lastMessage: string } }).ticket?.lastMessage === 'rooms: segunda');
    await quietFor(200);
    expect(heard(support, 'rooms: segunda')).toBe(false);
    expect(heard(seesAll, 'rooms: segunda')).toBe(false);
    expect(heard(foreignAdmin, 'rooms: segunda')).toBe(false);
  });

  it("a queueless ticket's message reaches admins and users who see every ticket, nobody else", async () => {
    const number = customerNumber();
    await customerWrites(server, acme, queuelessConnection, { from: number, body: 'rooms: sem fila' });
    await Promise.all([appMessage(admin, acme.companyId, 'rooms: sem fila'), appMessage(seesAll, acme.companyId, 'rooms: sem fila')]);
    await quietFor(200);
    expect(heard(sales, 'rooms: sem fila')).toBe(false);
    expect(heard(support, 'rooms: sem fila')).toBe(false);
    expect(heard(foreignAdmin, 'rooms: sem fila')).toBe(false);
  });
});

describe('groups', () => {
  it('are ignored while CheckMsgIsGroup is enabled, and stored without the bot when disabled', async () => {
    const connectionId = await createConnection(server, globex, 'Groups', { greetingMessage: 'Bem-vindo!' });
    const group = '120363041234567890';
    await driverMessage(connectionId, globex.companyId, { chatId: group, isGroup: true, from: { number: '5511988887777', name: 'Participante' }, body: 'ignorada' });
    await server.atende.container.services.pipeline.idle();
    expect(await contactOf(globex.companyId, group)).toBeUndefined();

    const res = await server.call('PUT', '/api/settings/CheckMsgIsGroup', { token: globex.admin.token, body: { value: 'disabled' } });
    expect(res.status).toBe(200);
    await driverMessage(connectionId, globex.companyId, { chatId: group, isGroup: true, from: { number: '5511988887777', name: 'Participante' }, body: 'no grupo' });
    const [ticket] = await eventually(async () => {
      const list = await ticketsOf(globex.companyId, group);
      return list.length ? list : undefined;
    });
    expect(await contactOf(globex.companyId, group)).toMatchObject({ isGroup: true, name: group });
    expect(ticket).toMatchObject({ isGroup: true, status: 'pending', unreadMessages: 1 });
    expect((await messagesOf(ticket!.id))[0]).toMatchObject({ body: 'no grupo', participant: '5511988887777' });
    await server.atende.container.services.pipeline.idle();
    expect((await outbox(server, globex, connectionId)).messages).toEqual([]);
  });
});

describe('calls', () => {
  it('a missed call is logged on the caller ticket; with calls disabled the caller is asked to write', async () => {
    const connectionId = await createConnection(server, globex, 'Calls');
    const number = customerNumber();
    const at = new Date();
    const call = { connectionId, companyId: globex.companyId, from: { number, name: 'Quem Liga' }, timestamp: at.toISOString() };
    await server.atende.container.bus.emit(Events.callReceived, globex.companyId, call);
    const [ticket] = await eventually(async () => {
      const list = await ticketsOf(globex.companyId, number);
      return list.length ? list : undefined;
    });
    const time = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Sao_Paulo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
    const [log] = await messagesOf(ticket!.id);
    expect(log).toMatchObject({ mediaType: 'call_log', body: `Chamada de voz/vídeo perdida às ${time}`, fromMe: false });
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 1 });
    // The same call reported again is logged once; calls still enabled: nothing is sent.
    await server.atende.container.bus.emit(Events.callReceived, globex.companyId, call);
    await server.atende.container.services.pipeline.idle();
    expect(await messagesOf(ticket!.id)).toHaveLength(1);
    expect((await outbox(server, globex, connectionId)).messages).toEqual([]);

    const res = await server.call('PUT', '/api/settings/call', { token: globex.admin.token, body: { value: 'disabled' } });
    expect(res.status).toBe(200);
    await server.atende.container.bus.emit(Events.callReceived, globex.companyId, { ...call, timestamp: new Date(at.getTime() + 60_000).toISOString() });
    const sent = await eventually(async () => {
      const box = await outbox(server, globex, connectionId);
      return box.messages.length ? box.messages : undefined;
    });
    expect(sent.map((m) => [m.to, m.body])).toEqual([[number, CALLS_DISABLED_MESSAGE]]);
    expect(await messagesOf(ticket!.id)).toHaveLength(3);
  });
});

describe('contacts seen by the driver', () => {
  it('update the name of a known contact still named by its number, never create one', async () => {
    const connectionId = await createConnection(server, globex, 'Seen');
    const number = customerNumber();
    await driverMessage(connectionId, globex.companyId, { chatId: number, from: { number, name: '' }, body: 'sem nome' });
    await eventually(async () => (await contactOf(globex.companyId, number))?.name === number);
    const bus = server.atende.container.bus;
    await bus.emit(Events.contactSeen, globex.companyId, { connectionId, companyId: globex.companyId, number, name: 'Agora Com Nome' });
    await bus.emit(Events.contactSeen, globex.companyId, { connectionId, companyId: globex.companyId, number, name: 'Outro Nome' });
    const unknown = customerNumber();
    await bus.emit(Events.contactSeen, globex.companyId, { connectionId, companyId: globex.companyId, number: unknown, name: 'Desconhecido' });
    await server.atende.container.services.pipeline.idle();
    expect((await contactOf(globex.companyId, number))!.name).toBe('Agora Com Nome');
    expect(await contactOf(globex.companyId, unknown)).toBeUndefined();
  });
});
