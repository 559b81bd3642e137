import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';
import { createConnection, createMember, createQueue, createTenant, eventually, type InboxTenant, type Member } from '../helpers/inbox.js';
import { createMigrationSource } from '../../core/db/migrator.js';
import { isPostgres } from '../../core/db/database.js';
import { pluginMigrationDirs } from '../../core/plugins/plugin-loader.js';
import { FEW_MESSAGE_MATCHES, listTickets, MANY_BY_ESTIMATE } from '../../core/modules/tickets/tickets-list.js';
import { loadViewer } from '../../core/modules/tickets/ticket-access.js';
import { listTicketsQuery } from '../../core/modules/tickets/tickets.schema.js';

/**
 * The tickets API: who sees which ticket (list, show, change, delete), the list's filters and
 * paging, creation with its one-open-ticket rule, and live events reaching exactly their audience.
 */
let server: TestServer;

interface World {
  t: InboxTenant;
  queueA: number;
  queueB: number;
  /** In queue A. */
  agentA: Member;
  /** In queue B. */
  agentB: Member;
  /** No queue, allTicket enabled: sees tickets without queue. */
  agentAll: Member;
  /** No queue, allTicket disabled. */
  agentNone: Member;
  connection: number;
}

async function world(name: string): Promise<World> {
  const t = await createTenant(server, name);
  const queueA = await createQueue(server, t, 'Fila A');
  const queueB = await createQueue(server, t, 'Fila B');
  return {
    t,
    queueA,
    queueB,
    agentA: await createMember(server, t, 'agenta', { queueIds: [queueA] }),
    agentB: await createMember(server, t, 'agentb', { queueIds: [queueB] }),
    agentAll: await createMember(server, t, 'agentall', { allTicket: 'enabled' }),
    agentNone: await createMember(server, t, 'agentnone'),
    connection: await createConnection(server, t, 'Principal', {}, false),
  };
}

let numberSeq = 0;
async function insertContact(companyId: number, name = 'Cliente', number?: string): Promise<number> {
  numberSeq += 1;
  const now = new Date().toISOString();
  const [row] = await server.atende.container
    .db('contacts')
    .insert({ companyId, uuid: randomUUID(), name, number: number ?? `55119${String(70000000 + numberSeq)}`, createdAt: now, updatedAt: now })
    .returning('id');
  return row.id as number;
}

interface TicketRow {
  status?: 'open' | 'pending' | 'closed';
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number | null;
  contactId?: number;
  unreadMessages?: number;
  createdAt?: string;
  updatedAt?: string;
}

/** A ticket straight into the table (pending by default, with its own contact). */
async function insertTicket(companyId: number, row: TicketRow = {}): Promise<{ id: number; uuid: string }> {
  const now = new Date().toISOString();
  const contactId = row.contactId ?? (await insertContact(companyId));
  const uuid = randomUUID();
  const [ticket] = await server.atende.container
    .db('tickets')
    .insert({ companyId, uuid, status: 'pending', createdAt: now, updatedAt: now, ...row, contactId })
    .returning('id');
  return { id: ticket.id as number, uuid };
}

/** The accented letters of Latin-1 (U+00C0 to U+00FF), small and capital, by their bare letter: "a" → "àáâãäåÀÁÂÃÄÅ". */
const FOLDED_LETTERS: Readonly<Record<string, string>> = (() => {
  const byBare: Record<string, string> = {};
  for (let code = 0xc0; code <= 0xff; code += 1) {
    const letter = String.fromCharCode(code);
    const [bare, ...marks] = letter.normalize('NFD');
    if (marks.length > 0 && /^[a-z]$/i.test(bare!)) byBare[bare!.toLowerCase()] = (byBare[bare!.toLowerCase()] ?? '') + letter;
  }
  return byBare;
})();

async function insertMessage(companyId: number, ticketId: number, body: string): Promise<number> {
  const now = new Date().toISOString();
  const [row] = await server.atende.container
    .db('messages')
    .insert({ companyId, ticketId, wid: randomUUID(), body, createdAt: now, updatedAt: now })
    .returning('id');
  return row.id as number;
}

/** Rows written straight to `table` by statements of 200 (within every database's bound parameters); answers their ids in order. */
async function insertAll(table: string, rows: Record<string, unknown>[]): Promise<number[]> {
  const ids: number[] = [];
  for (let k = 0; k < rows.length; k += 200) {
    const written = (await server.atende.container.db(table).insert(rows.slice(k, k + 200)).returning('id')) as { id: number }[];
    ids.push(...written.map((row) => row.id));
  }
  return ids;
}

/** Timestamps `minute` minutes after `start`: an order of updates in a list. */
const minutesAfter = (start: string) => (minute: number) => new Date(Date.parse(start) + minute * 60_000).toISOString();

/** One page of a ticket search, as the list answers it. */
async function searchPage(token: string, term: string, pageNumber: number): Promise<{ tickets: { id: number }[]; hasMore: boolean }> {
  return (await server.call('GET', `/api/tickets?searchParam=${encodeURIComponent(term)}&pageNumber=${pageNumber}`, { token })).body;
}

