import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signIn, screenshot, BrowserPool, settled, confirmDialog } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';

const ADMIN = { email: 'admin@filas.test', password: 'admin-pass' };
const HELPER = { email: 'apoio@filas.test', password: 'apoio-pass' };
const JOURNEY_MS = 120_000;

let server: TestServer;
let adminToken: string;
const browsers = new BrowserPool();

async function browser(options?: { width?: number; height?: number }): Promise<Page> {
  const opened = await browsers.open(options);
  return opened.page;
}

const row = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(name) });

async function openQueues(page: Page): Promise<void> {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('menuitem', { name: 'Filas & Chatbot' }).click();
  await page.getByRole('heading', { name: 'Filas & Chatbot' }).waitFor();
  await row(page, 'Atendimento').waitFor();
}

/** Fills the small option form (key, title, message) and saves it. */
async function fillOption(page: Page, values: { option: string; title: string; message?: string }): Promise<void> {
  const form = page.getByRole('dialog').filter({ has: page.getByLabel('Opção', { exact: true }) });
  await form.getByLabel('Opção', { exact: true }).fill(values.option);
  await form.getByLabel('Título').fill(values.title);
  if (values.message) await form.getByLabel('Mensagem').fill(values.message);
  await form.getByRole('button', { name: 'Salvar' }).click();
  await form.waitFor({ state: 'hidden' });
}

const optionRow = (scope: Locator, title: string) => scope.locator('li').filter({ hasText: title }).first();

