import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Message } from '../../core/modules/messages/message.model.js';
import { TicketTracking } from '../../core/modules/tickets/ticket-tracking.model.js';
import { Ticket, type TicketStatus } from '../../core/modules/tickets/ticket.model.js';
import { TICKETS_EXPIRE_JOB, TICKETS_TRANSFER_JOB } from '../../core/modules/tickets/ticket-automations.js';
import { createConnection, createMember, createQueue, createTenant, eventually, outbox, type InboxTenant, type Member } from '../helpers/inbox.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';

const INACTIVE = 'Olá {{firstName}}, encerramos seu atendimento por inatividade.';

let server: TestServer;
let t: InboxTenant;
let other: InboxTenant;
let sales: number;
let support: number;
let seller: Member;
let sellerSocket: TestSocket;
let adminSocket: TestSocket;
/** expiresTicket 30 min with an inactivity message; timeToTransfer 10 min to `sales`. */
let timed: number;
/** Neither rule (the defaults). */
let untimed: number;
/** Another company's connection, expiresTicket 30 min and no message. */
let otherTimed: number;

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await createTenant(server, 'Automacoes');
  other = await createTenant(server, 'Outra Automacoes');
  sales = await createQueue(server, t, 'Vendas');
  support = await createQueue(server, t, 'Suporte');
  seller = await createMember(server, t, 'vendedor', { queueIds: [sales] });
  sellerSocket = await openSocket(server.url, seller.token);
  adminSocket = await openSocket(server.url, t.admin.token);
  timed = await createConnection(server, t, 'Com prazos', {
    expiresTicket: 30,
    expiresInactiveMessage: INACTIVE,
    timeToTransfer: 10,
    transferQueueId: sales,
    queueIds: [sales, support],
    greetingMessage: 'Escolha um setor',
  });
  untimed = await createConnection(server, t, 'Sem prazos', { queueIds: [sales, support], greetingMessage: 'Escolha um setor' });
  otherTimed = await createConnection(server, other, 'Com prazo', { expiresTicket: 30 }, false);
});

afterAll(async () => {
  await sellerSocket?.close();
  await adminSocket?.close();
  await server?.close();
});

let seq = 0;
/** A contact and its ticket as the inbox leaves them, last touched `minutesAgo` minutes ago. */
async function seedTicket(
  tenant: InboxTenant,
  connectionId: number,
  fields: { status: TicketStatus; minutesAgo: number; fromMe?: boolean; isGroup?: boolean; queueId?: number | null; userId?: number | null },
): Promise<{ ticket: Ticket; contact: Contact }> {
  const { db } = server.atende.container;
  seq += 1;
  const contact = await Contact.query(db).insertAndFetch({
    companyId: tenant.companyId,
    uuid: randomUUID(),
    name: `Cliente${seq} Teste`,
    number: fields.isGroup ? `1203630${String(seq).padStart(11, '0')}` : `5511988${String(seq).padStart(6, '0')}`,
    isGroup: fields.isGroup ?? false,
  });
  const at = new Date(Date.now() - fields.minutesAgo * 60_000).toISOString();
  const ticket = await Ticket.query(db).insertAndFetch({
    companyId: tenant.companyId,
    uuid: randomUUID(),
    status: fields.status,
    contactId: contact.id,
    whatsappId: connectionId,
    queueId: fields.queueId ?? null,
    userId: fields.userId ?? null,
    isGroup: fields.isGroup ?? false,
    fromMe: fields.fromMe ?? false,
    chatbot: fields.status === 'pending',
    lastMessage: 'última mensagem',
    createdAt: at,
    updatedAt: at,
  });
  return { ticket, contact };
}

async function reload(ticket: Ticket): Promise<Ticket> {
  return Ticket.query(server.atende.container.db).findById(ticket.id).throwIfNotFound();
}

type TicketFrame = { action: string; ticket?: { id: number; status: string; queueId: number | null } };

function ticketFrame(socket: TestSocket, companyId: number, ticketId: number, match: (ticket: NonNullable<TicketFrame['ticket']>) => boolean) {
  return socket.next((f) => {
    const data = f.data as TicketFrame;
    return f.channel === `company-${companyId}-ticket` && data.action === 'update' && data.ticket?.id === ticketId && match(data.ticket);
  }, 5000);
}

