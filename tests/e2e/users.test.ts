import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, screenshot, BrowserPool, settled, confirmDialog } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';

const ADMIN = { email: 'admin@usuarios.test', password: 'admin-pass' };
/** A second admin of the same company, watching the list from another browser. */
const WATCHER = { name: 'Vigia Silva', email: 'vigia@usuarios.test', password: 'vigia-pass', profile: 'admin' };
const AGENT = { name: 'Agente Costa', email: 'agente@usuarios.test', password: 'agente-pass', profile: 'user' };
const JOURNEY_MS = 120_000;
/** More users than one page (20) holds: 'Usuário 01'…'Usuário 25' sort between the admin and the watcher. */
const EXTRA_USERS = 25;

let server: TestServer;
const browsers = new BrowserPool();

async function browser(options?: { width?: number; height?: number }): Promise<Page> {
  const opened = await browsers.open(options);
  return opened.page;
}

async function openUsers(page: Page, who: { email: string; password: string }): Promise<void> {
  await signIn(page, server.url, who.email, who.password, '/users');
  await page.getByRole('heading', { name: 'Usuários' }).waitFor();
  await page.getByRole('row', { name: /Loja Usuários/ }).waitFor();
}

const row = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(name) });

describeE2E('users page', () => {
  beforeAll(async () => {
    server = await startTestServer();
    const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const plan = await server.call('POST', '/api/plans', {
      token: superToken,
      body: { name: 'Plano Amplo', users: 50, connections: 1, queues: 1, value: 0 },
    });
    expect(plan.status).toBe(201);
    const company = await server.call('POST', '/api/companies', {
      token: superToken,
      body: { name: 'Loja Usuários', email: ADMIN.email, password: ADMIN.password, planId: plan.body.id },
    });
    expect(company.status).toBe(201);
    const extra = Array.from({ length: EXTRA_USERS }, (_, i) => {
      const n = String(i + 1).padStart(2, '0');
      return { name: `Usuário ${n}`, email: `usuario${n}@usuarios.test`, password: 'extra-pass', profile: 'user' };
    });
    for (const user of [WATCHER, AGENT, ...extra]) {
      const res = await server.call('POST', '/api/users', { token: superToken, body: { ...user, companyId: company.body.company.id } });
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
    'an admin creates, edits and deletes a user, and another admin sees each change live',
    async () => {
      const admin = await browser();
      const watcher = await browser();
      await openUsers(admin, ADMIN);
      await openUsers(watcher, WATCHER);
      // A full reload would drop this mark: the watcher's page must change without one.
      await watcher.evaluate(() => Object.assign(window, { notReloaded: true }));

      await admin.getByRole('button', { name: 'Adicionar usuário' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar usuário' });
      await dialog.getByLabel('Nome').fill('Maria Souza');
      await dialog.getByLabel('Email').fill('maria@usuarios.test');
      await dialog.getByLabel('Senha').fill('maria-pass');
      await settled(admin);
      await screenshot(admin, 'users-modal-create-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await admin.getByText('Operação realizada com sucesso!').first().waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await row(admin, 'Maria Souza').waitFor();
      await row(watcher, 'Maria Souza').waitFor();
      await expect.poll(() => row(watcher, 'Maria Souza').innerText()).toContain('maria@usuarios.test');

      await admin.getByRole('button', { name: 'Editar Maria Souza' }).click();
      const editDialog = admin.getByRole('dialog', { name: 'Editar usuário' });
      const name = editDialog.getByLabel('Nome');
      await expect.poll(() => name.inputValue()).toBe('Maria Souza');
      await name.fill('Maria Lima');
      await editDialog.getByRole('button', { name: 'Salvar' }).click();
      await editDialog.waitFor({ state: 'hidden' });
      await row(watcher, 'Maria Lima').waitFor();
      await expect.poll(() => row(watcher, 'Maria Souza').count()).toBe(0);

      await admin.getByRole('button', { name: 'Excluir Maria Lima' }).click();
      await confirmDialog(admin, 'Excluir Maria Lima?');
      await row(admin, 'Maria Lima').waitFor({ state: 'detached' });
      await row(watcher, 'Maria Lima').waitFor({ state: 'detached' });
      expect(await watcher.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

      await settled(admin);
      await screenshot(admin, 'users-page-light');
      await admin.getByTestId('theme-toggle').click();
      await settled(admin);
      await screenshot(admin, 'users-page-dark');
      await admin.getByRole('button', { name: 'Editar Agente Costa' }).click();
      await expect.poll(() => admin.getByRole('dialog').getByLabel('Nome').inputValue()).toBe('Agente Costa');
      await settled(admin);
      await screenshot(admin, 'users-modal-edit-dark');
      await admin.keyboard.press('Escape');
      await admin.getByRole('dialog', { name: 'Editar usuário' }).waitFor({ state: 'hidden' });
      await admin.getByTestId('theme-toggle').click();
    },
    JOURNEY_MS,
  );

  it(
    'the list shows 20 users and loads the next page when scrolled near the bottom',
    async () => {
      const admin = await browser();
      await openUsers(admin, ADMIN);
      // Page 1 ends at 'Usuário 18' (the admin and the agent sort first); nobody else writes to those users.
      await row(admin, 'Usuário 18').waitFor();
      expect(await row(admin, 'Usuário 19').count()).toBe(0);
      const body = admin.getByTestId('users-table').locator('.ant-table-body');
      const scrollToBottom = async () => {
        await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        return admin.getByRole('row').count();
      };
      await expect.poll(scrollToBottom).toBe(1 + 3 + EXTRA_USERS);
      await row(admin, 'Usuário 25').waitFor();
      await row(admin, WATCHER.name).waitFor();
    },
    JOURNEY_MS,
  );

  it(
    'the user modal shows the validation messages and saves nothing; the search filters the list',
    async () => {
      const admin = await browser();
      await openUsers(admin, ADMIN);
      await admin.getByRole('button', { name: 'Adicionar usuário' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar usuário' });
      await dialog.getByLabel('Nome').fill('A');
      await dialog.getByLabel('Email').fill('not-an-email');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Muito curto!').waitFor();
      await dialog.getByText('Email inválido').waitFor();
      await dialog.getByText('Obrigatório').waitFor();
      await dialog.getByLabel('Nome').fill('x'.repeat(51));
      await dialog.getByText('Muito longo!').waitFor();
      await settled(admin);
      await screenshot(admin, 'users-modal-validation');
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await row(admin, 'not-an-email').count()).toBe(0);

      const search = admin.getByRole('textbox', { name: 'Pesquisar...' });
      await search.fill('VIGIA');
      await expect.poll(() => admin.getByRole('row').count()).toBe(2);
      await row(admin, WATCHER.name).waitFor();
      await search.fill('ninguém com este nome');
      await admin.getByText('Nenhum registro encontrado').waitFor();
      await settled(admin);
      await screenshot(admin, 'users-page-empty');
    },
    JOURNEY_MS,
  );

  it(
    'at 375 px the list shows name and e-mail together and the modal fits the screen',
    async () => {
      const phone = await browser({ width: 375, height: 812 });
      await signIn(phone, server.url, ADMIN.email, ADMIN.password, '/users');
      await row(phone, AGENT.name).waitFor();
      expect(await row(phone, AGENT.name).innerText()).toContain(AGENT.email);
      await settled(phone);
      await screenshot(phone, 'users-page-375');
      await phone.getByRole('button', { name: 'Adicionar usuário' }).click();
      await phone.getByRole('dialog', { name: 'Adicionar usuário' }).getByLabel('Nome').waitFor();
      await settled(phone);
      await screenshot(phone, 'users-modal-375');
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    },
    JOURNEY_MS,
  );

  it(
    'a user who is not an admin is denied /users and sent home, and edits their own profile from the account menu',
    async () => {
      const agent = await browser();
      await signIn(agent, server.url, AGENT.email, AGENT.password);
      expect(await agent.getByRole('menuitem', { name: 'Usuários' }).count()).toBe(0);
      await agent.goto(`${server.url}/users`);
      await agent.getByTestId('denied').getByText('Acesso não permitido').waitFor();
      await agent.waitForURL((url) => url.pathname !== '/users');

      await agent.getByTestId('account-menu').click();
      await agent.getByRole('menuitem', { name: 'Perfil' }).click();
      const dialog = agent.getByRole('dialog', { name: 'Editar usuário' });
      const name = dialog.getByLabel('Nome');
      await expect.poll(() => name.inputValue()).toBe(AGENT.name);
      // The profile is shown but only admins change it; queues and connection are not offered.
      expect(await dialog.getByRole('combobox').count()).toBe(1);
      expect(await dialog.getByRole('combobox').isDisabled()).toBe(true);
      await settled(agent);
      await screenshot(agent, 'users-own-profile');
      await name.fill('Agente Renomeado');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await agent.getByTestId('greeting').getByText(/Agente Renomeado/).waitFor();
    },
    JOURNEY_MS,
  );
});