describeE2E('queues page', () => {
  beforeAll(async () => {
    server = await startTestServer();
    const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const plan = await server.call('POST', '/api/plans', {
      token: superToken,
      body: { name: 'Plano Filas', users: 5, connections: 1, queues: 10, value: 0 },
    });
    expect(plan.status).toBe(201);
    const company = await server.call('POST', '/api/companies', {
      token: superToken,
      body: { name: 'Loja Filas', email: ADMIN.email, password: ADMIN.password, planId: plan.body.id },
    });
    expect(company.status).toBe(201);
    // A second admin for the API calls: the browser's login ends the first admin's other sessions.
    const helper = await server.call('POST', '/api/users', {
      token: superToken,
      body: { ...HELPER, name: 'Apoio', profile: 'admin', companyId: company.body.company.id },
    });
    expect(helper.status).toBe(201);
    adminToken = (await server.login(HELPER.email, HELPER.password)).token;
    // The company manages working hours per queue: the modal shows the week and out-of-hours message.
    const setting = await server.call('PUT', '/api/settings/scheduleType', { token: adminToken, body: { value: 'queue' } });
    expect(setting.status).toBe(200);
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an admin creates a queue with working hours and a two-level chatbot menu; all of it is there after a reload',
    async () => {
      const admin = await browser();
      await openQueues(admin);

      await admin.getByRole('button', { name: 'Adicionar fila' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar fila' });
      await dialog.getByLabel('Nome').fill('Vendas');
      await dialog.getByRole('textbox', { name: 'Cor' }).fill('#0B7DDA');
      await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
      // The first queue already has that colour: refused before the server is asked.
      await dialog.getByText('Esta cor já está em uso, escolha outra.').waitFor();
      await dialog.locator('.ant-color-picker-trigger').click();
      await settled(admin);
      await screenshot(admin, 'queues-color-palette');
      await admin.locator('.ant-color-picker-presets-color').nth(27).click(); // palette: green 300
      await expect.poll(() => dialog.getByRole('textbox', { name: 'Cor' }).inputValue()).toBe('#81c784');
      await admin.keyboard.press('Escape');
      await dialog.getByLabel('Ordem da fila (Bot)').fill('1');
      await dialog.getByLabel('Mensagem de saudação').fill('Olá! Bem-vindo às Vendas.');
      await dialog.getByLabel('Mensagem de fora de expediente').fill('Estamos fora do horário.');
      await settled(admin);
      await screenshot(admin, 'queues-modal-data-light');

      await dialog.getByRole('tab', { name: 'Horários' }).click();
      await dialog.getByText('Clique em salvar para registar as alterações').waitFor();
      const saturday = dialog.getByTestId('schedule-saturday');
      expect(await saturday.getByLabel('Sábado Hora de término').inputValue()).toBe('12:00');
      await saturday.getByLabel('Sábado Hora de término').fill('1430');
      await dialog.getByTestId('schedule-sunday').getByLabel('Domingo Hora de início').fill('25:00');
      await dialog.getByRole('tab', { name: 'Dados da fila' }).click();
      await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
      // The invalid time is in the other tab: the modal goes there to show it.
      await dialog.getByText('Hora inválida (HH:MM)').waitFor();
      await dialog.getByTestId('schedule-sunday').getByLabel('Domingo Hora de início').fill('0900');
      await dialog.getByTestId('schedule-sunday').getByLabel('Domingo Hora de término').fill('1300');
      await settled(admin);
      await screenshot(admin, 'queues-modal-schedules-light');

      await dialog.getByRole('tab', { name: 'Opções' }).click();
      await dialog.getByRole('button', { name: 'Salvar e criar opções' }).click();
      await admin.getByText('Fila salva com sucesso!').first().waitFor();
      const editDialog = admin.getByRole('dialog', { name: 'Editar fila' });
      const options = editDialog.getByTestId('queue-options');
      await options.getByText('Nenhuma opção ainda').waitFor();
      await row(admin, 'Vendas').waitFor();

      await options.getByRole('button', { name: 'Adicionar opção' }).click();
      await fillOption(admin, { option: '2', title: 'Planos', message: 'Conheça os planos' });
      await options.getByRole('button', { name: 'Adicionar opção' }).click();
      await fillOption(admin, { option: '1', title: 'Celulares', message: 'Qual marca?' });
      await options.getByRole('button', { name: 'Adicionar sub-opção em Celulares' }).click();
      await fillOption(admin, { option: '1', title: 'Android' });
      await options.getByRole('button', { name: 'Adicionar sub-opção em Celulares' }).click();
      await fillOption(admin, { option: '2', title: 'iPhone' });
      // A key taken by a sibling is refused with the page's message; the form stays open.
      await options.getByRole('button', { name: 'Adicionar sub-opção em Celulares' }).click();
      const optionForm = admin.getByRole('dialog').filter({ has: admin.getByLabel('Opção', { exact: true }) });
      await optionForm.getByLabel('Opção', { exact: true }).fill('2');
      await optionForm.getByLabel('Título').fill('Repetida');
      await optionForm.getByRole('button', { name: 'Salvar' }).click();
      await admin.getByText('Já existe uma opção com esta chave neste nível do menu.').waitFor();
      await optionForm.getByRole('button', { name: 'Cancelar' }).click();
      await optionForm.waitFor({ state: 'hidden' });
      // Siblings follow their keys: editing a key moves the option (Celulares 1 → 3 goes after Planos 2).
      const order = () => options.locator('> ul > li').allInnerTexts();
      expect(await order()).toEqual([expect.stringMatching(/^1\s+Celulares/), expect.stringMatching(/^2\s+Planos/)]);
      await options.getByRole('button', { name: 'Editar Celulares' }).click();
      await fillOption(admin, { option: '3', title: 'Celulares' });
      await expect.poll(order).toEqual([expect.stringMatching(/^2\s+Planos/), expect.stringMatching(/^3\s+Celulares/)]);
      await options.getByRole('button', { name: 'Editar Planos' }).click();
      await optionForm.getByLabel('Opção', { exact: true }).fill('#');
      await optionForm.getByText('0 e # são reservados (voltar e menu principal)').waitFor();
      await fillOption(admin, { option: '4', title: 'Planos e preços' });
      await expect.poll(order).toEqual([
        expect.stringMatching(/^3\s+Celulares[\s\S]*1\s+Android[\s\S]*2\s+iPhone/),
        expect.stringMatching(/^4\s+Planos e preços/),
      ]);
      await settled(admin);
      await screenshot(admin, 'queues-modal-options-light');

      await editDialog.getByRole('button', { name: 'Salvar', exact: true }).click();
      await editDialog.waitFor({ state: 'hidden' });

      // After a reload everything is read back from the server.
      await admin.reload();
      await row(admin, 'Vendas').waitFor();
      expect(await row(admin, 'Vendas').innerText()).toContain('Olá! Bem-vindo às Vendas.');
      await admin.getByRole('button', { name: 'Editar Vendas' }).click();
      const reopened = admin.getByRole('dialog', { name: 'Editar fila' });
      await expect.poll(() => reopened.getByLabel('Nome').inputValue()).toBe('Vendas');
      expect(await reopened.getByRole('textbox', { name: 'Cor' }).inputValue()).toBe('#81c784');
      expect(await reopened.getByLabel('Mensagem de fora de expediente').inputValue()).toBe('Estamos fora do horário.');
      await reopened.getByRole('tab', { name: 'Horários' }).click();
      expect(await reopened.getByLabel('Sábado Hora de término').inputValue()).toBe('14:30');
      expect(await reopened.getByLabel('Domingo Hora de início').inputValue()).toBe('09:00');
      expect(await reopened.getByLabel('Segunda-feira Hora de início').inputValue()).toBe('08:00');
      await reopened.getByRole('tab', { name: 'Opções' }).click();
      const reloadedOptions = reopened.getByTestId('queue-options');
      await optionRow(reloadedOptions, 'iPhone').waitFor();
      expect(await reloadedOptions.locator('> ul > li').allInnerTexts()).toEqual([
        expect.stringMatching(/^3\s+Celulares[\s\S]*1\s+Android[\s\S]*2\s+iPhone/),
        expect.stringMatching(/^4\s+Planos e preços/),
      ]);

      // Deleting an option takes its branch.
      await reloadedOptions.getByRole('button', { name: 'Excluir Celulares' }).click();
      await admin.getByRole('tooltip').getByRole('button', { name: 'Excluir' }).click();
      await optionRow(reloadedOptions, 'Android').waitFor({ state: 'detached' });
      const tree = await server.call('GET', `/api/queue-options?queueId=${await queueId('Vendas')}&parentId=-1`, { token: adminToken });
      expect(tree.body.map((o: { title: string }) => o.title)).toEqual(['Planos e preços']);

      // The open modal covers the top bar: the toggle is clicked through the DOM.
      await admin.getByTestId('theme-toggle').dispatchEvent('click');
      await settled(admin);
      await screenshot(admin, 'queues-modal-options-dark');
      await reopened.getByRole('tab', { name: 'Horários' }).click();
      await settled(admin);
      await screenshot(admin, 'queues-modal-schedules-dark');
      await reopened.getByRole('button', { name: 'Cancelar' }).click();
      await reopened.waitFor({ state: 'hidden' });
      await settled(admin);
      await screenshot(admin, 'queues-page-dark');
      await admin.getByTestId('theme-toggle').click();
      await admin.mouse.move(600, 500); // away from the toggle: its tooltip would cover the page
      await settled(admin);
      await screenshot(admin, 'queues-page-light');
    },
    JOURNEY_MS,
  );

  it(
    'another admin sees queues appear, change and go live; deleting asks first',
    async () => {
      const admin = await browser();
      await openQueues(admin);
      const created = await server.call('POST', '/api/queue', { token: adminToken, body: { name: 'Financeiro', color: '#f44336', orderQueue: 0 } });
      expect(created.status).toBe(201);
      await row(admin, 'Financeiro').waitFor();
      // Order 0 comes before everything else.
      expect(await admin.getByRole('row').nth(1).innerText()).toContain('Financeiro');
      await server.call('PUT', `/api/queue/${created.body.id}`, { token: adminToken, body: { name: 'Cobrança' } });
      await row(admin, 'Cobrança').waitFor();

      await admin.getByRole('button', { name: 'Excluir Cobrança' }).click();
      const confirm = admin.getByRole('dialog').filter({ hasText: 'Excluir Cobrança?' });
      await confirm.getByText('não terão mais nenhuma fila atribuída').waitFor();
      await settled(admin);
      await screenshot(admin, 'queues-delete-confirm');
      await confirmDialog(admin, 'Excluir Cobrança?');
      await row(admin, 'Cobrança').waitFor({ state: 'detached' });
      expect((await server.call('GET', `/api/queue/${created.body.id}`, { token: adminToken })).status).toBe(404);
    },
    JOURNEY_MS,
  );

  it(
    'at 375 px the table and the modal fit the screen',
    async () => {
      const phone = await browser({ width: 375, height: 812 });
      await signIn(phone, server.url, ADMIN.email, ADMIN.password, '/queues');
      await row(phone, 'Atendimento').waitFor();
      await settled(phone);
      await screenshot(phone, 'queues-page-375');
      await phone.getByRole('button', { name: 'Editar Vendas' }).click();
      const dialog = phone.getByRole('dialog', { name: 'Editar fila' });
      await expect.poll(() => dialog.getByLabel('Nome').inputValue()).toBe('Vendas');
      await settled(phone);
      await screenshot(phone, 'queues-modal-375');
      await dialog.getByRole('tab', { name: 'Horários' }).click();
      await settled(phone);
      await screenshot(phone, 'queues-modal-schedules-375');
      await dialog.getByRole('tab', { name: 'Opções' }).click();
      await dialog.getByTestId('queue-options').getByText('Planos e preços').waitFor();
      await settled(phone);
      await screenshot(phone, 'queues-modal-options-375');
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    },
    JOURNEY_MS,
  );
});

async function queueId(name: string): Promise<number> {
  const list = await server.call('GET', '/api/queue', { token: adminToken });
  return (list.body as { id: number; name: string }[]).find((q) => q.name === name)!.id;
}
