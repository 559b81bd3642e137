import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BrowserPool, chooseOption, signIn, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createTenant, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';

const JOURNEY_MS = 150_000;

let server: TestServer;
let tenant: InboxTenant;
/** An admin that never signs in through a browser: it reads the API (a login ends the admin's browser session). */
let operator: Member;
const browsers = new BrowserPool();

async function spreadsheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  sheet.addRow(['Nome', 'Número', 'E-mail']);
  sheet.addRow(['Maria da Silva', '+55 11 98765-4321', 'maria@exemplo.com']);
  sheet.addRow(['João Souza', '5521998765432', '']);
  // Too long for WhatsApp: the simulator says it has none.
  sheet.addRow(['Número Estranho', '55119876543210123', '']);
  sheet.addRow(['X', '5531987654321', '']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const validIcon = (page: Page, name: string) => page.getByTestId('contact-list-items-table').getByRole('row', { name: new RegExp(name) }).getByTestId('whatsapp-valid');

describeE2E('contact lists and campaign settings', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Loja Campanhas');
    await createConnection(server, tenant, 'Loja');
    operator = await createMember(server, tenant, 'operador', { profile: 'admin' });
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'with cshow set, an admin creates a list, imports a spreadsheet (preview, then apply), sees its contacts checked on WhatsApp, and saves the campaign settings',
    async () => {
      const page = await browsers.page();
      await signIn(page, server.url, tenant.admin.email, PASSWORD);

      // Without the local cshow flag the pages are closed: the denied message, then home.
      await expect.poll(() => page.getByRole('menuitem', { name: 'Listas de contatos' }).count()).toBe(0);
      await page.goto(`${server.url}/contact-lists`);
      await page.getByText('Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.').waitFor();
      await page.waitForURL((url) => url.pathname !== '/contact-lists');

      await page.evaluate(() => localStorage.setItem('cshow', '1'));
      await page.reload();
      await page.getByRole('menuitem', { name: 'Listas de contatos' }).click();
      await page.getByRole('heading', { name: 'Listas de contatos' }).waitFor();
      await page.getByText('Nenhuma lista de contatos').waitFor();
      await shot(page, 'contact-lists-empty-light');

      await page.getByRole('button', { name: 'Adicionar lista' }).click();
      const dialog = page.getByRole('dialog', { name: 'Adicionar lista de contatos' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Required').waitFor();
      await dialog.getByLabel('Nome').fill('Clientes da feira');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByTestId('contact-lists-table').getByRole('link', { name: 'Clientes da feira', exact: true }).click();
      await page.waitForURL(/\/contact-lists\/\d+\/contacts$/);
      await page.getByRole('heading', { name: 'Clientes da feira' }).waitFor();
      await page.getByText('Nenhum contato nesta lista').waitFor();

      // The import: the server's preview first, nothing written, then the file applied.
      await page.getByRole('button', { name: 'Importar' }).click();
      const importer = page.getByRole('dialog', { name: 'Importar contatos para Clientes da feira' });
      await importer.getByRole('button', { name: 'Baixar planilha de exemplo' }).waitFor();
      await importer.locator('input[type=file]').setInputFiles({
        name: 'contatos.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await spreadsheet(),
      });
      const report = importer.getByTestId('import-report');
      await report.waitFor();
      await report.getByText('O nome deve ter de 2 a 50 caracteres').waitFor();
      expect(await report.locator('.ant-statistic-content-value').allInnerTexts()).toEqual(['3', '0', '0', '1']);
      expect(Number((await server.atende.container.db('contact_list_items').where('companyId', tenant.companyId).count({ n: '*' }))[0]!.n)).toBe(0);
      await shot(page, 'contact-lists-import-preview-light');
      await importer.getByRole('button', { name: 'Importar', exact: true }).click();
      await page.getByText('Importação concluída: 3 novos, 0 atualizados, 1 rejeitados.').waitFor();
      await importer.waitFor({ state: 'hidden' });

      // The contacts, their numbers canonical, and their icons as the WhatsApp check reaches them.
      const table = page.getByTestId('contact-list-items-table');
      await table.getByRole('row', { name: /Maria da Silva/ }).getByText('5511987654321').waitFor();
      await expect.poll(() => validIcon(page, 'Maria da Silva').getAttribute('data-valid'), { timeout: 15_000 }).toBe('true');
      await expect.poll(() => validIcon(page, 'João Souza').getAttribute('data-valid'), { timeout: 15_000 }).toBe('true');
      await expect.poll(() => validIcon(page, 'Número Estranho').getAttribute('data-valid'), { timeout: 15_000 }).toBe('false');
      await page.getByText('2 válidos, 1 inválidos').waitFor();
      await shot(page, 'contact-list-items-light');

      // A contact added by hand, with the spec's messages.
      await page.getByRole('button', { name: 'Adicionar contato' }).click();
      const item = page.getByRole('dialog', { name: 'Adicionar contato' });
      await item.getByLabel('Nome').fill('A');
      await item.getByLabel('Email').fill('ana@');
      await item.getByRole('button', { name: 'Salvar' }).click();
      await item.getByText('Too Short!').waitFor();
      await item.getByText('Invalid email').waitFor();
      await item.getByText('Required').waitFor();
      await item.getByLabel('Nome').fill('Ana Lima');
      await item.getByLabel('Número').fill('(31) 98765-1111');
      await item.getByLabel('Email').fill('ana@exemplo.com');
      await item.getByRole('button', { name: 'Salvar' }).click();
      await item.waitFor({ state: 'hidden' });
      await table.getByRole('row', { name: /Ana Lima/ }).waitFor();

      // The lists page shows the count and the check's result.
      await page.getByRole('link', { name: 'Voltar às listas' }).click();
      const row = page.getByTestId('contact-lists-table').getByRole('row', { name: /Clientes da feira/ });
      await row.getByText('4', { exact: true }).waitFor();
      await shot(page, 'contact-lists-light');

      // Campaign settings.
      await page.getByRole('menuitem', { name: 'Ajustes de campanha' }).click();
      await page.getByRole('heading', { name: 'Configurações de campanha' }).waitFor();
      await chooseOption(page, page.getByLabel('Intervalo aleatório de disparo'), '10 segundos');
      await page.getByRole('button', { name: 'Adicionar variável' }).click();
      await page.getByLabel('Atalho 1').fill('loja');
      await page.getByLabel('Conteúdo 1').fill('Loja Centro');
      await page.getByLabel('Palavras de descadastro').fill('remover');
      await page.getByLabel('Palavras de descadastro').press('Enter');
      await page.getByLabel('Limite diário por conexão').fill('300');
      await page.getByRole('button', { name: 'Salvar' }).click();
      await page.getByText('Configurações salvas').first().waitFor();
      const saved = await server.call('GET', '/api/campaign-settings', { token: operator.token });
      expect(saved.body).toEqual([
        { key: 'messageInterval', value: 10 },
        { key: 'longerIntervalAfter', value: 20 },
        { key: 'greaterInterval', value: 60 },
        { key: 'variables', value: [{ key: 'loja', value: 'Loja Centro' }] },
        { key: 'optOutWords', value: ['REMOVER'] },
        { key: 'dailyCap', value: 300 },
      ]);
      await shot(page, 'campaign-settings-light');

      // Dark theme, then a phone's width.
      await page.getByTestId('theme-toggle').click();
      await shot(page, 'campaign-settings-dark');
      await page.getByRole('menuitem', { name: 'Listas de contatos' }).click();
      await page.getByTestId('contact-lists-table').getByRole('link', { name: 'Clientes da feira', exact: true }).click();
      await page.getByRole('heading', { name: 'Clientes da feira' }).waitFor();
      await page.getByText('2 válidos, 1 inválidos').or(page.getByText('3 válidos, 1 inválidos')).waitFor();
      await shot(page, 'contact-list-items-dark');
      await page.setViewportSize({ width: 375, height: 760 });
      await shot(page, 'contact-list-items-375-dark');
      await page.getByRole('button', { name: 'Importar' }).click();
      await page.getByRole('dialog', { name: 'Importar contatos para Clientes da feira' }).getByText('Clique ou arraste uma planilha até aqui').waitFor();
      await shot(page, 'contact-lists-import-375-dark');
      await page.keyboard.press('Escape');
      await page.goto(`${server.url}/contact-lists`);
      await page.getByTestId('contact-lists-table').getByRole('link', { name: 'Clientes da feira', exact: true }).waitFor();
      await shot(page, 'contact-lists-375-dark');
      await page.goto(`${server.url}/campaigns-config`);
      await page.getByRole('heading', { name: 'Configurações de campanha' }).waitFor();
      await shot(page, 'campaign-settings-375-dark');
    },
    JOURNEY_MS,
  );
});
