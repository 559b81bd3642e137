import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/socket.js';

let server: TestServer;
const PASSWORD = 'secret-123';

interface Member {
  id: number;
  token: string;
}
interface Tenant {
  companyId: number;
  admin: Member;
  supervisor: Member;
  agent: Member;
}

/** A company with its admin, a supervisor and an agent, all signed in. */
async function tenant(name: string): Promise<Tenant> {
  const slug = name.toLowerCase().replace(/\W/g, '');
  const email = `admin@${slug}.test`;
  const { company, admin } = await server.atende.container.services.companies.createTenant({ name, email, password: PASSWORD });
  const adminToken = (await server.login(email, PASSWORD)).token;
  const member = async (profile: 'supervisor' | 'user'): Promise<Member> => {
    const memberEmail = `${profile}@${slug}.test`;
    const res = await server.call('POST', '/api/users', {
      token: adminToken,
      body: { name: `${profile} ${name}`, email: memberEmail, password: PASSWORD, profile },
    });
    expect(res.status).toBe(201);
    return { id: res.body.id, token: (await server.login(memberEmail, PASSWORD)).token };
  };
  return { companyId: company.id, admin: { id: admin.id, token: adminToken }, supervisor: await member('supervisor'), agent: await member('user') };
}

/** A ticket of the tenant's agent (who tags it), straight into the tables with its contact. */
async function insertTicket({ companyId, agent }: Tenant): Promise<number> {
  const db = server.atende.container.db;
  const now = new Date().toISOString();
  const [contact] = await db('contacts')
    .insert({ companyId, uuid: randomUUID(), name: 'Cliente', number: String(Date.now()) + Math.floor(Math.random() * 1000), createdAt: now, updatedAt: now })
    .returning('id');
  const [ticket] = await db('tickets')
    .insert({ companyId, uuid: randomUUID(), status: 'open', contactId: contact.id, userId: agent.id, createdAt: now, updatedAt: now })
    .returning('id');
  return ticket.id as number;
}

async function createTag(token: string, body: Record<string, unknown>) {
  const res = await server.call('POST', '/api/tags', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string; color: string; kanban: number; ticketsCount: number };
}

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant('Loja Etiquetas');
  b = await tenant('Outra Loja');
});
afterAll(async () => {
  await server?.close();
});

