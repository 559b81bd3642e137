import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loginThroughUi, screenshot, BrowserPool } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';

/** The shell: login, guards, menu gates, theme, language, single session, subscription rules. */
const ADMIN = { email: 'admin@sessao.test', password: 'admin-pass' };
const AGENT = { email: 'agente@sessao.test', password: 'agente-pass' };
const FINANCE = { email: 'financeiro@vencida.test', password: 'finance-pass' };
const LATE = { email: 'admin@vencida.test', password: 'late-pass' };

let server: TestServer;
let companyId: number;
const browsers = new BrowserPool();

async function browser(options?: { width?: number; height?: number }): Promise<Page> {
  const opened = await browsers.open(options);
  return opened.page;
}

/** Entries of the administration section: admins (and super users) only. */
const ADMIN_ENTRIES = ['Usuários', 'Configurações'];

async function menuLabels(page: Page): Promise<string[]> {
  return (await page.getByTestId('main-menu').getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
}

describeE2E('session and shell', () => {
  beforeAll(async () => {
    // Billing on (the finance guard sends financial users of an expired company to its page), signup off.
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', signup: false } } });
    const { companies, users } = server.atende.container.services;
    const tenant = await companies.createTenant({ name: 'Loja Sessão', email: ADMIN.email, password: ADMIN.password });
    companyId = tenant.company.id;
    await users.create(companyId, { name: 'Agente Sessão', ...AGENT, profile: 'user' });
    const late = await companies.createTenant({ name: 'Loja Vencida', email: LATE.email, password: LATE.password });
    await users.create(late.company.id, { name: 'Financeiro', ...FINANCE, profile: 'user', financial: true });
    await server.atende.container.db('companies').where({ id: late.company.id }).update({ dueDate: '2020-01-31' });
  });

  afterEach(async () => {
    await browsers.closeAll();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('the login form validates, refuses a wrong password with the translated error, then lets the user in', async () => {
    const page = await browser();
    const signupStatus = page.waitForResponse((res) => res.url().endsWith('/api/signup/status'));
    await page.goto(`${server.url}/users`);
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByText('E-mail inválido').waitFor();
    await page.getByText('Dado obrigatório').waitFor();
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Senha').fill('abc');
    await page.getByText('Senha inválida ou curta').waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Esqueceu a senha?' }).count()).toBe(1);
    // Signup is off on this server: no link to it (tests/e2e/signup.test.ts has the link).
    expect(await (await signupStatus).json()).toEqual({ enabled: false });
    expect(await page.getByRole('link', { name: 'Registre, agora mesmo!' }).count()).toBe(0);
    await screenshot(page, 'login-validation');
    await page.getByLabel('Senha').fill('wrong-password');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByText('Erro de autenticação. Por favor, tente novamente.').waitFor();
    await page.getByLabel('Senha').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByTestId('greeting').waitFor();
    expect(await page.getByTestId('greeting').innerText()).toContain('Loja Sessão');
    // The version is asked of the server after the page shows.
    await expect.poll(() => page.getByTestId('app-version').innerText()).toBe(`Versão ${server.config.version}`);
    // Signed in, the login page sends the user home.
    await page.goto(`${server.url}/login`);
    await page.waitForURL((url) => url.pathname !== '/login');
    await screenshot(page, 'shell-admin-light');
  });

  it('the menu shows each profile only its own entries', async () => {
    const agent = await browser();
    await loginThroughUi(agent, server.url, AGENT.email, AGENT.password);
    const agentMenu = await menuLabels(agent);
    expect(agentMenu).toEqual(expect.arrayContaining(['Tarefas', 'Ajuda']));
    for (const adminOnly of ADMIN_ENTRIES) expect(agentMenu).not.toContain(adminOnly);
    await agent.goto(`${server.url}/settings`);
    await agent.getByTestId('denied').waitFor();
    await agent.waitForURL((url) => url.pathname !== '/settings');

    const admin = await browser();
    await loginThroughUi(admin, server.url, ADMIN.email, ADMIN.password);
    expect(await menuLabels(admin)).toEqual(expect.arrayContaining(['Tarefas', 'Ajuda', ...ADMIN_ENTRIES]));
    expect(await admin.getByTestId('greeting').innerText()).toMatch(/Ativo até \d{2}\/\d{2}\/\d{4}/);

    const superUser = await browser();
    await loginThroughUi(superUser, server.url, SUPER_EMAIL, SUPER_PASSWORD);
    expect(await menuLabels(superUser)).toEqual(expect.arrayContaining(['Tarefas', 'Ajuda', ...ADMIN_ENTRIES]));
    await superUser.getByRole('menuitem', { name: 'Configurações' }).click();
    for (const tab of ['Empresas', 'Planos', 'Ajuda']) await superUser.getByRole('tab', { name: tab }).waitFor();
  });

  it('theme and language are kept over a reload', async () => {
    const page = await browser();
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    const background = () => page.evaluate(() => getComputedStyle(document.querySelector('.ant-layout-header')!).backgroundColor);
    const light = await background();
    await page.getByTestId('theme-toggle').click();
    await expect.poll(background).not.toBe(light);
    await page.getByTestId('account-menu').click();
    await page.getByText('Idioma').hover();
    await page.getByText('English').click();
    await page.getByRole('menuitem', { name: 'Settings' }).waitFor();
    await page.reload();
    await page.getByTestId('greeting').waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('preferredTheme'), localStorage.getItem('language')])).toEqual(['dark', 'en']);
    expect(await background()).not.toBe(light);
    expect(await menuLabels(page)).toEqual(expect.arrayContaining(['To-do', 'Help', 'Users', 'Settings']));
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.getByRole('row', { name: /Loja Sessão/ }).waitFor();
    await screenshot(page, 'shell-admin-dark-en');
  });

  it('a second login of the same user ends the first session with the spec message', async () => {
    const first = await browser();
    // The message shows for a second before the page reloads: a busy machine could miss it on
    // screen, so the page itself notes that it appeared (sessionStorage survives the reload).
    await first.context().addInitScript(() => {
      new MutationObserver(() => {
        if (document.body?.textContent?.includes('Sua conta foi acessada em outro computador.')) sessionStorage.setItem('toldOtherComputer', '1');
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await loginThroughUi(first, server.url, AGENT.email, AGENT.password);
    const second = await browser();
    await loginThroughUi(second, server.url, AGENT.email, AGENT.password);
    await first.waitForURL(/\/login$/, { timeout: 20_000 });
    await expect.poll(() => first.evaluate(() => sessionStorage.getItem('toldOtherComputer')).catch(() => null)).toBe('1');
    await expect.poll(() => first.evaluate(() => localStorage.getItem('token')).catch(() => 'reloading')).toBeNull();
    // The new session goes on working.
    await second.reload();
    await second.getByTestId('greeting').waitFor();
  });

  it('an expired subscription keeps the admin out with the due date, and sends a financial user to billing', async () => {
    const page = await browser();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(LATE.email);
    await page.getByLabel('Senha').fill(LATE.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    const expired = page.getByTestId('expired');
    await expired.waitFor();
    expect(await expired.innerText()).toContain('31/01/2020');

    const finance = await browser();
    await finance.goto(`${server.url}/login`);
    await finance.getByLabel('E-mail').fill(FINANCE.email);
    await finance.getByLabel('Senha').fill(FINANCE.password);
    await finance.getByRole('button', { name: 'Entrar' }).click();
    await finance.waitForURL(/\/financeiro$/);
    await finance.goto(`${server.url}/todolist`);
    await finance.getByTestId('finance-guard').waitFor();
    await screenshot(finance, 'finance-guard');
  });

  it('at 375 px the drawer is closed and opens from the menu button', async () => {
    const page = await browser({ width: 375, height: 740 });
    await page.goto(`${server.url}/login`);
    await screenshot(page, 'login-375');
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    expect(await page.getByTestId('main-menu').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await page.getByTestId('main-menu').waitFor();
    await screenshot(page, 'shell-375-drawer');
    await page.getByRole('menuitem', { name: 'Ajuda' }).click();
    await page.waitForURL(/\/helps$/);
    await expect.poll(() => page.getByTestId('main-menu').isVisible()).toBe(false);
  });
});
