import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { chooseOption, signIn, BrowserPool, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { expectPlanHidesPage } from './plan-gate.js';
import { startFakeTypebot, startFakeWebhook, textBubble, type FakeTypebot, type FakeWebhook } from '../helpers/fake-bots.js';
import { serviceAccount, startFakeDialogflow, type FakeDialogflow } from '../helpers/fake-dialogflow.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createQueue, customerWrites, eventually, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';
import { withPlan, type TenantOnPlan } from '../helpers/plans.js';

const JOURNEY_MS = 180_000;
const CUSTOMER = { from: '5511955558001', name: 'Rita Campos' };

let server: TestServer;
let hook: FakeWebhook;
let typebot: FakeTypebot;
let dialogflow: FakeDialogflow;
/** A service-account key the fake Dialogflow's token endpoint trusts. */
let dialogflowKey: ReturnType<typeof serviceAccount>;
let tenant: TenantOnPlan;
/** Signs in through no browser: sends the customer's messages through the simulator. */
let operator: InboxTenant;
let agent: Member;
let queueId: number;
let connectionId: number;
const browsers = new BrowserPool();

const row = (scope: Locator, name: string) => scope.getByRole('option', { name, exact: true });

describeE2E('Queue integrations', () => {
  beforeAll(async () => {
    hook = await startFakeWebhook();
    typebot = await startFakeTypebot();
    dialogflow = await startFakeDialogflow(() => [dialogflowKey.publicKey]);
    dialogflowKey = serviceAccount(dialogflow.tokenUri);
    server = await startTestServer({ simulator: true, allowPrivateUrls: true, pluginConfig: { integrations: { dialogflowUrl: dialogflow.url } } });
    tenant = await withPlan(server, { limits: { connections: 3, queues: 3 } });
    queueId = await createQueue(server, tenant, 'Suporte humano');
    agent = await createMember(server, tenant, 'agente', { queueIds: [queueId] });
    operator = { ...tenant, admin: await createMember(server, tenant, 'operador', { profile: 'admin' }) };
    connectionId = await createConnection(server, tenant, 'Loja Online');
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
    await hook?.close();
    await typebot?.close();
    await dialogflow?.close();
  });

  it(
    'an admin creates a typebot and a webhook integration, tests each, attaches them; a customer talks to the typebot and is handed to an agent who sees the exchange, the bot marked',
    async () => {
      typebot.start = () => ({ messages: [textBubble('Olá! ', { text: 'Bem-vindo', bold: true }, ' à Loja Online.')], input: { type: 'choice input', items: ['Vendas', 'Falar com atendente'] } });
      typebot.reply = (text) =>
        text === 'Falar com atendente'
          ? { messages: [textBubble('Um momento, vou transferir.'), textBubble(`#{"queueId":${queueId}}`)] }
          : { messages: [textBubble(`Você escolheu ${text}.`)] };
      hook.answer = (call) => ({ body: { reply: `Recebi: ${call.body.message.body}` } });

      const admin = await browsers.page();
      await signIn(admin, server.url, tenant.email, tenant.password);
      await admin.getByRole('menuitem', { name: 'Integrações' }).click();
      await admin.getByRole('heading', { name: 'Integrações' }).waitFor();
      await admin.getByText('Nenhuma integração').waitFor();
      await shot(admin, 'integrations-empty-light');

      // A typebot: its fields, the test-bot button showing the flow's first messages.
      await admin.getByRole('button', { name: 'Adicionar integração' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar integração' });
      expect(await dialog.getByLabel('Expira em (minutos)').inputValue()).toBe('1');
      expect(await dialog.getByLabel('Intervalo entre mensagens (ms)').inputValue()).toBe('1000');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Obrigatório').first().waitFor();
      await dialog.getByLabel('Nome').fill('Fluxo da loja');
      await dialog.getByLabel('URL do Typebot').fill(typebot.url);
      await dialog.getByLabel('Typebot (slug)').fill(typebot.slug);
      await dialog.getByLabel('Intervalo entre mensagens (ms)').fill('0');
      await dialog.getByLabel('Palavra para finalizar o ticket').fill('sair');
      await dialog.getByRole('button', { name: 'Testar bot' }).click();
      const result = dialog.getByTestId('integration-test-result');
      await result.getByText('O bot respondeu').waitFor();
      await result.getByText('Olá! *Bem-vindo* à Loja Online.').waitFor();
      await shot(admin, 'integrations-dialog-typebot-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const table = admin.getByTestId('integrations-table');
      await table.getByText('Fluxo da loja').waitFor();
      await table.getByTestId('integration-logo-typebot').waitFor();

      // A webhook: its key shown once, then its test signed with it.
      await admin.getByRole('button', { name: 'Adicionar integração' }).click();
      await chooseOption(admin, dialog.getByLabel('Tipo'), 'Webhook');
      await dialog.getByLabel('Nome').fill('Fluxo externo');
      await dialog.getByLabel('URL do webhook').fill(hook.url);
      await shot(admin, 'integrations-dialog-webhook-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      const secret = admin.getByTestId('integration-secret');
      await secret.waitFor();
      hook.secret = (await secret.innerText()).trim();
      expect(hook.secret).toMatch(/^whsec_/);
      await shot(admin, 'integrations-secret-light');
      await admin.getByRole('button', { name: 'OK' }).click();
      await table.getByText('Fluxo externo').waitFor();
      await table.getByRole('button', { name: 'Editar a integração Fluxo externo' }).click();
      const edit = admin.getByRole('dialog', { name: 'Editar integração' });
      await expect.poll(() => edit.getByLabel('URL do webhook').inputValue()).toBe(hook.url);
      await edit.getByRole('button', { name: 'Testar bot' }).click();
      await edit.getByTestId('integration-test-result').getByText('Recebi: Olá').waitFor();
      expect(hook.calls.at(-1)!.signed).toBe(true);
      await shot(admin, 'integrations-dialog-webhook-tested-light');
      await edit.getByRole('button', { name: 'Cancelar' }).click();
      await edit.waitFor({ state: 'hidden' });

      // A failing service: the test shows its error.
      await admin.getByRole('button', { name: 'Adicionar integração' }).click();
      await chooseOption(admin, dialog.getByLabel('Tipo'), 'n8n');
      await dialog.getByLabel('Nome').fill('Fluxo quebrado');
      await dialog.getByLabel('URL do webhook do n8n').fill(`${hook.base}/nao-existe`);
      await dialog.getByRole('button', { name: 'Testar bot' }).click();
      await dialog.getByTestId('integration-test-result').getByText('O bot não respondeu').waitFor();
      await dialog.getByTestId('integration-test-result').getByText(/HTTP 404/).waitFor();
      await shot(admin, 'integrations-dialog-n8n-error-light');
      await chooseOption(admin, dialog.getByLabel('Tipo'), 'Dialogflow');
      await dialog.getByLabel('Nome', { exact: true }).fill('Agente Dialogflow');
      await dialog.getByLabel('Nome do projeto').fill('loja-agente');
      await dialog.getByLabel('JSON da conta de serviço').fill(dialogflowKey.json);
      await dialog.getByRole('button', { name: 'Testar bot' }).click();
      await dialog.getByTestId('integration-test-result').getByText('O bot respondeu').waitFor();
      await dialog.getByTestId('integration-test-result').getByText('Dialogflow: Olá').waitFor();
      expect(dialogflow.tokens.at(-1)!.signedByKey).toBe(true);
      await shot(admin, 'integrations-dialog-dialogflow-light');
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await shot(admin, 'integrations-list-light');

      // The webhook joins the queue dialog, the typebot the connection's Integrações tab.
      await admin.goto(`${server.url}/queues`);
      await admin.getByRole('button', { name: /Editar.*Suporte humano/ }).click();
      const queueDialog = admin.getByRole('dialog');
      await chooseOption(admin, queueDialog.getByLabel('Integração'), 'Fluxo externo (Webhook)');
      await shot(admin, 'integrations-queue-dialog-light');
      await queueDialog.getByRole('button', { name: 'Salvar' }).click();
      await queueDialog.waitFor({ state: 'hidden' });
      const queue = await server.call('GET', `/api/queue/${queueId}`, { token: operator.admin.token });
      expect(queue.body.integrationId).toEqual(expect.any(Number));
      // Back to no bot on the queue: the agent answers there.
      await server.call('PUT', `/api/queue/${queueId}`, { token: operator.admin.token, body: { integrationId: null } });

      await admin.goto(`${server.url}/connections`);
      await admin.getByRole('button', { name: 'Editar Loja Online' }).click();
      const connection = admin.getByRole('dialog', { name: 'Editar WhatsApp' });
      await expect.poll(() => connection.getByLabel('Nome').inputValue()).toBe('Loja Online');
      await connection.getByRole('tab', { name: 'Integrações' }).click();
      await chooseOption(admin, connection.getByLabel('Integração'), 'Fluxo da loja (Typebot)');
      await shot(admin, 'integrations-connection-tab-light');
      await connection.getByRole('button', { name: 'Salvar' }).click();
      await connection.waitFor({ state: 'hidden' });
      expect((await server.call('GET', `/api/whatsapp/${connectionId}`, { token: operator.admin.token })).body.integrationId).toEqual(expect.any(Number));

      // The customer talks to the typebot: the admin's list shows the bot holding the ticket.
      await admin.goto(`${server.url}/tickets`);
      await admin.getByRole('tab', { name: /Aguardando/ }).click();
      typebot.requests.length = 0; // the test button's chat
      await customerWrites(server, operator, connectionId, { ...CUSTOMER, body: 'Oi' });
      const pending = admin.getByTestId('tickets-pending');
      await row(pending, CUSTOMER.name).getByTestId('ticket-bot').waitFor();
      await eventually(async () => typebot.requests.length === 1, 10_000, 'the typebot started');
      expect(typebot.requests[0]!.body.prefilledVariables).toMatchObject({ number: CUSTOMER.from, name: CUSTOMER.name });
      await customerWrites(server, operator, connectionId, { ...CUSTOMER, body: 'Falar com atendente' });
      await eventually(async () => typebot.requests.length === 2, 10_000, 'the typebot continued');

      // The agent of the queue the flow named gets the ticket, bot off, and reads the whole exchange.
      const page = await browsers.page();
      await signIn(page, server.url, agent.email, PASSWORD, '/tickets');
      await page.getByRole('tab', { name: /Aguardando/ }).click();
      const waiting = row(page.getByTestId('tickets-pending'), CUSTOMER.name);
      await waiting.waitFor();
      expect(await waiting.getByTestId('ticket-bot').count()).toBe(0);
      await waiting.getByRole('button', { name: `Aceitar o ticket de ${CUSTOMER.name}` }).click();
      const conversation = page.getByTestId('conversation');
      await conversation.getByText('Um momento, vou transferir.').waitFor();
      await expect.poll(() => conversation.getByTestId('message').count()).toBeGreaterThanOrEqual(5);
      const bodies = await conversation.getByTestId('message-body').allInnerTexts();
      expect(bodies.slice(0, 5)).toEqual(['Oi', 'Olá! Bem-vindo à Loja Online.', '▶️ Vendas\n▶️ Falar com atendente', 'Falar com atendente', 'Um momento, vou transferir.']);
      expect(bodies.join('\n')).not.toContain('queueId');
      expect(await conversation.getByTestId('message-bot').count()).toBe(3);
      await shot(page, 'integrations-conversation-light');

      // Dark theme, then a phone's width.
      await admin.goto(`${server.url}/queue-integration`);
      await admin.getByTestId('theme-toggle').click();
      await table.getByText('Fluxo da loja').waitFor();
      await shot(admin, 'integrations-list-dark');
      await table.getByRole('button', { name: 'Editar a integração Fluxo da loja' }).click();
      const editTypebot = admin.getByRole('dialog', { name: 'Editar integração' });
      await expect.poll(() => editTypebot.getByLabel('Typebot (slug)').inputValue()).toBe(typebot.slug);
      await shot(admin, 'integrations-dialog-typebot-dark');
      await admin.setViewportSize({ width: 375, height: 760 });
      await shot(admin, 'integrations-dialog-375-dark');
      await editTypebot.getByRole('button', { name: 'Cancelar' }).click();
      await editTypebot.waitFor({ state: 'hidden' });
      await shot(admin, 'integrations-list-375-dark');
    },
    JOURNEY_MS,
  );

  it(
    'a company whose plan has no integrations sees no Integrações entry, and /queue-integration is denied',
    async () => {
      await expectPlanHidesPage(server, await browsers.page(), 'useIntegrations', { menu: 'Integrações', path: '/queue-integration' });
    },
    JOURNEY_MS,
  );
});
