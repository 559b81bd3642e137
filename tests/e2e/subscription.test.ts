import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BrowserPool, loginThroughUi, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { createMember, createTenant, PASSWORD, type InboxTenant } from '../helpers/inbox.js';

let server: TestServer;
let tenant: InboxTenant;
const browsers = new BrowserPool();

describeE2E('the subscription page', () => {
  beforeAll(async () => {
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test' } } });
    const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const plan = await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Pro', users: 5, connections: 2, queues: 5, value: 149.9 } });
    // Below the company's two users: the checkout refuses it.
    await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Solo', users: 1, connections: 2, queues: 5, value: 59.9 } });
    tenant = await createTenant(server, 'Loja Teste');
    await createMember(server, tenant, 'agente');
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId: plan.body.id, dueDate: due, recurrence: 'MENSAL' } });
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a trial admin subscribes through the three steps and gets the Pix; a plan below the company’s users is refused', async () => {
    const page = await browsers.page();
    await loginThroughUi(page, server.url, tenant.admin.email, PASSWORD);
    await page.getByRole('menuitem', { name: 'Assinatura' }).click();
    await page.getByTestId('trial-left').getByText('Seu período de teste termina em 3 dias.').waitFor();
    await page.getByText(tenant.admin.email).waitFor();
    await shot(page, 'subscription-page');
    await page.getByRole('button', { name: 'Assine Agora!' }).click();
    const dialog = page.getByRole('dialog', { name: 'Falta pouco!' });
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByText('O nome completo é obrigatório').waitFor();
    await dialog.getByText('CEP é obrigatório').waitFor();
    await dialog.getByLabel('Nome completo').fill('Maria Souza');
    await dialog.getByLabel('Endereço').fill('Rua das Flores, 10');
    await dialog.getByLabel('Cidade').fill('São Paulo');
    await dialog.getByLabel('CEP').fill('01001-000');
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByTestId('checkout-plans').getByText('Pro').waitFor();
    await shot(page, 'subscription-plan');
    await dialog.getByTestId('checkout-plans').getByText('Solo').click();
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByRole('button', { name: 'Pagar' }).click();
    await dialog.getByTestId('checkout-error').getByText('O plano escolhido permite menos usuários do que a empresa já tem. Remova usuários antes de trocar de plano.').waitFor();
    await shot(page, 'subscription-plan-below-users');
    await dialog.getByRole('button', { name: 'Voltar' }).click();
    await dialog.getByTestId('checkout-plans').getByText('Pro').click();
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByTestId('checkout-review').getByText('Maria Souza').waitFor();
    expect(await dialog.getByTestId('checkout-error').count()).toBe(0);
    await shot(page, 'subscription-review');
    await dialog.getByRole('button', { name: 'Pagar' }).click();
    await dialog.getByTestId('checkout-pix').waitFor();
    await dialog.locator('canvas, svg').first().waitFor();
    expect(await dialog.getByTestId('checkout-price').innerText()).toMatch(/^R\$\s149,90\/mês$/);
    expect(await dialog.getByTestId('checkout-payload').innerText()).toMatch(/^000201.*5406149\.90.*6304[0-9A-F]{4}$/);
    await shot(page, 'subscription-pix');
  });
});
