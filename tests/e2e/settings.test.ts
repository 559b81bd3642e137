import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { Company } from '../../core/modules/companies/company.model.js';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { chooseOption, signIn, openBrowser, shot, type Browser } from './browser.js';
import { describeE2E } from './setup.js';

const TENANT_EMAIL = 'admin@loja-settings.test';
const TENANT_PASSWORD = 'tenant-pass';
const SECOND_ADMIN_EMAIL = 'gerente@loja-settings.test';

/** The settings read with the browser's own access token (a second login would end its session). */
async function settingsSeenBy(server: TestServer, page: Page): Promise<Record<string, string>> {
  const token = (await page.evaluate("localStorage.getItem('token')")) as string;
  const res = await server.call('GET', '/api/settings', { token });
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body as { key: string; value: string }[]).map((s) => [s.key, s.value]));
}

async function openSettings(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/settings`);
  await page.getByTestId('settings-tabs').waitFor();
}

function tab(page: Page, name: string): Locator {
  return page.getByRole('tab', { name, exact: true });
}

function toast(page: Page, text: string): Locator {
  return page.locator('.ant-message-notice').filter({ hasText: text }).first();
}

/** Light ↔ dark, with the pointer moved off the button so its tooltip stays out of screenshots. */
async function toggleTheme(page: Page): Promise<void> {
  await page.getByTestId('theme-toggle').click();
  await page.mouse.move(0, 0);
}

describeE2E('settings page', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer();
    // A tenant with a known admin password, made before anyone logs in through the browser.
    const { token } = await server.login(SUPER_EMAIL, SUPER_PASSWORD);
    const plans = await server.call('GET', '/api/plans/all', { token });
    const created = await server.call('POST', '/api/companies', {
      token,
      body: { name: 'Loja Settings', email: TENANT_EMAIL, planId: plans.body[0].id, password: TENANT_PASSWORD },
    });
    expect(created.status).toBe(201);
    await server.atende.container.services.users.create(created.body.company.id, {
      name: 'Gerente',
      email: SECOND_ADMIN_EMAIL,
      password: TENANT_PASSWORD,
      profile: 'admin',
    });
    browser = await openBrowser();
    page = browser.page;
    // Fail on the step that went wrong, well before the test's own time limit.
    page.setDefaultTimeout(10_000);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin changes an option, sees the toast, and the value is kept after a reload', async () => {
    await signIn(page, server.url, TENANT_EMAIL, TENANT_PASSWORD);
    await openSettings(page, server.url);
    await chooseOption(page, page.getByTestId('setting-userRating'), 'Habilitadas');
    await toast(page, 'Operação atualizada com sucesso.').waitFor();

    await page.reload();
    await page.getByTestId('settings-tabs').waitFor();
    await expect.poll(() => page.getByTestId('setting-userRating').textContent()).toContain('Habilitadas');
    expect((await settingsSeenBy(server, page)).userRating).toBe('enabled');
  });

  it('a tenant admin sees only Opções (and Horários when enabled), never Empresas, Planos or Ajuda', async () => {
    await openSettings(page, server.url);
    await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['Opções']);
  });

  it("scheduleType 'company' shows Horários; the saved times are kept", async () => {
    await openSettings(page, server.url);
    await chooseOption(page, page.getByTestId('setting-scheduleType'), 'Empresa');
    await tab(page, 'Horários').click();
    // The tab shows the week, or why it could not load the company's hours.
    await page.getByTestId('schedules-form').or(page.locator('.ant-result')).waitFor();
    expect(await page.locator('.ant-result-title').allTextContents()).toEqual([]);
    const mondayStart = page.getByLabel('Segunda-feira Hora de início');
    await mondayStart.fill('0930');
    expect(await mondayStart.inputValue()).toBe('09:30');

    // An impossible time is refused before anything is sent.
    const mondayEnd = page.getByLabel('Segunda-feira Hora de término');
    await mondayEnd.fill('2575');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Hora inválida (HH:MM)').waitFor();

    await mondayEnd.fill('1745');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Horários atualizados com sucesso.').waitFor();

    await page.reload();
    await tab(page, 'Horários').click();
    await expect.poll(() => page.getByLabel('Segunda-feira Hora de início').inputValue()).toBe('09:30');
    expect(await page.getByLabel('Segunda-feira Hora de término').inputValue()).toBe('17:45');

    // Turning company hours off takes the tab away at once.
    await tab(page, 'Opções').click();
    await chooseOption(page, page.getByTestId('setting-scheduleType'), 'Fila');
    await expect.poll(() => tab(page, 'Horários').count()).toBe(0);
    await chooseOption(page, page.getByTestId('setting-scheduleType'), 'Empresa');
    await tab(page, 'Horários').waitFor();
  });

  it("another admin's change reaches the open page live", async () => {
    await openSettings(page, server.url);
    expect(await page.getByTestId('setting-call').textContent()).toContain('Aceitar');
    const other = await openBrowser();
    try {
      await signIn(other.page, server.url, SECOND_ADMIN_EMAIL, TENANT_PASSWORD);
      await openSettings(other.page, server.url);
      await chooseOption(other.page, other.page.getByTestId('setting-call'), 'Não Aceitar');
      await toast(other.page, 'Operação atualizada com sucesso.').waitFor();
    } finally {
      await other.close();
    }
    await expect.poll(() => page.getByTestId('setting-call').textContent()).toContain('Não Aceitar');
  });

  it('screenshots of the tenant tabs in light, dark and at 375 px', async () => {
    await openSettings(page, server.url);
    try {
      for (const [name, label, ready] of [
        ['options', 'Opções', 'setting-userRating'],
        ['schedules', 'Horários', 'schedules-form'],
      ] as const) {
        await tab(page, label).click();
        // The schedules journey above checks the week loads; here the tab is pictured either way.
        await page.getByTestId(ready).or(page.locator('.ant-result')).waitFor();
        await shot(page, `settings-tenant-${name}-light`);
        await toggleTheme(page);
        await shot(page, `settings-tenant-${name}-dark`);
        await page.setViewportSize({ width: 375, height: 800 });
        await shot(page, `settings-tenant-${name}-375-dark`);
        await toggleTheme(page);
        await shot(page, `settings-tenant-${name}-375`);
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('the super user creates a company, moves its due date by one month, and its admin can log in', async () => {
    await page.context().clearCookies();
    await page.evaluate('localStorage.clear()');
    await signIn(page, server.url, SUPER_EMAIL, SUPER_PASSWORD);
    await openSettings(page, server.url);
    await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['Opções', 'Empresas', 'Planos', 'Ajuda']);
    await tab(page, 'Empresas').click();

    const form = page.getByTestId('company-form');
    await form.getByLabel('Nome').fill('Padaria Nova');
    await form.getByLabel('E-mail').fill('dono@padaria.test');
    await form.getByLabel('Telefone').fill('5511999990000');
    await chooseOption(page, form.getByLabel('Plano'), 'Plano Padrão');
    await form.getByLabel('Data de Vencimento').fill('10/01/2031');
    await form.getByLabel('Data de Vencimento').press('Tab');
    await form.getByRole('button', { name: 'Salvar' }).click();

    // The generated password is shown once, to hand over.
    const credentials = page.getByTestId('company-credentials');
    await credentials.waitFor();
    expect(await page.getByTestId('credentials-email').textContent()).toBe('dono@padaria.test');
    const password = (await page.getByTestId('credentials-password').textContent())!.trim();
    expect(password.length).toBeGreaterThanOrEqual(5);
    await shot(page, 'settings-super-company-created');
    await page.locator('.ant-modal-confirm-btns button').click();

    const row = page.getByTestId('companies-table').locator('tr', { hasText: 'Padaria Nova' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('10/01/2031');

    await row.click();
    await expect.poll(() => form.getByLabel('Nome').inputValue()).toBe('Padaria Nova');
    await form.getByRole('button', { name: '+ Vencimento' }).click();
    await expect.poll(() => form.getByLabel('Data de Vencimento').inputValue()).toBe('10/02/2031');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Operação realizada com sucesso!').waitFor();
    await expect.poll(() => row.textContent()).toContain('10/02/2031');

    // Usuário: the company's users, the admin among them; a new user is created and edited there.
    await row.click();
    await form.getByRole('button', { name: 'Usuário' }).click();
    const usersDialog = page.getByRole('dialog', { name: 'Usuários de Padaria Nova' });
    const usersTable = usersDialog.getByTestId('company-users-table');
    await usersTable.getByText('dono@padaria.test').waitFor();
    await usersDialog.getByRole('button', { name: 'Adicionar usuário' }).click();
    const userDialog = page.getByRole('dialog', { name: 'Adicionar usuário' });
    await userDialog.getByLabel('Nome').fill('C');
    await userDialog.getByLabel('Email').fill('caixa@padaria');
    await userDialog.getByRole('button', { name: 'Salvar' }).click();
    await userDialog.getByText('Muito curto!').waitFor();
    await userDialog.getByText('Email inválido').waitFor();
    await userDialog.getByText('Obrigatório').waitFor();
    await shot(page, 'settings-super-company-user-invalid');
    await userDialog.getByLabel('Nome').fill('Carla Caixa');
    await userDialog.getByLabel('Email').fill('caixa@padaria.test');
    await userDialog.getByLabel('Senha').fill('caixa-123');
    await userDialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Operação realizada com sucesso!').waitFor();
    const carla = usersTable.locator('tr', { hasText: 'caixa@padaria.test' });
    await carla.getByText('Carla Caixa').waitFor();
    await carla.getByRole('button', { name: 'Editar Carla Caixa' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Editar usuário' });
    await expect.poll(() => editDialog.getByLabel('Nome').inputValue()).toBe('Carla Caixa');
    await editDialog.getByLabel('Nome').fill('Carla Gerente');
    await chooseOption(page, editDialog.getByLabel('Perfil'), 'Administrador');
    await editDialog.getByRole('button', { name: 'Salvar' }).click();
    await carla.getByText('Carla Gerente').waitFor();
    await carla.getByText('Administrador').waitFor();
    await shot(page, 'settings-super-company-users');
    await usersDialog.getByRole('button', { name: 'Fechar' }).last().click();
    await usersDialog.waitFor({ state: 'hidden' });

    const tenant = await openBrowser();
    try {
      await signIn(tenant.page, server.url, 'dono@padaria.test', password);
      await expect.poll(() => tenant.page.getByTestId('greeting').textContent()).toContain('Padaria Nova');
    } finally {
      await tenant.close();
    }
  });

  it('company rows are coloured by the days left to their due date', async () => {
    const day = (offset: number) => {
      const date = new Date();
      date.setDate(date.getDate() + offset);
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    };
    // Written straight to the database: a second API login would end the browser's session.
    const db = server.atende.container.db;
    const cases: [string, number, string][] = [
      ['Loja Settings', 5, 'soon'],
      ['Padaria Nova', -4, 'late'],
    ];
    for (const [name, offset] of cases) await Company.query(db).patch({ dueDate: day(offset) }).where('name', name);
    const platform = await Company.query(db).findOne({ name: 'Atende' });
    await Company.query(db).patch({ dueDate: day(2) }).where('id', platform!.id);

    await page.reload();
    await tab(page, 'Empresas').click();
    const table = page.getByTestId('companies-table');
    await table.locator('tr', { hasText: 'Padaria Nova' }).waitFor();
    for (const [name, , tone] of [...cases, ['Atende', 2, 'near'] as const]) {
      expect(await table.locator('tr', { hasText: name }).getAttribute('data-tone')).toBe(tone);
    }
    await shot(page, 'settings-super-companies-due-light');
    await toggleTheme(page);
    await shot(page, 'settings-super-companies-due-dark');
    await toggleTheme(page);
  });

  it('the super user creates a plan', async () => {
    await tab(page, 'Planos').click();
    const form = page.getByTestId('plan-form');
    await form.getByLabel('Nome').fill('Plano Ouro');
    await form.getByLabel('Usuários').fill('15');
    await form.getByLabel('Conexões').fill('3');
    await form.getByLabel('Filas').fill('8');
    await form.getByLabel('Valor').fill('1299,90');
    await form.getByRole('switch', { name: 'Kanban' }).click();
    await form.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Operação realizada com sucesso!').waitFor();

    const row = page.getByTestId('plans-table').locator('tr', { hasText: 'Plano Ouro' });
    await row.waitFor();
    const text = (await row.textContent())!.replace(/\s/g, ' ');
    expect(text).toContain('R$ 1.299,90');
    expect(text).not.toContain('Kanban');

    await row.click();
    expect(await form.getByLabel('Valor').inputValue()).toBe('1.299,90');
    expect(await form.getByRole('switch', { name: 'Kanban' }).getAttribute('aria-checked')).toBe('false');
    await form.getByRole('button', { name: 'Limpar' }).click();
    expect(await form.getByLabel('Nome').inputValue()).toBe('');
  });

  it('the super user creates a help and deletes it after a confirmation', async () => {
    await tab(page, 'Ajuda').click();
    const form = page.getByTestId('help-form');
    await form.getByLabel('Título').fill('Como conectar o WhatsApp');
    await form.getByLabel('Código do Vídeo').fill('dQw4w9WgXcQ');
    await form.getByLabel('Descrição').fill('Passo a passo para ler o QR code.');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Operação realizada com sucesso!').waitFor();
    const row = page.getByTestId('helps-table').locator('tr', { hasText: 'Como conectar o WhatsApp' });
    await row.waitFor();
    expect(await row.textContent()).toContain('dQw4w9WgXcQ');

    await row.click();
    await form.getByRole('button', { name: 'Excluir' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Excluir' }).click();
    await expect.poll(() => row.count()).toBe(0);

    await form.getByLabel('Título').fill('Primeiros passos');
    await form.getByLabel('Código do Vídeo').fill('https://youtu.be/9bZkp7q19f0');
    await form.getByRole('button', { name: 'Salvar' }).click();
    // The server keeps the code of a pasted address.
    await page.getByTestId('helps-table').locator('tr', { hasText: '9bZkp7q19f0' }).waitFor();
  });

  it('screenshots of the super tabs in light, dark and at 375 px', async () => {
    for (const [name, label, form] of [
      ['companies', 'Empresas', 'company-form'],
      ['plans', 'Planos', 'plan-form'],
      ['helps', 'Ajuda', 'help-form'],
    ] as const) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await tab(page, label).click();
      await page.getByTestId(form).waitFor();
      await shot(page, `settings-super-${name}-light`);
      await toggleTheme(page);
      await shot(page, `settings-super-${name}-dark`);
      await page.setViewportSize({ width: 375, height: 800 });
      await shot(page, `settings-super-${name}-375-dark`);
      await toggleTheme(page);
      await shot(page, `settings-super-${name}-375`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
