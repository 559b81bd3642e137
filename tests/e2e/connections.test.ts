import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BrowserPool, chooseOption, chooseOptions, signIn, shot, confirmDialog } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';

const ADMIN = { email: 'admin@conexoes.test', password: 'admin-pass' };
const AGENT = { name: 'Agente Conexões', email: 'agente@conexoes.test', password: 'agente-pass', profile: 'user' };
const CONNECTION = 'Loja Centro';
const QUEUES = [
  ['Vendas', 'green'],
  ['Suporte', 'blue'],
] as const;
const JOURNEY_MS = 120_000;

let server: TestServer;
const browsers = new BrowserPool();

const row = (page: Page, name: string) => page.getByTestId('connections-table').getByRole('row', { name: new RegExp(name) });
const statusOf = (page: Page, name: string) => row(page, name).getByTestId('connection-status').getAttribute('data-status');
const badge = (page: Page) => page.getByTestId('main-menu').getByTestId('connections-badge');

/** Calls the API with the browser's own token: a second login would end its session. */
async function callAs(page: Page, method: string, path: string, body?: unknown) {
  const token = (await page.evaluate("localStorage.getItem('token')")) as string;
  return server.call(method, path, { token, body });
}

async function connectionId(page: Page, name: string): Promise<number> {
  const res = await callAs(page, 'GET', '/api/whatsapp');
  expect(res.status).toBe(200);
  return (res.body as { id: number; name: string }[]).find((c) => c.name === name)!.id;
}

async function openConnections(page: Page, who: { email: string; password: string }): Promise<void> {
  await signIn(page, server.url, who.email, who.password, '/connections');
  await page.getByRole('heading', { name: 'Conexões' }).waitFor();
}

