import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { BrowserPool, chooseOption, signIn, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.js';
import { fakeOgg, startFakeSpeech, type FakeSpeech } from '../helpers/fake-speech.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createQueue, customerWrites, eventually, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';
import { withPlan, type TenantOnPlan } from '../helpers/plans.js';

const JOURNEY_MS = 150_000;
const CUSTOMER = { from: '5511955557001', name: 'Joana Prado' };
const PHRASE = 'Ação: Transferir para o setor de atendimento';

let server: TestServer;
let fake: FakeOpenAi;
let speech: FakeSpeech;
let tenant: TenantOnPlan;
/** Signs in through no browser: sends the customer's messages through the simulator. */
let operator: InboxTenant;
let agent: Member;
let connectionId: number;
const browsers = new BrowserPool();

const row = (scope: Locator, name: string) => scope.getByRole('option', { name, exact: true });

describeE2E('AI prompts', () => {
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    speech = await startFakeSpeech();
    server = await startTestServer({ simulator: true, allowPrivateUrls: true });
    tenant = await withPlan(server, { limits: { connections: 3, queues: 3 } });
    const queueId = await createQueue(server, tenant, 'Suporte humano');
    agent = await createMember(server, tenant, 'agente', { queueIds: [queueId] });
    operator = { ...tenant, admin: await createMember(server, tenant, 'operador', { profile: 'admin' }) };
    connectionId = await createConnection(server, tenant, 'Loja Online');
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
    await speech?.close();
  });

  it(
    'an admin creates a speaking prompt and attaches it to a connection; a customer talks to the bot (a voice note first) and is handed to an agent who sees the whole exchange, transcripts under the audio, the bot marked',
    async () => {
      const admin = await browsers.page();
      await signIn(admin, server.url, tenant.email, tenant.password);
      await admin.getByRole('menuitem', { name: 'Prompts' }).click();
      await admin.getByRole('heading', { name: 'Prompts' }).waitFor();
      await admin.getByText('Nenhum prompt').waitFor();

      await admin.getByRole('button', { name: 'Adicionar prompt' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar prompt' });
      expect(await dialog.getByLabel('Máximo de tokens na resposta').inputValue()).toBe('100');
      expect(await dialog.getByLabel('Temperatura').inputValue()).toBe('1.0');
      expect(await dialog.getByLabel('Máximo de mensagens no histórico').inputValue()).toBe('10');
      await dialog.getByLabel('Nome').fill('Assistente da loja');
      await dialog.getByLabel('Prompt', { exact: true }).fill('Você é a assistente da Loja Online. Responda sobre pedidos e entregas.');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Informe o setor').waitFor();
      await chooseOption(admin, dialog.getByLabel('Fila'), 'Suporte humano');
      await dialog.getByLabel('Endereço do servidor').fill(fake.baseUrl);
      await dialog.getByLabel('Modelo', { exact: true }).fill('modelo-local');
      expect(await dialog.getByLabel('Modelo de transcrição').inputValue()).toBe('whisper-1');
      await dialog.getByLabel('Chave da API').fill('sk-local-secret-1234');
      // The speech service's fields open once a voice is chosen.
      expect(await dialog.getByLabel('Chave da voz').isDisabled()).toBe(true);
      await chooseOption(admin, dialog.getByLabel('Voz', { exact: true }), 'Fabio');
      await dialog.getByLabel('Chave da voz').fill('chave-da-voz-5678');
      await dialog.getByLabel('Endereço do serviço de voz').fill(speech.url);
      await shot(admin, 'prompts-dialog-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const table = admin.getByTestId('prompts-table');
      await table.getByText('Assistente da loja').waitFor();
      await shot(admin, 'prompts-list-light');

      // Its select joins the connection's Integrações tab.
      await admin.goto(`${server.url}/connections`);
      await admin.getByRole('button', { name: 'Editar Loja Online' }).click();
      const edit = admin.getByRole('dialog', { name: 'Editar WhatsApp' });
      await expect.poll(() => edit.getByLabel('Nome').inputValue()).toBe('Loja Online');
      await edit.getByRole('tab', { name: 'Integrações' }).click();
      await chooseOption(admin, edit.getByLabel('Prompt'), 'Assistente da loja');
      await shot(admin, 'prompts-connection-tab-light');
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await edit.waitFor({ state: 'hidden' });
      const saved = await server.call('GET', `/api/whatsapp/${connectionId}`, { token: operator.admin.token });
      expect(saved.body.promptId).toEqual(expect.any(Number));

      // The customer talks to the bot: the admin's list shows the bot holding the ticket.
      await admin.goto(`${server.url}/tickets`);
      await admin.getByRole('tab', { name: /Aguardando/ }).click();
      // The customer's first message is a voice note: transcribed, answered, the answer spoken.
      fake.transcribe = () => ({ text: 'Oi! Meu pedido já saiu?' });
      const voiceNote = fakeOgg('voz da cliente').toString('base64');
      await customerWrites(server, operator, connectionId, { ...CUSTOMER, body: '', mediaType: 'audio', mediaBase64: voiceNote, mediaName: 'voz.ogg' });
      const pending = admin.getByTestId('tickets-pending');
      await row(pending, CUSTOMER.name).getByTestId('ticket-bot').waitFor();
      await eventually(async () => fake.requests.length === 1, 10_000, 'the bot asked');
      expect(fake.requests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Oi! Meu pedido já saiu?' });
      await eventually(async () => speech.requests.length === 1, 10_000, 'the answer spoken');
      await shot(admin, 'prompts-ticket-bot-light');

      fake.answer = () => ({ text: `${PHRASE}. Vou chamar uma pessoa da equipe para você.` });
      await customerWrites(server, operator, connectionId, { ...CUSTOMER, body: 'Quero falar com alguém' });
      await eventually(async () => fake.requests.length === 2, 10_000, 'the bot asked again');
      expect(fake.requests[1]!.body.messages.slice(1)).toEqual([
        { role: 'user', content: 'Oi! Meu pedido já saiu?' },
        { role: 'assistant', content: 'Eco: Oi! Meu pedido já saiu?' },
        { role: 'user', content: 'Quero falar com alguém' },
      ]);

      // The agent of the prompt's queue gets the ticket, bot off, and reads the whole exchange.
      const page = await browsers.page();
      await signIn(page, server.url, agent.email, PASSWORD, '/tickets');
      await page.getByRole('tab', { name: /Aguardando/ }).click();
      const waiting = row(page.getByTestId('tickets-pending'), CUSTOMER.name);
      await waiting.waitFor();
      expect(await waiting.getByTestId('ticket-bot').count()).toBe(0);
      await waiting.getByRole('button', { name: `Aceitar o ticket de ${CUSTOMER.name}` }).click();
      const conversation = page.getByTestId('conversation');
      await conversation.getByText('Vou chamar uma pessoa da equipe para você.').waitFor();
      const bubbles = conversation.getByTestId('message');
      await expect.poll(() => bubbles.count()).toBeGreaterThanOrEqual(4);
      // Voice notes both ways, each with what it says under it; the one text the customer typed.
      // Each audio shows once its file is read: the players and their transcripts may come after the bubbles.
      await expect.poll(() => conversation.getByTestId('message-audio').count()).toBe(3);
      await expect.poll(() => conversation.getByTestId('message-transcript').allInnerTexts()).toEqual([
        'Oi! Meu pedido já saiu?',
        'Eco: Oi! Meu pedido já saiu?',
        'Vou chamar uma pessoa da equipe para você.',
      ]);
      expect(await conversation.getByTestId('message-body').allInnerTexts()).toEqual(['Quero falar com alguém']);
      expect(await conversation.innerText()).not.toContain('Transferir');
      expect(await conversation.getByTestId('message-bot').count()).toBe(2);
      await shot(page, 'prompts-conversation-light');

      // Dark theme, then a phone's width.
      await page.getByTestId('theme-toggle').click();
      await shot(page, 'prompts-conversation-dark');
      await admin.goto(`${server.url}/prompts`);
      await admin.getByTestId('theme-toggle').click();
      await table.getByText('Assistente da loja').waitFor();
      await expect.poll(() => table.getByTestId('prompt-tokens').innerText()).toBe('30');
      await shot(admin, 'prompts-list-dark');
      await table.getByRole('button', { name: 'Editar o prompt Assistente da loja' }).click();
      const editPrompt = admin.getByRole('dialog', { name: 'Editar prompt' });
      await expect.poll(() => editPrompt.getByLabel('Chave da API').inputValue()).toBe('••••1234');
      expect(await editPrompt.getByLabel('Chave da voz').inputValue()).toBe('••••5678');
      await shot(admin, 'prompts-dialog-dark');
      await admin.setViewportSize({ width: 375, height: 760 });
      await shot(admin, 'prompts-dialog-375-dark');
      await editPrompt.getByRole('button', { name: 'Cancelar' }).click();
      await editPrompt.waitFor({ state: 'hidden' });
      await shot(admin, 'prompts-list-375-dark');
      await page.setViewportSize({ width: 375, height: 760 });
      await shot(page, 'prompts-conversation-375-dark');
    },
    JOURNEY_MS,
  );
});
