import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { loginThroughUi, BrowserPool, shot } from './browser.js';
import type { Page } from 'playwright-core';
import { describeE2E } from './setup.js';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { createTenant, PASSWORD, type InboxTenant } from '../helpers/inbox.js';

const JOURNEY_MS = 120_000;

let server: TestServer;
let tenant: InboxTenant;
const browsers = new BrowserPool();

describeE2E('billing in manual mode', () => {
  beforeAll(async () => {
    server = await startTestServer({
      pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test', pixName: 'Atende', pixCity: 'Sao Paulo' } },
    });
    const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const plan = await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Pro', users: 5, connections: 2, queues: 5, value: 149.9 } });
    tenant = await createTenant(server, 'Loja Fatura');
    await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId: plan.body.id, dueDate: '2099-01-31', recurrence: 'MENSAL' } });
    await server.atende.container.jobs.now('billing.due-dates', {});
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an admin sees the open invoice and its Pix; a super user marks it paid and the admin’s page renews live',
    async () => {
      const admin = await browsers.page();
      await loginThroughUi(admin, server.url, tenant.admin.email, PASSWORD);
      await admin.getByRole('menuitem', { name: 'Assinatura' }).waitFor();
      await admin.getByRole('menuitem', { name: 'Financeiro' }).click();
      await admin.getByRole('heading', { name: 'Faturas da Companhia Loja Fatura' }).waitFor();
      const table = admin.getByTestId('invoices-table');
      const row = table.getByRole('row', { name: /31\/01\/2099/ });
      await row.getByText('Em Aberto').waitFor();
      await row.getByText('R$ 149,90').waitFor();
      await shot(admin, 'billing-invoices-open-light');

      await row.getByRole('button', { name: 'Pagar com Pix' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Pagar com Pix' });
      const payload = dialog.getByTestId('pix-payload');
      await payload.waitFor();
      expect(await payload.innerText()).toMatch(/^000201.*br\.gov\.bcb\.pix.*5406149\.90.*6304[0-9A-F]{4}$/);
      await dialog.locator('canvas, svg').first().waitFor();
      await shot(admin, 'billing-pix-light');
      await dialog.getByRole('button', { name: 'Fechar' }).last().click();
      await dialog.waitFor({ state: 'hidden' });

      const owner = await browsers.page();
      await loginThroughUi(owner, server.url, SUPER_EMAIL, SUPER_PASSWORD);
      await owner.getByRole('menuitem', { name: 'Promoções' }).waitFor();
      await owner.goto(`${server.url}/financeiro`);
      await owner.getByRole('heading', { name: 'Faturas de todas as empresas' }).waitFor();
      const ownerRow = owner.getByTestId('invoices-table').getByRole('row', { name: /Loja Fatura/ });
      await ownerRow.getByRole('button', { name: 'Marcar como paga' }).click();
      await owner.getByText('Confirmar o recebimento de R$ 149,90 de Loja Fatura?').waitFor();
      await shot(owner, 'billing-mark-paid-light');
      await owner.locator('.ant-popconfirm').getByRole('button', { name: 'Marcar como paga' }).click();
      await owner.getByText('Fatura marcada como paga.').waitFor();

      // The tenant's page hears the payment: the toast, the paid invoice and the next one.
      await admin.getByText('Pagamento confirmado! Sua licença foi renovada até 28/02/2099.').waitFor();
      await admin.getByText('Ativo até 28/02/2099').waitFor();
      await table.getByRole('row', { name: /31\/01\/2099/ }).getByText('Pago', { exact: true }).waitFor();
      await table.getByRole('row', { name: /28\/02\/2099/ }).getByText('Em Aberto').waitFor();
      await expect.poll(() => table.getByRole('row', { name: /31\/01\/2099/ }).getByRole('button', { name: 'PAGO' }).isDisabled()).toBe(true);
      await shot(admin, 'billing-invoices-paid-light');
    },
    JOURNEY_MS,
  );
});

/** Billing's three menu entries, none of which an installation without a provider shows. */
const BILLING_MENU = ['Financeiro', 'Assinatura', 'Promoções'];

async function billingMenuOf(page: Page): Promise<string[]> {
  await page.getByRole('menuitem', { name: 'Configurações' }).waitFor();
  const shown: string[] = [];
  for (const name of BILLING_MENU) if ((await page.getByRole('menuitem', { name }).count()) > 0) shown.push(name);
  return shown;
}

describeE2E('billing turned off', () => {
  let off: TestServer;
  let shop: InboxTenant;
  beforeAll(async () => {
    off = await startTestServer();
    shop = await createTenant(off, 'Loja Sem Cobranca');
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await off?.close();
  });

  it(
    'shows neither an admin nor a super user its menu entries, and its pages are denied',
    async () => {
      const admin = await browsers.page();
      await loginThroughUi(admin, off.url, shop.admin.email, PASSWORD);
      expect(await billingMenuOf(admin)).toEqual([]);
      await shot(admin, 'billing-off-admin-menu-light');
      await admin.goto(`${off.url}/financeiro`);
      await admin.getByTestId('denied').waitFor();

      const owner = await browsers.page();
      await loginThroughUi(owner, off.url, SUPER_EMAIL, SUPER_PASSWORD);
      expect(await billingMenuOf(owner)).toEqual([]);
      await shot(owner, 'billing-off-super-menu-light');
      await owner.goto(`${off.url}/promotions`);
      await owner.getByTestId('denied').waitFor();
    },
    JOURNEY_MS,
  );
});
