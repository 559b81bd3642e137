import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, screenshot, BrowserPool, settled, confirmDialog } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ADMIN = { email: 'admin@etiquetas.test', password: 'admin-pass' };
const AGENT = { name: 'Agente Rocha', email: 'agente@etiquetas.test', password: 'agente-pass' };
const JOURNEY_MS = 120_000;

let server: TestServer;
let companyId: number;
const browsers = new BrowserPool();

async function browser(options?: { width?: number; height?: number }): Promise<Page> {
  const opened = await browsers.open(options);
  return opened.page;
}

const row = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(name) });

async function openPage(page: Page, who: { email: string; password: string }, menu: string): Promise<void> {
  await signIn(page, server.url, who.email, who.password);
  await page.getByRole('menuitem', { name: menu }).click();
  await page.getByRole('heading', { name: menu }).waitFor();
}

describeE2E('tags and quick replies pages', () => {
  beforeAll(async () => {
    server = await startTestServer();
    const { company } = await server.atende.container.services.companies.createTenant({ name: 'Loja Etiquetas', email: ADMIN.email, password: ADMIN.password });
    companyId = company.id;
    const adminToken = (await server.login(ADMIN.email, ADMIN.password)).token;
    const agent = await server.call('POST', '/api/users', { token: adminToken, body: { ...AGENT, profile: 'user' } });
    expect(agent.status).toBe(201);
    for (const name of ['Aguardando peça', 'Financeiro', 'Pós-venda']) {
      expect((await server.call('POST', '/api/tags', { token: adminToken, body: { name, color: name === 'Financeiro' ? '#2E7D32' : '#C62828' } })).status).toBe(201);
    }
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an admin creates, edits and deletes a tag; its chip, colour and kanban flag are saved',
    async () => {
      const admin = await browser();
      await openPage(admin, ADMIN, 'Tags');
      await row(admin, 'Financeiro').waitFor();

      await admin.getByRole('button', { name: 'Nova tag' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar tag' });
      await dialog.getByLabel('Nome').fill('VI');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Mensagem muito curta').waitFor();
      await dialog.getByLabel('Nome').fill('');
      await dialog.getByText('Obrigatório').waitFor();
      await dialog.getByLabel('Nome').fill('Cliente VIP');
      await dialog.getByRole('switch', { name: 'Kanban' }).click();
      await settled(admin);
      await screenshot(admin, 'tags-modal-create-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await admin.getByText('Operação realizada com sucesso!').first().waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await row(admin, 'Cliente VIP').waitFor();
      // The browser's login ended the test's own admin session (single session): read the table.
      const saved = await server.atende.container.db('tags').where({ companyId, name: 'Cliente VIP' }).first();
      expect(saved).toMatchObject({ kanban: 1, color: '#5C59A0' });

      await admin.getByRole('button', { name: 'Editar Cliente VIP' }).click();
      const edit = admin.getByRole('dialog', { name: 'Editar tag' });
      await expect.poll(() => edit.getByLabel('Nome').inputValue()).toBe('Cliente VIP');
      await edit.getByLabel('Nome').fill('Cliente Ouro');
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await edit.waitFor({ state: 'hidden' });
      await row(admin, 'Cliente Ouro').waitFor();
      expect(await row(admin, 'Cliente VIP').count()).toBe(0);

      await settled(admin);
      await screenshot(admin, 'tags-page-light');
      await admin.getByTestId('theme-toggle').click();
      await settled(admin);
      await screenshot(admin, 'tags-page-dark');
      await admin.getByRole('button', { name: 'Editar Financeiro' }).click();
      await expect.poll(() => admin.getByRole('dialog').getByLabel('Nome').inputValue()).toBe('Financeiro');
      await admin.getByTestId('tag-color-picker').click();
      await settled(admin);
      await screenshot(admin, 'tags-modal-edit-dark');
      await admin.keyboard.press('Escape');
      await admin.getByRole('dialog', { name: 'Editar tag' }).getByRole('button', { name: 'Cancelar' }).click();
      await admin.getByRole('dialog', { name: 'Editar tag' }).waitFor({ state: 'hidden' });
      await admin.getByTestId('theme-toggle').click();

      await admin.getByRole('button', { name: 'Excluir Cliente Ouro' }).click();
      await confirmDialog(admin, 'Excluir Cliente Ouro?');
      await row(admin, 'Cliente Ouro').waitFor({ state: 'detached' });
    },
    JOURNEY_MS,
  );

  it(
    'an agent edits tags without the kanban switch and cannot delete them',
    async () => {
      const agent = await browser();
      await openPage(agent, AGENT, 'Tags');
      await row(agent, 'Pós-venda').waitFor();
      expect(await agent.getByRole('button', { name: 'Excluir Pós-venda' }).count()).toBe(0);
      await agent.getByRole('button', { name: 'Editar Pós-venda' }).click();
      const dialog = agent.getByRole('dialog', { name: 'Editar tag' });
      await expect.poll(() => dialog.getByLabel('Nome').inputValue()).toBe('Pós-venda');
      expect(await dialog.getByRole('switch').count()).toBe(0);
      await agent.getByRole('button', { name: 'Cancelar' }).click();
    },
    JOURNEY_MS,
  );

  it(
    'an admin creates a quick reply with an emoji at the cursor and an attachment, edits it, removes the file and deletes it',
    async () => {
      const folder = mkdtempSync(path.join(tmpdir(), 'atende-upload-'));
      const file = path.join(folder, 'Tabela de preços.pdf');
      writeFileSync(file, '%PDF-1.4 tabela');

      const admin = await browser();
      await openPage(admin, ADMIN, 'Respostas Rápidas');
      await admin.getByRole('button', { name: 'Adicionar' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar Resposta Rápida' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Obrigatório').waitFor();
      await dialog.getByLabel('Atalho').fill('precos');
      const text = dialog.getByLabel('Mensagem');
      await text.fill('Olá! Segue a tabela.');
      // The cursor after 'Olá!': the emoji goes there, not at the end.
      await text.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(4, 4));
      await dialog.getByTestId('emoji-button').click();
      const picker = admin.locator('.ant-popover');
      await picker.getByRole('tablist', { name: 'Navegação por categorias' }).waitFor();
      await settled(admin);
      await screenshot(admin, 'quick-messages-emoji-light');
      await picker.getByRole('searchbox').or(picker.getByRole('textbox')).first().fill('pizza');
      await picker.getByRole('gridcell', { name: 'pizza' }).click();
      await expect.poll(() => text.inputValue()).toBe('Olá!🍕 Segue a tabela.');
      await admin.keyboard.press('Escape');

      await dialog.locator('input[type=file]').setInputFiles(file);
      await dialog.getByTestId('quick-message-attachment').getByText('Tabela de preços.pdf').waitFor();
      await dialog.getByRole('switch', { name: 'Geral' }).click();
      await settled(admin);
      await screenshot(admin, 'quick-messages-modal-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await admin.getByText('Operação realizada com sucesso!').first().waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await row(admin, 'precos').waitFor();
      expect(await row(admin, 'precos').innerText()).toContain('Tabela de preços.pdf');

      const saved = await server.atende.container.db('quickMessages').where({ companyId, shortcode: 'precos' }).first();
      expect(saved).toMatchObject({ mediaName: 'Tabela de preços.pdf', message: 'Olá!🍕 Segue a tabela.' });
      expect(Boolean(saved.geral)).toBe(true);
      // The browser fetches the attachment with its own token, as the composer will.
      const served = await admin.evaluate(async (file) => {
        const res = await fetch(`/api/media/${file}`, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
        return res.text();
      }, saved.mediaPath as string);
      expect(served).toBe('%PDF-1.4 tabela');

      // An agent sees the shared reply, without the actions that only its author and admins have.
      const agent = await browser();
      await openPage(agent, AGENT, 'Respostas Rápidas');
      await row(agent, 'precos').waitFor();
      expect(await agent.getByRole('button', { name: 'Editar precos' }).count()).toBe(0);

      await admin.getByRole('button', { name: 'Editar precos' }).click();
      const edit = admin.getByRole('dialog', { name: 'Editar Resposta Rápida' });
      await expect.poll(() => edit.getByLabel('Atalho').inputValue()).toBe('precos');
      await edit.getByRole('button', { name: 'Remover anexo' }).click();
      await edit.getByLabel('Atalho').fill('tabela');
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await edit.waitFor({ state: 'hidden' });
      // The row follows the two saves (the text, then the file removed) as their events arrive.
      await expect.poll(() => row(admin, 'tabela').innerText()).toContain('Sem anexo');
      // The agent's list follows live.
      await row(agent, 'tabela').waitFor();

      await admin.getByTestId('theme-toggle').click();
      await settled(admin);
      await screenshot(admin, 'quick-messages-page-dark');
      await admin.getByRole('button', { name: 'Editar tabela' }).click();
      await expect.poll(() => admin.getByRole('dialog').getByLabel('Atalho').inputValue()).toBe('tabela');
      await admin.getByTestId('emoji-button').click();
      await admin.getByRole('tablist', { name: 'Navegação por categorias' }).waitFor();
      await settled(admin);
      await screenshot(admin, 'quick-messages-modal-dark');
      await admin.keyboard.press('Escape');
      await admin.getByRole('button', { name: 'Cancelar' }).click();
      await admin.getByTestId('theme-toggle').click();

      await admin.getByRole('button', { name: 'Excluir tabela' }).click();
      await confirmDialog(admin, 'Excluir tabela?');
      await row(admin, 'tabela').waitFor({ state: 'detached' });
      await row(agent, 'tabela').waitFor({ state: 'detached' });
      expect(await server.atende.container.db('quickMessages').where({ companyId })).toEqual([]);
    },
    JOURNEY_MS,
  );

  it(
    'at 375 px both pages and their dialogs fit the screen',
    async () => {
      const { token } = await server.login(ADMIN.email, ADMIN.password);
      const created = await server.call('POST', '/api/quick-messages', { token, body: { shortcode: 'bom-dia-com-um-atalho-longo', message: 'Bom dia!' } });
      expect(created.status).toBe(201);
      const phone = await browser({ width: 375, height: 812 });
      await signIn(phone, server.url, ADMIN.email, ADMIN.password);
      const noOverflow = async () => expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

      await phone.goto(`${server.url}/tags`);
      await row(phone, 'Financeiro').waitFor();
      await settled(phone);
      await screenshot(phone, 'tags-page-375');
      await noOverflow();
      await phone.getByRole('button', { name: 'Nova tag' }).click();
      await phone.getByRole('dialog', { name: 'Adicionar tag' }).getByLabel('Nome').waitFor();
      await settled(phone);
      await screenshot(phone, 'tags-modal-375');
      await noOverflow();
      await phone.getByRole('button', { name: 'Cancelar' }).click();

      await phone.goto(`${server.url}/quick-messages`);
      await row(phone, 'bom-dia').waitFor();
      await settled(phone);
      await screenshot(phone, 'quick-messages-page-375');
      await noOverflow();
      await phone.getByRole('button', { name: 'Adicionar' }).click();
      await phone.getByRole('dialog', { name: 'Adicionar Resposta Rápida' }).getByLabel('Atalho').waitFor();
      await phone.getByTestId('emoji-button').click();
      await phone.getByRole('gridcell').first().waitFor();
      await settled(phone);
      await screenshot(phone, 'quick-messages-modal-375');
      await noOverflow();
    },
    JOURNEY_MS,
  );
});
