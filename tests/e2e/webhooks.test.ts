import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { signIn, BrowserPool, shot } from './browser.js';
import { expectPlanHidesPage } from './plan-gate.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, customerWrites, eventually, type InboxTenant } from '../helpers/inbox.js';
import { withPlan, type TenantOnPlan } from '../helpers/plans.js';

const JOURNEY_MS = 120_000;

let server: TestServer;
let tenant: TenantOnPlan;
/** Another admin drives the simulator: signing in through the browser ends the first admin's API session. */
let operator: InboxTenant;
let connectionId: number;
let receiver: Server;
let receiverUrl: string;
const received: { event: string; id: string }[] = [];
const browsers = new BrowserPool();

describeE2E('webhooks page', () => {
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: string; id: string });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/atende`;
    server = await startTestServer({ simulator: true, allowPrivateUrls: true });
    tenant = await withPlan(server, {});
    connectionId = await createConnection(server, tenant, 'Loja');
    operator = { ...tenant, admin: await createMember(server, tenant, 'operador', { profile: 'admin' }) };
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it(
    'an admin registers a webhook, keeps its secret, and sees the delivery of a customer message listed',
    async () => {
      const admin = await browsers.page();
      await signIn(admin, server.url, tenant.email, tenant.password);
      await admin.getByRole('menuitem', { name: 'Webhooks' }).click();
      await admin.getByRole('heading', { name: 'Webhooks' }).waitFor();
      await admin.getByText('Nenhum webhook cadastrado.').waitFor();

      await admin.getByRole('button', { name: 'Novo webhook' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Novo webhook' });
      await dialog.getByLabel('URL').fill(receiverUrl);
      await dialog.getByRole('checkbox', { name: /Status da mensagem/ }).uncheck();
      await shot(admin, 'webhooks-create');
      await dialog.getByRole('button', { name: 'Salvar' }).click();

      const secretDialog = admin.getByRole('dialog', { name: 'Segredo do webhook' });
      await secretDialog.getByText('Guarde o segredo: ele assina cada entrega. Administradores podem vê-lo de novo aqui.').waitFor();
      const secret = await secretDialog.getByRole('textbox', { name: 'Segredo' }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await shot(admin, 'webhooks-secret');
      await secretDialog.locator('.ant-modal-footer').getByRole('button', { name: 'Fechar' }).click();

      const card = admin.locator('.ant-card', { hasText: receiverUrl });
      await card.getByText('Nenhuma entrega ainda.').waitFor();
      expect(await card.getByText('Status da mensagem').count()).toBe(0);

      await customerWrites(server, operator, connectionId, { from: '5511955557001', name: 'Bruna', body: 'Quero falar com vocês' });
      await card.getByRole('row', { name: /Mensagem recebida/ }).getByText('Entregue').waitFor({ timeout: 15_000 });
      await card.getByRole('row', { name: /Ticket criado/ }).getByText('204').waitFor();
      await eventually(async () => received.some((r) => r.event === 'message.received'), 10_000, 'the receiver');
      await shot(admin, 'webhooks-deliveries');

      // Resend: the same event id reaches the receiver again.
      const row = card.getByRole('row', { name: /Mensagem recebida/ });
      const before = received.filter((r) => r.event === 'message.received').length;
      await row.getByRole('button', { name: /^Reenviar/ }).click();
      await admin.getByText('Reenvio agendado').waitFor();
      await eventually(async () => received.filter((r) => r.event === 'message.received').length === before + 1, 10_000, 'the resent event');
      const ids = received.filter((r) => r.event === 'message.received').map((r) => r.id);
      expect(new Set(ids).size).toBe(1);

      // The secret can be read again by an admin.
      await card.getByRole('button', { name: 'Ver segredo' }).click();
      expect(await secretDialog.getByRole('textbox', { name: 'Segredo' }).inputValue()).toBe(secret);
    },
    JOURNEY_MS,
  );

  it(
    'a company whose plan has no external API sees no entry, and /webhooks is denied',
    async () => {
      await expectPlanHidesPage(server, await browsers.page(), 'useExternalApi', { menu: 'Webhooks', path: '/webhooks' });
    },
    JOURNEY_MS,
  );
});