describe('creating and editing tags', () => {
  it('any user of the company creates a tag; it starts with no tickets and the default colour', async () => {
    const tag = await createTag(a.agent.token, { name: '  Urgente ' });
    expect(tag).toMatchObject({ name: 'Urgente', color: '#5C59A0', kanban: 0, ticketsCount: 0, userId: a.agent.id, companyId: a.companyId });
    const shown = await server.call('GET', `/api/tags/${tag.id}`, { token: a.admin.token });
    expect(shown.body).toMatchObject({ id: tag.id, name: 'Urgente', ticketsCount: 0 });
  });

  it("a name is required ('Obrigatório') and has at least 3 characters ('Mensagem muito curta')", async () => {
    for (const [body, message] of [
      [{}, 'name: Obrigatório'],
      [{ name: '   ' }, 'name: Obrigatório'],
      [{ name: 'ab' }, 'name: Mensagem muito curta'],
    ] as const) {
      const res = await server.call('POST', '/api/tags', { token: a.agent.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
  });

  it('a colour must be a hex colour', async () => {
    const res = await server.call('POST', '/api/tags', { token: a.agent.token, body: { name: 'Cor', color: 'red; x' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('color: Must be a hex colour');
  });

  it('only admins and supervisors set the kanban flag; a user gets 403 but may edit the rest', async () => {
    const forbidden = await server.call('POST', '/api/tags', { token: a.agent.token, body: { name: 'Lane', kanban: 1 } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('ERR_NO_PERMISSION');

    const lane = await createTag(a.supervisor.token, { name: 'Lane', kanban: 1, color: '#FF0000' });
    expect(lane.kanban).toBe(1);
    const byAdmin = await createTag(a.admin.token, { name: 'Lane 2', kanban: true });
    expect(byAdmin.kanban).toBe(1);

    const agentOff = await server.call('PUT', `/api/tags/${lane.id}`, { token: a.agent.token, body: { kanban: 0 } });
    expect(agentOff.status).toBe(403);
    // Sending the flag unchanged (as the modal does) is fine.
    const agentEdit = await server.call('PUT', `/api/tags/${lane.id}`, { token: a.agent.token, body: { name: 'Lane A', kanban: 1, color: '#00ff00' } });
    expect(agentEdit.status).toBe(200);
    expect(agentEdit.body).toMatchObject({ name: 'Lane A', kanban: 1, color: '#00ff00' });

    const supervisorOff = await server.call('PUT', `/api/tags/${lane.id}`, { token: a.supervisor.token, body: { kanban: 0 } });
    expect(supervisorOff.body.kanban).toBe(0);
    const bad = await server.call('PUT', `/api/tags/${lane.id}`, { token: a.admin.token, body: { kanban: 2 } });
    expect(bad.status).toBe(400);
  });
});

describe('listing tags', () => {
  it('GET /api/tags pages 20 by name with count and hasMore, searched lowercased', async () => {
    const c = await tenant('Loja Paginas');
    for (let i = 0; i < 23; i += 1) await createTag(c.admin.token, { name: `Tag ${String(i).padStart(2, '0')}` });
    await createTag(c.admin.token, { name: '100%_Promo' });
    const first = await server.call('GET', '/api/tags?pageNumber=1', { token: c.agent.token });
    expect(first.body).toMatchObject({ count: 24, hasMore: true });
    expect(first.body.tags).toHaveLength(20);
    expect(first.body.tags[0].name).toBe('100%_Promo');
    const second = await server.call('GET', '/api/tags?pageNumber=2', { token: c.agent.token });
    expect(second.body).toMatchObject({ count: 24, hasMore: false });
    expect(second.body.tags.map((t: { name: string }) => t.name)).toEqual(['Tag 19', 'Tag 20', 'Tag 21', 'Tag 22']);

    const search = await server.call('GET', '/api/tags?searchParam=TAG%200', { token: c.agent.token });
    expect(search.body.count).toBe(10);
    // LIKE wildcards in the search are plain characters.
    const wildcard = await server.call('GET', `/api/tags?searchParam=${encodeURIComponent('%_')}`, { token: c.agent.token });
    expect(wildcard.body.tags.map((t: { name: string }) => t.name)).toEqual(['100%_Promo']);

    const all = await server.call('GET', '/api/tags/list', { token: c.agent.token });
    expect(all.body).toHaveLength(24);
    expect(all.body[0]).toMatchObject({ name: '100%_Promo', ticketsCount: 0 });
  });

  it("another company's tags are never listed", async () => {
    await createTag(b.admin.token, { name: 'Só da B' });
    const list = await server.call('GET', '/api/tags/list', { token: a.admin.token });
    expect(list.body.some((t: { name: string }) => t.name === 'Só da B')).toBe(false);
    const search = await server.call('GET', '/api/tags?searchParam=s%C3%B3%20da', { token: a.admin.token });
    expect(search.body).toMatchObject({ tags: [], count: 0, hasMore: false });
  });
});

describe('tickets and tags', () => {
  it('POST /api/tags/sync replaces a ticket’s tags and the counts follow', async () => {
    const red = await createTag(a.agent.token, { name: 'Vermelho' });
    const blue = await createTag(a.agent.token, { name: 'Azul' });
    const t1 = await insertTicket(a);
    const t2 = await insertTicket(a);

    const first = await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId: t1, tags: [{ id: red.id }, { id: blue.id }, { id: red.id }] } });
    expect(first.status).toBe(200);
    expect(first.body.ticketId).toBe(t1);
    expect(first.body.tags.map((t: { name: string }) => t.name)).toEqual(['Azul', 'Vermelho']);
    await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId: t2, tags: [{ id: red.id }] } });

    const count = async (id: number) => (await server.call('GET', `/api/tags/${id}`, { token: a.agent.token })).body.ticketsCount;
    expect(await count(red.id)).toBe(2);
    expect(await count(blue.id)).toBe(1);

    const replaced = await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId: t1, tags: [{ id: blue.id }] } });
    expect(replaced.body.tags.map((t: { id: number }) => t.id)).toEqual([blue.id]);
    expect(await count(red.id)).toBe(1);

    const page = await server.call('GET', '/api/tags?searchParam=vermelho', { token: a.agent.token });
    expect(page.body.tags[0]).toMatchObject({ id: red.id, ticketsCount: 1 });

    const cleared = await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId: t1, tags: [] } });
    expect(cleared.body.tags).toEqual([]);
    expect(await count(blue.id)).toBe(0);
    const rows = await server.atende.container.db('ticketTags').where({ ticketId: t1 });
    expect(rows).toEqual([]);
  });

  it("sync refuses another company's ticket or tag with 404 and changes nothing", async () => {
    const mine = await createTag(a.agent.token, { name: 'Minha' });
    const theirs = await createTag(b.admin.token, { name: 'Deles' });
    const myTicket = await insertTicket(a);
    const theirTicket = await insertTicket(b);
    await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId: myTicket, tags: [{ id: mine.id }] } });

    const ticket = await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId: theirTicket, tags: [{ id: mine.id }] } });
    expect(ticket.status).toBe(404);
    expect(ticket.body.error).toBe('ERR_NO_TICKET_FOUND');
    const tag = await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId: myTicket, tags: [{ id: theirs.id }] } });
    expect(tag.status).toBe(404);
    expect(tag.body.error).toBe('ERR_NO_TAG_FOUND');
    const rows = await server.atende.container.db('ticketTags').where({ ticketId: myTicket });
    expect(rows.map((r: { tagId: number }) => r.tagId)).toEqual([mine.id]);

    const invalid = await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId: myTicket, tags: 'x' } });
    expect(invalid.status).toBe(400);
  });

  it('deleting a tag (admins only) takes it off every ticket', async () => {
    const tag = await createTag(a.agent.token, { name: 'Temporária' });
    const ticketId = await insertTicket(a);
    await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId, tags: [{ id: tag.id }] } });

    for (const token of [a.agent.token, a.supervisor.token]) {
      const res = await server.call('DELETE', `/api/tags/${tag.id}`, { token });
      expect(res.status).toBe(403);
    }
    const res = await server.call('DELETE', `/api/tags/${tag.id}`, { token: a.admin.token });
    expect(res.status).toBe(204);
    expect(await server.atende.container.db('ticketTags').where({ ticketId })).toEqual([]);
    const again = await server.call('GET', `/api/tags/${tag.id}`, { token: a.admin.token });
    expect(again.status).toBe(404);
  });
});

