import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, BrowserPool, shot, confirmDialog } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ADMIN = { email: 'admin@contatos.test', password: 'admin-pass' };
const AGENT = { name: 'Agente Contatos', email: 'agente@contatos.test', password: 'agente-pass', profile: 'user' };
const JOURNEY_MS = 120_000;

let server: TestServer;
let adminToken: string;
const browsers = new BrowserPool();

const row = (page: Page, name: string) => page.getByTestId('contacts-table').getByRole('row', { name: new RegExp(name) });

async function openContacts(page: Page, who: { email: string; password: string }): Promise<void> {
  await signIn(page, server.url, who.email, who.password);
  await page.getByRole('menuitem', { name: 'Contatos' }).click();
  await page.getByRole('heading', { name: 'Contatos' }).waitFor();
}

/** The spreadsheet an admin would pick: two good rows, two bad ones. */
async function spreadsheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  sheet.addRow(['Nome', 'Número', 'Email']);
  sheet.addRow(['Maria Importada', 5511966660001, 'maria@importada.co']);
  sheet.addRow(['Paulo Importado', '+55 11 96666-0002', '']);
  sheet.addRow(['', 5511966660003, '']);
  sheet.addRow(['Número Curto', '123', '']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describeE2E('contacts page', () => {
  beforeAll(async () => {
    server = await startTestServer();
    await server.atende.container.services.companies.createTenant({ name: 'Loja Contatos', email: ADMIN.email, password: ADMIN.password });
    adminToken = (await server.login(ADMIN.email, ADMIN.password)).token;
    const agent = await server.call('POST', '/api/users', { token: adminToken, body: AGENT });
    expect(agent.status).toBe(201);
    for (const [name, number, email] of [
      ['Ana Beatriz Costa', '5511955550001', 'ana@cliente.co'],
      ['Bruno Henrique', '5511955550002', ''],
      ['Carla Dias', '5521955550003', 'carla.dias@cliente.co'],
    ]) {
      const res = await server.call('POST', '/api/contacts', { token: adminToken, body: { name, number, email, extraInfo: [{ name: 'Cidade', value: 'São Paulo' }] } });
      expect(res.status).toBe(201);
    }
  });
  // One login per user at a time: a later login ends the earlier sessions (single session).
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an admin imports contacts from a spreadsheet (seeing the rejected rows first), edits one and deletes it',
    async () => {
      const admin = await browsers.page();
      await openContacts(admin, ADMIN);
      await row(admin, 'Ana Beatriz Costa').waitFor();

      await admin.getByRole('button', { name: 'Importar' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Importar contatos' });
      await dialog.getByText('Clique ou arraste uma planilha até aqui').waitFor();
      await shot(admin, 'contacts-import-pick-light');
      await dialog.locator('input[type=file]').setInputFiles({
        name: 'clientes.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await spreadsheet(),
      });
      const report = dialog.getByTestId('import-report');
      await report.waitFor();
      await report.getByText('Nome ausente').waitFor();
      await report.getByText('O número deve ter de 8 a 50 dígitos').waitFor();
      expect(await report.getByTestId('import-rejected').getByRole('row').count()).toBe(1 + 2);
      await shot(admin, 'contacts-import-preview-light');
      // Nothing is written before the confirmation.
      expect(await row(admin, 'Maria Importada').count()).toBe(0);

      await dialog.getByRole('button', { name: 'Importar' }).click();
      await admin.getByText('Importação concluída: 2 novos, 0 atualizados, 2 rejeitados.').waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await row(admin, 'Maria Importada').waitFor();
      expect(await row(admin, 'Paulo Importado').innerText()).toContain('5511966660002');

      await admin.getByRole('button', { name: 'Editar Maria Importada' }).click();
      const edit = admin.getByRole('dialog', { name: 'Editar contato' });
      const name = edit.getByLabel('Nome', { exact: true });
      await expect.poll(() => name.inputValue()).toBe('Maria Importada');
      await name.fill('Maria Editada');
      await edit.getByRole('button', { name: 'Adicionar informação' }).click();
      await edit.getByLabel('Nome do atributo').fill('Origem');
      await edit.getByLabel('Valor do atributo').fill('Planilha');
      await shot(admin, 'contacts-modal-edit-light');
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await admin.getByText('Contato salvo com sucesso.').first().waitFor();
      await edit.waitFor({ state: 'hidden' });
      await row(admin, 'Maria Editada').waitFor();
      expect(await row(admin, 'Maria Importada').count()).toBe(0);
      const saved = await server.call('GET', '/api/contacts?searchParam=maria editada', { token: (await admin.evaluate("localStorage.getItem('token')")) as string });
      const detail = await server.call('GET', `/api/contacts/${saved.body.contacts[0].id}`, { token: (await admin.evaluate("localStorage.getItem('token')")) as string });
      expect(detail.body.extraInfo).toEqual([{ id: expect.any(Number), name: 'Origem', value: 'Planilha' }]);

      await admin.getByRole('button', { name: 'Excluir Maria Editada' }).click();
      await confirmDialog(admin, 'Excluir Maria Editada?');
      await row(admin, 'Maria Editada').waitFor({ state: 'detached' });
      await expect.poll(() => admin.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);

      await shot(admin, 'contacts-page-light');
      await admin.getByTestId('theme-toggle').click();
      await shot(admin, 'contacts-page-dark');
      await admin.getByRole('button', { name: 'Editar Ana Beatriz Costa' }).click();
      await expect.poll(() => admin.getByRole('dialog', { name: 'Editar contato' }).getByLabel('Nome', { exact: true }).inputValue()).toBe('Ana Beatriz Costa');
      await shot(admin, 'contacts-modal-edit-dark');
      await admin.keyboard.press('Escape');
      await admin.getByRole('dialog', { name: 'Editar contato' }).waitFor({ state: 'hidden' });
      await admin.getByRole('button', { name: 'Importar' }).click();
      const darkImport = admin.getByRole('dialog', { name: 'Importar contatos' });
      await darkImport.locator('input[type=file]').setInputFiles({ name: 'clientes.xlsx', mimeType: 'application/octet-stream', buffer: await spreadsheet() });
      await darkImport.getByTestId('import-report').waitFor();
      await shot(admin, 'contacts-import-preview-dark');
      await darkImport.getByRole('button', { name: 'Escolher outro arquivo' }).click();
      await darkImport.getByText('Clique ou arraste uma planilha até aqui').waitFor();
      await admin.keyboard.press('Escape');
      await admin.getByTestId('theme-toggle').click();
    },
    JOURNEY_MS,
  );

  it(
    'a contact added in the modal shows live for an agent, who may edit but not delete; the search finds it by number',
    async () => {
      const admin = await browsers.page();
      const agent = await browsers.page();
      await openContacts(admin, ADMIN);
      await openContacts(agent, AGENT);
      await row(agent, 'Bruno Henrique').waitFor();
      expect(await agent.getByRole('button', { name: /^Excluir / }).count()).toBe(0);

      await admin.getByRole('button', { name: 'Adicionar contato' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar contato' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Obrigatório').first().waitFor();
      await dialog.getByLabel('Nome', { exact: true }).fill('Z');
      await dialog.getByLabel('Número do WhatsApp').fill('12 34');
      await dialog.getByLabel('Email').fill('not-an-email');
      await dialog.getByText('Muito curto!').first().waitFor();
      await dialog.getByText('Email inválido').waitFor();
      await shot(admin, 'contacts-modal-validation');
      await dialog.getByLabel('Nome', { exact: true }).fill('Daniela Nova');
      await dialog.getByLabel('Número do WhatsApp').fill('+55 (31) 97777-0001');
      await dialog.getByLabel('Email').fill('daniela@nova.co');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row(agent, 'Daniela Nova').waitFor();
      expect(await row(agent, 'Daniela Nova').innerText()).toContain('5531977770001');

      const search = agent.getByRole('textbox', { name: 'Pesquisar...' });
      await search.fill('(31) 97777');
      await expect.poll(() => agent.getByTestId('contacts-table').getByRole('row').count()).toBe(2);
      await search.fill('ninguém com este nome');
      await agent.getByText('Nenhum registro encontrado').waitFor();
    },
    JOURNEY_MS,
  );

  it(
    'Exportar downloads contatos.csv with the company contacts',
    async () => {
      const admin = await browsers.page();
      await openContacts(admin, ADMIN);
      await row(admin, 'Carla Dias').waitFor();
      const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: 'Exportar' }).click()]);
      expect(download.suggestedFilename()).toBe('contatos.csv');
      const text = readFileSync((await download.path())!, 'utf8');
      expect(text.startsWith('\uFEFFname;number;email\r\n')).toBe(true);
      expect(text).toContain('Carla Dias;5521955550003;carla.dias@cliente.co');
    },
    JOURNEY_MS,
  );

  it(
    'at 375 px the list shows name and number together, and the modal and the import dialog fit the screen',
    async () => {
      const phone = await browsers.page({ width: 375, height: 812 });
      await signIn(phone, server.url, ADMIN.email, ADMIN.password, '/contacts');
      await row(phone, 'Carla Dias').waitFor();
      expect(await row(phone, 'Carla Dias').innerText()).toContain('5521955550003');
      await shot(phone, 'contacts-page-375');
      const overflow = () => phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await phone.getByRole('button', { name: 'Adicionar contato' }).click();
      await phone.getByRole('dialog', { name: 'Adicionar contato' }).getByLabel('Nome', { exact: true }).waitFor();
      await shot(phone, 'contacts-modal-375');
      await phone.keyboard.press('Escape');
      await phone.getByRole('dialog', { name: 'Adicionar contato' }).waitFor({ state: 'hidden' });
      await phone.getByRole('button', { name: 'Importar' }).click();
      const dialog = phone.getByRole('dialog', { name: 'Importar contatos' });
      await dialog.locator('input[type=file]').setInputFiles({ name: 'clientes.xlsx', mimeType: 'application/octet-stream', buffer: await spreadsheet() });
      await dialog.getByTestId('import-report').waitFor();
      await shot(phone, 'contacts-import-preview-375');
      expect(await overflow()).toBeLessThanOrEqual(0);
    },
    JOURNEY_MS,
  );
});