describe('ticket automations', () => {
  it('are repeating jobs of one row each, every minute', async () => {
    const { jobs } = server.atende.container;
    for (const name of [TICKETS_EXPIRE_JOB, TICKETS_TRANSFER_JOB]) {
      const { jobs: rows } = await jobs.query({ name });
      expect(rows.map((j) => [Number(j.repeatInterval), j.state])).toEqual([[60_000, 'repeating']]);
    }
  });

  it('closes open tickets left waiting on the customer past the connection limit, with the inactivity message once', async () => {
    const { services, db } = server.atende.container;
    const expired = await seedTicket(t, timed, { status: 'open', fromMe: true, minutesAgo: 31, queueId: sales, userId: seller.id });
    const customerLast = await seedTicket(t, timed, { status: 'open', fromMe: false, minutesAgo: 31, queueId: sales, userId: seller.id });
    const recent = await seedTicket(t, timed, { status: 'open', fromMe: true, minutesAgo: 5, queueId: sales, userId: seller.id });
    const group = await seedTicket(t, timed, { status: 'open', fromMe: true, minutesAgo: 31, isGroup: true, queueId: sales });
    const pending = await seedTicket(t, timed, { status: 'pending', fromMe: true, minutesAgo: 31, queueId: support });
    const noLimit = await seedTicket(t, untimed, { status: 'open', fromMe: true, minutesAgo: 600, queueId: sales, userId: seller.id });
    const otherCompany = await seedTicket(other, otherTimed, { status: 'open', fromMe: true, minutesAgo: 45 });

    expect(await services.ticketAutomations.runExpiry()).toBe(2);

    const closed = await reload(expired.ticket);
    expect(closed).toMatchObject({ status: 'closed', chatbot: false, queueId: sales, userId: seller.id });
    expect((await reload(otherCompany.ticket)).status).toBe('closed');
    for (const kept of [customerLast, recent, group, noLimit]) expect((await reload(kept.ticket)).status).toBe('open');
    expect((await reload(pending.ticket)).status).toBe('pending');

    // The attendance ends without a rating question.
    const attendance = await TicketTracking.query(db).where({ ticketId: expired.ticket.id }).orderBy('id');
    expect(attendance).toHaveLength(1);
    expect(attendance[0]).toMatchObject({ ratingAt: null, rated: false });
    expect(attendance[0]!.finishedAt).not.toBeNull();

    const frame = await ticketFrame(sellerSocket, t.companyId, expired.ticket.id, (ticket) => ticket.status === 'closed');
    expect(frame.data).toMatchObject({ action: 'update', ticket: { queueId: sales } });

    // The message is rendered for the contact and stored with the close, then sent by the phone.
    const text = 'Olá Cliente' + expired.contact.name.slice('Cliente'.length).split(' ')[0] + ', encerramos seu atendimento por inatividade.';
    const stored = await Message.query(db).where({ ticketId: expired.ticket.id, fromMe: true });
    expect(stored.map((m) => m.body)).toEqual([text]);
    const sent = await eventually(async () => {
      const box = await outbox(server, t, timed);
      const mine = box.messages.filter((m) => m.to === expired.contact.number);
      return mine.length > 0 && mine;
    }, 10_000, 'the inactivity message on the phone');
    expect(sent.map((m) => m.body)).toEqual([text]);
    // No message for the other company's ticket: its connection has none.
    expect(await Message.query(db).where({ ticketId: otherCompany.ticket.id })).toEqual([]);

    // A second run has nothing left to do.
    expect(await services.ticketAutomations.runExpiry()).toBe(0);
    expect(await Message.query(db).where({ ticketId: expired.ticket.id, fromMe: true }).resultSize()).toBe(1);
    expect(await TicketTracking.query(db).where({ ticketId: expired.ticket.id }).resultSize()).toBe(1);
  });

  it('expires a ticket only once its limit has passed at the given time', async () => {
    const { services } = server.atende.container;
    const young = await seedTicket(t, timed, { status: 'open', fromMe: true, minutesAgo: 20, queueId: support });
    expect(await services.ticketAutomations.runExpiry()).toBe(0);
    expect((await reload(young.ticket)).status).toBe('open');
    expect(await services.ticketAutomations.runExpiry(new Date(Date.now() + 11 * 60_000))).toBe(1);
    expect((await reload(young.ticket)).status).toBe('closed');
  });

  it('moves pending tickets without queue past timeToTransfer to the transfer queue, live to its agents', async () => {
    const { services, db } = server.atende.container;
    const due = await seedTicket(t, timed, { status: 'pending', minutesAgo: 11 });
    const young = await seedTicket(t, timed, { status: 'pending', minutesAgo: 3 });
    const queued = await seedTicket(t, timed, { status: 'pending', minutesAgo: 11, queueId: support });
    const open = await seedTicket(t, timed, { status: 'open', minutesAgo: 11, userId: t.admin.id });
    const noLimit = await seedTicket(t, untimed, { status: 'pending', minutesAgo: 600 });

    expect(await services.ticketAutomations.runTransfer()).toBe(1);

    expect(await reload(due.ticket)).toMatchObject({ status: 'pending', queueId: sales, chatbot: false, userId: null });
    const frame = await ticketFrame(sellerSocket, t.companyId, due.ticket.id, (ticket) => ticket.queueId === sales);
    expect(frame.data).toMatchObject({ action: 'update', ticket: { status: 'pending' } });
    const [attendance] = await TicketTracking.query(db).where({ ticketId: due.ticket.id });
    expect(attendance).toMatchObject({ queueId: sales, userId: null });
    expect(attendance!.queuedAt).not.toBeNull();

    expect((await reload(young.ticket)).queueId).toBeNull();
    expect((await reload(queued.ticket)).queueId).toBe(support);
    expect(await reload(open.ticket)).toMatchObject({ status: 'open', queueId: null });
    expect((await reload(noLimit.ticket)).queueId).toBeNull();

    // Again: nothing more; later, the young ticket's turn.
    expect(await services.ticketAutomations.runTransfer()).toBe(0);
    expect(await TicketTracking.query(db).where({ ticketId: due.ticket.id }).resultSize()).toBe(1);
    expect(await services.ticketAutomations.runTransfer(new Date(Date.now() + 8 * 60_000))).toBe(1);
    expect((await reload(young.ticket)).queueId).toBe(sales);
  });

  it('two runs at once (two processes) close and move each ticket once', async () => {
    const { services, db } = server.atende.container;
    const expiring = await seedTicket(t, timed, { status: 'open', fromMe: true, minutesAgo: 40, queueId: support });
    const waiting = await seedTicket(t, timed, { status: 'pending', minutesAgo: 15 });
    const automations = services.ticketAutomations;
    const [closedA, closedB, movedA, movedB] = await Promise.all([automations.runExpiry(), automations.runExpiry(), automations.runTransfer(), automations.runTransfer()]);
    expect(closedA + closedB).toBe(1);
    expect(movedA + movedB).toBe(1);
    expect(await Message.query(db).where({ ticketId: expiring.ticket.id, fromMe: true }).resultSize()).toBe(1);
    expect(await TicketTracking.query(db).where({ ticketId: waiting.ticket.id }).resultSize()).toBe(1);
  });
});