describe('tenancy', () => {
  it("another company's tag id answers 404 ERR_NO_TAG_FOUND to read, edit and delete", async () => {
    const theirs = await createTag(b.admin.token, { name: 'Segredo da B' });
    for (const [method, body] of [['GET'], ['PUT', { name: 'Roubada' }], ['DELETE']] as const) {
      const res = await server.call(method, `/api/tags/${theirs.id}`, { token: a.admin.token, body });
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual({ error: 'ERR_NO_TAG_FOUND', message: 'Nothing was found with this ID' });
    }
    const still = await server.call('GET', `/api/tags/${theirs.id}`, { token: b.admin.token });
    expect(still.body.name).toBe('Segredo da B');
    const bad = await server.call('GET', '/api/tags/abc', { token: a.admin.token });
    expect(bad.status).toBe(404);
    expect(bad.body.error).toBe('ERR_NO_TAG_FOUND');
  });

  it('a signed-out caller gets 401', async () => {
    expect((await server.call('GET', '/api/tags')).status).toBe(401);
    expect((await server.call('POST', '/api/tags', { body: { name: 'Anon' } })).status).toBe(401);
  });
});

describe('live frames', () => {
  it('company-{id}-tag carries create, update (with the new count after a sync) and delete, to that company only', async () => {
    const mine = await openSocket(server.url, a.agent.token);
    const other = await openSocket(server.url, b.admin.token);
    const channel = `company-${a.companyId}-tag`;
    const on = (action: string, match: (data: Record<string, any>) => boolean) => // eslint-disable-line @typescript-eslint/no-explicit-any
      mine.next((f) => f.channel === channel && (f.data as { action: string }).action === action && match(f.data as Record<string, unknown>));

    const tag = await createTag(a.admin.token, { name: 'Ao vivo' });
    expect((await on('create', (d) => d.tag.id === tag.id)).data).toMatchObject({ tag: { name: 'Ao vivo', ticketsCount: 0 } });
    await server.call('PUT', `/api/tags/${tag.id}`, { token: a.admin.token, body: { color: '#123456' } });
    await on('update', (d) => d.tag.id === tag.id && d.tag.color === '#123456');
    const ticketId = await insertTicket(a);
    await server.call('POST', '/api/tags/sync', { token: a.agent.token, body: { ticketId, tags: [{ id: tag.id }] } });
    await on('update', (d) => d.tag.id === tag.id && d.tag.ticketsCount === 1);
    await server.call('DELETE', `/api/tags/${tag.id}`, { token: a.admin.token });
    await on('delete', (d) => d.tagId === tag.id);

    expect(other.frames.some((f) => String(f.channel).startsWith(`company-${a.companyId}`))).toBe(false);
    await mine.close();
    await other.close();
  });
});