describeE2E('connections page', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const plan = await server.call('POST', '/api/plans', {
      token: superToken,
      body: { name: 'Plano Conexões', users: 5, connections: 3, queues: 3, value: 0 },
    });
    expect(plan.status).toBe(201);
    const company = await server.call('POST', '/api/companies', {
      token: superToken,
      body: { name: 'Loja Conexões', email: ADMIN.email, password: ADMIN.password, planId: plan.body.id },
    });
    expect(company.status).toBe(201);
    const agent = await server.call('POST', '/api/users', { token: superToken, body: { ...AGENT, companyId: company.body.company.id } });
    expect(agent.status).toBe(201);
    // Made before the browsers log in: a later login of the admin ends this session.
    const adminToken = (await server.login(ADMIN.email, ADMIN.password)).token;
    for (const [name, color] of QUEUES) {
      const queue = await server.call('POST', '/api/queue', { token: adminToken, body: { name, color } });
      expect(queue.status).toBe(201);
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
    'an admin adds a simulator connection, reads its QR code, and the row turns CONNECTED live when it is scanned',
    async () => {
      const admin = await browsers.page();
      await signIn(admin, server.url, ADMIN.email, ADMIN.password);
      await admin.getByRole('menuitem', { name: 'Conexões' }).click();
      await admin.getByRole('heading', { name: 'Conexões' }).waitFor();
      await admin.getByText('Nenhuma conexão cadastrada').waitFor();
      await shot(admin, 'connections-empty-light');
      // A full reload would drop this mark: the page must change without one.
      await admin.evaluate(() => Object.assign(window, { notReloaded: true }));

      await admin.getByRole('button', { name: 'Adicionar WhatsApp' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar WhatsApp' });
      await dialog.getByLabel('Nome').fill('A');
      await dialog.getByRole('button', { name: 'Adicionar' }).click();
      await dialog.getByText('Nome muito curto').waitFor();
      await dialog.getByLabel('Nome').fill('x'.repeat(51));
      await dialog.getByText('Nome muito longo').waitFor();
      await dialog.getByLabel('Nome').fill(CONNECTION);
      await chooseOption(admin, dialog.getByLabel('Provedor'), 'Simulador');
      for (const tab of ['Geral', 'Mensagens', 'Avaliações', 'Horários de atendimento']) await dialog.getByRole('tab', { name: tab }).waitFor();
      // The prompts plugin adds its select there while the plan has useOpenAi.
      await dialog.getByRole('tab', { name: 'Integrações' }).waitFor();
      await dialog.getByRole('tab', { name: 'Horários de atendimento' }).click();
      expect(await dialog.getByLabel('Enviar bot x vezes').inputValue()).toBe('3');
      expect(await dialog.getByLabel('Encerrar chats abertos após x minutos').inputValue()).toBe('0');
      await shot(admin, 'connections-modal-hours-light');
      await dialog.getByRole('tab', { name: 'Geral' }).click();
      await shot(admin, 'connections-modal-create-light');
      await dialog.getByRole('button', { name: 'Adicionar' }).click();
      await admin.getByText('WhatsApp salvo com sucesso.').first().waitFor();
      await dialog.waitFor({ state: 'hidden' });

      await row(admin, CONNECTION).waitFor();
      // The badge follows the connections 2 s late: the new connection has only just appeared.
      expect(await badge(admin).count()).toBe(0);
      const qrButton = row(admin, CONNECTION).getByRole('button', { name: 'QR CODE', exact: true });
      await qrButton.waitFor();
      await expect.poll(() => statusOf(admin, CONNECTION)).toBe('qrcode');
      await badge(admin).waitFor();
      expect(await badge(admin).innerText()).toBe('!');

      await qrButton.click();
      const qr = admin.getByTestId('qr-code');
      await qr.locator('canvas').waitFor();
      await admin.getByText('Aguardando leitura do QR Code').first().waitFor();
      await shot(admin, 'connections-qr-light');

      const scan = await callAs(admin, 'POST', `/api/simulator/${await connectionId(admin, CONNECTION)}/scan`);
      expect(scan.status).toBeLessThan(300);
      await qr.waitFor({ state: 'detached' });
      await expect.poll(() => statusOf(admin, CONNECTION)).toBe('CONNECTED');
      await row(admin, CONNECTION).getByRole('button', { name: 'Desconectar' }).waitFor();
      await badge(admin).waitFor({ state: 'detached' });
      expect(await admin.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      expect(await row(admin, CONNECTION).innerText()).toMatch(/\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}/);
      // The node running the session (column "Nó").
      await admin.getByRole('columnheader', { name: 'Nó' }).waitFor();
      expect(await row(admin, CONNECTION).innerText()).toContain(server.config.nodeId);
      await shot(admin, 'connections-page-light');

      await admin.getByTestId('theme-toggle').click();
      await shot(admin, 'connections-page-dark');
      await admin.getByRole('button', { name: `Editar ${CONNECTION}` }).click();
      const edit = admin.getByRole('dialog', { name: 'Editar WhatsApp' });
      await expect.poll(() => edit.getByLabel('Nome').inputValue()).toBe(CONNECTION);
      await edit.getByText('Esta conexão ainda não tem token.').waitFor();
      await shot(admin, 'connections-modal-edit-dark');
      await edit.getByRole('tab', { name: 'Mensagens' }).click();
      await edit.getByLabel('Mensagem de saudação').fill('Olá! Como podemos ajudar?');
      await shot(admin, 'connections-modal-messages-dark');
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await edit.waitFor({ state: 'hidden' });
      const saved = await callAs(admin, 'GET', `/api/whatsapp/${await connectionId(admin, CONNECTION)}`);
      expect(saved.body.greetingMessage).toBe('Olá! Como podemos ajudar?');
      await admin.getByTestId('theme-toggle').click();
    },
    JOURNEY_MS,
  );

  it(
    'an admin disconnects, asks for a new QR code, and deletes a connection after confirming',
    async () => {
      const admin = await browsers.page();
      await openConnections(admin, ADMIN);
      await row(admin, CONNECTION).getByRole('button', { name: 'Desconectar' }).click();
      await admin.getByRole('dialog').filter({ hasText: `Desconectar ${CONNECTION}?` }).getByRole('button', { name: 'Desconectar' }).click();
      await row(admin, CONNECTION).getByRole('button', { name: 'Tentar novamente' }).waitFor();
      await row(admin, CONNECTION).getByRole('button', { name: 'Novo QR CODE' }).waitFor();
      expect(await statusOf(admin, CONNECTION)).toBe('DISCONNECTED');
      await badge(admin).waitFor();
      await shot(admin, 'connections-disconnected-light');

      await row(admin, CONNECTION).getByRole('button', { name: 'Novo QR CODE' }).click();
      await row(admin, CONNECTION).getByRole('button', { name: 'QR CODE', exact: true }).waitFor();

      const extra = await callAs(admin, 'POST', '/api/whatsapp', { name: 'Conexão Extra', provider: 'simulator' });
      expect(extra.status).toBeLessThan(300);
      await row(admin, 'Conexão Extra').waitFor();
      await admin.getByRole('button', { name: 'Excluir Conexão Extra' }).click();
      const confirm = admin.getByRole('dialog').filter({ hasText: 'Excluir Conexão Extra?' });
      await confirm.getByText('Você tem certeza? Essa ação não pode ser revertida.').waitFor();
      await confirmDialog(admin, 'Excluir Conexão Extra?');
      await admin.getByText('Conexão com o WhatsApp excluída com sucesso!').first().waitFor();
      await row(admin, 'Conexão Extra').waitFor({ state: 'detached' });
    },
    JOURNEY_MS,
  );

  it(
    'with more than one queue the greeting message is required',
    async () => {
      const admin = await browsers.page();
      await openConnections(admin, ADMIN);
      await admin.getByRole('button', { name: 'Adicionar WhatsApp' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar WhatsApp' });
      await dialog.getByLabel('Nome').fill('Loja Filas');
      await chooseOption(admin, dialog.getByLabel('Provedor'), 'Simulador');
      await chooseOptions(admin, dialog.getByLabel('Filas'), QUEUES.map(([name]) => name));
      await dialog.getByText('Adicionar WhatsApp').click();
      await dialog.getByRole('button', { name: 'Adicionar' }).click();
      // The refused submit opens the tab of the field in error.
      await dialog.getByText('A mensagem de saudação é obrigatória quando há mais de uma fila.').waitFor();
      expect(await dialog.getByRole('tab', { name: 'Mensagens' }).getAttribute('aria-selected')).toBe('true');
      await shot(admin, 'connections-modal-greeting-required');
      await dialog.getByLabel('Mensagem de saudação').fill('Bem-vindo! Escolha uma fila.');
      await dialog.getByRole('button', { name: 'Adicionar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row(admin, 'Loja Filas').waitFor();
      const created = await callAs(admin, 'GET', `/api/whatsapp/${await connectionId(admin, 'Loja Filas')}`);
      expect((created.body.queues as { name: string }[]).map((q) => q.name).sort()).toEqual(['Suporte', 'Vendas']);
    },
    JOURNEY_MS,
  );

  it(
    'a user who is not an admin reads the connections without session buttons or actions',
    async () => {
      const agent = await browsers.page();
      await signIn(agent, server.url, AGENT.email, AGENT.password);
      expect(await agent.getByRole('menuitem', { name: 'Conexões' }).count()).toBe(0);
      await agent.goto(`${server.url}/connections`);
      await agent.getByRole('heading', { name: 'Conexões' }).waitFor();
      await row(agent, CONNECTION).waitFor();
      expect(await statusOf(agent, CONNECTION)).toBeTruthy();
      const table = agent.getByTestId('connections-table');
      expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['Nome', 'Status', 'Última atualização', 'Padrão']);
      expect(await table.getByRole('button').count()).toBe(0);
      expect(await agent.getByRole('button', { name: 'Adicionar WhatsApp' }).count()).toBe(0);
      await shot(agent, 'connections-agent-light');
    },
    JOURNEY_MS,
  );

  it(
    'at 375 px the row keeps its session buttons, the modals fit, and the menu shows the badge',
    async () => {
      const phone = await browsers.page({ width: 375, height: 812 });
      await openConnections(phone, ADMIN);
      await row(phone, CONNECTION).getByRole('button', { name: 'QR CODE', exact: true }).waitFor();
      await shot(phone, 'connections-page-375');
      const overflow = () => phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);

      await row(phone, CONNECTION).getByRole('button', { name: 'QR CODE', exact: true }).click();
      await phone.getByTestId('qr-code').locator('canvas').waitFor();
      await shot(phone, 'connections-qr-375');
      await phone.keyboard.press('Escape');
      await phone.getByTestId('qr-code').waitFor({ state: 'detached' });

      await phone.getByRole('button', { name: 'Adicionar WhatsApp' }).click();
      await phone.getByRole('dialog', { name: 'Adicionar WhatsApp' }).getByLabel('Nome').waitFor();
      await shot(phone, 'connections-modal-375');
      expect(await overflow()).toBeLessThanOrEqual(0);
      await phone.keyboard.press('Escape');

      await phone.getByRole('button', { name: 'Abrir menu' }).click();
      await badge(phone).waitFor();
      await shot(phone, 'connections-menu-badge-375');
      // Picking an entry closes the drawer on a phone.
      await phone.getByRole('menuitem', { name: 'Conexões' }).click();
      await phone.locator('.ant-drawer-open').waitFor({ state: 'detached' });
      await phone.getByTestId('theme-toggle').click();
      await shot(phone, 'connections-page-375-dark');
      await phone.getByTestId('theme-toggle').click();
    },
    JOURNEY_MS,
  );
});