async function listIds(token: string, query: string): Promise<number[]> {
  const res = await server.call('GET', `/api/tickets?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.tickets as { id: number }[]).map((t) => t.id);
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** Waits until the socket is in `room` (rooms are assigned just after connecting). */
async function inRoom(socket: TestSocket, companyId: number, room: string): Promise<void> {
  await eventually(async () => {
    const probe = randomUUID();
    server.atende.container.realtime.publish(companyId, 'probe', { probe }, room);
    return socket.next((f) => f.channel === 'probe' && (f.data as { probe: string }).probe === probe, 100).then(
      () => true,
      () => false,
    );
  });
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
});
afterAll(async () => {
  await server?.close();
});

describe('who sees which ticket', () => {
  let w: World;
  let pendingA: number;
  let pendingB: number;
  let pendingNone: number;
  beforeAll(async () => {
    w = await world('Visibilidade');
    pendingA = (await insertTicket(w.t.companyId, { queueId: w.queueA })).id;
    pendingB = (await insertTicket(w.t.companyId, { queueId: w.queueB })).id;
    pendingNone = (await insertTicket(w.t.companyId, { queueId: null })).id;
  });

  it('the pending list holds the tickets of the agent’s queues; tickets without queue only with allTicket; admins see all', async () => {
    const q = 'status=pending';
    expect(await listIds(w.agentA.token, q)).toEqual([pendingA]);
    expect(await listIds(w.agentB.token, q)).toEqual([pendingB]);
    expect(await listIds(w.agentAll.token, q)).toEqual([pendingNone]);
    expect(await listIds(w.agentNone.token, q)).toEqual([]);
    expect(sorted(await listIds(w.t.admin.token, q))).toEqual(sorted([pendingA, pendingB, pendingNone]));
    expect(sorted(await listIds(w.t.admin.token, `${q}&showAll=true`))).toEqual(sorted([pendingA, pendingB, pendingNone]));
  });

  it('open and closed lists show the own tickets; showAll is an admin’s and shows the whole status', async () => {
    const c = await world('Proprios');
    const mine = (await insertTicket(c.t.companyId, { status: 'open', queueId: c.queueA, userId: c.agentA.id })).id;
    const colleague = (await insertTicket(c.t.companyId, { status: 'open', queueId: c.queueA, userId: c.agentB.id })).id;
    const admins = (await insertTicket(c.t.companyId, { status: 'open', queueId: c.queueB, userId: c.t.admin.id })).id;
    const closedMine = (await insertTicket(c.t.companyId, { status: 'closed', queueId: c.queueA, userId: c.agentA.id })).id;
    const closedOther = (await insertTicket(c.t.companyId, { status: 'closed', queueId: c.queueA, userId: c.agentB.id })).id;

    expect(await listIds(c.agentA.token, 'status=open')).toEqual([mine]);
    // The switch is an admin permission: an agent asking for it gets their own list.
    expect(await listIds(c.agentA.token, 'status=open&showAll=true')).toEqual([mine]);
    expect(await listIds(c.agentB.token, 'status=open')).toEqual([colleague]);
    expect(await listIds(c.t.admin.token, 'status=open')).toEqual([admins]);
    expect(sorted(await listIds(c.t.admin.token, 'status=open&showAll=true'))).toEqual(sorted([mine, colleague, admins]));
    expect(await listIds(c.agentA.token, 'status=closed')).toEqual([closedMine]);
    expect(sorted(await listIds(c.t.admin.token, 'status=closed&showAll=true'))).toEqual(sorted([closedMine, closedOther]));
    // Without status (the notifications): own tickets and the pending ones in sight.
    const waiting = (await insertTicket(c.t.companyId, { queueId: c.queueA })).id;
    expect(sorted(await listIds(c.agentA.token, ''))).toEqual(sorted([mine, closedMine, waiting]));
  });

  it('GET /api/tickets/:id and /u/:uuid answer the ticket with its graph to whoever may see it, 403 to others', async () => {
    const contactId = await insertContact(w.t.companyId, 'Maria Visível', '5511955554444');
    const ticket = await insertTicket(w.t.companyId, { status: 'open', queueId: w.queueA, whatsappId: w.connection, contactId });
    for (const path of [`/api/tickets/${ticket.id}`, `/api/tickets/u/${ticket.uuid}`]) {
      const res = await server.call('GET', path, { token: w.agentA.token });
      expect(res.status, path).toBe(200);
      expect(res.body).toMatchObject({
        id: ticket.id,
        uuid: ticket.uuid,
        status: 'open',
        contact: { id: contactId, name: 'Maria Visível', number: '5511955554444' },
        queue: { id: w.queueA, name: 'Fila A' },
        user: null,
        whatsapp: { id: w.connection, name: 'Principal' },
        tags: [],
      });
      for (const member of [w.agentB, w.agentAll, w.agentNone]) {
        const denied = await server.call('GET', path, { token: member.token });
        expect(denied.status).toBe(403);
        expect(denied.body.error).toBe('ERR_NO_PERMISSION');
      }
      expect((await server.call('GET', path, { token: w.t.admin.token })).status).toBe(200);
    }
    // Assigned to an agent outside the queue: they see it.
    await server.atende.container.db('tickets').where({ id: ticket.id }).update({ userId: w.agentB.id });
    expect((await server.call('GET', `/api/tickets/${ticket.id}`, { token: w.agentB.token })).status).toBe(200);
    const queueless = await insertTicket(w.t.companyId, { queueId: null });
    expect((await server.call('GET', `/api/tickets/${queueless.id}`, { token: w.agentAll.token })).status).toBe(200);
    expect((await server.call('GET', `/api/tickets/${queueless.id}`, { token: w.agentNone.token })).status).toBe(403);
  });

  it('an agent may not change a ticket out of sight; deleting is for admins and takes messages, notes and tracking along', async () => {
    const ticket = await insertTicket(w.t.companyId, { queueId: w.queueA });
    const denied = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: w.agentB.token, body: { status: 'open' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_NO_PERMISSION');
    expect((await server.atende.container.db('tickets').where({ id: ticket.id }).first()).status).toBe('pending');

    const db = server.atende.container.db;
    const row = await db('tickets').where({ id: ticket.id }).first();
    await insertMessage(w.t.companyId, ticket.id, 'uma mensagem');
    const now = new Date().toISOString();
    await db('ticketNotes').insert({ companyId: w.t.companyId, note: 'nota', userId: w.agentA.id, contactId: row.contactId, ticketId: ticket.id, createdAt: now, updatedAt: now });
    await db('ticketTracking').insert({ companyId: w.t.companyId, ticketId: ticket.id, rated: false, createdAt: now, updatedAt: now });

    const byAgent = await server.call('DELETE', `/api/tickets/${ticket.id}`, { token: w.agentA.token });
    expect(byAgent.status).toBe(403);
    const socket = await openSocket(server.url, w.agentA.token);
    await inRoom(socket, w.t.companyId, `queue:${w.queueA}`);
    const byAdmin = await server.call('DELETE', `/api/tickets/${ticket.id}`, { token: w.t.admin.token });
    expect(byAdmin.status).toBe(204);
    await socket.next((f) => f.channel === `company-${w.t.companyId}-ticket` && (f.data as { action: string; ticketId: number }).action === 'delete' && (f.data as { ticketId: number }).ticketId === ticket.id);
    await socket.close();
    for (const table of ['messages', 'ticketNotes', 'ticketTracking']) expect(await db(table).where({ ticketId: ticket.id })).toEqual([]);
    expect((await server.call('GET', `/api/tickets/${ticket.id}`, { token: w.t.admin.token })).status).toBe(404);
  });

  it('another company’s tickets answer 404 ERR_NO_TICKET_FOUND to every route', async () => {
    const stranger = await createTenant(server, 'Estranha');
    const ticket = await insertTicket(w.t.companyId, { queueId: w.queueA });
    for (const [method, path, body] of [
      ['GET', `/api/tickets/${ticket.id}`],
      ['GET', `/api/tickets/u/${ticket.uuid}`],
      ['PUT', `/api/tickets/${ticket.id}`, { status: 'open' }],
      ['DELETE', `/api/tickets/${ticket.id}`],
    ] as const) {
      const res = await server.call(method, path, { token: stranger.admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_TICKET_FOUND');
    }
    expect(await listIds(stranger.admin.token, 'status=pending&showAll=true')).toEqual([]);
    expect((await server.call('GET', '/api/tickets/abc', { token: w.t.admin.token })).status).toBe(404);
    expect((await server.call('GET', '/api/tickets/u/not-a-uuid', { token: w.t.admin.token })).status).toBe(404);
    expect((await server.atende.container.db('tickets').where({ id: ticket.id }).first()).status).toBe('pending');
  });
});

describe('the list’s filters and paging', () => {
  let w: World;
  beforeAll(async () => {
    w = await world('Filtros');
  });

  it('searchParam matches contact name, number or any message body, lowercased, over every status within sight', async () => {
    const ana = await insertTicket(w.t.companyId, { status: 'closed', queueId: w.queueA, userId: w.agentA.id, contactId: await insertContact(w.t.companyId, 'Ana Boleteira', '5511900001111') });
    const byNumber = await insertTicket(w.t.companyId, { status: 'open', queueId: w.queueA, userId: w.agentB.id, contactId: await insertContact(w.t.companyId, 'Bruno', '5521987651234') });
    const byBody = await insertTicket(w.t.companyId, { status: 'pending', queueId: w.queueA, contactId: await insertContact(w.t.companyId, 'Carla') });
    await insertMessage(w.t.companyId, byBody.id, 'Olá, preciso da segunda via do BOLETO de março');
    await insertMessage(w.t.companyId, byBody.id, 'obrigada');
    const outOfSight = await insertTicket(w.t.companyId, { status: 'pending', queueId: w.queueB, contactId: await insertContact(w.t.companyId, 'Daniel') });
    await insertMessage(w.t.companyId, outOfSight.id, 'meu boleto venceu');

    expect(sorted(await listIds(w.t.admin.token, 'searchParam=BOLET'))).toEqual(sorted([ana.id, byBody.id, outOfSight.id]));
    expect(sorted(await listIds(w.agentA.token, 'searchParam=bolet'))).toEqual(sorted([ana.id, byBody.id]));
    expect(await listIds(w.agentA.token, 'searchParam=bolet&status=pending')).toEqual([byBody.id]);
    expect(await listIds(w.agentA.token, 'searchParam=87651')).toEqual([byNumber.id]);
    expect(await listIds(w.agentA.token, `searchParam=${encodeURIComponent('(21) 98765')}`)).toEqual([byNumber.id]);
    expect(await listIds(w.agentA.token, `searchParam=${encodeURIComponent('segunda via')}`)).toEqual([byBody.id]);
    // Words of the term in the body but not as written together: no match.
    expect(await listIds(w.agentA.token, `searchParam=${encodeURIComponent('via segunda')}`)).toEqual([]);
    expect(await listIds(w.agentA.token, `searchParam=${encodeURIComponent('unda via do bol')}`)).toEqual([byBody.id]);
    // Under 3 characters only names and numbers are searched.
    expect(await listIds(w.agentA.token, 'searchParam=br')).toEqual([byNumber.id]);
    expect(await listIds(w.agentA.token, 'searchParam=vi')).toEqual([]);
    // LIKE wildcards and FTS syntax are plain text.
    expect(await listIds(w.agentA.token, `searchParam=${encodeURIComponent('%"_')}`)).toEqual([]);

    // A changed body is found by its new text only; a deleted message no more.
    const db = server.atende.container.db;
    const messageId = await insertMessage(w.t.companyId, ana.id, 'quero cancelar a assinatura');
    expect(await listIds(w.agentA.token, 'searchParam=cancelar')).toEqual([ana.id]);
    await db('messages').where({ id: messageId }).update({ body: 'quero manter a assinatura' });
    expect(await listIds(w.agentA.token, 'searchParam=cancelar')).toEqual([]);
    expect(await listIds(w.agentA.token, 'searchParam=manter')).toEqual([ana.id]);
    await db('messages').where({ id: messageId }).delete();
    expect(await listIds(w.agentA.token, 'searchParam=manter')).toEqual([]);
  });

  it('search folds case and accents in names and bodies: "promoção", "PROMOCAO" and "promocao" find each other', async () => {
    const c = await world('Busca Acentos');
    const at = minutesAfter('2025-03-01T12:00:00.000Z');
    const byName = await insertTicket(c.t.companyId, { queueId: c.queueA, updatedAt: at(1), contactId: await insertContact(c.t.companyId, 'Conceição Araújo') });
    const byAccented = await insertTicket(c.t.companyId, { queueId: c.queueA, updatedAt: at(2) });
    await insertMessage(c.t.companyId, byAccented.id, 'Grande PROMOÇÃO de verão');
    const byBare = await insertTicket(c.t.companyId, { queueId: c.queueA, updatedAt: at(3) });
    await insertMessage(c.t.companyId, byBare.id, 'a promocao acabou?');
    const admin = c.t.admin.token;
    for (const term of ['promoção', 'PROMOÇÃO', 'promocao', 'Promocão']) expect(await listIds(admin, `searchParam=${encodeURIComponent(term)}`), term).toEqual([byBare.id, byAccented.id]);
    for (const term of ['conceição', 'CONCEICAO', 'araujo', 'ÇÃO ARA']) expect(await listIds(admin, `searchParam=${encodeURIComponent(term)}`), term).toEqual([byName.id]);
    expect(await listIds(admin, `searchParam=${encodeURIComponent('VERÃO')}`)).toEqual([byAccented.id]);
    expect(await listIds(admin, `searchParam=${encodeURIComponent('promoções')}`)).toEqual([]);
  });

  it('every accented Latin letter is found by its bare letter and by itself, in capitals or not, in bodies', async () => {
    const c = await world('Busca Letras');
    const accented = Object.values(FOLDED_LETTERS).join('');
    const bare = Object.entries(FOLDED_LETTERS)
      .map(([letter, letters]) => letter.repeat([...letters].length))
      .join('');
    const ticket = await insertTicket(c.t.companyId, { queueId: c.queueA });
    await insertMessage(c.t.companyId, ticket.id, `Letras: zq${accented}qz.`);
    const admin = c.t.admin.token;
    for (const term of [`zq${bare}qz`, `ZQ${bare.toUpperCase()}QZ`, `zq${accented}qz`]) expect(await listIds(admin, `searchParam=${encodeURIComponent(term)}`), term).toEqual([ticket.id]);
    // Each letter alone, between bare neighbours: the fold of the body is the fold of the term.
    for (const [letter, letters] of Object.entries(FOLDED_LETTERS)) {
      for (const one of letters) {
        const other = await insertTicket(c.t.companyId, { queueId: c.queueA });
        await insertMessage(c.t.companyId, other.id, `kw${one}wk`);
        expect(await listIds(admin, `searchParam=${encodeURIComponent(`kw${letter}wk`)}`), one).toEqual([other.id]);
        await server.atende.container.db('tickets').where({ id: other.id }).delete();
      }
    }
  });

  it('search folds the case of every script and the marks of composed letters, in bodies and names: "привет" finds "ПРИВЕТ", "lodz" finds "Łódź"', async () => {
    const c = await world('Busca Escritas');
    const admin = c.t.admin.token;
    const cases: [string, string[]][] = [
      ['Oi, ПРИВЕТ друзья', ['привет', 'ПРИВЕТ', 'Привет']],
      ['ΚΑΛΗΜΕΡΑ σε όλους', ['καλημερα', 'Καλημέρα', 'ΟΛΟΥΣ']],
      ['Entrega em Łódź amanhã', ['łódź', 'LODZ', 'lodz']],
      ['Frau Müller aus Straße', ['MULLER', 'müller']],
      ['Ngày mai gặp Nguyễn', ['nguyen', 'NGUYỄN', 'ngay mai gap']],
    ];
    for (const [body, terms] of cases) {
      const ticket = await insertTicket(c.t.companyId, { queueId: c.queueA });
      await insertMessage(c.t.companyId, ticket.id, body);
      for (const term of terms) expect(await listIds(admin, `searchParam=${encodeURIComponent(term)}`), term).toEqual([ticket.id]);
    }
    const byName = await insertTicket(c.t.companyId, { queueId: c.queueA, contactId: await insertContact(c.t.companyId, 'Дмитрий Ørsted') });
    for (const term of ['дмитрий', 'ДМИТРИЙ', 'orsted', 'ØRSTED']) expect(await listIds(admin, `searchParam=${encodeURIComponent(term)}`), term).toEqual([byName.id]);
  });

  it(`with more than ${FEW_MESSAGE_MATCHES} tickets of matching messages a search pages in list order, within sight, following edits and deletes`, async () => {
    const c = await world('Busca Larga');
    const at = minutesAfter('2025-04-01T12:00:00.000Z');
    // Enough tickets with a matching message for the walk in list order (of every database), the oldest (queue B).
    const db = server.atende.container.db;
    const contactId = await insertContact(c.t.companyId);
    const now = new Date().toISOString();
    const bulk = await insertAll(
      'tickets',
      Array.from({ length: FEW_MESSAGE_MATCHES + 1 }, (_, k) => ({ companyId: c.t.companyId, uuid: randomUUID(), status: 'pending', contactId, queueId: c.queueB, createdAt: now, updatedAt: at(-k) })),
    );
    await insertAll('messages', bulk.map((ticketId, k) => ({ companyId: c.t.companyId, ticketId, wid: randomUUID(), body: `2ª via do boleto nº ${k}`, createdAt: now, updatedAt: now })));
    const matching: { id: number; queueId: number; messageId: number }[] = [];
    const others: { id: number; messageId: number }[] = [];
    for (let i = 1; i <= 50; i += 1) {
      const queueId = i % 2 === 0 ? c.queueA : c.queueB;
      const ticket = await insertTicket(c.t.companyId, { queueId, updatedAt: at(i) });
      if (i % 5 === 0) {
        others.push({ id: ticket.id, messageId: await insertMessage(c.t.companyId, ticket.id, 'já paguei pelo pix') });
        continue;
      }
      await insertMessage(c.t.companyId, ticket.id, 'bom dia');
      matching.push({ id: ticket.id, queueId, messageId: await insertMessage(c.t.companyId, ticket.id, i % 3 === 0 ? 'o BOLETO venceu' : 'mande o Boleto') });
      await insertMessage(c.t.companyId, ticket.id, 'obrigado');
    }
    const page = (token: string, pageNumber: number) => searchPage(token, 'boleto', pageNumber);
    const admin = c.t.admin.token;
    const all = [...matching].reverse().map((t) => t.id).concat(bulk);
    const first = await page(admin, 1);
    expect(first.tickets.map((t) => t.id)).toEqual(all.slice(0, 40));
    expect(first.hasMore).toBe(true);
    const second = await page(admin, 2);
    expect(second.tickets.map((t) => t.id)).toEqual(all.slice(40, 80));
    expect(second.hasMore).toBe(true);
    // An agent of queue A finds queue A's tickets only.
    const inA = [...matching].reverse().filter((t) => t.queueId === c.queueA).map((t) => t.id);
    expect((await page(c.agentA.token, 1)).tickets.map((t) => t.id)).toEqual(inA);

    const [newest] = [...matching].reverse();
    await db('messages').where({ id: newest!.messageId }).update({ body: 'mande o carnê' });
    const [newestOther] = [...others].reverse();
    await db('messages').where({ id: newestOther!.messageId }).update({ body: 'paguei o boleto' });
    const edited = [newestOther!, ...[...matching].reverse().slice(1)].sort((a, b) => b.id - a.id).map((t) => t.id).concat(bulk);
    expect((await page(admin, 1)).tickets.map((t) => t.id)).toEqual(edited.slice(0, 40));
    await db('messages').where({ id: newestOther!.messageId }).delete();
    expect((await page(admin, 1)).tickets.map((t) => t.id)).toEqual(edited.filter((id) => id !== newestOther!.id).slice(0, 40));
  });

  it(`on PostgreSQL a term the planner expects in more than ${MANY_BY_ESTIMATE} messages is walked at once, its matches not read, and pages the same`, async (ctx) => {
    const db = server.atende.container.db;
    if (!isPostgres(db)) return ctx.skip();
    const c = await world('Busca Estimada');
    const at = minutesAfter('2025-06-01T12:00:00.000Z');
    const old = await insertTicket(c.t.companyId, { queueId: c.queueB, updatedAt: at(0) });
    const now = new Date().toISOString();
    await insertAll('messages', Array.from({ length: 2 * MANY_BY_ESTIMATE }, (_, k) => ({ companyId: c.t.companyId, ticketId: old.id, wid: randomUUID(), body: `sua fatura nº ${k}`, createdAt: now, updatedAt: now })));
    const newer: number[] = [];
    for (let i = 1; i <= 45; i += 1) {
      const ticket = await insertTicket(c.t.companyId, { queueId: c.queueA, updatedAt: at(i) });
      await insertMessage(c.t.companyId, ticket.id, i % 4 === 0 ? 'bom dia' : 'a FATURA chegou');
      if (i % 4 !== 0) newer.unshift(ticket.id);
    }
    await db.raw('analyze message_search');
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    db.on('query', record);
    try {
      const first = await searchPage(c.t.admin.token, 'fatura', 1);
      expect(first.tickets.map((t) => t.id)).toEqual([...newer, old.id].slice(0, 40));
      const second = await searchPage(c.t.admin.token, 'fatura', 2);
      expect(second.tickets.map((t) => t.id)).toEqual([...newer, old.id].slice(40));
      expect(second.hasMore).toBe(false);
    } finally {
      db.off('query', record);
    }
    const searchStatements = statements.filter((sql) => sql.includes('message_search'));
    expect(searchStatements.some((sql) => sql.startsWith('explain'))).toBe(true);
    // No statement read the term's matches up to FEW_MESSAGE_MATCHES + 1: only the walk's probes by ticket.
    expect(searchStatements.filter((sql) => /^select .*from "message_search" where/.test(sql))).toEqual([]);
  });

  it(`a term of common words seldom together ("boleto pix") finds its few tickets among more than ${FEW_MESSAGE_MATCHES} messages holding both words apart`, async () => {
    const c = await world('Busca Rara');
    const db = server.atende.container.db;
    const at = minutesAfter('2025-05-01T12:00:00.000Z');
    // Messages holding both words, not together: every trigram of the term, no match (SQLite's FTS5
    // candidates), more than few: the search walks the tickets in list order, probing each.
    const bulk = await insertTicket(c.t.companyId, { queueId: c.queueB, updatedAt: at(0) });
    const now = new Date().toISOString();
    await insertAll('messages', Array.from({ length: Math.round(FEW_MESSAGE_MATCHES * 1.5) }, (_, k) => ({ companyId: c.t.companyId, ticketId: bulk.id, wid: randomUUID(), body: `pix ou boleto nº ${k}`, createdAt: now, updatedAt: now })));
    const matching: { id: number }[] = [];
    const others: { id: number; messageId: number }[] = [];
    const inQueueA = new Set<number>();
    for (let i = 1; i <= 50; i += 1) {
      const queueId = i % 2 === 0 ? c.queueA : c.queueB;
      const ticket = await insertTicket(c.t.companyId, { queueId, updatedAt: at(i) });
      if (queueId === c.queueA) inQueueA.add(ticket.id);
      await insertMessage(c.t.companyId, ticket.id, 'bom dia');
      if (i % 10 === 0) {
        others.push({ id: ticket.id, messageId: await insertMessage(c.t.companyId, ticket.id, 'o pix caiu, o boleto não') });
        continue;
      }
      await insertMessage(c.t.companyId, ticket.id, i % 3 === 0 ? 'segue o BOLETO PIX' : 'Boleto pix enviado');
      matching.push({ id: ticket.id });
    }
    const page = (token: string, pageNumber: number) => searchPage(token, 'boleto pix', pageNumber);
    const expectPages = async (found: number[]) => {
      const first = await page(c.t.admin.token, 1);
      expect(first.tickets.map((t) => t.id)).toEqual(found.slice(0, 40));
      expect(first.hasMore).toBe(true);
      const second = await page(c.t.admin.token, 2);
      expect(second.tickets.map((t) => t.id)).toEqual(found.slice(40));
      expect(second.hasMore).toBe(false);
      expect((await page(c.agentA.token, 1)).tickets.map((t) => t.id)).toEqual(found.filter((id) => inQueueA.has(id)));
    };
    await expectPages([...matching].reverse().map((t) => t.id));
    // An edit that puts the words together is found.
    const [newestOther] = [...others].reverse();
    await db('messages').where({ id: newestOther!.messageId }).update({ body: 'mandei boleto pix' });
    await expectPages([...matching, newestOther!].sort((a, b) => b.id - a.id).map((t) => t.id));
  });

  it('on SQLite every read of a search, its page of tickets too, is on a reader thread: it answers while a transaction holds the connection', async (ctx) => {
    const db = server.atende.container.db;
    if (isPostgres(db)) return ctx.skip();
    const c = await world('Busca Leitores');
    const ticket = await insertTicket(c.t.companyId, { queueId: c.queueA });
    await insertMessage(c.t.companyId, ticket.id, 'segunda via do carnê');
    // The search itself (a request also reads its user, queues and settings on the connection).
    const admin = await loadViewer(db, { id: c.t.admin.id, companyId: c.t.companyId, name: 'Admin', email: c.t.admin.email, profile: 'admin', super: false, financial: false });
    const search = () => listTickets(db, admin, listTicketsQuery.parse({ searchParam: 'carne' }), 'America/Sao_Paulo');
    expect((await search()).tickets.map((t) => t.id)).toEqual([ticket.id]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let begun!: () => void;
    const holding = new Promise<void>((resolve) => (begun = resolve));
    const transaction = db.transaction(async () => {
      begun();
      await held;
    });
    try {
      await holding;
      const waited = new Promise((resolve) => setTimeout(() => resolve('waited for the connection'), 3000));
      const answer = await Promise.race([search().then((page) => page.tickets.map((t) => t.id)), waited]);
      expect(answer).toEqual([ticket.id]);
    } finally {
      release();
      await transaction;
    }
  });

  it('tags (every one chosen), users, unread and queueIds narrow the list; agents narrow to their own queues only', async () => {
    const c = await world('Filtros Dois');
    const admin = c.t.admin.token;
    const tag = async (name: string) => (await server.call('POST', '/api/tags', { token: admin, body: { name } })).body.id as number;
    const [red, blue] = [await tag('Vermelha'), await tag('Azul')];
    const both = await insertTicket(c.t.companyId, { status: 'open', queueId: c.queueA, userId: c.agentA.id, unreadMessages: 2 });
    const onlyRed = await insertTicket(c.t.companyId, { status: 'open', queueId: c.queueB, userId: c.agentB.id });
    const none = await insertTicket(c.t.companyId, { status: 'open', queueId: null, userId: c.agentAll.id });
    await server.atende.container.db('ticketTags').insert([
      { ticketId: both.id, tagId: red },
      { ticketId: both.id, tagId: blue },
      { ticketId: onlyRed.id, tagId: red },
    ]);
    const all = 'status=open&showAll=true';
    expect(sorted(await listIds(admin, `${all}&tags=${encodeURIComponent(JSON.stringify([red]))}`))).toEqual(sorted([both.id, onlyRed.id]));
    expect(await listIds(admin, `${all}&tags=${encodeURIComponent(JSON.stringify([red, blue]))}`)).toEqual([both.id]);
    expect(sorted(await listIds(admin, `${all}&tags=[]`))).toEqual(sorted([both.id, onlyRed.id, none.id]));
    expect(await listIds(admin, `${all}&users=${encodeURIComponent(JSON.stringify([c.agentB.id]))}`)).toEqual([onlyRed.id]);
    expect(await listIds(admin, `${all}&withUnreadMessages=true`)).toEqual([both.id]);
    expect(sorted(await listIds(admin, `${all}&queueIds=${encodeURIComponent(JSON.stringify([c.queueA]))}`))).toEqual(sorted([both.id, none.id]));

    const pendingA = await insertTicket(c.t.companyId, { queueId: c.queueA });
    const pendingB = await insertTicket(c.t.companyId, { queueId: c.queueB });
    // Agent A asking for queue B's tickets gets none of them.
    expect(await listIds(c.agentA.token, `status=pending&queueIds=${encodeURIComponent(JSON.stringify([c.queueB]))}`)).toEqual([]);
    expect(await listIds(c.agentA.token, `status=pending&queueIds=${encodeURIComponent(JSON.stringify([c.queueA, c.queueB]))}`)).toEqual([pendingA.id]);
    expect(await listIds(c.agentA.token, `searchParam=cliente&queueIds=${encodeURIComponent(JSON.stringify([c.queueB]))}`)).toEqual([]);
    expect(await listIds(c.agentB.token, 'status=pending')).toEqual([pendingB.id]);
  });

  it('date and updatedAt are days in the company’s time zone', async () => {
    const c = await world('Datas');
    // 02:30 UTC on 10 March is 23:30 on 9 March in São Paulo (UTC−3).
    const late = await insertTicket(c.t.companyId, { queueId: c.queueA, createdAt: '2025-03-10T02:30:00.000Z', updatedAt: '2025-03-12T15:00:00.000Z' });
    const next = await insertTicket(c.t.companyId, { queueId: c.queueA, createdAt: '2025-03-10T03:30:00.000Z', updatedAt: '2025-03-13T02:59:00.000Z' });
    const admin = c.t.admin.token;
    expect(await listIds(admin, 'status=pending&date=2025-03-09')).toEqual([late.id]);
    expect(await listIds(admin, 'status=pending&date=2025-03-10')).toEqual([next.id]);
    expect(sorted(await listIds(admin, 'status=pending&updatedAt=2025-03-12'))).toEqual(sorted([late.id, next.id]));
    await server.call('PUT', '/api/settings/timezone', { token: admin, body: { value: 'UTC' } });
    expect(await listIds(admin, 'status=pending&date=2025-03-09')).toEqual([]);
    expect(sorted(await listIds(admin, 'status=pending&date=2025-03-10'))).toEqual(sorted([late.id, next.id]));
    expect(await listIds(admin, 'status=pending&updatedAt=2025-03-13')).toEqual([next.id]);
  });

  it('pages hold 40 tickets, newest update first, with count and hasMore', async () => {
    const c = await world('Paginas');
    const ids: number[] = [];
    const base = Date.parse('2025-01-01T12:00:00.000Z');
    for (let i = 0; i < 45; i += 1) {
      // Two tickets share each instant: the id breaks the tie, newest first.
      const at = new Date(base + Math.floor(i / 2) * 60_000).toISOString();
      ids.push((await insertTicket(c.t.companyId, { queueId: c.queueA, updatedAt: at })).id);
    }
    const expected = [...ids].reverse();
    const first = await server.call('GET', '/api/tickets?status=pending', { token: c.agentA.token });
    expect(first.body).toMatchObject({ count: 45, hasMore: true });
    expect(first.body.tickets.map((t: { id: number }) => t.id)).toEqual(expected.slice(0, 40));
    const second = await server.call('GET', '/api/tickets?status=pending&pageNumber=2', { token: c.agentA.token });
    expect(second.body).toMatchObject({ count: 45, hasMore: false });
    expect(second.body.tickets.map((t: { id: number }) => t.id)).toEqual(expected.slice(40));
  });

  it('bad parameters answer 400 ERR_VALIDATION', async () => {
    for (const query of ['tags=[1', 'tags={"a":1}', 'users=["x"]', 'queueIds=5', 'status=archived', 'date=2025-13-45', 'updatedAt=ontem', 'pageNumber=0']) {
      const res = await server.call('GET', `/api/tickets?${query}`, { token: w.t.admin.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });
});

describe('POST /api/tickets', () => {
  let w: World;
  beforeAll(async () => {
    w = await world('Novos Tickets');
  });

  it('opens the ticket assigned to the caller on the company’s default connection, with its attendance started', async () => {
    const contactId = await insertContact(w.t.companyId, 'Nova Cliente');
    const res = await server.call('POST', '/api/tickets', { token: w.agentA.token, body: { contactId, queueId: w.queueA, userId: w.agentB.id, status: 'pending' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: 'open',
      userId: w.agentA.id,
      queueId: w.queueA,
      whatsappId: w.connection,
      contact: { id: contactId, name: 'Nova Cliente' },
      user: { id: w.agentA.id, name: 'agenta' },
      queue: { id: w.queueA },
    });
    const [row] = await server.atende.container.db('ticketTracking').where({ ticketId: res.body.id });
    expect(row).toMatchObject({ userId: w.agentA.id, queueId: w.queueA, whatsappId: w.connection, finishedAt: null });
    expect(row.startedAt).toBeTruthy();
    expect(await listIds(w.agentA.token, 'status=open')).toContain(res.body.id);
  });

  it('a queue is required unless admin, must be the company’s and, for agents, their own', async () => {
    const contactId = await insertContact(w.t.companyId);
    const missing = await server.call('POST', '/api/tickets', { token: w.agentA.token, body: { contactId } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'Selecione uma fila' });
    const notMine = await server.call('POST', '/api/tickets', { token: w.agentA.token, body: { contactId, queueId: w.queueB } });
    expect(notMine.status).toBe(403);
    const other = await createTenant(server, 'Fila Alheia');
    const foreignQueue = (await server.atende.container.db('queues').where({ companyId: other.companyId }).first('id')).id;
    const foreign = await server.call('POST', '/api/tickets', { token: w.t.admin.token, body: { contactId, queueId: foreignQueue } });
    expect(foreign.status).toBe(404);
    const foreignContact = await insertContact(other.companyId);
    const contact = await server.call('POST', '/api/tickets', { token: w.t.admin.token, body: { contactId: foreignContact, queueId: w.queueA } });
    expect(contact.status).toBe(404);
    expect(contact.body.error).toBe('ERR_NO_CONTACT_FOUND');
    const byAdmin = await server.call('POST', '/api/tickets', { token: w.t.admin.token, body: { contactId } });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body).toMatchObject({ queueId: null, userId: w.t.admin.id });
  });

  it('the connection is the one asked for, else the caller’s default, else the company’s; none → ERR_NO_DEF_WAPP_FOUND', async () => {
    const second = await createConnection(server, w.t, 'Segunda', {}, false);
    await server.atende.container.db('users').where({ id: w.agentB.id }).update({ whatsappId: second });
    const viaUser = await server.call('POST', '/api/tickets', { token: w.agentB.token, body: { contactId: await insertContact(w.t.companyId), queueId: w.queueB } });
    expect(viaUser.body.whatsappId).toBe(second);
    const asked = await server.call('POST', '/api/tickets', { token: w.agentB.token, body: { contactId: await insertContact(w.t.companyId), queueId: w.queueB, whatsappId: w.connection } });
    expect(asked.body.whatsappId).toBe(w.connection);

    const bare = await createTenant(server, 'Sem Conexao');
    const none = await server.call('POST', '/api/tickets', { token: bare.admin.token, body: { contactId: await insertContact(bare.companyId) } });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('ERR_NO_DEF_WAPP_FOUND');
    const foreign = await server.call('POST', '/api/tickets', { token: bare.admin.token, body: { contactId: await insertContact(bare.companyId), whatsappId: w.connection } });
    expect(foreign.status).toBe(404);
  });

  it('an open or pending ticket of the contact on the connection → 409 ERR_OTHER_OPEN_TICKET naming its user and queue', async () => {
    const contactId = await insertContact(w.t.companyId, 'Repetida');
    const first = await server.call('POST', '/api/tickets', { token: w.agentA.token, body: { contactId, queueId: w.queueA } });
    expect(first.status).toBe(201);
    const again = await server.call('POST', '/api/tickets', { token: w.t.admin.token, body: { contactId, queueId: w.queueB } });
    expect(again.status).toBe(409);
    const expected = { id: first.body.id, uuid: first.body.uuid, userId: w.agentA.id, user: { id: w.agentA.id, name: 'agenta' }, queue: { id: w.queueA, name: 'Fila A' }, status: 'open' };
    expect(again.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect(JSON.parse(again.body.message)).toEqual(expected);
    expect(again.body.ticket).toEqual(expected);

    const waiting = await insertContact(w.t.companyId, 'Aguardando');
    const pending = await insertTicket(w.t.companyId, { contactId: waiting, whatsappId: w.connection, queueId: null });
    const onPending = await server.call('POST', '/api/tickets', { token: w.t.admin.token, body: { contactId: waiting } });
    expect(onPending.status).toBe(409);
    expect(onPending.body.ticket).toMatchObject({ id: pending.id, user: null, queue: null, status: 'pending' });

    // A closed ticket is history: a new one opens.
    await server.atende.container.db('tickets').where({ id: pending.id }).update({ status: 'closed' });
    expect((await server.call('POST', '/api/tickets', { token: w.t.admin.token, body: { contactId: waiting } })).status).toBe(201);
  });

  it('two agents opening the same contact at once: one ticket, the other hears 409', async () => {
    const contactId = await insertContact(w.t.companyId, 'Disputada');
    const results = await Promise.all(
      [w.t.admin.token, w.agentA.token, w.t.admin.token, w.agentA.token].map((token) => server.call('POST', '/api/tickets', { token, body: { contactId, queueId: w.queueA } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const winner = results.find((r) => r.status === 201)!;
    for (const loser of results.filter((r) => r.status === 409)) expect(loser.body.ticket).toMatchObject({ id: winner.body.id, queue: { id: w.queueA } });
    expect(await server.atende.container.db('tickets').where({ contactId })).toHaveLength(1);
  });
});

describe('live ticket events', () => {
  it('reach the agents of the ticket’s queue and admins, not other queues; after a transfer both queues hear it once', async () => {
    const w = await world('Ao Vivo');
    const ticket = await insertTicket(w.t.companyId, { queueId: w.queueA, whatsappId: w.connection });
    const [a, b, admin] = await Promise.all([openSocket(server.url, w.agentA.token), openSocket(server.url, w.agentB.token), openSocket(server.url, w.t.admin.token)]);
    try {
      await inRoom(a, w.t.companyId, `queue:${w.queueA}`);
      await inRoom(b, w.t.companyId, `queue:${w.queueB}`);
      const channel = `company-${w.t.companyId}-ticket`;
      type Frame = { channel?: string; data?: { action?: string; ticket?: { id: number; userId: number | null; queueId: number | null; status: string } } };
      const updates = (s: TestSocket) => (s.frames as Frame[]).filter((f) => f.channel === channel && f.data?.action === 'update' && f.data.ticket?.id === ticket.id);

      const accepted = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: w.t.admin.token, body: { status: 'open' } });
      expect(accepted.status).toBe(200);
      await a.next((f) => (f as Frame).channel === channel && (f as Frame).data?.ticket?.status === 'open');
      await admin.next((f) => (f as Frame).channel === channel && (f as Frame).data?.ticket?.status === 'open');
      await quietFor(200);
      expect(updates(b)).toHaveLength(0);

      const moved = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: w.t.admin.token, body: { queueId: w.queueB } });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const isMoved = (f: Record<string, unknown>) => (f as Frame).channel === channel && (f as Frame).data?.ticket?.queueId === w.queueB;
      await a.next(isMoved);
      await b.next(isMoved);
      await quietFor(200);
      expect(updates(a).filter((f) => f.data?.ticket?.queueId === w.queueB)).toHaveLength(1);
      expect(updates(b)).toHaveLength(1);
      expect(updates(b)[0]!.data!.ticket).toMatchObject({ status: 'pending', userId: null, queue: { id: w.queueB } });
    } finally {
      await Promise.all([a.close(), b.close(), admin.close()]);
    }
  });
});

describe('the folded search migration', () => {
  it('down restores the previous search objects; up again indexes the rows written meanwhile', async () => {
    const w = await world('Migracao Busca');
    const before = await insertTicket(w.t.companyId, { queueId: w.queueA, contactId: await insertContact(w.t.companyId, 'Zélia') });
    await insertMessage(w.t.companyId, before.id, 'Ação de Natal');
    const { db } = server.atende.container;
    const migrationSource = createMigrationSource(await pluginMigrationDirs(server.config));
    const config = { migrationSource, tableName: 'knex_migrations', name: '20261127000100_core_search_folded' };
    // The search table by ticket folds with atende_fold: it goes first and comes back last.
    const byTicket = { migrationSource, tableName: 'knex_migrations', name: '20261127050000_core_search_by_ticket' };

    await db.migrate.down(byTicket);
    await db.migrate.down(config);
    const previous = isPostgres(db)
      ? (await db.raw("SELECT 1 FROM pg_indexes WHERE indexname = 'messages_body_trgm'")).rows
      : await db.raw("SELECT 1 FROM sqlite_master WHERE name IN ('messages_ticket_of', 'messages_search_insert')");
    expect(previous.length).toBe(isPostgres(db) ? 1 : 2);
    const meanwhile = await insertTicket(w.t.companyId, { queueId: w.queueA, contactId: await insertContact(w.t.companyId, 'Zelia Cotação') });
    await insertMessage(w.t.companyId, meanwhile.id, 'AÇÃO de Páscoa');

    await db.migrate.up(config);
    await db.migrate.up(byTicket);
    const admin = w.t.admin.token;
    expect(sorted(await listIds(admin, 'searchParam=acao'))).toEqual(sorted([before.id, meanwhile.id]));
    expect(sorted(await listIds(admin, 'searchParam=ZELIA'))).toEqual(sorted([before.id, meanwhile.id]));
    expect(await listIds(admin, `searchParam=${encodeURIComponent('páscoa')}`)).toEqual([meanwhile.id]);
  });
});

describe('the search table by ticket', () => {
  it('down and up again: the probe by ticket (SQLite: the narrow table and its triggers; PostgreSQL: the covering indexes) goes and comes back, with the rows written meanwhile', async () => {
    const w = await world('Busca Tabela Sonda');
    const ticket = await insertTicket(w.t.companyId, { queueId: w.queueA });
    await insertMessage(w.t.companyId, ticket.id, 'Endereço de entrega');
    const { db } = server.atende.container;
    const config = { migrationSource: createMigrationSource(await pluginMigrationDirs(server.config)), tableName: 'knex_migrations', name: '20261127080000_core_search_by_ticket_sqlite' };
    const objects = async () =>
      isPostgres(db)
        ? ((await db.raw("SELECT indexname AS name FROM pg_indexes WHERE tablename = 'message_search' AND indexname LIKE 'message!_search!_ticket%' ESCAPE '!' ORDER BY 1")).rows as { name: string }[]).map((r) => r.name)
        : ((await db.raw("SELECT name FROM sqlite_master WHERE name LIKE 'message!_search%' ESCAPE '!' ORDER BY name")) as { name: string }[]).map((r) => r.name);
    // (On PostgreSQL an earlier test may have made message_search again without them: no check before.)
    const created = isPostgres(db) ? ['message_search_ticket_folded', 'message_search_ticket_long'] : ['message_search', 'message_search_delete', 'message_search_insert', 'message_search_update'];
    if (!isPostgres(db)) expect(await objects()).toEqual(created);

    await db.migrate.down(config);
    expect(await objects()).toEqual(isPostgres(db) ? ['message_search_ticket'] : []);
    const meanwhile = await insertTicket(w.t.companyId, { queueId: w.queueA });
    await insertMessage(w.t.companyId, meanwhile.id, 'ENDEREÇO errado');

    await db.migrate.up(config);
    expect(await objects()).toEqual(created);
    const admin = w.t.admin.token;
    expect(sorted(await listIds(admin, 'searchParam=endereco'))).toEqual(sorted([ticket.id, meanwhile.id]));
    await insertMessage(w.t.companyId, ticket.id, 'Ônibus às três');
    expect(await listIds(admin, `searchParam=${encodeURIComponent('onibus as')}`)).toEqual([ticket.id]);
    // A body past the covering index's 2,000 bytes is probed through the other index.
    await insertMessage(w.t.companyId, meanwhile.id, `${'texto longo '.repeat(300)}Estação Sé`);
    expect(await listIds(admin, `searchParam=${encodeURIComponent('estacao se')}`)).toEqual([meanwhile.id]);
  });

  it('finds a term as written, not its trigrams or words apart (SQLite: the FTS5 table without positions, confirmed by the probe); down and up again', async () => {
    const w = await world('Busca Trigramas');
    const admin = w.t.admin.token;
    const exact = await insertTicket(w.t.companyId, { queueId: w.queueA });
    await insertMessage(w.t.companyId, exact.id, 'Segue o BOLETO PIX do mês');
    // Every trigram of "boleto" and both words of "boleto pix", but neither term.
    const scattered = await insertTicket(w.t.companyId, { queueId: w.queueA });
    await insertMessage(w.t.companyId, scattered.id, 'bol ole let eto');
    await insertMessage(w.t.companyId, scattered.id, 'o pix caiu; o boleto não');
    expect(sorted(await listIds(admin, 'searchParam=boleto'))).toEqual(sorted([exact.id, scattered.id]));
    expect(await listIds(admin, `searchParam=${encodeURIComponent('boleto pix')}`)).toEqual([exact.id]);
    expect(await listIds(admin, `searchParam=${encodeURIComponent('ole let')}`)).toEqual([scattered.id]);

    const { db } = server.atende.container;
    const config = { migrationSource: createMigrationSource(await pluginMigrationDirs(server.config)), tableName: 'knex_migrations', name: '20261128100000_core_search_trigrams_only' };
    const ftsSql = async () => (isPostgres(db) ? '' : ((await db.raw("SELECT sql FROM sqlite_master WHERE name = 'messages_search'")) as { sql: string }[])[0]!.sql);
    // (An earlier test may have made the FTS5 table again in an older shape: no check before.)
    await db.migrate.down(config);
    if (!isPostgres(db)) expect(await ftsSql()).not.toContain('detail');
    const meanwhile = await insertTicket(w.t.companyId, { queueId: w.queueA });
    await insertMessage(w.t.companyId, meanwhile.id, 'Boleto pix vencido');
    expect(sorted(await listIds(admin, `searchParam=${encodeURIComponent('boleto pix')}`))).toEqual(sorted([exact.id, meanwhile.id]));
    await db.migrate.up(config);
    if (!isPostgres(db)) expect(await ftsSql()).toContain('detail=none');
    expect(sorted(await listIds(admin, `searchParam=${encodeURIComponent('boleto pix')}`))).toEqual(sorted([exact.id, meanwhile.id]));
    expect(sorted(await listIds(admin, 'searchParam=boleto'))).toEqual(sorted([exact.id, scattered.id, meanwhile.id]));
  });

  it('follows messages written, edited, moved and deleted, one by one and in batches', async () => {
    const w = await world('Busca Por Ticket');
    const admin = w.t.admin.token;
    const db = server.atende.container.db;
    const first = await insertTicket(w.t.companyId, { queueId: w.queueA });
    const second = await insertTicket(w.t.companyId, { queueId: w.queueA });
    const now = new Date().toISOString();
    const batch = ['Segunda via da FATURA', 'fatura paga', 'sem relação'].map((body) => ({ companyId: w.t.companyId, ticketId: first.id, wid: randomUUID(), body, createdAt: now, updatedAt: now }));
    await db('messages').insert(batch);
    const moved = await insertMessage(w.t.companyId, second.id, 'cobrança em aberto');
    expect(await listIds(admin, 'searchParam=fatura')).toEqual([first.id]);
    expect(await listIds(admin, 'searchParam=COBRANCA')).toEqual([second.id]);

    await db('messages').where({ id: moved }).update({ ticketId: first.id });
    expect(await listIds(admin, 'searchParam=cobranca')).toEqual([first.id]);
    await db('messages').where({ id: moved }).update({ body: 'cobrança quitada, obrigado' });
    expect(await listIds(admin, 'searchParam=quitada')).toEqual([first.id]);
    expect(await listIds(admin, `searchParam=${encodeURIComponent('em aberto')}`)).toEqual([]);
    await db('messages').where({ ticketId: first.id }).delete();
    expect(await listIds(admin, 'searchParam=fatura')).toEqual([]);
    expect(await listIds(admin, 'searchParam=quitada')).toEqual([]);
  });

  it('down and up again: the rows written meanwhile are found', async () => {
    const w = await world('Busca Tabela Migracao');
    const ticket = await insertTicket(w.t.companyId, { queueId: w.queueA });
    await insertMessage(w.t.companyId, ticket.id, 'Orçamento enviado');
    const { db } = server.atende.container;
    const config = { migrationSource: createMigrationSource(await pluginMigrationDirs(server.config)), tableName: 'knex_migrations', name: '20261127050000_core_search_by_ticket' };

    await db.migrate.down(config);
    const table = isPostgres(db) ? (await db.raw("SELECT 1 FROM pg_tables WHERE tablename = 'message_search'")).rows : [];
    expect(table).toEqual([]);
    const meanwhile = await insertTicket(w.t.companyId, { queueId: w.queueA });
    await insertMessage(w.t.companyId, meanwhile.id, 'ORÇAMENTO aprovado');

    await db.migrate.up(config);
    const admin = w.t.admin.token;
    expect(sorted(await listIds(admin, 'searchParam=orcamento'))).toEqual(sorted([ticket.id, meanwhile.id]));
    await insertMessage(w.t.companyId, meanwhile.id, 'novo orçamento');
    expect(await listIds(admin, `searchParam=${encodeURIComponent('novo orç')}`)).toEqual([meanwhile.id]);
  });
});
