import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { signIn, BrowserPool, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { withPlan, type TenantOnPlan } from '../helpers/plans.js';
import { createConnection, customerWrites, eventually } from '../helpers/inbox.js';

const JOURNEY_MS = 120_000;

let server: TestServer;
let tenant: TenantOnPlan;
const browsers = new BrowserPool();

describeE2E('company API tokens', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await withPlan(server);
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an admin creates a scoped token, sees it once, reads tickets with it, and revokes it',
    async () => {
      const admin = await browsers.page();
      await signIn(admin, server.url, tenant.email, tenant.password);
      await admin.getByRole('menuitem', { name: 'Tokens de API' }).click();
      await admin.getByRole('heading', { name: 'Tokens de API' }).waitFor();
      await admin.getByText('Nenhum token de API').waitFor();

      await admin.getByRole('button', { name: 'Novo token' }).click();
      const create = admin.getByRole('dialog', { name: 'Novo token de API' });
      await create.getByRole('button', { name: 'Criar token' }).click();
      await create.getByText('Obrigatório').waitFor();
      await create.getByLabel('Nome').fill('Integração CRM');
      await create.getByRole('button', { name: 'Criar token' }).click();
      await create.getByText('Escolha ao menos uma permissão').waitFor();
      await create.getByLabel('Tickets: Leitura').check();
      await create.getByLabel('Mensagens: Escrita').check();
      expect(await create.getByLabel('Mensagens: Leitura').isChecked()).toBe(true);
      await shot(admin, 'api-tokens-create');
      await create.getByRole('button', { name: 'Criar token' }).click();

      const shown = admin.getByRole('dialog', { name: 'Token Integração CRM criado' });
      await shown.getByText('Copie o token agora: ele não será mostrado de novo.').waitFor();
      const token = await shown.getByLabel('Token de API').inputValue();
      expect(token).toMatch(/^atk_[\w-]{43}$/);
      await shot(admin, 'api-tokens-shown-once');
      await shown.getByRole('button', { name: 'Concluído' }).click();

      const table = admin.getByTestId('api-tokens-table');
      const row = table.getByRole('row', { name: /Integração CRM/ });
      await row.waitFor();
      await row.getByText('Nunca').waitFor();
      await row.getByText('Tickets: Leitura').waitFor();
      expect(await admin.getByText(token).count()).toBe(0);

      const read = await fetch(`${server.url}/api/tickets`, { headers: { Authorization: `Bearer ${token}` } });
      expect(read.status).toBe(200);
      await admin.reload();
      await row.waitFor();
      expect(await row.getByText('Nunca').count()).toBe(0);
      await shot(admin, 'api-tokens-list');

      await row.getByRole('button', { name: 'Revogar Integração CRM' }).click();
      await admin.locator('.ant-popconfirm').getByRole('button', { name: 'Revogar' }).click();
      await admin.getByText('Token Integração CRM revogado').waitFor();
      await admin.getByText('Nenhum token de API').waitFor();
      const refused = await fetch(`${server.url}/api/tickets`, { headers: { Authorization: `Bearer ${token}` } });
      expect(refused.status).toBe(401);
    },
    JOURNEY_MS,
  );

  it(
    'a reply a token sends shows in the conversation as the token\'s',
    async () => {
      // A company of its own: the journey above signed its admin in again, ending the helper's session.
      const tenant = await withPlan(server);
      const connectionId = await createConnection(server, tenant, 'Principal');
      const number = '5511955554444';
      await customerWrites(server, tenant, connectionId, { from: number, body: 'Meu pedido saiu?' });
      const ticket: { id: number; uuid: string } = await eventually(
        async () =>
          server.atende.container.db('tickets').join('contacts', 'contacts.id', 'tickets.contact_id').where({ 'tickets.company_id': tenant.companyId, 'contacts.number': number }).first('tickets.id', 'tickets.uuid'),
        10_000,
        'the ticket',
      );
      const made = await server.call('POST', '/api/api-tokens', { token: tenant.token, body: { name: 'ERP Loja', scopes: ['tickets:write', 'messages:write'] } });
      const token = made.body.token as string;
      expect((await server.call('PUT', `/api/tickets/${ticket.id}`, { token, body: { status: 'open' } })).status).toBe(200);
      expect((await server.call('POST', `/api/messages/${ticket.id}`, { token, body: { body: 'Saiu hoje cedo' } })).status).toBe(201);
      expect((await server.call('POST', `/api/messages/${ticket.id}`, { token: tenant.token, body: { body: 'Qualquer dúvida, estou aqui' } })).status).toBe(201);

      const admin = await browsers.page();
      await signIn(admin, server.url, tenant.email, tenant.password, `/tickets/${ticket.uuid}`);
      const byToken = admin.getByTestId('message').filter({ hasText: 'Saiu hoje cedo' });
      await byToken.getByTestId('message-api-token').getByText('via token ERP Loja').waitFor();
      const byAdmin = admin.getByTestId('message').filter({ hasText: 'Qualquer dúvida, estou aqui' });
      await byAdmin.waitFor();
      expect(await byAdmin.getByTestId('message-api-token').count()).toBe(0);
      await shot(admin, 'api-tokens-conversation-via-token');
    },
    JOURNEY_MS,
  );

  it(
    'the API docs page shows the OpenAPI document in Swagger UI',
    async () => {
      const page = await browsers.page();
      await page.goto(`${server.url}/api/docs`);
      await page.getByRole('heading', { name: /Atende API/ }).waitFor();
      await page.getByText('List tickets').first().waitFor();
      await page.getByText("Send through a connection with the connection's token").first().waitFor();
      await shot(page, 'api-docs');
    },
    JOURNEY_MS,
  );
});
