import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, createMember, customerWrites, eventually, outbox, type Member } from '../helpers/inbox.js';
import { withPlan, type TenantOnPlan } from '../helpers/plans.js';
import { startTestServer, type CallResult, type TestServer } from '../helpers/server.js';

let server: TestServer;
let t: TenantOnPlan;
let other: TenantOnPlan;
let agent: Member;
let phone: number;
let ticketId: number;
let otherTicketId: number;
let otherContactId: number;

const CUSTOMER = '5511987650001';

async function create(tenant: { token: string }, body: unknown): Promise<CallResult> {
  return server.call('POST', '/api/api-tokens', { token: tenant.token, body });
}

async function tokenWith(scopes: string[], tenant = t, name = 'Integração'): Promise<{ id: number; token: string }> {
  const res = await create(tenant, { name, scopes });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as number, token: res.body.token as string };
}

async function ticketOf(tenant: TenantOnPlan, connectionId: number, number: string): Promise<number> {
  await customerWrites(server, tenant, connectionId, { from: number, body: 'Olá, preciso de ajuda' });
  const list = await eventually(async () => {
    const res = await server.call('GET', '/api/tickets?status=pending', { token: tenant.token });
    return res.body.tickets.find((ticket: { contact: { number: string } }) => ticket.contact.number === number);
  });
  return list.id as number;
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await withPlan(server);
  other = await withPlan(server);
  agent = await createMember(server, t, 'agente');
  phone = await createConnection(server, t, 'Principal');
  const otherPhone = await createConnection(server, other, 'Outra');
  ticketId = await ticketOf(t, phone, CUSTOMER);
  otherTicketId = await ticketOf(other, otherPhone, '5511987650002');
  otherContactId = (await server.call('GET', `/api/tickets/${otherTicketId}`, { token: other.token })).body.contact.id as number;
});
afterAll(async () => {
  await server?.close();
});

