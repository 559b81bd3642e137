import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Ticket } from '../../core/modules/tickets/ticket.model.js';
import type { IntegrationView } from '../../plugins/integrations/integration.contract.js';
import { startFakeTypebot, startFakeWebhook, textBubble, type FakeTypebot, type FakeWebhook } from '../helpers/fake-bots.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, outbox, type InboxTenant, type Member } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/socket.js';

const BOT = 'integrations.answer';

let server: TestServer;
let hook: FakeWebhook;
let typebot: FakeTypebot;
let t: InboxTenant;
let other: InboxTenant;
let agent: Member;
let queueId: number;
let numbers = 0;

const db = () => server.atende.container.db;

function nextNumber(): string {
  numbers += 1;
  return `5511966${String(numbers).padStart(6, '0')}`;
}

async function create(body: Record<string, unknown>, tenant = t): Promise<IntegrationView> {
  const res = await server.call('POST', '/api/queueIntegration', { token: tenant.admin.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as IntegrationView;
}

/** A webhook integration whose key the fake checks every call against. */
async function createWebhook(body: Record<string, unknown> = {}): Promise<IntegrationView> {
  const created = await create({ type: 'webhook', name: 'Fluxo', urlN8N: hook.url, ...body });
  hook.secret = created.webhookSecret;
  return created;
}

async function createTypebot(body: Record<string, unknown> = {}): Promise<IntegrationView> {
  return create({ type: 'typebot', name: 'Typebot', urlN8N: typebot.url, typebotSlug: typebot.slug, typebotDelayMessage: 0, ...body });
}

async function ticketOf(number: string): Promise<Ticket> {
  const contact = await Contact.query(db()).findOne({ companyId: t.companyId, number });
  const ticket = contact && (await Ticket.query(db()).where({ contactId: contact.id }).orderBy('id', 'desc').first());
  if (!ticket) throw new Error(`no ticket for ${number}`);
  return ticket;
}

async function received(connectionId: number, number: string) {
  return (await outbox(server, t, connectionId)).messages.filter((m) => m.to.startsWith(number));
}

/** The texts the phone received once it holds `count` messages (sends go through the send queue). */
async function receivedTexts(connectionId: number, number: string, count: number): Promise<string[]> {
  const sent = await eventually(async () => {
    const messages = await received(connectionId, number);
    return messages.length >= count && messages;
  }, 8000, `${count} messages sent`);
  return sent.map((m) => m.body);
}

const botCalls = () => hook.calls.length + typebot.requests.length;

/**
 * A customer writes; answers once the message is stored and its turn has run: the turn is queued
 * once the message is committed, so wait for it to reach a bot's server (or a while, when it must not).
 */
async function talk(connectionId: number, message: { from: string; name?: string; body: string }, asks = true, tenant = t): Promise<void> {
  const before = botCalls();
  const wid = await customerWrites(server, tenant, connectionId, message);
  await eventually(async () => db()('messages').where({ wid }).first(), 5000, 'the message stored');
  if (asks) await eventually(async () => botCalls() > before, 5000, 'the bot calling its server');
  else await new Promise((r) => setTimeout(r, 300));
  await server.atende.container.services.pipeline.steps.idle();
}

async function botMessages(ticketId: number): Promise<[string, string | null][]> {
  const res = await server.call('GET', `/api/messages/${ticketId}`, { token: t.admin.token });
  return res.body.messages.map((m: { body: string; bot: string | null }) => [m.body, m.bot]);
}

beforeAll(async () => {
  hook = await startFakeWebhook();
  typebot = await startFakeTypebot();
  server = await startTestServer({ simulator: true, allowPrivateUrls: true, pluginConfig: { integrations: { timeoutMs: 1000, retryDelayMs: 20 } } });
  t = await withPlan(server, { limits: { connections: 30, queues: 10 } });
  other = await createTenant(server, 'Outra Integração');
  queueId = await createQueue(server, t, 'Atendimento');
  agent = await createMember(server, t, 'agente-int', { queueIds: [queueId] });
});

afterAll(async () => {
  await server?.close();
  await hook?.close();
  await typebot?.close();
});

beforeEach(() => {
  hook.calls.length = 0;
  hook.answer = () => ({ body: {} });
  typebot.requests.length = 0;
  typebot.failWith = null;
  typebot.start = () => ({ messages: [textBubble('Olá! Bem-vindo.')], input: { type: 'text input' } });
  typebot.reply = (text) => ({ messages: [textBubble(`Você disse: ${text}`)], input: { type: 'text input' } });
});

describe('the spec calls', () => {
  it('creates with the defaults of spec §9; the webhook key in full only in the answer that made it', async () => {
    const created = await createTypebot({ name: 'Padrões', typebotDelayMessage: undefined });
    expect(created).toMatchObject({ type: 'typebot', name: 'Padrões', typebotExpires: 1, typebotDelayMessage: 1000, language: 'pt-BR', jsonContent: '', lastError: null });
    expect(created.webhookSecret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const shown = await server.call('GET', `/api/queueIntegration/${created.id}`, { token: agent.token });
    expect(shown.status).toBe(200);
    expect(shown.body.webhookSecret).toBe('••••');
    expect(JSON.stringify(shown.body)).not.toContain(created.webhookSecret);
    const renewed = await server.call('PUT', `/api/queueIntegration/${created.id}`, { token: t.admin.token, body: { newWebhookSecret: true } });
    expect(renewed.body.webhookSecret).toMatch(/^whsec_/);
    expect(renewed.body.webhookSecret).not.toBe(created.webhookSecret);
  });

  it('lists by name with searchParam and pageNumber (queueIntegrations and hasMore)', async () => {
    const s = await withPlan(server);
    for (let i = 0; i < 22; i += 1) await create({ type: 'webhook', name: `Fluxo ${String(i).padStart(2, '0')}`, urlN8N: hook.url }, { ...t, admin: { ...t.admin, token: s.token } } as InboxTenant);
    await create({ type: 'webhook', name: 'Outro nome', urlN8N: hook.url }, { ...t, admin: { ...t.admin, token: s.token } } as InboxTenant);
    const first = await server.call('GET', '/api/queueIntegration?pageNumber=1', { token: s.token });
    expect(first.body.queueIntegrations).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.queueIntegrations[0].name).toBe('Fluxo 00');
    const second = await server.call('GET', '/api/queueIntegration?pageNumber=2', { token: s.token });
    expect(second.body).toMatchObject({ hasMore: false });
    expect(second.body.queueIntegrations.map((i: IntegrationView) => i.name)).toEqual(['Fluxo 20', 'Fluxo 21', 'Outro nome']);
    const found = await server.call('GET', '/api/queueIntegration?searchParam=OUTRO', { token: s.token });
    expect(found.body.queueIntegrations.map((i: IntegrationView) => i.name)).toEqual(['Outro nome']);
  });

  it("keeps dialogflow's JSON sealed and masked; a masked value sent back keeps it", async () => {
    const json = '{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----segredo"}';
    const created = await create({ type: 'dialogflow', name: 'Dialogflow', projectName: 'meu-projeto', jsonContent: json, language: 'es' });
    expect(created).toMatchObject({ projectName: 'meu-projeto', language: 'es', jsonContent: '••••' });
    const row = await db()('queue_integrations').where({ id: created.id }).first();
    expect(row.jsonContent).not.toContain('segredo');
    const kept = await server.call('PUT', `/api/queueIntegration/${created.id}`, { token: t.admin.token, body: { ...created, name: 'Renomeado' } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    const opened = server.atende.container.db('queue_integrations').where({ id: created.id }).first();
    expect((await opened).jsonContent).toBe(row.jsonContent);
  });

  it('deletes with a message for the toast', async () => {
    const created = await createWebhook();
    const res = await server.call('DELETE', `/api/queueIntegration/${created.id}`, { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect((await server.call('GET', `/api/queueIntegration/${created.id}`, { token: t.admin.token })).status).toBe(404);
  });

  it.each([
    [{ type: 'webhook', name: 'a', urlN8N: 'https://example.com/hook' }, 'name: Too Short!'],
    [{ type: 'webhook', name: 'x'.repeat(51), urlN8N: 'https://example.com/hook' }, 'name: Too Long!'],
    [{ type: 'webhook', urlN8N: 'https://example.com/hook' }, 'name: Obrigatório'],
    [{ type: 'robô', name: 'Tipo' }, 'type: Unknown type: dialogflow, n8n, webhook or typebot'],
    [{ type: 'n8n', name: 'Sem URL' }, 'urlN8N: Obrigatório'],
    [{ type: 'webhook', name: 'Sem URL', urlN8N: '' }, 'urlN8N: Obrigatório'],
    [{ type: 'webhook', name: 'FTP', urlN8N: 'ftp://example.com/x' }, 'urlN8N: Must be an http or https URL'],
    [{ type: 'typebot', name: 'Sem slug', urlN8N: 'https://typebot.example.com' }, 'typebotSlug: Obrigatório'],
    [{ type: 'typebot', name: 'Atraso', urlN8N: 'https://typebot.example.com', typebotSlug: 's', typebotDelayMessage: -1 }, 'typebotDelayMessage: Must be 0 or more'],
    [{ type: 'dialogflow', name: 'Idioma', language: 'fr' }, 'language: Unknown language: pt-BR, en or es'],
  ])('validates %j → "%s"', async (body, message) => {
    const res = await server.call('POST', '/api/queueIntegration', { token: t.admin.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
  });

  it("an update is checked against the stored type: emptying a webhook's URL is 400 and changes nothing", async () => {
    const created = await createWebhook();
    const res = await server.call('PUT', `/api/queueIntegration/${created.id}`, { token: t.admin.token, body: { urlN8N: '' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('urlN8N: Obrigatório');
    const toTypebot = await server.call('PUT', `/api/queueIntegration/${created.id}`, { token: t.admin.token, body: { type: 'typebot' } });
    expect(toTypebot.body.message).toBe('typebotSlug: Obrigatório');
    expect((await server.call('GET', `/api/queueIntegration/${created.id}`, { token: t.admin.token })).body).toMatchObject({ type: 'webhook', urlN8N: hook.url });
  });

  it('an agent reads integrations but only admins write or test them (403)', async () => {
    const created = await createWebhook();
    expect((await server.call('GET', '/api/queueIntegration', { token: agent.token })).status).toBe(200);
    for (const [method, path] of [['POST', '/api/queueIntegration'], ['PUT', `/api/queueIntegration/${created.id}`], ['DELETE', `/api/queueIntegration/${created.id}`], ['POST', '/api/queueIntegration/testSession']] as const) {
      const res = await server.call(method, path, { token: agent.token, body: { type: 'webhook', name: 'Agente', urlN8N: hook.url, id: created.id } });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
  });

  it("another company's integration is 404 and unchanged, also to the test button", async () => {
    const created = await createWebhook();
    for (const [method, body] of [['GET'], ['PUT', { name: 'Roubado' }], ['DELETE']] as const) {
      const res = await server.call(method, `/api/queueIntegration/${created.id}`, { token: other.admin.token, body });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_INTEGRATION_FOUND');
    }
    const test = await server.call('POST', '/api/queueIntegration/testSession', { token: other.admin.token, body: { id: created.id } });
    expect(test.status).toBe(404);
    expect(hook.calls).toHaveLength(0);
    expect((await server.call('GET', `/api/queueIntegration/${created.id}`, { token: t.admin.token })).body.name).toBe('Fluxo');
    expect((await server.call('GET', '/api/queueIntegration', { token: other.admin.token })).body.queueIntegrations).toEqual([]);
  });

  it('is 403 ERR_PLAN_FEATURE_DISABLED without useIntegrations', async () => {
    const off = await withPlan(server, { features: { useIntegrations: false } });
    for (const [method, path] of [
      ['GET', '/api/queueIntegration'],
      ['POST', '/api/queueIntegration'],
      ['POST', '/api/queueIntegration/testSession'],
      ['GET', '/api/queueIntegration/1'],
      ['PUT', '/api/queueIntegration/1'],
      ['DELETE', '/api/queueIntegration/1'],
    ] as const) {
      const res = await server.call(method, path, { token: off.token, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });

  it('the company hears company-{id}-queueIntegration create, update and delete, keys masked; another company hears nothing', async () => {
    const mine = await openSocket(server.url, t.admin.token);
    const theirs = await openSocket(server.url, other.admin.token);
    try {
      const channel = `company-${t.companyId}-queueIntegration`;
      const created = await createWebhook({ name: 'Ao vivo' });
      const frame = await mine.next((f) => f.channel === channel && (f.data as { action: string }).action === 'create');
      expect(frame.data).toMatchObject({ action: 'create', queueIntegration: { id: created.id, name: 'Ao vivo', webhookSecret: '••••' } });
      await server.call('PUT', `/api/queueIntegration/${created.id}`, { token: t.admin.token, body: { name: 'Ao vivo 2' } });
      await mine.next((f) => f.channel === channel && (f.data as { action: string }).action === 'update');
      await server.call('DELETE', `/api/queueIntegration/${created.id}`, { token: t.admin.token });
      expect((await mine.next((f) => f.channel === channel && (f.data as { action: string }).action === 'delete')).data).toEqual({ action: 'delete', queueIntegrationId: created.id });
      expect(theirs.frames.some((f) => f.channel === channel)).toBe(false);
    } finally {
      await Promise.all([mine.close(), theirs.close()]);
    }
  });
});

describe('the test-bot button (testSession)', () => {
  it("a webhook's test posts one signed sample exchange and answers its reply", async () => {
    const created = await createWebhook();
    hook.answer = (call) => ({ body: { reply: `Recebi: ${call.body.message.body}` } });
    const res = await server.call('POST', '/api/queueIntegration/testSession', { token: t.admin.token, body: { id: created.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ok: true, messages: [{ text: 'Recebi: Olá' }], handoff: false });
    expect(hook.calls).toHaveLength(1);
    expect(hook.calls[0]!.signed).toBe(true);
    expect(hook.calls[0]!.body).toMatchObject({ event: 'test', company: { id: t.companyId }, message: { body: 'Olá', fromMe: false } });
  });

  it("a typebot's test from the dialog's values starts a chat and answers its first messages", async () => {
    typebot.start = () => ({ messages: [textBubble('Olá! ', { text: 'Escolha', bold: true })], input: { type: 'choice input', items: ['Vendas', 'Suporte'] } });
    const res = await server.call('POST', '/api/queueIntegration/testSession', {
      token: t.admin.token,
      body: { type: 'typebot', name: 'Novo', urlN8N: typebot.url, typebotSlug: typebot.slug },
    });
    expect(res.body).toEqual({ ok: true, messages: [{ text: 'Olá! *Escolha*' }, { text: '▶️ Vendas\n▶️ Suporte' }], handoff: false });
  });

  it("answers the service's error: HTTP status, a wrong slug, no answer in time", async () => {
    hook.answer = () => ({ status: 500, body: { message: 'fluxo quebrado' } });
    const failed = await server.call('POST', '/api/queueIntegration/testSession', { token: t.admin.token, body: { type: 'n8n', name: 'N8n', urlN8N: hook.url } });
    expect(failed.body).toEqual({ ok: false, error: expect.stringContaining('HTTP 500') });
    const slug = await server.call('POST', '/api/queueIntegration/testSession', { token: t.admin.token, body: { type: 'typebot', name: 'Teste', urlN8N: typebot.url, typebotSlug: 'nao-existe' } });
    expect(slug.body).toEqual({ ok: false, error: expect.stringContaining('HTTP 404') });
    hook.answer = () => ({ delayMs: 3000, body: { reply: 'tarde' } });
    const slow = await server.call('POST', '/api/queueIntegration/testSession', { token: t.admin.token, body: { type: 'webhook', name: 'Teste', urlN8N: hook.url } });
    expect(slow.body).toEqual({ ok: false, error: expect.stringContaining('did not answer within 1000 ms') });
  });

  it("dialogflow with an unusable service-account JSON answers why; missing fields are 400 as when saving", async () => {
    const res = await server.call('POST', '/api/queueIntegration/testSession', { token: t.admin.token, body: { type: 'dialogflow', name: 'Teste', projectName: 'p', jsonContent: '{}', language: 'pt-BR' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: false, error: expect.stringContaining('service-account JSON') });
    const missing = await server.call('POST', '/api/queueIntegration/testSession', { token: t.admin.token, body: { type: 'typebot', name: 'Teste', urlN8N: typebot.url } });
    expect(missing.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'typebotSlug: Obrigatório' });
  });
});

describe('n8n and webhook on the conversation', () => {
  it('posts the documented JSON, signed; the reply in the answer reaches the customer, marked as the bot', async () => {
    const integration = await createWebhook();
    const phone = await createConnection(server, t, 'Webhook na conexão', { integrationId: integration.id });
    const number = nextNumber();
    hook.answer = (call) => ({ body: { reply: `Olá ${call.body.contact.name}, recebemos: ${call.body.message.body}` } });
    await talk(phone, { from: number, name: 'Ana Souza', body: 'Quero um orçamento' });
    expect(await receivedTexts(phone, number, 1)).toEqual(['Olá Ana Souza, recebemos: Quero um orçamento']);
    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ status: 'pending', queueId: null, useIntegration: true, integrationId: integration.id });
    expect(hook.calls).toHaveLength(1);
    const call = hook.calls[0]!;
    expect(call.signed).toBe(true);
    expect(call.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(call.body).toEqual({
      event: 'message',
      company: { id: t.companyId, name: expect.any(String) },
      connection: { id: phone, name: 'Webhook na conexão' },
      ticket: { id: ticket.id, uuid: ticket.uuid, status: 'pending', queueId: null },
      contact: { id: ticket.contactId, name: 'Ana Souza', number },
      message: { id: expect.any(Number), body: 'Quero um orçamento', type: 'text', mediaName: null, fromMe: false, timestamp: expect.any(String) },
    });
    expect(await botMessages(ticket.id)).toEqual([
      ['Quero um orçamento', null],
      ['Olá Ana Souza, recebemos: Quero um orçamento', BOT],
    ]);
  });

  it('sends every message of `messages`, a file by URL with its caption; nothing for an empty answer', async () => {
    const integration = await createWebhook({ type: 'n8n' });
    const phone = await createConnection(server, t, 'n8n com arquivo', { integrationId: integration.id });
    const number = nextNumber();
    hook.answer = () => ({ body: { messages: [{ text: 'Segue o catálogo' }, { mediaUrl: `${hook.base}/files/catalogo.png`, caption: 'Catálogo' }] } });
    await talk(phone, { from: number, body: 'Catálogo?' });
    const sent = await eventually(async () => {
      const messages = await received(phone, number);
      return messages.length >= 2 && messages;
    }, 8000, 'both messages sent');
    expect(sent.map((m) => [m.kind, m.body])).toEqual([
      ['text', 'Segue o catálogo'],
      ['media', 'Catálogo'],
    ]);
    expect(sent[1]!.media).toMatchObject({ fileName: 'catalogo.png', mimeType: 'image/png', size: 70 });
    hook.answer = () => ({ status: 204, text: '' });
    await talk(phone, { from: number, body: 'Obrigado' });
    expect(hook.calls).toHaveLength(2);
    expect((await ticketOf(number)).useIntegration).toBe(true);
  });

  it('`handoff` with a queueId hands the ticket to that queue; the integration then stays quiet', async () => {
    const integration = await createWebhook();
    const phone = await createConnection(server, t, 'Webhook transfere', { integrationId: integration.id });
    const number = nextNumber();
    hook.answer = () => ({ body: { reply: 'Vou chamar um atendente.', handoff: true, queueId } });
    await talk(phone, { from: number, body: 'Quero falar com alguém' });
    expect(await ticketOf(number)).toMatchObject({ status: 'pending', queueId, useIntegration: false, integrationId: null });
    expect(await receivedTexts(phone, number, 1)).toContain('Vou chamar um atendente.');
    await talk(phone, { from: number, body: 'Alô?' }, false);
    expect(hook.calls).toHaveLength(1);
  });

  it('`close` resolves the ticket after the reply; `userId` hands it to that agent', async () => {
    const integration = await createWebhook();
    const phone = await createConnection(server, t, 'Webhook encerra', { integrationId: integration.id });
    const closing = nextNumber();
    hook.answer = () => ({ body: { reply: 'Até logo!', close: true } });
    await talk(phone, { from: closing, body: 'Era só isso' });
    expect(await ticketOf(closing)).toMatchObject({ status: 'closed', useIntegration: false, integrationId: null });
    expect(await receivedTexts(phone, closing, 1)).toContain('Até logo!');
    const assigned = nextNumber();
    hook.answer = () => ({ body: { queueId, userId: agent.id } });
    await talk(phone, { from: assigned, body: 'Quero o agente' });
    expect(await ticketOf(assigned)).toMatchObject({ status: 'open', queueId, userId: agent.id, useIntegration: false });
  });

  it('a failing flow is tried again, then the ticket goes to a person with the error on the integration', async () => {
    const integration = await createWebhook();
    const botQueue = await createQueue(server, t, 'Fila webhook', { integrationId: integration.id });
    const phone = await createConnection(server, t, 'Webhook falha', { queueIds: [botQueue] });
    const number = nextNumber();
    // The first message puts the ticket in the connection's one queue; the queue's bot answers from the next.
    await talk(phone, { from: number, body: 'Oi' }, false);
    expect(await ticketOf(number)).toMatchObject({ queueId: botQueue, useIntegration: false });
    expect(hook.calls).toHaveLength(0);
    hook.answer = () => ({ status: 503, body: { message: 'fora do ar' } });
    await talk(phone, { from: number, body: 'Alguém?' });
    expect(hook.calls).toHaveLength(3);
    expect(await ticketOf(number)).toMatchObject({ status: 'pending', queueId: botQueue, useIntegration: false, integrationId: null });
    const shown = await server.call('GET', `/api/queueIntegration/${integration.id}`, { token: t.admin.token });
    expect(shown.body.lastError).toContain('HTTP 503');
    expect(shown.body.lastErrorAt).toEqual(expect.any(String));
    expect(await received(phone, number)).toEqual([]);
  });

  it('a flow slower than the time limit, or answering a wrong shape, hands the ticket over', async () => {
    const integration = await createWebhook();
    const phone = await createConnection(server, t, 'Webhook lento', { integrationId: integration.id });
    const slow = nextNumber();
    hook.answer = () => ({ delayMs: 2500, body: { reply: 'tarde demais' } });
    await talk(phone, { from: slow, body: 'Oi' });
    expect(await ticketOf(slow)).toMatchObject({ useIntegration: false });
    expect((await server.call('GET', `/api/queueIntegration/${integration.id}`, { token: t.admin.token })).body.lastError).toContain('did not answer within');
    const wrong = nextNumber();
    hook.answer = () => ({ body: { messages: 'não é uma lista' } });
    await talk(phone, { from: wrong, body: 'Oi' });
    expect(await ticketOf(wrong)).toMatchObject({ useIntegration: false });
    expect((await server.call('GET', `/api/queueIntegration/${integration.id}`, { token: t.admin.token })).body.lastError).toContain('messages');
    expect(await received(phone, slow)).toEqual([]);
  });

  it('two messages in a burst are posted and answered once each, in order', async () => {
    const integration = await createWebhook();
    const phone = await createConnection(server, t, 'Webhook rajada', { integrationId: integration.id });
    const number = nextNumber();
    hook.answer = (call) => ({ delayMs: call.body.message.body === 'primeira' ? 300 : 0, body: { reply: `re: ${call.body.message.body}` } });
    await customerWrites(server, t, phone, { from: number, body: 'primeira' });
    await customerWrites(server, t, phone, { from: number, body: 'segunda' });
    await eventually(async () => hook.calls.length >= 2, 8000, 'both posted');
    await server.atende.container.services.pipeline.steps.idle();
    expect(hook.calls.map((c) => c.body.message.body)).toEqual(['primeira', 'segunda']);
    expect(await receivedTexts(phone, number, 2)).toEqual(['re: primeira', 're: segunda']);
  });

  it('an agent who accepts takes the ticket from the integration at once; resolving clears it and its session', async () => {
    const integration = await createWebhook();
    const phone = await createConnection(server, t, 'Webhook aceito', { integrationId: integration.id });
    const number = nextNumber();
    hook.answer = () => ({ body: { reply: 'Oi!' } });
    await talk(phone, { from: number, body: 'Oi' });
    const ticket = await ticketOf(number);
    const accepted = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin.token, body: { status: 'open', userId: t.admin.id } });
    expect(accepted.body).toMatchObject({ useIntegration: false, integrationId: null });
    await talk(phone, { from: number, body: 'Ainda aí?' }, false);
    expect(hook.calls).toHaveLength(1);
    const resolved = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin.token, body: { status: 'closed' } });
    expect(resolved.body).toMatchObject({ status: 'closed', useIntegration: false, integrationId: null });
    await eventually(async () => (await db()('integration_sessions').where({ ticketId: ticket.id })).length === 0, 5000, 'the session cleared');
  });

  it('a company whose plan lost useIntegrations gets no bot, the ticket waits for a person', async () => {
    const off = await withPlan(server, { features: { useIntegrations: false }, limits: { connections: 2 } });
    const tenant = { companyId: off.companyId, admin: { ...off.admin, token: off.token } } as unknown as InboxTenant;
    const now = new Date().toISOString();
    const [row] = await db()('queue_integrations')
      .insert({ companyId: off.companyId, type: 'webhook', name: 'Antiga', urlN8n: hook.url, webhookSecret: '', createdAt: now, updatedAt: now })
      .returning('id');
    const phone = await createConnection(server, tenant, 'Sem plano', { integrationId: typeof row === 'object' ? row.id : row });
    const number = nextNumber();
    await talk(phone, { from: number, body: 'Oi' }, false, tenant);
    const contact = await Contact.query(db()).findOne({ companyId: off.companyId, number });
    expect(await Ticket.query(db()).findOne({ contactId: contact!.id })).toMatchObject({ status: 'pending', useIntegration: false, integrationId: null });
    expect(hook.calls).toHaveLength(0);
  });
});

describe('typebot on the conversation', () => {
  it('starts a chat with the number and name, continues it per message; rich text, choices and images as WhatsApp sends them', async () => {
    const integration = await createTypebot();
    const botQueue = await createQueue(server, t, 'Fila typebot', { integrationId: integration.id });
    const phone = await createConnection(server, t, 'Typebot na fila', { queueIds: [botQueue] });
    const number = nextNumber();
    typebot.start = (vars) => ({
      messages: [textBubble('Olá, ', { text: vars.name ?? '', bold: true }, '! ', { text: 'Bem-vindo', italic: true }, ' ', { text: 'antigo', strikethrough: true })],
      input: { type: 'choice input', items: ['Vendas', 'Suporte'] },
    });
    typebot.reply = (text) => ({ messages: [textBubble(`Escolheu ${text}`), { id: 'img', type: 'image', content: { url: `${hook.base}/files/mapa.png` } }] });
    // The first message puts the ticket in the connection's one queue; the queue's bot starts with the next.
    await talk(phone, { from: number, name: 'Carlos', body: 'Oi' }, false);
    expect(typebot.requests).toHaveLength(0);
    await talk(phone, { from: number, name: 'Carlos', body: 'Olá' });
    expect(await receivedTexts(phone, number, 2)).toEqual(['Olá, *Carlos*! _Bem-vindo_ ~antigo~', '▶️ Vendas\n▶️ Suporte']);
    expect(typebot.requests[0]).toMatchObject({ path: `/api/v1/typebots/${typebot.slug}/startChat`, body: { prefilledVariables: { number, name: 'Carlos' } } });
    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ queueId: botQueue, useIntegration: true, integrationId: integration.id });
    expect(await db()('integration_sessions').where({ ticketId: ticket.id }).first()).toMatchObject({ sessionId: expect.stringMatching(/^sess-/) });

    await talk(phone, { from: number, body: 'Vendas' });
    const session = (await db()('integration_sessions').where({ ticketId: ticket.id }).first()).sessionId;
    expect(typebot.requests[1]).toEqual({ path: `/api/v1/sessions/${session}/continueChat`, body: { message: { type: 'text', text: 'Vendas' }, textBubbleContentFormat: 'richText' } });
    const sent = await eventually(async () => {
      const messages = await received(phone, number);
      return messages.length >= 4 && messages;
    }, 8000, 'the image sent');
    expect(sent.slice(2).map((m) => [m.kind, m.body])).toEqual([
      ['text', 'Escolheu Vendas'],
      ['media', ''],
    ]);
    expect(sent[3]!.media).toMatchObject({ fileName: 'mapa.png', mimeType: 'image/png' });
    expect((await botMessages(ticket.id)).filter(([, bot]) => bot === BOT)).toHaveLength(4);
  });

  it('the unknown-input message when the flow says nothing; the restart keyword starts over with its message', async () => {
    const integration = await createTypebot({ typebotUnknownMessage: 'Não entendi.', typebotKeywordRestart: '#reiniciar', typebotRestartMessage: 'Recomeçando...' });
    const phone = await createConnection(server, t, 'Typebot reinicia', { integrationId: integration.id });
    const number = nextNumber();
    await talk(phone, { from: number, body: 'Oi' });
    typebot.reply = () => ({ messages: [] });
    await talk(phone, { from: number, body: 'blá' });
    expect(await receivedTexts(phone, number, 2)).toEqual(['Olá! Bem-vindo.', 'Não entendi.']);
    await talk(phone, { from: number, body: '#REINICIAR' });
    expect(await receivedTexts(phone, number, 4)).toEqual(['Olá! Bem-vindo.', 'Não entendi.', 'Recomeçando...', 'Olá! Bem-vindo.']);
    expect(typebot.requests.filter((r) => r.path.endsWith('/startChat'))).toHaveLength(2);
  });

  it('the finish keyword resolves the ticket and ends the session', async () => {
    const integration = await createTypebot({ typebotKeywordFinish: 'sair' });
    const phone = await createConnection(server, t, 'Typebot encerra', { integrationId: integration.id });
    const number = nextNumber();
    await talk(phone, { from: number, body: 'Oi' });
    const ticket = await ticketOf(number);
    await talk(phone, { from: number, body: ' Sair ' }, false);
    expect(await Ticket.query(db()).findById(ticket.id)).toMatchObject({ status: 'closed', useIntegration: false, integrationId: null });
    await eventually(async () => (await db()('integration_sessions').where({ ticketId: ticket.id })).length === 0, 5000, 'the session cleared');
    expect(typebot.requests.filter((r) => r.path.includes('continueChat'))).toHaveLength(0);
  });

  it.each([
    ['#{"queueId":QUEUE}', { useIntegration: false, status: 'pending', userId: null, queue: true }],
    ['#{"queueId":QUEUE,"userId":USER}', { useIntegration: false, status: 'open', userId: 'agent', queue: true }],
    ['#{"stopBot":true}', { useIntegration: false, status: 'pending', userId: null, queue: false }],
  ] as const)('the control message %s steers the ticket and is not sent', async (template, expected) => {
    const integration = await createTypebot();
    const phone = await createConnection(server, t, `Typebot controle ${template}`, { integrationId: integration.id });
    const number = nextNumber();
    const control = template.replace('QUEUE', String(queueId)).replace('USER', String(agent.id));
    typebot.start = () => ({ messages: [textBubble('Transferindo...'), textBubble(control)] });
    await talk(phone, { from: number, body: 'Oi' });
    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ useIntegration: false, integrationId: null, status: expected.status, userId: expected.userId === 'agent' ? agent.id : null, queueId: expected.queue ? queueId : null });
    expect(await receivedTexts(phone, number, 1)).toEqual(['Transferindo...']);
    expect((await botMessages(ticket.id)).map(([body]) => body)).not.toContain(control);
  });

  it('a session idle longer than typebotExpires starts over; one the server forgot starts over too', async () => {
    const integration = await createTypebot({ typebotExpires: 1 });
    const phone = await createConnection(server, t, 'Typebot expira', { integrationId: integration.id });
    const number = nextNumber();
    await talk(phone, { from: number, body: 'Oi' });
    const ticket = await ticketOf(number);
    await db()('integration_sessions').where({ ticketId: ticket.id }).update({ lastActivityAt: new Date(Date.now() - 2 * 60_000).toISOString() });
    await talk(phone, { from: number, body: 'Voltei' });
    expect(typebot.requests.map((r) => r.path.split('/').pop())).toEqual(['startChat', 'startChat']);
    typebot.sessions.clear();
    await talk(phone, { from: number, body: 'De novo' });
    expect(typebot.requests.map((r) => r.path.split('/').pop())).toEqual(['startChat', 'startChat', 'continueChat', 'startChat']);
    expect((await ticketOf(number)).useIntegration).toBe(true);
  });

  it('a broken typebot hands the ticket to a person with the error on the integration', async () => {
    const integration = await createTypebot();
    const phone = await createConnection(server, t, 'Typebot quebrado', { integrationId: integration.id });
    const number = nextNumber();
    typebot.failWith = 500;
    await talk(phone, { from: number, body: 'Oi' });
    expect(await ticketOf(number)).toMatchObject({ useIntegration: false, integrationId: null });
    expect((await server.call('GET', `/api/queueIntegration/${integration.id}`, { token: t.admin.token })).body.lastError).toContain('HTTP 500');
  });
});

describe('outgoing URLs', () => {
  it('a loopback or private URL is refused without allowPrivateUrls, when saving and when testing', async () => {
    const strict = await startTestServer();
    try {
      const s = await createTenant(strict, 'Sem rede interna int');
      for (const urlN8N of [hook.url, 'http://localhost:5678/webhook/x', 'http://10.0.0.5/hook', 'http://169.254.169.254/latest', 'http://[::1]:8080/hook']) {
        const refused = await strict.call('POST', '/api/queueIntegration', { token: s.admin.token, body: { type: 'webhook', name: 'Interna', urlN8N } });
        expect(refused.status, urlN8N).toBe(400);
        expect(refused.body.error).toBe('ERR_URL_NOT_ALLOWED');
      }
      const test = await strict.call('POST', '/api/queueIntegration/testSession', { token: s.admin.token, body: { type: 'typebot', name: 'Interna', urlN8N: typebot.url, typebotSlug: 'x' } });
      expect(test.body.error).toBe('ERR_URL_NOT_ALLOWED');
      expect(hook.calls).toHaveLength(0);
      expect(typebot.requests).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});
