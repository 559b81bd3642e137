import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, type InboxTenant, type Member } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type CallResult, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';

/**
 * The kanban board (plugin kanban, flag useKanban): lanes are the company's kanban tags, cards the
 * open and pending tickets the caller may see; a move replaces the ticket's kanban tag in one
 * transaction, and the core's ticket frames carry it to every board that may show the ticket.
 */

let server: TestServer;
let t: InboxTenant;
let other: InboxTenant;
let queue1: number;
let queue2: number;
/** Queue 1 only. */
let agent1: Member;
/** Queue 2 only. */
let agent2: Member;
const lane = { backlog: 0, doing: 0, vip: 0, foreign: 0 };
const ticket = { q1: 0, q2: 0, closed: 0, foreign: 0 };

const db = () => server.atende.container.db;
const enc = (ids: number[]) => encodeURIComponent(JSON.stringify(ids));

let seq = 0;
async function insertTicket(companyId: number, row: { queueId?: number | null; status?: string; lastMessage?: string; userId?: number | null } = {}): Promise<number> {
  seq += 1;
  const now = new Date(Date.now() + seq).toISOString();
  const [contact] = await db()('contacts')
    .insert({ companyId, uuid: randomUUID(), name: `Cliente ${seq}`, number: `55119700${String(seq).padStart(5, '0')}`, isGroup: false, createdAt: now, updatedAt: now })
    .returning('id');
  const [inserted] = await db()('tickets')
    .insert({ companyId, uuid: randomUUID(), status: 'pending', lastMessage: '', createdAt: now, updatedAt: now, contactId: contact.id, ...row })
    .returning('id');
  return inserted.id as number;
}

async function ok(res: CallResult, status = 200): Promise<CallResult> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
}

async function tagIdsOf(ticketId: number): Promise<number[]> {
  return (await db()('ticketTags').where({ ticketId }).orderBy('tagId').select('tagId')).map((row: { tagId: number }) => row.tagId);
}

async function createTag(tenant: InboxTenant, name: string, color: string, kanban: 0 | 1): Promise<number> {
  return (await ok(await server.call('POST', '/api/tags', { token: tenant.admin.token, body: { name, color, kanban } }), 201)).body.id;
}

async function cards(token: string, queueIds?: number[]): Promise<{ id: number; tags: { id: number }[] }[]> {
  const query = queueIds ? `?queueIds=${enc(queueIds)}` : '';
  return (await ok(await server.call('GET', `/api/ticket/kanban${query}`, { token }))).body.tickets;
}

const idsOf = (list: { id: number }[]) => list.map((item) => item.id).sort((a, b) => a - b);
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** A company-{id}-ticket frame about `ticketId` that satisfies `match`. */
function ticketFrame(socket: TestSocket, companyId: number, ticketId: number, match: (ticket: Record<string, any>) => boolean = () => true) { // eslint-disable-line @typescript-eslint/no-explicit-any -- frames of any shape
  return socket.next((f) => {
    const data = f.data as { ticket?: Record<string, any> } | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- frames of any shape
    return f.channel === `company-${companyId}-ticket` && data?.ticket?.id === ticketId && match(data.ticket);
  });
}

const framesAbout = (socket: TestSocket, ticketId: number) =>
  socket.frames.filter((f) => (f.data as { ticket?: { id: number }; ticketId?: number } | undefined)?.ticket?.id === ticketId || (f.data as { ticketId?: number })?.ticketId === ticketId);

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await createTenant(server, 'Quadro Loja');
  other = await createTenant(server, 'Outro Quadro');
  queue1 = await createQueue(server, t, 'Vendas');
  queue2 = await createQueue(server, t, 'Suporte');
  agent1 = await createMember(server, t, 'vendedor', { queueIds: [queue1] });
  agent2 = await createMember(server, t, 'suporte', { queueIds: [queue2] });
  lane.backlog = await createTag(t, 'A fazer', '#1677ff', 1);
  lane.doing = await createTag(t, 'Em andamento', '#fa8c16', 1);
  lane.vip = await createTag(t, 'VIP', '#eb2f96', 0);
  lane.foreign = await createTag(other, 'Deles', '#52c41a', 1);
  ticket.q1 = await insertTicket(t.companyId, { queueId: queue1, lastMessage: 'Quero um orçamento' });
  ticket.q2 = await insertTicket(t.companyId, { queueId: queue2, status: 'open', userId: agent2.id, lastMessage: 'Meu pedido atrasou' });
  ticket.closed = await insertTicket(t.companyId, { queueId: queue1, status: 'closed' });
  ticket.foreign = await insertTicket(other.companyId);
});

