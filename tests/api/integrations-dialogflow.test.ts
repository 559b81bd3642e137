import type { KeyObject } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Ticket } from '../../core/modules/tickets/ticket.model.js';
import type { IntegrationView } from '../../plugins/integrations/integration.contract.js';
import { serviceAccount, startFakeDialogflow, type FakeDialogflow } from '../helpers/fake-dialogflow.js';
import { createConnection, createQueue, customerWrites, eventually, outbox, type InboxTenant } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let fake: FakeDialogflow;
let t: InboxTenant;
let numbers = 0;
/** The keys the fake token endpoint trusts (a service account's public half). */
const trusted: KeyObject[] = [];
let key: string;

const db = () => server.atende.container.db;

function nextNumber(): string {
  numbers += 1;
  return `5511966${String(numbers).padStart(6, '0')}`;
}

async function createDialogflow(body: Record<string, unknown> = {}): Promise<IntegrationView> {
  const res = await server.call('POST', '/api/queueIntegration', {
    token: t.admin.token,
    body: { type: 'dialogflow', name: 'Agente Dialogflow', projectName: 'loja-agente', jsonContent: key, language: 'pt-BR', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as IntegrationView;
}

async function ticketOf(number: string): Promise<Ticket> {
  const contact = await Contact.query(db()).findOne({ companyId: t.companyId, number });
  const ticket = contact && (await Ticket.query(db()).where({ contactId: contact.id }).orderBy('id', 'desc').first());
  if (!ticket) throw new Error(`no ticket for ${number}`);
  return ticket;
}

/** A customer writes; answers once its turn (the bot's exchange) has run. */
async function talk(connectionId: number, from: string, body: string): Promise<void> {
  const wid = await customerWrites(server, t, connectionId, { from, body });
  await eventually(async () => db()('messages').where({ wid }).first(), 5000, 'the message stored');
  await eventually(async () => fake.requests.some((r) => r.text === body) || fake.tokens.length > 0, 5000, 'the bot calling out');
  await server.atende.container.services.pipeline.steps.idle();
}

async function received(connectionId: number, number: string): Promise<string[]> {
  return (await outbox(server, t, connectionId)).messages.filter((m) => m.to.startsWith(number)).map((m) => m.body);
}

beforeAll(async () => {
  fake = await startFakeDialogflow(() => trusted);
  const account = serviceAccount(fake.tokenUri);
  trusted.push(account.publicKey);
  key = account.json;
  server = await startTestServer({ simulator: true, allowPrivateUrls: true, pluginConfig: { integrations: { dialogflowUrl: fake.url, timeoutMs: 2000, attempts: 1 } } });
  t = await withPlan(server, { limits: { connections: 20, queues: 10 } });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.tokens.length = 0;
  fake.answer = (request) => ({ queryResult: { fulfillmentMessages: [{ text: { text: [`Dialogflow: ${request.text}`] } }], intent: { displayName: 'eco' } } });
});

describe('dialogflow', () => {
  it('keeps the service-account JSON sealed and masked', async () => {
    const integration = await createDialogflow();
    expect(integration).toMatchObject({ type: 'dialogflow', projectName: 'loja-agente', language: 'pt-BR', jsonContent: '••••' });
    const row = await db()('queue_integrations').where({ id: integration.id }).first();
    expect(JSON.stringify(row)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify((await server.call('GET', '/api/queueIntegration', { token: t.admin.token })).body)).not.toContain('PRIVATE KEY');
  });

  it("answers a customer through detectIntent: a token from the key's token endpoint (assertion signed by the key), the fulfillment texts sent, one session per ticket", async () => {
    const integration = await createDialogflow({ language: 'es' });
    const phone = await createConnection(server, t, 'Dialogflow na conexão', { integrationId: integration.id });
    const number = nextNumber();
    await talk(phone, number, 'Hola, ¿qué horario tienen?');

    expect(fake.tokens).toHaveLength(1);
    expect(fake.tokens[0]).toMatchObject({
      grantType: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      signedByKey: true,
      claims: { iss: 'atende@loja-agente.iam.gserviceaccount.com', scope: 'https://www.googleapis.com/auth/dialogflow' },
    });
    expect(fake.requests).toEqual([{ project: 'loja-agente', session: expect.stringMatching(/^[0-9a-f-]{36}$/), text: 'Hola, ¿qué horario tienen?', languageCode: 'es' }]);
    await eventually(async () => (await received(phone, number)).includes('Dialogflow: Hola, ¿qué horario tienen?'), 5000, 'the answer sent');
    expect(await ticketOf(number)).toMatchObject({ useIntegration: true, integrationId: integration.id });

    await talk(phone, number, 'Gracias');
    // talk() stops waiting once a token was asked for, as it was by the first message.
    await eventually(async () => fake.requests[1], 5000, 'the second detectIntent');
    expect(fake.requests[1]!.session).toBe(fake.requests[0]!.session);
    // The access token is kept until it expires.
    expect(fake.tokens).toHaveLength(1);
    const messages = await server.call('GET', `/api/messages/${(await ticketOf(number)).id}`, { token: t.admin.token });
    expect(messages.body.messages.map((m: { body: string; bot: string | null }) => [m.body, m.bot])).toEqual([
      ['Hola, ¿qué horario tienen?', null],
      ['Dialogflow: Hola, ¿qué horario tienen?', 'integrations.answer'],
      ['Gracias', null],
      ['Dialogflow: Gracias', 'integrations.answer'],
    ]);
  });

  it('every text message of the default platform is sent, in order; the fulfillment text when there are none', async () => {
    const integration = await createDialogflow();
    const phone = await createConnection(server, t, 'Dialogflow mensagens', { integrationId: integration.id });
    const number = nextNumber();
    fake.answer = () => ({
      queryResult: {
        fulfillmentText: 'ignorado',
        fulfillmentMessages: [{ text: { text: ['Primeira', 'Segunda'] } }, { platform: 'FACEBOOK', text: { text: ['Só no Facebook'] } }, { text: { text: ['Terceira'] } }],
      },
    });
    await talk(phone, number, 'Oi');
    await eventually(async () => (await received(phone, number)).length === 3, 5000, 'three answers sent');
    expect(await received(phone, number)).toEqual(['Primeira', 'Segunda', 'Terceira']);
    fake.answer = () => ({ queryResult: { fulfillmentText: 'Só o texto' } });
    await talk(phone, number, 'De novo');
    await eventually(async () => (await received(phone, number)).includes('Só o texto'), 5000, 'the fulfillment text sent');
  });

  it.each([
    ['intent.endInteraction', { intent: { displayName: 'tchau', endInteraction: true } }],
    ['diagnosticInfo.end_conversation', { intent: { displayName: 'tchau' }, diagnosticInfo: { end_conversation: true } }],
  ])('an end-of-conversation intent (%s) says its text and hands the ticket to the queue', async (_, end) => {
    const integration = await createDialogflow();
    const botQueue = await createQueue(server, t, `Fila Dialogflow ${numbers}`, { integrationId: integration.id });
    const phone = await createConnection(server, t, `Fila com Dialogflow ${numbers}`, { queueIds: [botQueue] });
    const number = nextNumber();
    await customerWrites(server, t, phone, { from: number, body: 'Bom dia' });
    await eventually(async () => (await ticketOf(number).catch(() => undefined))?.queueId === botQueue, 5000, 'the ticket in the queue');
    await server.atende.container.services.pipeline.steps.idle();
    await talk(phone, number, 'Oi');
    expect(await ticketOf(number)).toMatchObject({ useIntegration: true, integrationId: integration.id });
    fake.answer = () => ({ queryResult: { fulfillmentMessages: [{ text: { text: ['Até logo! Um atendente vai continuar.'] } }], ...end } });
    await talk(phone, number, 'Quero falar com uma pessoa');
    expect(await ticketOf(number)).toMatchObject({ status: 'pending', queueId: botQueue, useIntegration: false, integrationId: null });
    await eventually(async () => (await received(phone, number)).includes('Até logo! Um atendente vai continuar.'), 5000, 'the last answer sent');
    const before = fake.requests.length;
    await customerWrites(server, t, phone, { from: number, body: 'Alô?' });
    await new Promise((r) => setTimeout(r, 300));
    await server.atende.container.services.pipeline.steps.idle();
    expect(fake.requests).toHaveLength(before);
  });

  it('a Dialogflow error hands the ticket to a person, the reason on the integration', async () => {
    const integration = await createDialogflow();
    const phone = await createConnection(server, t, 'Dialogflow com erro', { integrationId: integration.id });
    const number = nextNumber();
    fake.answer = () => ({ status: 500, error: 'agente indisponível' });
    await talk(phone, number, 'Oi');
    expect(await ticketOf(number)).toMatchObject({ useIntegration: false, integrationId: null });
    const shown = await server.call('GET', `/api/queueIntegration/${integration.id}`, { token: t.admin.token });
    expect(shown.body.lastError).toContain('500');
  });

  it('a key the token endpoint does not trust fails authentication: a person answers, the reason shown', async () => {
    const stranger = serviceAccount(fake.tokenUri).json;
    const integration = await createDialogflow({ jsonContent: stranger });
    const phone = await createConnection(server, t, 'Dialogflow sem acesso', { integrationId: integration.id });
    const number = nextNumber();
    await talk(phone, number, 'Oi');
    expect(fake.tokens[0]!.signedByKey).toBe(false);
    expect(fake.requests).toHaveLength(0);
    expect(await ticketOf(number)).toMatchObject({ useIntegration: false });
    const shown = await server.call('GET', `/api/queueIntegration/${integration.id}`, { token: t.admin.token });
    expect(shown.body.lastError).toMatch(/^authentication failed/);
  });

  it('test-bot runs one exchange from the dialog values, and from a stored integration with its sealed key', async () => {
    const unsaved = await server.call('POST', '/api/queueIntegration/testSession', {
      token: t.admin.token,
      body: { type: 'dialogflow', name: 'Teste', projectName: 'outro-projeto', jsonContent: key, language: 'en' },
    });
    expect(unsaved.status, JSON.stringify(unsaved.body)).toBe(200);
    expect(unsaved.body).toEqual({ ok: true, messages: [{ text: 'Dialogflow: Olá' }], handoff: false });
    expect(fake.requests[0]).toMatchObject({ project: 'outro-projeto', languageCode: 'en' });

    const stored = await createDialogflow();
    const again = await server.call('POST', '/api/queueIntegration/testSession', { token: t.admin.token, body: { id: stored.id, jsonContent: stored.jsonContent } });
    expect(again.body).toMatchObject({ ok: true, messages: [{ text: 'Dialogflow: Olá' }] });

    const broken = await server.call('POST', '/api/queueIntegration/testSession', { token: t.admin.token, body: { type: 'dialogflow', name: 'Teste', projectName: 'p', jsonContent: '{"client_email": 1}' } });
    expect(broken.body).toEqual({ ok: false, error: expect.stringContaining('service-account JSON') });
  });

  it('a token endpoint on a private address is refused without allowPrivateUrls', async () => {
    const strict = await startTestServer({ pluginConfig: { integrations: { dialogflowUrl: 'https://dialogflow.googleapis.com' } } });
    try {
      const s = await withPlan(strict, {});
      const res = await strict.call('POST', '/api/queueIntegration/testSession', {
        token: s.token,
        body: { type: 'dialogflow', name: 'Teste', projectName: 'p', jsonContent: serviceAccount('http://127.0.0.1:9/token').json },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe('ERR_URL_NOT_ALLOWED');
    } finally {
      await strict.close();
    }
  });
});