describe('managing company API tokens', () => {
  it('is for admins: the token is made by the server, shown once and stored hashed', async () => {
    const res = await create(t, { name: ' CRM ', scopes: ['tickets:read', 'messages:write', 'tickets:read'] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'CRM',
      scopes: ['messages:write', 'tickets:read'],
      hint: res.body.token.slice(0, 8),
      createdAt: expect.any(String),
      lastUsedAt: null,
      token: expect.stringMatching(/^atk_[\w-]{43}$/),
    });
    const list = await server.call('GET', '/api/api-tokens', { token: t.token });
    expect(list.status).toBe(200);
    expect(list.body.tokens).toContainEqual({ ...res.body, token: undefined });
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
    const stored = await server.atende.container.db('api_tokens').where({ id: res.body.id }).first();
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(res.body.token);
    expect(stored.userId).toBe(t.admin.id);
  });

  it('refuses agents, bad input and another company\'s token', async () => {
    const mine = await tokenWith(['tags:read']);
    for (const [method, path] of [['GET', '/api/api-tokens'], ['POST', '/api/api-tokens'], ['DELETE', `/api/api-tokens/${mine.id}`]] as const) {
      expect((await server.call(method, path, { token: agent.token, body: method === 'POST' ? { name: 'x', scopes: ['tags:read'] } : undefined })).status).toBe(403);
    }
    for (const body of [{ name: 'x', scopes: [] }, { name: 'x', scopes: ['users:write'] }, { name: '  ', scopes: ['tags:read'] }, { name: 'x' }]) {
      const res = await create(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    expect((await server.call('DELETE', `/api/api-tokens/${mine.id}`, { token: other.token })).status).toBe(404);
    expect((await server.call('GET', '/api/api-tokens', { token: other.token })).body.tokens).toEqual([]);
    expect((await server.call('DELETE', '/api/api-tokens/abc', { token: t.token })).status).toBe(404);
    expect((await server.call('GET', '/api/tags', { token: mine.token })).status).toBe(200);
  });

  it('is behind the useExternalApi flag, and so are the tokens', async () => {
    const off = await withPlan(server, { features: { useExternalApi: false } });
    const res = await create(off, { name: 'x', scopes: ['tags:read'] });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    const later = await withPlan(server);
    const { token } = await tokenWith(['tags:read'], later);
    await server.atende.container.services.plans.update(later.planId, { features: { useExternalApi: false } });
    const refused = await server.call('GET', '/api/tags', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });
});

describe('a token on the app\'s own routes', () => {
  it('with read scopes reads tickets and their messages, and gets 403 on a write or another resource', async () => {
    const { token } = await tokenWith(['tickets:read', 'messages:read']);
    const list = await server.call('GET', '/api/tickets?status=pending', { token });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.tickets.map((ticket: { id: number }) => ticket.id)).toContain(ticketId);
    expect((await server.call('GET', `/api/tickets/${ticketId}`, { token })).body.contact.number).toBe(CUSTOMER);
    const messages = await server.call('GET', `/api/messages/${ticketId}`, { token });
    expect(messages.status).toBe(200);
    expect(messages.body.messages.map((m: { body: string }) => m.body)).toContain('Olá, preciso de ajuda');

    const write = await server.call('PUT', `/api/tickets/${ticketId}`, { token, body: { status: 'open' } });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ error: 'ERR_NO_PERMISSION', message: 'This API token lacks the tickets:write scope' });
    expect((await server.call('POST', `/api/messages/${ticketId}`, { token, body: { body: 'oi' } })).status).toBe(403);
    expect((await server.call('GET', '/api/contacts', { token })).status).toBe(403);
    expect((await server.call('GET', `/api/tickets/${ticketId}`, { token: t.token })).body.status).toBe('pending');
  });

  it('with write scopes accepts a ticket and replies on it, as its company, recorded as the token', async () => {
    const { id, token } = await tokenWith(['tickets:write', 'messages:write']);
    const accepted = await server.call('PUT', `/api/tickets/${ticketId}`, { token, body: { status: 'open' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'open', userId: t.admin.id });
    const sent = await server.call('POST', `/api/messages/${ticketId}`, { token, body: { body: 'Recebemos seu pedido' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    // The token is the author, not the admin who made it; the conversation reads it back so.
    expect(sent.body.messages[0]).toMatchObject({ body: 'Recebemos seu pedido', fromMe: true, ticketId, userId: null, apiToken: { id, name: 'Integração' } });
    const asAdmin = (await server.call('GET', `/api/messages/${ticketId}`, { token: t.token })).body.messages.find((m: { body: string }) => m.body === 'Recebemos seu pedido');
    expect(asAdmin).toMatchObject({ userId: null, apiToken: { id, name: 'Integração' } });
    const byAdmin = await server.call('POST', `/api/messages/${ticketId}`, { token: t.token, body: { body: 'Eu mesmo respondo' } });
    expect(byAdmin.body.messages[0]).toMatchObject({ userId: t.admin.id, apiToken: null });
    await eventually(async () => (await outbox(server, t, phone)).messages.some((m) => m.body === 'Recebemos seu pedido'), 10_000, 'the reply');
    // A note it writes is its own too.
    const contactId = accepted.body.contact.id as number;
    const note = await server.call('POST', '/api/ticket-notes', { token, body: { note: 'Pedido 123 no ERP', ticketId, contactId } });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect(note.body).toMatchObject({ userId: null, user: null, apiToken: { id, name: 'Integração' } });
    const notes = await server.call('GET', `/api/ticket-notes/list?ticketId=${ticketId}&contactId=${contactId}`, { token: t.token });
    expect(notes.body.find((n: { note: string }) => n.note === 'Pedido 123 no ERP')).toMatchObject({ apiToken: { id, name: 'Integração' } });
    const listed = (await server.call('GET', '/api/api-tokens', { token: t.token })).body.tokens.find((row: { id: number }) => row.id === id);
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it('cannot reach another company\'s records, users, settings, connections nor super users\' routes', async () => {
    const { token } = await tokenWith(['tickets:write', 'messages:write', 'contacts:write', 'tags:write', 'queues:write']);
    expect((await server.call('GET', `/api/tickets/${otherTicketId}`, { token })).status).toBe(404);
    expect((await server.call('GET', `/api/messages/${otherTicketId}`, { token })).status).toBe(404);
    expect((await server.call('PUT', `/api/contacts/${otherContactId}`, { token, body: { name: 'Tomado', number: '5511999990000' } })).status).toBe(404);
    const tickets = await server.call('GET', '/api/tickets?status=pending', { token });
    expect(tickets.body.tickets.map((ticket: { id: number }) => ticket.id)).not.toContain(otherTicketId);
    for (const [method, path] of [
      ['GET', '/api/users'],
      ['POST', '/api/users'],
      ['GET', '/api/companies'],
      ['GET', '/api/plans/features'],
      ['POST', '/api/plans'],
      ['GET', '/api/settings'],
      ['GET', '/api/whatsapp'],
      ['GET', '/api/auth/me'],
      ['GET', '/api/api-tokens'],
      ['POST', '/api/api-tokens'],
      ['GET', '/api/queue-options'],
    ] as const) {
      const res = await server.call(method, path, { token, body: method === 'POST' ? { name: 'x', scopes: ['tags:read'] } : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it('answers 401 once revoked, for an unknown token, and when its admin is no longer one', async () => {
    const { id, token } = await tokenWith(['tags:read']);
    expect((await server.call('GET', '/api/tags', { token })).status).toBe(200);
    expect((await server.call('DELETE', `/api/api-tokens/${id}`, { token: t.token })).status).toBe(204);
    expect((await server.call('DELETE', `/api/api-tokens/${id}`, { token: t.token })).status).toBe(404);
    expect((await server.call('GET', '/api/api-tokens', { token: t.token })).body.tokens.map((row: { id: number }) => row.id)).not.toContain(id);
    const boss = await createMember(server, t, 'chefe', { profile: 'admin' });
    const bosses = await tokenWith(['tags:read'], { ...t, token: boss.token });
    expect((await server.call('GET', '/api/tags', { token: bosses.token })).status).toBe(200);
    const demoted = await server.call('PUT', `/api/users/${boss.id}`, { token: t.token, body: { profile: 'user' } });
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    for (const bearer of [token, 'atk_unknown', bosses.token]) {
      const res = await server.call('GET', '/api/tags', { token: bearer });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'ERR_INVALID_API_TOKEN', message: 'This API token is not valid' });
    }
  });
});
