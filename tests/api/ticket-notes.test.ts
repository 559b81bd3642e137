import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/socket.js';
import { createMember, createQueue, createTenant, eventually, type InboxTenant, type Member } from '../helpers/inbox.js';

/** The notes of the ticket drawer, and a ticket's tags replaced as a whole (its row updates live). */
let server: TestServer;
let t: InboxTenant;
let queueA: number;
let queueB: number;
let ana: Member;
let alice: Member;
let bruno: Member;

async function insertTicket(companyId: number, queueId: number | null): Promise<{ id: number; contactId: number }> {
  const db = server.atende.container.db;
  const now = new Date().toISOString();
  const [contact] = await db('contacts')
    .insert({ companyId, uuid: randomUUID(), name: 'Cliente', number: `55119${Math.floor(Math.random() * 1e8)}`, createdAt: now, updatedAt: now })
    .returning('id');
  const [ticket] = await db('tickets').insert({ companyId, uuid: randomUUID(), status: 'pending', queueId, contactId: contact.id, createdAt: now, updatedAt: now }).returning('id');
  return { id: ticket.id as number, contactId: contact.id as number };
}

async function addNote(token: string, body: Record<string, unknown>) {
  return server.call('POST', '/api/ticket-notes', { token, body });
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await createTenant(server, 'Notas');
  queueA = await createQueue(server, t, 'Fila A');
  queueB = await createQueue(server, t, 'Fila B');
  ana = await createMember(server, t, 'ana', { queueIds: [queueA] });
  alice = await createMember(server, t, 'alice', { queueIds: [queueA] });
  bruno = await createMember(server, t, 'bruno', { queueIds: [queueB] });
});
afterAll(async () => {
  await server?.close();
});

describe('ticket notes', () => {
  it('whoever sees the ticket writes a note (trimmed, 2+ characters) and lists them newest first with their author', async () => {
    const ticket = await insertTicket(t.companyId, queueA);
    const first = await addNote(ana.token, { note: '  Cliente prefere ligação  ', ticketId: ticket.id, contactId: ticket.contactId });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ note: 'Cliente prefere ligação', ticketId: ticket.id, contactId: ticket.contactId, userId: ana.id, user: { id: ana.id, name: 'ana' } });
    const second = await addNote(t.admin.token, { note: 'Pagou o boleto', ticketId: ticket.id, contactId: ticket.contactId });
    expect(second.status).toBe(201);

    const list = await server.call('GET', `/api/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.map((n: { id: number }) => n.id)).toEqual([second.body.id, first.body.id]);
    expect(list.body[0].user).toEqual({ id: t.admin.id, name: expect.any(String) });
  });

  it('a short note, a contact not the ticket’s and missing ids answer 400', async () => {
    const ticket = await insertTicket(t.companyId, queueA);
    const short = await addNote(ana.token, { note: ' a ', ticketId: ticket.id, contactId: ticket.contactId });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('ERR_VALIDATION');
    expect(short.body.message).toContain('Observação muito curta');
    const other = await insertTicket(t.companyId, queueA);
    const mismatch = await addNote(ana.token, { note: 'Nota', ticketId: ticket.id, contactId: other.contactId });
    expect(mismatch.status).toBe(400);
    expect((await addNote(ana.token, { note: 'Nota' })).status).toBe(400);
    expect((await server.call('GET', `/api/ticket-notes/list?ticketId=${ticket.id}`, { token: ana.token })).status).toBe(400);
  });

  it('agents out of the ticket’s sight get 403; another company’s ticket or note 404', async () => {
    const ticket = await insertTicket(t.companyId, queueA);
    const note = await addNote(ana.token, { note: 'Interna', ticketId: ticket.id, contactId: ticket.contactId });
    expect((await addNote(bruno.token, { note: 'Intrusa', ticketId: ticket.id, contactId: ticket.contactId })).status).toBe(403);
    expect((await server.call('GET', `/api/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token: bruno.token })).status).toBe(403);

    const other = await createTenant(server, 'Notas Alheias');
    const theirs = await insertTicket(other.companyId, null);
    const foreign = await addNote(t.admin.token, { note: 'Nota', ticketId: theirs.id, contactId: theirs.contactId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_TICKET_FOUND');
    expect((await server.call('GET', `/api/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token: other.admin.token })).status).toBe(404);
    expect((await server.call('DELETE', `/api/ticket-notes/${note.body.id}`, { token: other.admin.token })).status).toBe(404);
  });

  it('the author or an admin deletes a note; a colleague may not', async () => {
    const ticket = await insertTicket(t.companyId, queueA);
    const mine = await addNote(ana.token, { note: 'Minha nota', ticketId: ticket.id, contactId: ticket.contactId });
    const hers = await addNote(alice.token, { note: 'Nota dela', ticketId: ticket.id, contactId: ticket.contactId });
    expect((await server.call('DELETE', `/api/ticket-notes/${hers.body.id}`, { token: ana.token })).status).toBe(403);
    const own = await server.call('DELETE', `/api/ticket-notes/${mine.body.id}`, { token: ana.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: mine.body.id, note: 'Minha nota' });
    expect((await server.call('DELETE', `/api/ticket-notes/${hers.body.id}`, { token: t.admin.token })).status).toBe(200);
    expect((await server.call('DELETE', `/api/ticket-notes/${hers.body.id}`, { token: t.admin.token })).status).toBe(404);
    const list = await server.call('GET', `/api/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token: ana.token });
    expect(list.body).toEqual([]);
  });
});

