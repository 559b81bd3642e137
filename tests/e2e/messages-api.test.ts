import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { signIn, BrowserPool, shot } from './browser.js';
import { expectPlanHidesPage } from './plan-gate.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, eventually, outbox, type InboxTenant } from '../helpers/inbox.js';
import { withPlan, type TenantOnPlan } from '../helpers/plans.js';

const JOURNEY_MS = 120_000;
const CUSTOMER = '5511955558001';

let server: TestServer;
let tenant: TenantOnPlan;
/** Another admin reads the simulator's outbox: signing in through the browser ends the first admin's API session. */
let operator: InboxTenant;
let connectionId: number;
const browsers = new BrowserPool();

describeE2E('messages API token', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await withPlan(server, { limits: { connections: 2 } });
    connectionId = await createConnection(server, tenant, 'Loja API');
    operator = { ...tenant, admin: await createMember(server, tenant, 'operador', { profile: 'admin' }) };
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    "an admin generates the connection's token in its dialog, sees it once, and sends with it from the messages API page",
    async () => {
      const admin = await browsers.page();
      await signIn(admin, server.url, tenant.email, tenant.password);
      await admin.getByRole('menuitem', { name: 'Conexões' }).click();
      await admin.getByRole('heading', { name: 'Conexões' }).waitFor();
      await admin.getByRole('button', { name: 'Editar Loja API' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Editar WhatsApp' });
      await dialog.getByText('Esta conexão ainda não tem token.').waitFor();
      await dialog.getByRole('button', { name: 'Gerar token' }).click();
      await dialog.getByText('Copie o token agora: ele não será mostrado de novo.').waitFor();
      const token = await dialog.getByLabel('Token da API de mensagens').inputValue();
      expect(token).toMatch(/^atd_/);
      await dialog.getByRole('button', { name: 'Trocar o token' }).waitFor();
      await shot(admin, 'messages-api-token-box');

      await dialog.getByRole('button', { name: 'Cancelar' }).click();

      // The page's text form sends with it through the simulator.
      await admin.getByRole('menuitem', { name: 'API de mensagens' }).click();
      await admin.getByRole('heading', { name: 'API de mensagens' }).waitFor();
      const textForm = admin.locator('form#messages-api-text');
      await textForm.getByLabel('Token').fill(token);
      await textForm.getByLabel('Número').fill('+55 11 95555-8001');
      await textForm.getByLabel('Mensagem').fill('Pedido confirmado');
      await textForm.getByRole('button', { name: 'Enviar' }).click();
      await textForm.getByText('Somente números').waitFor();
      await textForm.getByLabel('Número').fill(CUSTOMER);
      await textForm.getByRole('button', { name: 'Enviar' }).click();
      await admin.getByText('Mensagem enviada com sucesso').waitFor();
      await eventually(async () => (await outbox(server, operator, connectionId)).messages.some((m) => m.to.startsWith(CUSTOMER) && m.body === 'Pedido confirmado'), 10_000, 'the message');
      await shot(admin, 'messages-api-page');

      // Reopened, the dialog tells the token exists but never shows it again.
      await admin.getByRole('menuitem', { name: 'Conexões' }).click();
      await admin.getByRole('heading', { name: 'Conexões' }).waitFor();
      await admin.getByRole('button', { name: 'Editar Loja API' }).click();
      await dialog.getByText(/Token ativo desde/).waitFor();
      expect(await dialog.getByText('Copie o token agora: ele não será mostrado de novo.').count()).toBe(0);
      await dialog.getByRole('button', { name: 'Revogar' }).click();
      await admin.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
      await dialog.getByText('Esta conexão ainda não tem token.').waitFor();
      const refused = await fetch(`${server.url}/api/messages/send`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ number: CUSTOMER, body: 'Depois de revogado' }),
      });
      expect(refused.status).toBe(401);
    },
    JOURNEY_MS,
  );

  it(
    'a company whose plan has no external API sees no entry, and /messages-api is denied',
    async () => {
      await expectPlanHidesPage(server, await browsers.page(), 'useExternalApi', { menu: 'API de mensagens', path: '/messages-api' });
    },
    JOURNEY_MS,
  );
});
