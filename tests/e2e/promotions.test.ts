import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BrowserPool, signIn, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const browsers = new BrowserPool();
const PRO_LABEL = /^Pro – R\$\s149,90\/mês$/;

const isoDay = (plusDays: number) => {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + plusDays);
  return day.toISOString().slice(0, 10);
};

describeE2E('promotion codes', () => {
  beforeAll(async () => {
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test' } } });
    await server.atende.container.services.plans.create({ name: 'Pro', users: 5, connections: 2, queues: 5, value: 149.9 });
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a super user writes a code, and a new company signs up with it', async () => {
    const owner = await browsers.page();
    await signIn(owner, server.url, SUPER_EMAIL, SUPER_PASSWORD);
    await owner.getByRole('menuitem', { name: 'Promoções' }).click();
    await owner.getByRole('heading', { name: 'Códigos promocionais' }).waitFor();
    await owner.getByRole('button', { name: 'Adicionar código' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Novo código promocional' });
    await dialog.getByLabel('Código').fill('a b');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Use apenas letras, números, - e _').waitFor();
    await dialog.getByLabel('Código').fill('bemvindo');
    await dialog.getByLabel('Dias').fill('400');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Informe um número inteiro de 1 a 365').waitFor();
    await shot(owner, 'promotion-validation');
    await dialog.getByLabel('Dias').fill('10');
    await dialog.getByLabel('Usos restantes').fill('1');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = owner.getByTestId('promotions-table').getByRole('row', { name: /BEMVINDO/ });
    await row.getByText('+10 dias de teste').waitFor();
    await row.getByText('Ativo').waitFor();
    await shot(owner, 'promotions-page');

    const visitor = await browsers.page();
    await visitor.goto(`${server.url}/signup`);
    await visitor.getByLabel('Nome da empresa').fill('Loja Promocional');
    await visitor.getByLabel('CPF/CNPJ').fill('11222333000181');
    await visitor.getByLabel('E-mail').fill('dona@promo.test');
    await visitor.getByLabel('Telefone').fill('11966665555');
    await visitor.getByLabel('Senha').fill('segredo1');
    await visitor.getByLabel('Plano').click();
    await visitor.getByTitle(PRO_LABEL).click();
    await visitor.getByLabel('Código promocional (opcional)').fill('NAOEXISTE');
    await visitor.getByLabel('Senha').click();
    await visitor.getByText('Promoção inválida ou vencida').waitFor();
    await visitor.getByLabel('Código promocional (opcional)').fill('bemvindo');
    await visitor.getByRole('button', { name: 'Próximo' }).click();
    await visitor.getByTestId('signup-review').getByText('BEMVINDO').waitFor();
    await shot(visitor, 'signup-with-promotion');
    await visitor.getByRole('button', { name: 'Cadastrar' }).click();
    await visitor.waitForURL(/\/login$/);

    const created = (await server.atende.container.services.companies.list()).find((c) => c.name === 'Loja Promocional');
    expect(created?.dueDate).toBe(isoDay(13));
    await owner.reload();
    await owner.getByTestId('promotions-table').getByRole('row', { name: /BEMVINDO/ }).getByText('Inativo').waitFor();
  });
});