describe('POST /api/tags/sync', () => {
  it('replaces the ticket’s tags and the ticket’s audience hears its row with them', async () => {
    const ticket = await insertTicket(t.companyId, queueA);
    const tag = async (name: string) => (await server.call('POST', '/api/tags', { token: t.admin.token, body: { name } })).body.id as number;
    const [vip, late] = [await tag('VIP'), await tag('Atrasado')];
    const socket = await openSocket(server.url, ana.token);
    const channel = `company-${t.companyId}-ticket`;
    type Frame = { channel: string; data: { action: string; ticket?: { id: number; tags: { id: number }[] } } };
    const heard = (ids: number[]) => (f: Record<string, unknown>) => {
      const frame = f as Frame;
      return frame.channel === channel && frame.data.ticket?.id === ticket.id && frame.data.ticket.tags.map((x) => x.id).sort().join() === [...ids].sort().join();
    };
    try {
      // The socket's queue rooms are assigned just after it connects: sync until it hears.
      await eventually(async () => {
        const res = await server.call('POST', '/api/tags/sync', { token: ana.token, body: { ticketId: ticket.id, tags: [{ id: vip }, { id: late }] } });
        expect(res.status).toBe(200);
        expect(res.body.tags.map((x: { name: string }) => x.name)).toEqual(['Atrasado', 'VIP']);
        return socket.next(heard([vip, late]), 200).then(
          () => true,
          () => false,
        );
      });
      const replaced = await server.call('POST', '/api/tags/sync', { token: ana.token, body: { ticketId: ticket.id, tags: [{ id: late }] } });
      expect(replaced.body.tags.map((x: { id: number }) => x.id)).toEqual([late]);
      await socket.next(heard([late]));
      const shown = await server.call('GET', `/api/tickets/${ticket.id}`, { token: ana.token });
      expect(shown.body.tags).toEqual([{ id: late, name: 'Atrasado', color: expect.any(String) }]);
    } finally {
      await socket.close();
    }

    const other = await createTenant(server, 'Tags Alheias');
    const foreignTag = (await server.call('POST', '/api/tags', { token: other.admin.token, body: { name: 'Deles' } })).body.id as number;
    const refused = await server.call('POST', '/api/tags/sync', { token: ana.token, body: { ticketId: ticket.id, tags: [{ id: foreignTag }] } });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe('ERR_NO_TAG_FOUND');
    expect((await server.atende.container.db('ticketTags').where({ ticketId: ticket.id })).map((r: { tagId: number }) => r.tagId)).toEqual([late]);
  });
});
