import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { signIn, BrowserPool, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { createTenant, PASSWORD, type InboxTenant } from '../helpers/inbox.js';
import { REFUSAL, REFUSED_CARD, startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas.js';

const JOURNEY_MS = 150_000;
const WEBHOOK_TOKEN = 'e2e-webhook-token';

let server: TestServer;
let fake: FakeAsaas;
let tenant: InboxTenant;
let max: { id: number };
const browsers = new BrowserPool();

describeE2E('billing through Asaas', () => {
  beforeAll(async () => {
    fake = await startFakeAsaas();
    server = await startTestServer({
      allowPrivateUrls: true,
      pluginConfig: { billing: { provider: 'asaas', asaasUrl: fake.url, asaasKey: fake.key, asaasWebhookToken: WEBHOOK_TOKEN } },
    });
    fake.webhook.url = `${server.url}/api/asaas/webhook`;
    fake.webhook.token = WEBHOOK_TOKEN;
    const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const pro = await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Pro', users: 5, connections: 2, queues: 5, value: 149.9 } });
    max = (await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Max', users: 10, connections: 4, queues: 10, value: 199.9 } })).body;
    tenant = await createTenant(server, 'Loja Cartao');
    await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId: pro.body.id, dueDate: '2099-01-31', recurrence: 'MENSAL' } });
    await server.atende.container.jobs.now('billing.due-dates', {});
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it(
    'an admin creates the customer, subscribes by card on /financeiro, sees the payment, the paid invoice live, and changes the plan',
    async () => {
      const page = await browsers.page();
      await signIn(page, server.url, tenant.admin.email, PASSWORD, '/financeiro');
      await page.getByRole('heading', { name: 'Faturas da Companhia Loja Cartao' }).waitFor();
      await page.getByText('Não foi criado o cliente.').waitFor();
      await page.getByText(/Não existe nenhuma assinatura para essa empresa/).waitFor();
      for (const tab of ['Pagamentos', 'Assinaturas', 'Faturas', 'Planos']) {
        expect(await page.getByRole('tab', { name: tab }).getAttribute('aria-disabled')).toBe('true');
      }
      await shot(page, 'billing-asaas-card-tab-light');

      await page.getByTestId('customer-document').fill('52998224725');
      expect(await page.getByTestId('customer-document').inputValue()).toBe('529.982.247-25');
      await page.getByRole('button', { name: 'Criar Cliente' }).click();
      await page.getByText('Cliente criado com sucesso.').waitFor();
      await page.getByRole('button', { name: 'Criar Cliente' }).waitFor({ state: 'detached' });

      const form = page.getByTestId('card-form');
      await form.getByLabel('Número do cartão').fill(REFUSED_CARD);
      expect(await form.getByLabel('Número do cartão').inputValue()).toBe('4111 1111 1111 1111');
      await form.getByLabel('Nome impresso no cartão').fill('Maria da Silva');
      await form.getByLabel('Validade (MM/AAAA)').fill('052031');
      expect(await form.getByLabel('Validade (MM/AAAA)').inputValue()).toBe('05/2031');
      await form.getByLabel('CCV').fill('318');
      await form.getByLabel('CEP').fill('89223005');
      expect(await form.getByLabel('CEP').inputValue()).toBe('89223-005');
      await form.getByLabel('Número do endereço').fill('277');
      await page.getByRole('button', { name: 'Assinar' }).click();
      await page.getByText(REFUSAL).waitFor();
      await shot(page, 'billing-asaas-card-refused-light');

      await form.getByLabel('Número do cartão').fill('5162306219378829');
      await page.getByRole('button', { name: 'Assinar' }).click();
      await page.getByText('Assinatura criada com sucesso.').waitFor();
      await page.getByRole('tab', { name: 'Cartão de Crédito' }).waitFor({ state: 'detached' });
      const payments = page.getByTestId('payments-table');
      await payments.getByText('Aguardando pagamento').waitFor();
      await payments.getByText('R$ 149,90').waitFor();
      expect([...fake.subscriptions.values()]).toHaveLength(1);
      await shot(page, 'billing-asaas-payments-light');

      // Asaas confirms the charge: the invoice is paid and the page hears it.
      const payment = [...fake.payments.values()][0]!;
      expect((await fake.pay(payment.id)).body).toEqual({ received: true, outcome: 'paid' });
      await page.getByText('Pagamento confirmado! Sua licença foi renovada até 28/02/2099.').waitFor();
      await page.getByText('Assinatura atualizada com sucesso.').waitFor();
      await payments.getByText('Recebido').waitFor();
      await page.getByRole('tab', { name: 'Faturas' }).click();
      const invoices = page.getByTestId('invoices-table');
      await invoices.getByRole('row', { name: /31\/01\/2099/ }).getByText('Pago', { exact: true }).waitFor();
      await invoices.getByRole('row', { name: /28\/02\/2099/ }).getByText('Em Aberto').waitFor();
      await shot(page, 'billing-asaas-invoices-light');
      // The open invoice's Pix is Asaas's charge for it: its QR image and copy-and-paste code.
      await invoices.getByRole('row', { name: /28\/02\/2099/ }).getByRole('button', { name: 'Pagar com Pix' }).click();
      const pixDialog = page.getByRole('dialog', { name: 'Pagar com Pix' });
      await pixDialog.getByRole('img', { name: 'Pagar com Pix' }).waitFor();
      expect(await pixDialog.getByTestId('pix-payload').innerText()).toMatch(/^00020126PIXFAKEpay_\d+/);
      await shot(page, 'billing-asaas-pix-light');
      await pixDialog.getByRole('button', { name: 'Fechar' }).last().click();
      await pixDialog.waitFor({ state: 'hidden' });

      await page.getByRole('tab', { name: 'Assinaturas' }).click();
      await page.getByTestId('subscriptions-table').getByText('MASTERCARD •••• 8829').waitFor();
      await shot(page, 'billing-asaas-subscriptions-light');

      await page.getByRole('tab', { name: 'Planos' }).click();
      const maxCard = page.getByTestId(`plan-${max.id}`);
      await maxCard.getByText('R$ 199,90 / mês').waitFor();
      await maxCard.getByRole('button', { name: 'Alterar para este plano' }).click();
      await page.getByText('Alterado com sucesso').waitFor();
      await maxCard.getByText('Plano atual').waitFor();
      expect([...fake.subscriptions.values()][0]!.value).toBe(199.9);
      await shot(page, 'billing-asaas-plans-light');

      await page.getByRole('tab', { name: 'Assinaturas' }).click();
      await page.getByTestId('subscriptions-table').getByRole('button', { name: 'Remover' }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Remover' }).click();
      await page.getByText('Assinatura removido com sucesso.').waitFor();
      await page.getByRole('tab', { name: 'Cartão de Crédito' }).waitFor();
      expect([...fake.subscriptions.values()][0]!.deleted).toBe(true);
    },
    JOURNEY_MS,
  );
});
