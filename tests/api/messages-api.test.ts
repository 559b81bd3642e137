import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, createMember, eventually, outbox, type Member } from '../helpers/inbox.js';
import { withPlan, type TenantOnPlan } from '../helpers/plans.js';
import { startTestServer, type CallResult, type TestServer } from '../helpers/server.js';

let server: TestServer;
let t: TenantOnPlan;
let other: TenantOnPlan;
let agent: Member;
let phone: number;
let spare: number;
let otherPhone: number;
let token: string;

const CUSTOMER = '5511987651234';

async function send(bearer: string | undefined, body: unknown, headers: Record<string, string> = {}): Promise<CallResult> {
  if (bearer !== undefined) headers.Authorization = bearer === '' ? 'Bearer ' : `Bearer ${bearer}`;
  return server.call('POST', '/api/messages/send', { body, headers });
}

async function sendFile(bearer: string, fields: Record<string, string>, file: { name: string; data: string }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.append('medias', new Blob([file.data], { type: 'application/octet-stream' }), file.name);
  const res = await fetch(`${server.url}/api/messages/send`, { method: 'POST', headers: { Authorization: `Bearer ${bearer}` }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function generate(tenant: TenantOnPlan, connectionId: number): Promise<string> {
  const res = await server.call('POST', `/api/messages-api/tokens/${connectionId}`, { token: tenant.token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.token as string;
}

async function sentTo(connectionId: number, number: string, tenant = t) {
  return (await outbox(server, tenant, connectionId)).messages.filter((m) => m.to.startsWith(number));
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await withPlan(server, { limits: { connections: 3 } });
  other = await withPlan(server, { limits: { connections: 3 } });
  agent = await createMember(server, t, 'agente');
  phone = await createConnection(server, t, 'Principal');
  spare = await createConnection(server, t, 'Reserva');
  otherPhone = await createConnection(server, other, 'Outra');
  token = await generate(t, phone);
});
afterAll(async () => {
  await server?.close();
});

describe('connection tokens', () => {
  it('are made by the server, shown once and listed without the token', async () => {
    expect(token).toMatch(/^atd_[\w-]{43}$/);
    const list = await server.call('GET', '/api/messages-api/tokens', { token: t.token });
    expect(list.status).toBe(200);
    expect(list.body.tokens).toEqual([expect.objectContaining({ connectionId: phone, lastUsedAt: null })]);
    expect(JSON.stringify(list.body)).not.toContain(token);
    const stored = await server.atende.container.db('messages_api_tokens').where({ connection_id: phone }).first();
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('are for admins, and for their own company only', async () => {
    for (const [method, path] of [['GET', '/api/messages-api/tokens'], ['POST', `/api/messages-api/tokens/${spare}`], ['DELETE', `/api/messages-api/tokens/${phone}`]] as const) {
      expect((await server.call(method, path, { token: agent.token })).status).toBe(403);
    }
    expect((await server.call('POST', `/api/messages-api/tokens/${otherPhone}`, { token: t.token })).status).toBe(404);
    expect((await server.call('DELETE', `/api/messages-api/tokens/${otherPhone}`, { token: t.token })).status).toBe(404);
    expect((await server.call('POST', '/api/messages-api/tokens/abc', { token: t.token })).status).toBe(404);
    expect((await server.call('GET', '/api/messages-api/tokens', { token: other.token })).body.tokens).toEqual([]);
  });
});

describe('POST /api/messages/send', () => {
  it('sends a text through the token\'s connection and answers the ticket and message', async () => {
    const res = await send(token, { number: CUSTOMER, body: 'Seu pedido saiu para entrega' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ticketId: expect.any(Number), messageIds: [expect.any(Number)] });
    await eventually(async () => (await sentTo(phone, CUSTOMER)).some((m) => m.body === 'Seu pedido saiu para entrega'), 10_000, 'the text');
    const ticket = await server.call('GET', `/api/tickets/${res.body.ticketId}`, { token: t.token });
    expect(ticket.body).toMatchObject({ whatsappId: phone, contact: { number: CUSTOMER } });
    const again = await send(token, { number: CUSTOMER, body: 'Outra' });
    expect(again.body.ticketId).toBe(res.body.ticketId);
    const listed = await server.call('GET', '/api/messages-api/tokens', { token: t.token });
    expect(listed.body.tokens[0].lastUsedAt).not.toBeNull();
  });

  it('sends files with the body as caption', async () => {
    const res = await sendFile(token, { number: CUSTOMER, body: 'Segue o boleto' }, { name: 'boleto.pdf', data: '%PDF-1.4 boleto' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sent = await eventually(async () => (await sentTo(phone, CUSTOMER)).find((m) => m.kind === 'media'), 10_000, 'the file');
    expect(sent).toMatchObject({ body: 'Segue o boleto', media: { fileName: 'boleto.pdf' } });
  });

  it('closes the ticket after queueing when asked', async () => {
    const number = '5511987655555';
    const res = await send(token, { number, body: 'Até logo', closeTicket: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ticket = await server.call('GET', `/api/tickets/${res.body.ticketId}`, { token: t.token });
    expect(ticket.body.status).toBe('closed');
    await eventually(async () => (await sentTo(phone, number)).some((m) => m.body === 'Até logo'), 10_000, 'the text');
  });

  it('answers 401 for a missing, empty, wrong, revoked or replaced token', async () => {
    const spareToken = await generate(t, spare);
    const body = { number: CUSTOMER, body: 'x' };
    const failures = [await send(undefined, body), await send('', body), await send('atd_wrong', body)];
    expect((await server.call('DELETE', `/api/messages-api/tokens/${spare}`, { token: t.token })).status).toBe(204);
    failures.push(await send(spareToken, body));
    const old = await generate(t, spare);
    const renewed = await generate(t, spare);
    failures.push(await send(old, body));
    for (const res of failures) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'ERR_INVALID_API_TOKEN', message: expect.any(String) });
    }
    expect((await send(renewed, body)).status).toBe(200);
  });

  it("reaches only the token's own connection", async () => {
    const otherToken = await generate(other, otherPhone);
    const res = await send(otherToken, { number: '5511987650009', body: 'De outra empresa' });
    expect(res.status).toBe(200);
    const ticket = await server.call('GET', `/api/tickets/${res.body.ticketId}`, { token: t.token });
    expect(ticket.status).toBe(404);
    await eventually(async () => (await sentTo(otherPhone, '5511987650009', other)).length === 1, 10_000, 'the other company\'s text');
    expect(await sentTo(phone, '5511987650009')).toEqual([]);
  });

  it('refuses bad input with 400 and sends nothing', async () => {
    for (const body of [{ number: '+55 (11) 98765-1234', body: 'x' }, { number: CUSTOMER }, { number: CUSTOMER, body: '   ' }, { body: 'x' }]) {
      const res = await send(token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers the first answer again for the same Idempotency-Key and sends once', async () => {
    const number = '5511987657777';
    const headers = { 'Idempotency-Key': 'pedido-42' };
    const first = await send(token, { number, body: 'Uma vez só' }, { ...headers });
    const second = await send(token, { number, body: 'Uma vez só' }, { ...headers });
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    await eventually(async () => (await sentTo(phone, number)).length > 0, 10_000, 'the text');
    const third = await send(token, { number, body: 'Outra chave' }, { 'Idempotency-Key': 'pedido-43' });
    expect(third.body.messageIds).not.toEqual(first.body.messageIds);
    await eventually(async () => (await sentTo(phone, number)).length === 2, 10_000, 'the second key\'s text');
    expect((await sentTo(phone, number)).filter((m) => m.body === 'Uma vez só')).toHaveLength(1);
  });

  it('answers 403 when the plan has no external API', async () => {
    const planned = await withPlan(server, { limits: { connections: 1 } });
    const connection = await createConnection(server, planned, 'Plano');
    const planToken = await generate(planned, connection);
    await server.atende.container.services.plans.update(planned.planId, { features: { useExternalApi: false } });
    const res = await send(planToken, { number: CUSTOMER, body: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect((await server.call('GET', '/api/messages-api/tokens', { token: planned.token })).status).toBe(403);
  });

  it('limits each token to 60 requests a minute with 429 and Retry-After', async () => {
    const limited = await generate(t, spare);
    let last: CallResult | undefined;
    for (let i = 0; i < 61; i += 1) last = await send(limited, { body: 'sem número' });
    expect(last!.status).toBe(429);
    expect(last!.body.error).toBe('ERR_API_RATE_LIMIT');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await send(token, { number: CUSTOMER, body: 'outro token' })).status).toBe(200);
  });
});
