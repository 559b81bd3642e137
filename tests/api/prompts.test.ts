import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Ticket } from '../../core/modules/tickets/ticket.model.js';
import type { PromptView } from '../../plugins/prompts/prompt.contract.js';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.js';
import { fakeOgg, startFakeSpeech, type FakeSpeech } from '../helpers/fake-speech.js';
import { sha256 } from '../helpers/media.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, outbox, type InboxTenant, type Member } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SECRET_KEY = 'sk-test-0123456789abcdef';
const PHRASE = 'Ação: Transferir para o setor de atendimento';

let server: TestServer;
let fake: FakeOpenAi;
let speech: FakeSpeech;
let t: InboxTenant;
let other: InboxTenant;
let agent: Member;
let queueId: number;
let numbers = 0;

const db = () => server.atende.container.db;

function nextNumber(): string {
  numbers += 1;
  return `5511977${String(numbers).padStart(6, '0')}`;
}

async function createPrompt(body: Record<string, unknown> = {}, tenant = t, on = server): Promise<PromptView> {
  const res = await on.call('POST', '/api/prompt', {
    token: tenant.admin.token,
    body: { name: 'Atendente virtual', prompt: 'Você é o atendente da loja.', queueId, apiKey: SECRET_KEY, baseUrl: fake.baseUrl, model: 'modelo-local', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as PromptView;
}

async function ticketOf(number: string): Promise<Ticket> {
  const contact = await Contact.query(db()).findOne({ companyId: t.companyId, number });
  const ticket = contact && (await Ticket.query(db()).where({ contactId: contact.id }).orderBy('id', 'desc').first());
  if (!ticket) throw new Error(`no ticket for ${number}`);
  return ticket;
}

/** What the customer's phone received, texts in order. */
async function received(connectionId: number, number: string): Promise<string[]> {
  return (await outbox(server, t, connectionId)).messages.filter((m) => m.to.startsWith(number)).map((m) => m.body);
}

/** The texts the phone received once it holds `text` (sends go through the send queue). */
async function receivedWith(connectionId: number, number: string, text: string): Promise<string[]> {
  return eventually(async () => {
    const texts = await received(connectionId, number);
    return texts.includes(text) && texts;
  }, 5000, `"${text}" sent`);
}

/** A customer writes; answers once the message is stored and its turn (the bot's answer) has run. */
async function talk(connectionId: number, message: { from: string; name?: string; body: string }, asks = true): Promise<void> {
  const before = fake.requests.length;
  const wid = await customerWrites(server, t, connectionId, message);
  await eventually(async () => db()('messages').where({ wid }).first(), 5000, 'the message stored');
  // The turn is queued once the message is committed: wait for it to reach the server (or a while, when it must not).
  if (asks) await eventually(async () => fake.requests.length > before, 5000, 'the bot asking its server');
  else await new Promise((r) => setTimeout(r, 300));
  await server.atende.container.services.pipeline.steps.idle();
}

/** A customer's voice note through the simulator; answers once its turn has run. */
async function speak(connectionId: number, from: string, bytes: Buffer): Promise<void> {
  const before = fake.transcriptions.length;
  const wid = await customerWrites(server, t, connectionId, { from, body: '', mediaType: 'audio', mediaBase64: bytes.toString('base64'), mediaName: 'voz.ogg' });
  await eventually(async () => db()('messages').where({ wid }).first(), 5000, 'the voice note stored');
  await eventually(async () => fake.transcriptions.length > before, 5000, 'the bot transcribing it');
  await server.atende.container.services.pipeline.steps.idle();
}

/** The ticket's messages as the agents' conversation shows them. */
async function conversation(ticketId: number): Promise<{ body: string; bot: string | null; mediaType: string | null; transcript: string | null }[]> {
  const res = await server.call('GET', `/api/messages/${ticketId}`, { token: t.admin.token });
  expect(res.status).toBe(200);
  return res.body.messages;
}

beforeAll(async () => {
  fake = await startFakeOpenAi();
  speech = await startFakeSpeech();
  server = await startTestServer({ simulator: true, allowPrivateUrls: true, pluginConfig: { prompts: { timeoutMs: 1500 } } });
  t = await withPlan(server, { limits: { connections: 20, queues: 10 } });
  other = await createTenant(server, 'Outra Prompt');
  queueId = await createQueue(server, t, 'Atendimento');
  agent = await createMember(server, t, 'agente', { queueIds: [queueId] });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
  await speech?.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.answer = (request) => ({ text: `Eco: ${request.body.messages.at(-1)?.content ?? ''}` });
  fake.transcriptions.length = 0;
  fake.transcribe = () => ({ text: 'Quero saber o horário de funcionamento' });
  speech.requests.length = 0;
  speech.answer = (request) => ({ audio: fakeOgg(request.ssml) });
});

describe('the spec calls', () => {
  it('creates with the defaults of spec §9, the queue named, the key masked', async () => {
    const prompt = await createPrompt();
    expect(prompt).toMatchObject({
      name: 'Atendente virtual',
      queueId,
      queue: { id: queueId, name: 'Atendimento' },
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      voice: 'texto',
      model: 'modelo-local',
      baseUrl: fake.baseUrl,
      promptTokens: 0,
      totalTokens: 0,
      lastError: null,
    });
    expect(prompt.apiKey).toBe('••••cdef');
    const list = await server.call('GET', '/api/prompt', { token: agent.token });
    expect(list.status).toBe(200);
    expect(list.body.prompts.map((p: PromptView) => p.id)).toContain(prompt.id);
    expect((await server.call('GET', `/api/prompt/${prompt.id}`, { token: agent.token })).body).toMatchObject({ id: prompt.id, apiKey: '••••cdef' });
  });

  it('never returns nor stores the key in full; a masked key sent back keeps it, a new one replaces it', async () => {
    const prompt = await createPrompt();
    const row = await db()('prompts').where({ id: prompt.id }).first();
    expect(row.apiKey).not.toContain(SECRET_KEY);
    const kept = await server.call('PUT', `/api/prompt/${prompt.id}`, { token: t.admin.token, body: { ...prompt, apiKey: prompt.apiKey, name: 'Renomeado' } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toMatchObject({ name: 'Renomeado', apiKey: '••••cdef' });
    expect(JSON.stringify(kept.body)).not.toContain(SECRET_KEY);
    const changed = await server.call('PUT', `/api/prompt/${prompt.id}`, { token: t.admin.token, body: { apiKey: 'sk-other-key-9999' } });
    expect(changed.body.apiKey).toBe('••••9999');
  });

  it('deletes with a message for the toast', async () => {
    const prompt = await createPrompt();
    const res = await server.call('DELETE', `/api/prompt/${prompt.id}`, { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect((await server.call('GET', `/api/prompt/${prompt.id}`, { token: t.admin.token })).status).toBe(404);
  });

  it.each([
    [{ queueId: undefined }, 'queueId: Informe o setor'],
    [{ queueId: '' }, 'queueId: Informe o setor'],
    [{ name: '' }, 'name: Obrigatório'],
    [{ prompt: '' }, 'prompt: Obrigatório'],
    [{ temperature: 3 }, 'temperature: Must be 2 or less'],
    [{ maxTokens: 0 }, 'maxTokens: Must be 1 or more'],
    [{ voice: 'robô' }, 'voice: Unknown voice'],
    [{ baseUrl: 'ftp://example.com' }, 'baseUrl: Must be an http or https URL'],
  ])('validates %j → "%s"', async (change, message) => {
    const res = await server.call('POST', '/api/prompt', {
      token: t.admin.token,
      body: { name: 'P', prompt: 'Texto', queueId, apiKey: SECRET_KEY, baseUrl: fake.baseUrl, ...change },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
  });

  it('an agent reads prompts but only admins write them (403)', async () => {
    const res = await server.call('POST', '/api/prompt', { token: agent.token, body: { name: 'P', prompt: 'Texto', queueId } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it("another company's prompt is 404 and unchanged; another company's queue is 404", async () => {
    const prompt = await createPrompt();
    for (const [method, body] of [['GET'], ['PUT', { name: 'Roubado' }], ['DELETE']] as const) {
      const res = await server.call(method, `/api/prompt/${prompt.id}`, { token: other.admin.token, body });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_PROMPT_FOUND');
    }
    expect((await server.call('GET', `/api/prompt/${prompt.id}`, { token: t.admin.token })).body.name).toBe('Atendente virtual');
    expect((await server.call('GET', '/api/prompt', { token: other.admin.token })).body.prompts).toEqual([]);
    const foreignQueue = await server.call('POST', '/api/prompt', { token: other.admin.token, body: { name: 'P', prompt: 'Texto', queueId, baseUrl: fake.baseUrl } });
    expect(foreignQueue.status).toBe(404);
    expect(foreignQueue.body.error).toBe('ERR_NO_QUEUE_FOUND');
  });

  it('is 403 ERR_PLAN_FEATURE_DISABLED without useOpenAi', async () => {
    const off = await withPlan(server, { features: { useOpenAi: false } });
    for (const [method, path] of [['GET', '/api/prompt'], ['POST', '/api/prompt'], ['GET', '/api/prompt/1'], ['PUT', '/api/prompt/1'], ['DELETE', '/api/prompt/1']] as const) {
      const res = await server.call(method, path, { token: off.token, body: method === 'POST' || method === 'PUT' ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });
});

describe('the bot on the conversation', () => {
  it('answers on a connection with a prompt: system prompt, the history in order, the new message; marked as the bot', async () => {
    const prompt = await createPrompt({ maxTokens: 80, temperature: 0.5, maxMessages: 10 });
    const phone = await createConnection(server, t, 'Bot na conexão', { promptId: prompt.id });
    const number = nextNumber();
    await talk(phone, { from: number, name: 'Maria Silva', body: 'Oi, tudo bem?' });
    expect(await receivedWith(phone, number, 'Eco: Oi, tudo bem?')).toEqual(['Eco: Oi, tudo bem?']);
    const first = fake.requests[0]!;
    expect(first.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(first.body).toMatchObject({ model: 'modelo-local', max_tokens: 80, temperature: 0.5 });
    expect(first.body.messages[0]!.role).toBe('system');
    expect(first.body.messages[0]!.content).toContain('Maria');
    expect(first.body.messages[0]!.content).toContain('80 tokens');
    expect(first.body.messages[0]!.content).toContain(PHRASE);
    expect(first.body.messages[0]!.content).toContain('Você é o atendente da loja.');
    expect(first.body.messages.slice(1)).toEqual([{ role: 'user', content: 'Oi, tudo bem?' }]);

    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ status: 'pending', queueId: null, useIntegration: true, promptId: prompt.id });

    await talk(phone, { from: number, name: 'Maria Silva', body: 'Qual o horário?' });
    expect(fake.requests[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Oi, tudo bem?' },
      { role: 'assistant', content: 'Eco: Oi, tudo bem?' },
      { role: 'user', content: 'Qual o horário?' },
    ]);
    const messages = await server.call('GET', `/api/messages/${ticket.id}`, { token: t.admin.token });
    expect(messages.body.messages.map((m: { body: string; bot: string | null }) => [m.body, m.bot])).toEqual([
      ['Oi, tudo bem?', null],
      ['Eco: Oi, tudo bem?', 'prompts.answer'],
      ['Qual o horário?', null],
      ['Eco: Qual o horário?', 'prompts.answer'],
    ]);
    const counted = await server.call('GET', `/api/prompt/${prompt.id}`, { token: t.admin.token });
    expect(counted.body).toMatchObject({ promptTokens: 20, completionTokens: 10, totalTokens: 30 });
  });

  it('sends only the last maxMessages messages of the history', async () => {
    const prompt = await createPrompt({ maxMessages: 2 });
    const phone = await createConnection(server, t, 'Bot curto', { promptId: prompt.id });
    const number = nextNumber();
    for (const body of ['um', 'dois', 'três']) {
      await talk(phone, { from: number, body });
    }
    expect(fake.requests[2]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'dois' },
      { role: 'assistant', content: 'Eco: dois' },
      { role: 'user', content: 'três' },
    ]);
  });

  it('the transfer phrase moves the ticket to the queue, bot off, without the phrase; the bot then stays quiet', async () => {
    const prompt = await createPrompt();
    const phone = await createConnection(server, t, 'Bot transfere', { promptId: prompt.id });
    const number = nextNumber();
    fake.answer = () => ({ text: `${PHRASE}. Um atendente vai falar com você.` });
    await talk(phone, { from: number, body: 'Quero falar com uma pessoa' });
    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ status: 'pending', queueId, useIntegration: false, promptId: null });
    const texts = await receivedWith(phone, number, 'Um atendente vai falar com você.');
    expect(texts[0]).toBe('Um atendente vai falar com você.');
    expect(texts.join('\n')).not.toContain('Transferir');
    await talk(phone, { from: number, body: 'Alô?' }, false);
    expect(fake.requests).toHaveLength(1);
  });

  it('a provider error hands the ticket to the queue, the reason kept on the prompt', async () => {
    const prompt = await createPrompt();
    const phone = await createConnection(server, t, 'Bot com erro', { promptId: prompt.id });
    const number = nextNumber();
    fake.answer = () => ({ status: 500, error: 'modelo indisponível' });
    await talk(phone, { from: number, body: 'Oi' });
    expect(await ticketOf(number)).toMatchObject({ status: 'pending', queueId, useIntegration: false, promptId: null });
    const shown = await server.call('GET', `/api/prompt/${prompt.id}`, { token: t.admin.token });
    expect(shown.body.lastError).toContain('modelo indisponível');
    expect(shown.body.lastErrorAt).toEqual(expect.any(String));
  });

  it('a server slower than the timeout hands the ticket to the queue', async () => {
    const prompt = await createPrompt();
    const phone = await createConnection(server, t, 'Bot lento', { promptId: prompt.id });
    const number = nextNumber();
    fake.answer = () => ({ text: 'tarde demais', delayMs: 4000 });
    await talk(phone, { from: number, body: 'Oi' });
    expect(await ticketOf(number)).toMatchObject({ status: 'pending', queueId, useIntegration: false });
    expect(await received(phone, number)).not.toContain('tarde demais');
    expect((await server.call('GET', `/api/prompt/${prompt.id}`, { token: t.admin.token })).body.lastError).toMatch(/time/i);
  });

  it("a queue's prompt answers once the ticket is in the queue, and the chatbot menu is skipped", async () => {
    const prompt = await createPrompt();
    const botQueue = await createQueue(server, t, 'Vendas IA', { promptId: prompt.id });
    const phone = await createConnection(server, t, 'Fila com bot', { queueIds: [botQueue] });
    const number = nextNumber();
    await talk(phone, { from: number, body: 'Bom dia' }, false);
    expect(await ticketOf(number)).toMatchObject({ queueId: botQueue });
    await talk(phone, { from: number, body: 'Tem promoção?' });
    expect(await ticketOf(number)).toMatchObject({ queueId: botQueue, useIntegration: true, promptId: prompt.id });
    expect((await receivedWith(phone, number, 'Eco: Tem promoção?')).at(-1)).toBe('Eco: Tem promoção?');
  });

  it('an agent who accepts takes the ticket from the bot at once; resolving clears the prompt and its session', async () => {
    const prompt = await createPrompt();
    const phone = await createConnection(server, t, 'Bot aceito', { promptId: prompt.id });
    const number = nextNumber();
    await talk(phone, { from: number, body: 'Oi' });
    const ticket = await ticketOf(number);
    expect(ticket.useIntegration).toBe(true);
    const accepted = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin.token, body: { status: 'open', userId: t.admin.id } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ useIntegration: false, promptId: null });
    await talk(phone, { from: number, body: 'Ainda aí?' }, false);
    expect(fake.requests).toHaveLength(1);

    const resolved = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: t.admin.token, body: { status: 'closed' } });
    expect(resolved.body).toMatchObject({ status: 'closed', useIntegration: false, promptId: null });
    await eventually(async () => (await db()('prompt_sessions').where({ ticketId: ticket.id })).length === 0, 5000, 'the session cleared');
  });
});

describe('voice notes', () => {
  const VOICE_KEY = 'azure-speech-key-5678';

  it("transcribes a customer's voice note and answers it; agents see the transcript, the next turn's history has it", async () => {
    const prompt = await createPrompt();
    const phone = await createConnection(server, t, 'Bot ouve', { promptId: prompt.id });
    const number = nextNumber();
    const voice = fakeOgg('a voz do cliente');
    await speak(phone, number, voice);
    expect(fake.transcriptions).toHaveLength(1);
    expect(fake.transcriptions[0]).toMatchObject({ model: 'whisper-1', authorization: `Bearer ${SECRET_KEY}`, fileName: 'voz.ogg' });
    expect(fake.transcriptions[0]!.bytes.equals(voice)).toBe(true);
    expect(fake.requests[0]!.body.messages.slice(1)).toEqual([{ role: 'user', content: 'Quero saber o horário de funcionamento' }]);
    await receivedWith(phone, number, 'Eco: Quero saber o horário de funcionamento');

    const ticket = await ticketOf(number);
    expect((await conversation(ticket.id))[0]).toMatchObject({ mediaType: 'audio', transcript: 'Quero saber o horário de funcionamento', bot: null });
    await talk(phone, { from: number, body: 'E aos sábados?' });
    expect(fake.requests[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Quero saber o horário de funcionamento' },
      { role: 'assistant', content: 'Eco: Quero saber o horário de funcionamento' },
      { role: 'user', content: 'E aos sábados?' },
    ]);
  });

  it('uses the prompt’s transcription model', async () => {
    const prompt = await createPrompt({ transcriptionModel: 'whisper-local' });
    expect(prompt.transcriptionModel).toBe('whisper-local');
    const phone = await createConnection(server, t, 'Bot ouve local', { promptId: prompt.id });
    await speak(phone, nextNumber(), fakeOgg('voz'));
    expect(fake.transcriptions[0]!.model).toBe('whisper-local');
  });

  it('a failed transcription hands the ticket to the queue, the reason kept on the prompt', async () => {
    const prompt = await createPrompt();
    const phone = await createConnection(server, t, 'Bot surdo', { promptId: prompt.id });
    const number = nextNumber();
    fake.transcribe = () => ({ status: 500, error: 'áudio ilegível' });
    await speak(phone, number, fakeOgg('ruído'));
    expect(fake.requests).toHaveLength(0);
    expect(await ticketOf(number)).toMatchObject({ status: 'pending', queueId, useIntegration: false, promptId: null });
    const shown = (await server.call('GET', `/api/prompt/${prompt.id}`, { token: t.admin.token })).body as PromptView;
    expect(shown.lastError).toMatch(/^transcription: .*áudio ilegível/);
  });

  it("with a voice the answer goes out as a voice note (Ogg/Opus, push-to-talk) from the speech service, its text shown under it", async () => {
    const prompt = await createPrompt({ voice: 'pt-BR-FabioNeural', voiceKey: VOICE_KEY, voiceEndpoint: speech.url });
    expect(prompt).toMatchObject({ voice: 'pt-BR-FabioNeural', voiceKey: '••••5678', voiceEndpoint: speech.url });
    const phone = await createConnection(server, t, 'Bot fala', { promptId: prompt.id });
    const number = nextNumber();
    fake.answer = () => ({ text: 'Abrimos às 8h & fechamos às 18h <sempre>' });
    await talk(phone, { from: number, body: 'Que horas abrem?' });

    expect(speech.requests).toHaveLength(1);
    const asked = speech.requests[0]!;
    expect(asked).toMatchObject({ key: VOICE_KEY, format: 'ogg-24khz-16bit-mono-opus', contentType: 'application/ssml+xml' });
    expect(asked.ssml).toContain('<voice name="pt-BR-FabioNeural">Abrimos às 8h &amp; fechamos às 18h &lt;sempre&gt;</voice>');
    const sent = await eventually(async () => (await outbox(server, t, phone)).messages.find((m) => m.to.startsWith(number)), 5000, 'the voice note sent');
    expect(sent).toMatchObject({ kind: 'media', media: { fileName: 'resposta.ogg', mimeType: 'audio/ogg; codecs=opus', ptt: true, sha256: sha256(fakeOgg(asked.ssml)) } });

    const ticket = await ticketOf(number);
    expect(ticket.lastMessage).toBe('Abrimos às 8h & fechamos às 18h <sempre>');
    expect((await conversation(ticket.id))[1]).toMatchObject({ mediaType: 'audio', bot: 'prompts.answer', transcript: 'Abrimos às 8h & fechamos às 18h <sempre>' });
    await talk(phone, { from: number, body: 'Obrigado' });
    expect(fake.requests[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Que horas abrem?' },
      { role: 'assistant', content: 'Abrimos às 8h & fechamos às 18h <sempre>' },
      { role: 'user', content: 'Obrigado' },
    ]);
  });

  it('a failed speech call still answers, as text; the reason kept on the prompt, the bot keeps the ticket', async () => {
    const prompt = await createPrompt({ voice: 'pt-BR-ElzaNeural', voiceKey: VOICE_KEY, voiceEndpoint: speech.url });
    const phone = await createConnection(server, t, 'Bot rouco', { promptId: prompt.id });
    const number = nextNumber();
    speech.answer = () => ({ status: 401, error: 'chave inválida' });
    await talk(phone, { from: number, body: 'Oi' });
    expect(speech.requests).toHaveLength(1);
    const sent = await eventually(async () => (await outbox(server, t, phone)).messages.find((m) => m.to.startsWith(number)), 5000, 'the text sent');
    expect(sent).toMatchObject({ kind: 'text', body: 'Eco: Oi', media: null });
    expect(await ticketOf(number)).toMatchObject({ useIntegration: true, promptId: prompt.id });
    const shown = (await server.call('GET', `/api/prompt/${prompt.id}`, { token: t.admin.token })).body as PromptView;
    expect(shown.lastError).toMatch(/^speech: .*401.*chave inválida/);
  });

  it('keeps the speech key sealed and masked; validates the region and the endpoint', async () => {
    const prompt = await createPrompt({ voice: 'pt-BR-YaraNeural', voiceKey: VOICE_KEY, voiceRegion: 'BrazilSouth' });
    expect(prompt).toMatchObject({ voiceKey: '••••5678', voiceRegion: 'brazilsouth', voiceEndpoint: '' });
    const row = await db()('prompts').where({ id: prompt.id }).first();
    expect(JSON.stringify(row)).not.toContain(VOICE_KEY);
    const kept = await server.call('PUT', `/api/prompt/${prompt.id}`, { token: t.admin.token, body: { ...prompt, name: 'Com voz' } });
    expect(kept.body.voiceKey).toBe('••••5678');
    expect(JSON.stringify((await server.call('GET', '/api/prompt', { token: t.admin.token })).body)).not.toContain(VOICE_KEY);
    for (const [change, message] of [
      [{ voiceRegion: 'brazil.south/x' }, 'voiceRegion: Must be a region name: letters and digits (e.g. brazilsouth)'],
      [{ voiceEndpoint: 'ftp://speech.example' }, 'voiceEndpoint: Must be an http or https URL'],
    ] as const) {
      const res = await server.call('PUT', `/api/prompt/${prompt.id}`, { token: t.admin.token, body: change });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
  });
});

describe('outgoing URLs', () => {
  it('a loopback or private base URL is refused without allowPrivateUrls', async () => {
    const strict = await startTestServer();
    try {
      const s = await createTenant(strict, 'Sem rede interna');
      const res = await strict.call('POST', '/api/queue', { token: s.admin.token, body: { name: 'Fila', color: '#123456' } });
      for (const baseUrl of [fake.baseUrl, 'http://localhost:1234/v1', 'http://10.0.0.5/v1', 'http://169.254.169.254/v1', 'http://[::1]:8080/v1']) {
        const refused = await strict.call('POST', '/api/prompt', { token: s.admin.token, body: { name: 'P', prompt: 'Texto', queueId: res.body.id, baseUrl } });
        expect(refused.status, baseUrl).toBe(400);
        expect(refused.body.error).toBe('ERR_URL_NOT_ALLOWED');
      }
      const speechRefused = await strict.call('POST', '/api/prompt', {
        token: s.admin.token,
        body: { name: 'P', prompt: 'Texto', queueId: res.body.id, voice: 'pt-BR-FabioNeural', voiceEndpoint: 'http://127.0.0.1:9/cognitiveservices/v1' },
      });
      expect(speechRefused.status).toBe(400);
      expect(speechRefused.body.error).toBe('ERR_URL_NOT_ALLOWED');
    } finally {
      await strict.close();
    }
  });
});
