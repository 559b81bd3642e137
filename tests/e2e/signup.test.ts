import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BrowserPool, loginThroughUi, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { REFUSAL, REFUSED_CARD, startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas.js';

/** Self-signup as a visitor lives it: login page → Empresa → (Cartão, with a card provider) → Finalizando → login as the new admin. */
let server: TestServer;
let planId: number;
const browsers = new BrowserPool();
/** The plan as the select shows it: its monthly price in reais (Intl puts a no-break space after R$). */
const PRO_LABEL = /^Pro – R\$\s149,90\/mês$/;

describeE2E('self-signup', () => {
  beforeAll(async () => {
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test' } } });
    await server.atende.container.services.companies.createTenant({ name: 'Padaria Existente', email: 'dono@existente.test', password: 'segredo1' });
    planId = (await server.atende.container.services.plans.create({ name: 'Pro', users: 5, connections: 2, queues: 5, value: 149.9 })).id;
  });

  afterEach(async () => {
    await browsers.closeAll();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('signs a company up through the steps and logs in as its admin', async () => {
    const page = await browsers.page();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Registre, agora mesmo!' }).click();
    await page.waitForURL(/\/signup$/);

    await page.getByLabel('Nome da empresa').fill('Padaria Existente');
    await page.getByLabel('CPF/CNPJ').fill('11222333000180');
    await expect.poll(() => page.getByLabel('CPF/CNPJ').inputValue()).toBe('11.222.333/0001-80');
    await page.getByLabel('E-mail').fill('dono@existente.test');
    await page.getByLabel('Telefone').click();
    await page.getByText('Nome já cadastrado').waitFor();
    await page.getByText('E-mail já cadastrado').waitFor();
    await page.getByText('Documento inválido / Cpf/Cnpj já cadastrado').waitFor();
    await shot(page, 'signup-validation');

    await page.getByLabel('Nome da empresa').fill('Padaria Nova');
    await page.getByLabel('CPF/CNPJ').fill('11222333000181');
    await page.getByLabel('E-mail').fill('dona@nova.test');
    await page.getByLabel('Telefone').fill('11966665555');
    await page.getByLabel('Senha').fill('segredo1');
    await page.getByLabel('Plano').click();
    await page.getByTitle(PRO_LABEL).click();
    await shot(page, 'signup-company');
    await page.getByRole('button', { name: 'Próximo' }).click();

    const review = page.getByTestId('signup-review');
    await review.getByText('Padaria Nova').waitFor();
    await review.getByText('11.222.333/0001-81').waitFor();
    await review.getByText(PRO_LABEL).waitFor();
    await shot(page, 'signup-finish');
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText('Cadastro efetuado com sucesso, por favor entre no login.').waitFor();
    await page.waitForURL(/\/login$/);
    await shot(page, 'signup-done');

    const created = (await server.atende.container.services.companies.list()).find((c) => c.name === 'Padaria Nova');
    expect(created).toMatchObject({ planId, recurrence: 'MENSAL' });
    await loginThroughUi(page, server.url, 'dona@nova.test', 'segredo1');
  });

  it('opens on the plan chosen beforehand', async () => {
    const page = await browsers.page();
    await page.goto(`${server.url}/signup/${planId}/plan`);
    await page.getByTitle(PRO_LABEL).waitFor();
  });
});

describeE2E('self-signup with a card (Asaas)', () => {
  let cardServer: TestServer;
  let fake: FakeAsaas;
  let cardPlanId: number;

  beforeAll(async () => {
    fake = await startFakeAsaas();
    cardServer = await startTestServer({ allowPrivateUrls: true, pluginConfig: { billing: { provider: 'asaas', asaasUrl: fake.url, asaasKey: fake.key, asaasWebhookToken: 'e2e-token' } } });
    cardPlanId = (await cardServer.atende.container.services.plans.create({ name: 'Pro', users: 5, connections: 2, queues: 5, value: 149.9 })).id;
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await cardServer?.close();
    await fake?.close();
  });

  it('goes Empresa → Cartão → Finalizando; a refused card sends it back to Cartão with the reason; the company is made with its Asaas subscription', async () => {
    const page = await browsers.page();
    await page.goto(`${cardServer.url}/signup/${cardPlanId}/plan`);
    await page.getByTitle(PRO_LABEL).waitFor();
    const steps = page.getByTestId('signup-steps');
    for (const step of ['Empresa', 'Cartão', 'Finalizando']) await steps.getByText(step, { exact: true }).waitFor();

    await page.getByLabel('Nome da empresa').fill('Sorveteria Cartão');
    await page.getByLabel('CPF/CNPJ', { exact: true }).fill('45997418000153');
    await page.getByLabel('E-mail').fill('dona@sorveteria.test');
    await page.getByLabel('Telefone', { exact: true }).fill('47988881111');
    await page.getByLabel('Senha').fill('segredo1');
    await page.getByRole('button', { name: 'Próximo' }).first().click();

    const card = page.getByTestId('signup-card');
    await card.getByLabel('Número do cartão').waitFor();
    // The holder is the company until told otherwise.
    expect(await card.getByLabel('CPF/CNPJ do titular').inputValue()).toBe('45.997.418/0001-53');
    expect(await card.getByLabel('Telefone do titular').inputValue()).toBe('47988881111');
    await card.getByLabel('Número do cartão').fill(REFUSED_CARD);
    await card.getByLabel('Nome impresso no cartão').fill('Joana Prado');
    await card.getByLabel('Validade (MM/AAAA)').fill('052031');
    expect(await card.getByLabel('Validade (MM/AAAA)').inputValue()).toBe('05/2031');
    await card.getByLabel('CCV').fill('318');
    await card.getByLabel('CPF/CNPJ do titular').fill('11144477735');
    expect(await card.getByLabel('CPF/CNPJ do titular').inputValue()).toBe('111.444.777-35');
    await card.getByLabel('CEP').fill('89223005');
    await card.getByLabel('Número do endereço').fill('277');
    await shot(page, 'signup-card');
    await card.getByRole('button', { name: 'Próximo' }).click();

    const review = page.getByTestId('signup-review');
    await review.getByText('final 1111').waitFor();
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText(REFUSAL, { exact: false }).waitFor();
    await card.getByLabel('Número do cartão').waitFor();
    await shot(page, 'signup-card-refused');
    expect((await cardServer.atende.container.services.companies.list()).some((c) => c.name === 'Sorveteria Cartão')).toBe(false);

    await card.getByLabel('Número do cartão').fill('5162306219378829');
    await card.getByRole('button', { name: 'Próximo' }).click();
    await review.getByText('final 8829').waitFor();
    await shot(page, 'signup-card-finish');
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText('Cadastro efetuado com sucesso, por favor entre no login.').waitFor();
    await page.waitForURL(/\/login$/);

    const created = (await cardServer.atende.container.services.companies.list()).find((c) => c.name === 'Sorveteria Cartão')!;
    expect(created).toMatchObject({ planId: cardPlanId, recurrence: 'MENSAL' });
    const live = [...fake.subscriptions.values()];
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ value: 149.9, billingType: 'CREDIT_CARD', creditCard: { creditCardNumber: '8829' } });
    await loginThroughUi(page, cardServer.url, 'dona@sorveteria.test', 'segredo1');
  });
});
