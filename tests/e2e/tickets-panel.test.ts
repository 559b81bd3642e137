import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { BrowserPool, chooseOption, signIn, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createQueue, createTenant, PASSWORD, type InboxTenant, ticketOf } from '../helpers/inbox.js';

const MARIA = { from: '5511988881111', name: 'Maria Cliente' };
const PEDRO = { from: '5511977772222', name: 'Pedro Suporte' };
const CARLA = { name: 'Carla Nova', number: '5511966663333' };
const JOURNEY_MS = 150_000;
/** Live changes come over the socket: give them time. */
const LIVE = { timeout: 10_000, interval: 100 };

let server: TestServer;
let tenant: InboxTenant;
let superToken: string;
let vendasConnection: number;
let suporteConnection: number;
const browsers = new BrowserPool();

/**
 * A browser whose Notification API is a recorder: notices land in window.notices, and the
 * permission is granted (headless chromium shows none).
 */
async function browser(options?: { width?: number; height?: number }): Promise<Page> {
  const opened = await browsers.open(options);
  await opened.context.addInitScript(() => {
    const notices: { title: string; body?: string }[] = [];
    class RecordedNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options?: { body?: string }) {
        notices.push({ title, body: options?.body });
      }
      close() {}
    }
    Object.assign(window, { Notification: RecordedNotification, notices });
  });
  opened.page.setDefaultTimeout(15_000);
  return opened.page;
}

/** Screenshots a state in light, then in dark, and comes back to light (the toggle is clicked through an open modal's mask). */
async function shotBoth(page: Page, name: string): Promise<void> {
  await shot(page, `${name}-light`);
  await page.getByTestId('theme-toggle').dispatchEvent('click');
  await shot(page, `${name}-dark`);
  await page.getByTestId('theme-toggle').dispatchEvent('click');
}