afterAll(async () => {
  await server?.close();
});

describe('lanes and cards', () => {
  it("GET /tags/kanban answers the company's kanban tags, by name, as lista", async () => {
    const res = await ok(await server.call('GET', '/api/tags/kanban', { token: agent1.token }));
    expect(res.body).toEqual({
      lista: [
        { id: lane.backlog, name: 'A fazer', color: '#1677ff' },
        { id: lane.doing, name: 'Em andamento', color: '#fa8c16' },
      ],
    });
  });

  it('GET /ticket/kanban answers the open and pending tickets with their tag ids, contact and last message', async () => {
    const list = await cards(t.admin.token);
    expect(idsOf(list)).toEqual(sorted([ticket.q1, ticket.q2]));
    const q2 = list.find((card) => card.id === ticket.q2);
    const row = await db()('tickets').where({ id: ticket.q2 }).first('uuid', 'contactId');
    const contact = await db()('contacts').where({ id: row.contactId }).first('name', 'number');
    expect(q2).toEqual({
      id: ticket.q2,
      uuid: row.uuid,
      status: 'open',
      userId: agent2.id,
      queueId: queue2,
      lastMessage: 'Meu pedido atrasou',
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      contact: { id: row.contactId, name: contact.name, number: contact.number },
      tags: [],
    });
  });

  it("queueIds narrows the board; an agent sees only their queues' tickets, and a queue they may not see widens nothing", async () => {
    expect(idsOf(await cards(t.admin.token, [queue1]))).toEqual([ticket.q1]);
    expect(idsOf(await cards(agent1.token))).toEqual([ticket.q1]);
    expect(idsOf(await cards(agent1.token, [queue1]))).toEqual([ticket.q1]);
    expect(idsOf(await cards(agent1.token, [queue2]))).toEqual([]);
    expect(idsOf(await cards(agent1.token, [queue1, queue2]))).toEqual([ticket.q1]);
    expect(idsOf(await cards(agent2.token))).toEqual([ticket.q2]);
  });

  it('a bad queueIds is a 400', async () => {
    const res = await server.call('GET', '/api/ticket/kanban?queueIds=[x', { token: agent1.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });
});

describe('moving a card', () => {
  it('PUT replaces the kanban tag and keeps the others; DELETE takes the kanban tags off only', async () => {
    await ok(await server.call('POST', '/api/tags/sync', { token: agent1.token, body: { ticketId: ticket.q1, tags: [{ id: lane.vip }] } }));

    const put = await ok(await server.call('PUT', `/api/ticket-tags/${ticket.q1}/${lane.backlog}`, { token: agent1.token }));
    expect(put.body).toEqual({
      ticketId: ticket.q1,
      tags: [
        { id: lane.backlog, name: 'A fazer', color: '#1677ff', kanban: 1 },
        { id: lane.vip, name: 'VIP', color: '#eb2f96', kanban: 0 },
      ],
    });
    expect(await tagIdsOf(ticket.q1)).toEqual(sorted([lane.backlog, lane.vip]));

    await ok(await server.call('PUT', `/api/ticket-tags/${ticket.q1}/${lane.doing}`, { token: agent1.token }));
    expect(await tagIdsOf(ticket.q1)).toEqual(sorted([lane.doing, lane.vip]));
    const card = (await cards(agent1.token)).find((c) => c.id === ticket.q1)!;
    expect(idsOf(card.tags)).toEqual(sorted([lane.doing, lane.vip]));

    // Put twice in the same lane: nothing changes.
    await ok(await server.call('PUT', `/api/ticket-tags/${ticket.q1}/${lane.doing}`, { token: agent1.token }));
    expect(await tagIdsOf(ticket.q1)).toEqual(sorted([lane.doing, lane.vip]));

    const removed = await ok(await server.call('DELETE', `/api/ticket-tags/${ticket.q1}`, { token: agent1.token }));
    expect(removed.body).toEqual({ ticketId: ticket.q1, tags: [{ id: lane.vip, name: 'VIP', color: '#eb2f96', kanban: 0 }] });
    expect(await tagIdsOf(ticket.q1)).toEqual([lane.vip]);
  });

  it('moves racing on one ticket leave it in exactly one lane', async () => {
    const moves = Array.from({ length: 8 }, (_, i) => server.call('PUT', `/api/ticket-tags/${ticket.q1}/${i % 2 === 0 ? lane.backlog : lane.doing}`, { token: t.admin.token }));
    for (const res of await Promise.all(moves)) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const kanbanTags = (await tagIdsOf(ticket.q1)).filter((id) => id === lane.backlog || id === lane.doing);
    expect(kanbanTags).toHaveLength(1);
    expect(await tagIdsOf(ticket.q1)).toContain(lane.vip);
    await ok(await server.call('DELETE', `/api/ticket-tags/${ticket.q1}`, { token: t.admin.token }));
  });

  it("an agent cannot move a ticket of another queue: 403 as the ticket's read, and nothing changes", async () => {
    await ok(await server.call('PUT', `/api/ticket-tags/${ticket.q2}/${lane.backlog}`, { token: t.admin.token }));
    for (const [method, path] of [
      ['PUT', `/api/ticket-tags/${ticket.q2}/${lane.doing}`],
      ['DELETE', `/api/ticket-tags/${ticket.q2}`],
    ] as const) {
      const res = await server.call(method, path, { token: agent1.token });
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 403, error: 'ERR_NO_PERMISSION' });
    }
    expect(await tagIdsOf(ticket.q2)).toEqual([lane.backlog]);
  });

  it("another company's ticket or tag, a tag without the kanban flag, or no such id: 404, and nothing changes", async () => {
    const before = { mine: await tagIdsOf(ticket.q1), theirs: await tagIdsOf(ticket.foreign) };
    const cases: [string, string, string][] = [
      ['PUT', `/api/ticket-tags/${ticket.foreign}/${lane.foreign}`, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/api/ticket-tags/${ticket.foreign}/${lane.backlog}`, 'ERR_NO_TICKET_FOUND'],
      ['DELETE', `/api/ticket-tags/${ticket.foreign}`, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/api/ticket-tags/${ticket.q1}/${lane.foreign}`, 'ERR_NO_TAG_FOUND'],
      ['PUT', `/api/ticket-tags/${ticket.q1}/${lane.vip}`, 'ERR_NO_TAG_FOUND'],
      ['PUT', `/api/ticket-tags/${ticket.q1}/999999`, 'ERR_NO_TAG_FOUND'],
      ['PUT', `/api/ticket-tags/abc/${lane.backlog}`, 'ERR_NO_TICKET_FOUND'],
      ['DELETE', '/api/ticket-tags/999999', 'ERR_NO_TICKET_FOUND'],
    ];
    for (const [method, path, error] of cases) {
      const res = await server.call(method, path, { token: t.admin.token });
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 404, error });
    }
    expect({ mine: await tagIdsOf(ticket.q1), theirs: await tagIdsOf(ticket.foreign) }).toEqual(before);
    // Their board is theirs: lanes and cards of the other company only.
    const theirLanes = await ok(await server.call('GET', '/api/tags/kanban', { token: other.admin.token }));
    expect(theirLanes.body.lista.map((l: { id: number }) => l.id)).toEqual([lane.foreign]);
    expect(idsOf(await cards(other.admin.token))).toEqual([ticket.foreign]);
  });

  it('a company whose plan lacks useKanban gets 403 ERR_PLAN_FEATURE_DISABLED on every call', async () => {
    const off = await withPlan(server, { features: { useKanban: false } });
    for (const [method, path] of [
      ['GET', '/api/tags/kanban'],
      ['GET', '/api/ticket/kanban'],
      ['PUT', `/api/ticket-tags/${ticket.q1}/${lane.backlog}`],
      ['DELETE', `/api/ticket-tags/${ticket.q1}`],
    ]) {
      const res = await server.call(method!, path!, { token: off.token });
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 403, error: 'ERR_PLAN_FEATURE_DISABLED' });
    }
    // The core's tag routes beside /tags/kanban are untouched.
    expect((await server.call('GET', `/api/tags/${lane.backlog}`, { token: t.admin.token })).status).toBe(200);
  });
});

