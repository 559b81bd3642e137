import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BrowserPool, loginThroughUi, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Self-signup as a visitor lives it: login page → Empresa → Finalizando → login as the new admin. */
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