/** A customer writes through the simulated phone (the super user may drive any simulated connection). */
async function customerWrites(connectionId: number, customer: { from: string; name: string }, body: string): Promise<void> {
  const res = await server.call('POST', `/api/simulator/${connectionId}/inbound`, { token: superToken, body: { ...customer, body } });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

/** Calls the API with the browser's own token: a second login would end its session. */
async function callAs(page: Page, method: string, path: string, body?: unknown) {
  const token = (await page.evaluate("localStorage.getItem('token')")) as string;
  return server.call(method, path, { token, body });
}

const email = (handle: string) => `${handle}@${tenant.slug}.test`;
const list = (page: Page, which: 'assigned' | 'pending' | 'closed' | 'search') => page.getByTestId(`tickets-${which}`);
const row = (scope: Locator, name: string) => scope.getByRole('option', { name, exact: true });
/** The live count beside 'Atendendo' / 'Aguardando', or the bell's. */
const countOf = (page: Page, testId: string) => page.getByTestId(testId).getAttribute('data-count');
const searchBox = (page: Page) => page.getByRole('textbox', { name: 'Buscar atendimento e mensagens' });
const notices = (page: Page) => page.evaluate(() => (window as unknown as { notices: { title: string; body?: string }[] }).notices);

async function openInbox(page: Page, handle: string, password = PASSWORD): Promise<void> {
  await signIn(page, server.url, email(handle), password);
  // '/' opens the inbox: it is the first entry of the menu.
  await page.waitForURL(`${server.url}/tickets`);
  await page.getByTestId('tickets-manager').waitFor();
}

describeE2E('tickets panel', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    tenant = await createTenant(server, 'Loja Painel');
    const vendas = await createQueue(server, tenant, 'Vendas');
    const suporte = await createQueue(server, tenant, 'Suporte');
    await createMember(server, tenant, 'ana', { queueIds: [vendas] });
    const bruno = await createMember(server, tenant, 'bruno', { queueIds: [suporte] });
    vendasConnection = await createConnection(server, tenant, 'Loja Vendas', { queueIds: [vendas] });
    suporteConnection = await createConnection(server, tenant, 'Loja Suporte', { queueIds: [suporte] });
    const vip = await server.call('POST', '/api/tags', { token: tenant.admin.token, body: { name: 'VIP', color: '#7c3aed' } });
    expect(vip.status).toBe(201);
    const carla = await server.call('POST', '/api/contacts', { token: tenant.admin.token, body: CARLA });
    expect(carla.status, JSON.stringify(carla.body)).toBe(201);

    // Pedro is already with Bruno (in Suporte) before anyone opens a browser: a browser login ends these tokens.
    await customerWrites(suporteConnection, PEDRO, 'Meu pedido não chegou');
    const pedro = await ticketOf(server, tenant.companyId, PEDRO.from);
    const accepted = await server.call('PUT', `/api/tickets/${pedro.id}`, { token: bruno.token, body: { status: 'open', userId: bruno.id } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    "a customer's message reaches Aguardando live for the agents of its queue only, with its unread count and a notification",
    async () => {
      const ana = await browser();
      const bruno = await browser();
      await openInbox(ana, 'ana');
      await openInbox(bruno, 'bruno');
      await ana.getByRole('tab', { name: /Aguardando/ }).click();
      await bruno.getByRole('tab', { name: /Aguardando/ }).click();
      await list(ana, 'pending').getByTestId('tickets-empty').waitFor();
      await shotBoth(ana, 'tickets-pending-empty');
      // Bruno's own conversation with Pedro is in his Atendendo, with its count.
      await bruno.getByRole('tab', { name: /Atendendo/ }).click();
      await row(list(bruno, 'assigned'), PEDRO.name).waitFor();
      await expect.poll(() => countOf(bruno, 'assigned-count'), LIVE).toBe('1');
      await bruno.getByRole('tab', { name: /Aguardando/ }).click();

      await customerWrites(vendasConnection, MARIA, 'Olá, quero um orçamento');
      const maria = row(list(ana, 'pending'), MARIA.name);
      await maria.waitFor();
      await expect.poll(() => maria.getByTestId('ticket-unread').innerText(), LIVE).toBe('1');
      expect(await maria.getByTestId('ticket-last-message').innerText()).toBe('Olá, quero um orçamento');
      expect(await maria.getByTestId('ticket-queue').innerText()).toBe('Vendas');
      expect(await maria.getByTestId('ticket-time').innerText()).toMatch(/^\d{2}:\d{2}$/);
      await expect.poll(() => countOf(ana, 'pending-count'), LIVE).toBe('1');
      await expect.poll(() => notices(ana), LIVE).toEqual([{ title: `Mensagem de ${MARIA.name}`, body: 'Olá, quero um orçamento' }]);
      // Pending tickets are accepted, not opened by a click.
      await maria.click();
      expect(ana.url()).toBe(`${server.url}/tickets`);

      // A later message of the other queue reaches Bruno: Maria's, sent before, never did.
      await customerWrites(suporteConnection, { from: '5511955554444', name: 'Rita Suporte' }, 'Preciso de ajuda');
      await row(list(bruno, 'pending'), 'Rita Suporte').waitFor();
      expect(await row(list(bruno, 'pending'), MARIA.name).count()).toBe(0);
      const brunoSees = await callAs(bruno, 'GET', '/api/tickets?status=pending');
      expect((brunoSees.body.tickets as { contact: { name: string } }[]).map((t) => t.contact.name)).toEqual(['Rita Suporte']);
      expect(await notices(bruno)).toEqual([{ title: 'Mensagem de Rita Suporte', body: 'Preciso de ajuda' }]);
      expect(await notices(ana)).toHaveLength(1);

      await customerWrites(vendasConnection, MARIA, 'Vocês entregam no sábado?');
      await expect.poll(() => maria.getByTestId('ticket-unread').innerText(), LIVE).toBe('2');
      expect(await maria.getByTestId('ticket-last-message').innerText()).toBe('Vocês entregam no sábado?');
      await shotBoth(ana, 'tickets-pending-live');

      // Accepting opens the conversation and moves the ticket to Atendendo.
      await maria.getByRole('button', { name: `Aceitar o ticket de ${MARIA.name}` }).click();
      const { uuid } = await ticketOf(server, tenant.companyId, MARIA.from);
      await ana.waitForURL(`${server.url}/tickets/${uuid}`);
      await ana.getByTestId('conversation').waitFor();
      await row(list(ana, 'assigned'), MARIA.name).waitFor();
      expect(await ana.getByRole('tab', { name: /Atendendo/ }).getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => countOf(ana, 'pending-count'), LIVE).toBe('0');
      expect(await row(list(ana, 'assigned'), MARIA.name).getAttribute('aria-selected')).toBe('true');
      await shotBoth(ana, 'tickets-conversation');
    },
    JOURNEY_MS,
  );

  it(
    'the bell lists my tickets with unread messages and opens them; my own open conversation does not notify',
    async () => {
      const ana = await browser();
      await openInbox(ana, 'ana');
      const { uuid } = await ticketOf(server, tenant.companyId, MARIA.from);
      await ana.goto(`${server.url}/tickets/${uuid}`);
      await ana.getByTestId('conversation').waitFor();
      await customerWrites(vendasConnection, MARIA, 'Estou vendo a conversa');
      const maria = row(list(ana, 'assigned'), MARIA.name);
      await expect.poll(() => maria.getByTestId('ticket-last-message').innerText(), LIVE).toBe('Estou vendo a conversa');
      expect(await notices(ana)).toEqual([]);

      // Away from the conversation, a message notifies and waits in the bell.
      await ana.getByRole('menuitem', { name: 'Contatos' }).click();
      await ana.getByRole('heading', { name: 'Contatos' }).waitFor();
      await customerWrites(vendasConnection, MARIA, 'Ainda está aí?');
      await expect.poll(() => notices(ana), LIVE).toEqual([{ title: `Mensagem de ${MARIA.name}`, body: 'Ainda está aí?' }]);
      await expect.poll(() => countOf(ana, 'notifications-count'), LIVE).toBe('1');
      await ana.getByTestId('notifications-bell').click();
      const entry = ana.getByTestId('notifications-list').getByRole('link');
      await entry.filter({ hasText: MARIA.name }).waitFor();
      await shotBoth(ana, 'tickets-bell');
      await entry.filter({ hasText: MARIA.name }).click();
      await ana.waitForURL(`${server.url}/tickets/${uuid}`);
      await ana.getByTestId('conversation').waitFor();
    },
    JOURNEY_MS,
  );

  it(
    'the search tab finds a ticket by the text of a message; an agent may not open a ticket outside their queues',
    async () => {
      const ana = await browser();
      await openInbox(ana, 'ana');
      await ana.getByRole('tab', { name: 'Busca' }).click();
      await list(ana, 'search').getByText('Pesquisar atendimentos').waitFor();
      await searchBox(ana).fill('ORÇAMENTO');
      await row(list(ana, 'search'), MARIA.name).waitFor();
      await shotBoth(ana, 'tickets-search');
      await searchBox(ana).fill('xyzzy inexistente');
      await list(ana, 'search').getByTestId('tickets-empty').waitFor();
      expect(await list(ana, 'search').getByTestId('tickets-empty').innerText()).toContain('Nada aqui!');
      // Pedro's conversation is Bruno's, in Suporte: not found, and not opened.
      await searchBox(ana).fill('pedido');
      await list(ana, 'search').getByTestId('tickets-empty').waitFor();

      const pedro = await ticketOf(server, tenant.companyId, PEDRO.from);
      await ana.goto(`${server.url}/tickets/${pedro.uuid}`);
      await ana.getByText('Acesso não permitido').first().waitFor();
      await ana.waitForURL(`${server.url}/tickets`);
    },
    JOURNEY_MS,
  );

  it(
    'the New ticket modal asks for a contact and a queue, names who already attends the contact, and opens my own or a new ticket',
    async () => {
      const ana = await browser();
      await openInbox(ana, 'ana');
      await ana.getByTestId('new-ticket').click();
      const dialog = ana.getByRole('dialog', { name: 'Criar Ticket' });
      await dialog.waitFor();
      // Her only queue is chosen for her; cleared, it is required.
      const queueField = dialog.locator('.ant-form-item').filter({ hasText: 'Fila' });
      await queueField.locator('.ant-select').hover();
      await queueField.locator('.ant-select-clear').click();
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Selecione um contato').waitFor();
      await dialog.getByText('Selecione uma fila').first().waitFor();
      await shotBoth(ana, 'tickets-new-required');

      const contact = dialog.getByLabel('Contato');
      await contact.click();
      await contact.fill('Pe');
      await ana.getByText('Digite ao menos 3 caracteres').waitFor();
      await contact.fill('Ped');
      await ana.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: PEDRO.name }).click();
      await chooseOption(ana, dialog.getByLabel('Fila'), 'Vendas');
      await chooseOption(ana, dialog.getByLabel('Conexão'), 'Loja Suporte');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      const conflict = dialog.getByTestId('new-ticket-conflict');
      await conflict.waitFor();
      expect(await conflict.innerText()).toContain('Este contato já está em atendimento com bruno na fila Suporte.');
      await shotBoth(ana, 'tickets-new-conflict');

      // Maria's open ticket is Ana's own: it opens.
      await contact.click();
      await contact.fill('Mar');
      await ana.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: MARIA.name }).click();
      await chooseOption(ana, dialog.getByLabel('Conexão'), 'Loja Vendas');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      const maria = await ticketOf(server, tenant.companyId, MARIA.from);
      await ana.waitForURL(`${server.url}/tickets/${maria.uuid}`);
      await dialog.waitFor({ state: 'hidden' });

      // Carla has no ticket: a new one opens with Ana, in Atendendo.
      await ana.getByTestId('new-ticket').click();
      await dialog.waitFor();
      await contact.click();
      await contact.fill('car');
      await ana.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: CARLA.name }).click();
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      const carla = await ticketOf(server, tenant.companyId, CARLA.number);
      await ana.waitForURL(`${server.url}/tickets/${carla.uuid}`);
      await row(list(ana, 'assigned'), CARLA.name).waitFor();
      expect(carla.status).toBe('open');
      await expect.poll(() => countOf(ana, 'assigned-count'), LIVE).toBe('2');
    },
    JOURNEY_MS,
  );

  it(
    'the arrow keys move through the list and Enter opens the ticket there',
    async () => {
      const ana = await browser();
      await openInbox(ana, 'ana');
      const assigned = list(ana, 'assigned');
      await row(assigned, CARLA.name).waitFor();
      await row(assigned, MARIA.name).waitFor();
      const names = await assigned.getByTestId('ticket-name').allInnerTexts();
      expect(names.sort()).toEqual([CARLA.name, MARIA.name].sort());
      const order = await assigned.getByRole('option').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-uuid')));

      await assigned.focus();
      await ana.keyboard.press('ArrowDown');
      await expect.poll(() => assigned.locator('[data-active]').getAttribute('data-uuid'), LIVE).toBe(order[0]);
      await ana.keyboard.press('ArrowDown');
      await expect.poll(() => assigned.locator('[data-active]').getAttribute('data-uuid'), LIVE).toBe(order[1]);
      expect(await assigned.getAttribute('aria-activedescendant')).toBe(await assigned.locator('[data-active]').getAttribute('id'));
      await shot(ana, 'tickets-keyboard-light');
      await ana.keyboard.press('ArrowUp');
      await expect.poll(() => assigned.locator('[data-active]').getAttribute('data-uuid'), LIVE).toBe(order[0]);
      await ana.keyboard.press('Enter');
      await ana.waitForURL(`${server.url}/tickets/${order[0]}`);
      await ana.getByTestId('conversation').waitFor();
    },
    JOURNEY_MS,
  );

  it(
    'at 375 px the Ticket and Atendimentos tabs show one pane at a time, with names cut to 10 characters',
    async () => {
      const phone = await browser({ width: 375, height: 812 });
      await openInbox(phone, 'ana');
      const page = phone.getByTestId('tickets-page');
      expect(await page.getAttribute('data-layout')).toBe('tabs');
      await phone.getByRole('tab', { name: 'Ticket', exact: true }).waitFor();
      expect(await phone.getByRole('tab', { name: 'Atendimentos' }).getAttribute('aria-selected')).toBe('true');
      const maria = row(list(phone, 'assigned'), MARIA.name);
      await maria.waitFor();
      expect(await maria.getByTestId('ticket-name').innerText()).toBe('Maria Clie...');
      const overflow = () => phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shotBoth(phone, 'tickets-375-list');

      await maria.click();
      await phone.getByTestId('conversation').waitFor();
      expect(await phone.getByRole('tab', { name: 'Ticket', exact: true }).getAttribute('aria-selected')).toBe('true');
      expect(await list(phone, 'assigned').isVisible()).toBe(false);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shotBoth(phone, 'tickets-375-ticket');
      await phone.getByRole('tab', { name: 'Atendimentos' }).click();
      await list(phone, 'assigned').waitFor();
      expect(await phone.getByTestId('conversation').isVisible()).toBe(false);
    },
    JOURNEY_MS,
  );

  it(
    "an admin sees everyone's conversations with Todos, filters the search by user, and peeks at a conversation read-only",
    async () => {
      const admin = await browser({ width: 1440, height: 900 });
      await signIn(admin, server.url, tenant.admin.email, PASSWORD);
      // An admin lands on the dashboard; the inbox is a menu entry away.
      await admin.waitForURL(`${server.url}/dashboard`);
      await admin.getByRole('menuitem', { name: 'Atendimentos' }).click();
      await admin.waitForURL(`${server.url}/tickets`);
      const assigned = list(admin, 'assigned');
      await assigned.getByTestId('tickets-empty').waitFor();
      await shotBoth(admin, 'tickets-admin-empty');

      await admin.getByTestId('show-all').click();
      await row(assigned, PEDRO.name).waitFor();
      await row(assigned, MARIA.name).waitFor();
      await row(assigned, CARLA.name).waitFor();
      await expect.poll(() => countOf(admin, 'assigned-count'), LIVE).toBe('3');

      await row(assigned, PEDRO.name).getByRole('button', { name: `Espiar a conversa de ${PEDRO.name}` }).click();
      const peek = admin.getByRole('dialog', { name: `Conversa com ${PEDRO.name}` });
      await peek.getByTestId('conversation').waitFor();
      await peek.getByText('Meu pedido não chegou').waitFor();
      expect(await peek.getByTestId('message-composer').count()).toBe(0);
      expect(admin.url()).toBe(`${server.url}/tickets`);
      await shotBoth(admin, 'tickets-admin-peek');
      await admin.keyboard.press('Escape');
      await peek.waitFor({ state: 'hidden' });

      // The live list keeps showing other agents' tickets while Todos is on.
      await customerWrites(suporteConnection, PEDRO, 'Alguma novidade?');
      await expect.poll(() => row(assigned, PEDRO.name).getByTestId('ticket-last-message').innerText(), LIVE).toBe('Alguma novidade?');
      expect(await assigned.getByRole('option').first().getAttribute('aria-label')).toBe(PEDRO.name);

      await admin.getByRole('tab', { name: 'Busca' }).click();
      await chooseOption(admin, admin.getByLabel('Filtrar por usuários'), 'bruno');
      await row(list(admin, 'search'), PEDRO.name).waitFor();
      expect(await row(list(admin, 'search'), MARIA.name).count()).toBe(0);
      await shotBoth(admin, 'tickets-admin-search');
    },
    JOURNEY_MS,
  );

  it(
    'a resolved ticket leaves Atendendo live for Resolvidos, and the contacts page starts a new one with the contact chosen',
    async () => {
      const ana = await browser();
      await openInbox(ana, 'ana');
      const assigned = list(ana, 'assigned');
      await row(assigned, CARLA.name).waitFor();
      const carla = await ticketOf(server, tenant.companyId, CARLA.number);
      const resolved = await callAs(ana, 'PUT', `/api/tickets/${carla.id}`, { status: 'closed' });
      expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
      await row(assigned, CARLA.name).waitFor({ state: 'detached' });
      await expect.poll(() => countOf(ana, 'assigned-count'), LIVE).toBe('1');
      await ana.getByRole('tab', { name: 'Resolvidos' }).click();
      await row(list(ana, 'closed'), CARLA.name).waitFor();
      await shotBoth(ana, 'tickets-closed');

      await ana.getByRole('menuitem', { name: 'Contatos' }).click();
      await ana.getByRole('button', { name: `Iniciar atendimento com ${CARLA.name}` }).click();
      const dialog = ana.getByRole('dialog', { name: 'Criar Ticket' });
      await dialog.getByText(CARLA.name).waitFor();
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expect.poll(async () => (await ticketOf(server, tenant.companyId, CARLA.number)).id, LIVE).not.toBe(carla.id);
      const reopened = await ticketOf(server, tenant.companyId, CARLA.number);
      await ana.waitForURL(`${server.url}/tickets/${reopened.uuid}`);
      await ana.getByTestId('conversation').waitFor();
      await ana.getByRole('tab', { name: 'Abertas' }).click();
      await row(assigned, CARLA.name).waitFor();
    },
    JOURNEY_MS,
  );
});