describe('live boards', () => {
  let sockets: { admin: TestSocket; agent1: TestSocket; agent2: TestSocket; other: TestSocket };
  beforeAll(async () => {
    sockets = {
      admin: await openSocket(server.url, t.admin.token),
      agent1: await openSocket(server.url, agent1.token),
      agent2: await openSocket(server.url, agent2.token),
      other: await openSocket(server.url, other.admin.token),
    };
    await quietFor(100);
  });
  afterAll(async () => {
    await Promise.all(Object.values(sockets ?? {}).map((s) => s.close()));
  });

  it('a move reaches every board that may show the ticket with its new tags, and no other', async () => {
    await ok(await server.call('PUT', `/api/ticket-tags/${ticket.q1}/${lane.doing}`, { token: t.admin.token }));
    const hasDoing = (tk: Record<string, any>) => tk.tags.some((tag: { id: number }) => tag.id === lane.doing); // eslint-disable-line @typescript-eslint/no-explicit-any -- frames of any shape
    const frame = await ticketFrame(sockets.agent1, t.companyId, ticket.q1, hasDoing);
    expect(frame.data).toMatchObject({ action: 'update', ticket: { id: ticket.q1, status: 'pending', queueId: queue1, contact: { name: expect.any(String) } } });
    await ticketFrame(sockets.admin, t.companyId, ticket.q1, hasDoing);

    await ok(await server.call('DELETE', `/api/ticket-tags/${ticket.q1}`, { token: agent1.token }));
    await ticketFrame(sockets.admin, t.companyId, ticket.q1, (tk) => !hasDoing(tk));
    await quietFor(300);
    expect(framesAbout(sockets.agent2, ticket.q1)).toEqual([]);
    expect(framesAbout(sockets.other, ticket.q1)).toEqual([]);
  });

  it('a ticket closed, or created by a customer, reaches the boards that may show it', async () => {
    await ok(await server.call('PUT', `/api/tickets/${ticket.q2}`, { token: agent2.token, body: { status: 'closed' } }));
    await ticketFrame(sockets.agent2, t.companyId, ticket.q2, (tk) => tk.status === 'closed');
    await ticketFrame(sockets.admin, t.companyId, ticket.q2, (tk) => tk.status === 'closed');
    expect(idsOf(await cards(agent2.token))).toEqual([]);

    const phone = await createConnection(server, t, 'Principal');
    await customerWrites(server, t, phone, { from: '5511955554444', name: 'Cliente Novo', body: 'Bom dia' });
    const created = await eventually<{ id: number }>(async () => db()('tickets').where({ companyId: t.companyId, whatsappId: phone }).first('id'), 5000, 'the new ticket');
    await ticketFrame(sockets.admin, t.companyId, created.id, (tk) => tk.lastMessage === 'Bom dia' || tk.status === 'pending');
    expect(idsOf(await cards(t.admin.token))).toContain(created.id);
    await quietFor(300);
    // A ticket without queue is for admins and users with allTicket: neither agent sees it.
    expect(framesAbout(sockets.agent1, created.id)).toEqual([]);
    expect(framesAbout(sockets.other, created.id)).toEqual([]);
  });
});
