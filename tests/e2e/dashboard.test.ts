import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chooseOption, signIn, BrowserPool, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, PASSWORD, type InboxTenant, type Member, ticketOf } from '../helpers/inbox.js';
import { TicketTracking } from '../../core/modules/tickets/ticket-tracking.model.js';

const RATED = { from: '5511970001111', name: 'Ana Avaliadora' };
const TALKING = { from: '5511970002222', name: 'Bruno Conversa' };
const WAITING = { from: '5511970003333', name: 'Carla Espera' };
const JOURNEY_MS = 150_000;
/** The company's zone (the default): the dashboard counts its local days. */
const TIMEZONE = 'America/Sao_Paulo';

let server: TestServer;
let tenant: InboxTenant;
let agent: Member;
let connection: number;
const browsers = new BrowserPool();

/** A local day of the company as the date pickers show it, `offset` days from today. */
function pickerDay(offset = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIMEZONE }).format(new Date());
  const day = new Date(`${today}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + offset);
  const [y, m, d] = day.toISOString().slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

async function put(ticketId: number, body: Record<string, unknown>): Promise<void> {
  const res = await server.call('PUT', `/api/tickets/${ticketId}`, { token: agent.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A card's figure, as shown. */
const figure = (page: Page, key: string) => page.getByTestId(`card-${key}`).locator('.ant-statistic-content-value').textContent();

/** Types a day into a date picker and confirms it. */
async function pickDay(picker: Locator, day: string): Promise<void> {
  await picker.click();
  await picker.fill(day);
  await picker.press('Enter');
}

/** Clicks Filtrar in `scope` and waits for the request it makes. */
async function filter(page: Page, scope: Locator, path: string, expected: RegExp): Promise<void> {
  const answered = page.waitForResponse((res) => res.url().includes(path) && expected.test(res.url()));
  await scope.getByRole('button', { name: 'Filtrar' }).click();
  expect((await answered).status()).toBe(200);
}

describeE2E('dashboard page', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Painel Loja');
    const queue = await createQueue(server, tenant, 'Vendas');
    agent = await createMember(server, tenant, 'lucas', { queueIds: [queue] });
    connection = await createConnection(server, tenant, 'Principal', { queueIds: [queue] });
    const rating = await server.call('PUT', '/api/settings/userRating', { token: tenant.admin.token, body: { value: 'enabled' } });
    expect(rating.status).toBe(200);

    // One attendance finished and rated 3 (Muito Satisfeito), one in conversation, one waiting.
    await customerWrites(server, tenant, connection, { ...RATED, body: 'Quero comprar' });
    const rated = await ticketOf(server, tenant.companyId, RATED.from);
    await put(rated.id, { status: 'open', userId: agent.id });
    await put(rated.id, { status: 'closed' });
    await customerWrites(server, tenant, connection, { ...RATED, body: '3' });
    await eventually(async () => TicketTracking.query(server.atende.container.db).findOne({ ticketId: rated.id, rate: 3 }).whereNotNull('finishedAt'), 10_000, 'the rating');

    await customerWrites(server, tenant, connection, { ...TALKING, body: 'Tenho uma dúvida' });
    await put((await ticketOf(server, tenant.companyId, TALKING.from)).id, { status: 'open', userId: agent.id });
    await customerWrites(server, tenant, connection, { ...WAITING, body: 'Alguém aí?' });
    await ticketOf(server, tenant.companyId, WAITING.from);
    await server.atende.container.services.pipeline.idle();
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an admin opens the dashboard first and reads the counters, the attendants and the charts, filtering by period and by date',
    async () => {
      const admin = await browsers.page();
      await signIn(admin, server.url, tenant.admin.email, PASSWORD);
      await admin.waitForURL(/\/dashboard$/);
      await admin.getByRole('heading', { name: 'Dashboard' }).waitFor();

      // The last 7 days are loaded at once.
      await expect.poll(() => figure(admin, 'supportFinished')).toBe('1');
      expect(await figure(admin, 'supportHappening')).toBe('1');
      expect(await figure(admin, 'supportPending')).toBe('1');
      expect(await figure(admin, 'leads')).toBe('3');
      expect(await figure(admin, 'avgSupportTime')).toMatch(/^\d+h \d\dm$/);
      expect(await figure(admin, 'avgWaitTime')).toMatch(/^\d+h \d\dm$/);
      const lucas = admin.getByTestId('attendants-table').getByRole('row', { name: /lucas/ });
      await lucas.getByText('Muito Satisfeito').waitFor();
      await lucas.getByText(/^\d+h \d\dm$/).waitFor();
      await lucas.getByText(/^(Online|Offline)$/).waitFor();

      // Both charts show today: lucas started two attendances; three began today, bucketed per hour.
      const users = admin.getByTestId('chart-users');
      const perTime = admin.getByTestId('chart-time');
      await expect.poll(() => users.getByTestId('chart-users-total').textContent()).toBe('Total: 2');
      await expect.poll(() => perTime.getByTestId('chart-time-total').textContent()).toBe('Total: 3');
      await perTime.getByText('Total de Conversas por Hora').waitFor();
      await users.locator('.recharts-bar-rectangle').first().waitFor();
      expect(await perTime.locator('.recharts-bar-rectangle path').count()).toBeGreaterThan(0);
      await shot(admin, 'dashboard-light');
      await admin.getByTestId('theme-toggle').click();
      await shot(admin, 'dashboard-dark');
      await admin.getByTestId('theme-toggle').click();

      // Filtro por Data: today to today, then back to Filtro por Período.
      const filters = admin.getByTestId('dashboard-filters');
      await chooseOption(admin, filters.getByLabel('Tipo de Filtro'), 'Filtro por Data');
      await pickDay(filters.getByLabel('Data Inicial'), pickerDay());
      await pickDay(filters.getByLabel('Data Final'), pickerDay());
      await filter(admin, filters, '/api/dashboard?', /date_from=\d{4}-\d\d-\d\d&date_to=\d{4}-\d\d-\d\d/);
      expect(await figure(admin, 'supportFinished')).toBe('1');
      await chooseOption(admin, filters.getByLabel('Tipo de Filtro'), 'Filtro por Período');
      await filters.getByText('Últimos 7 dias').waitFor();
      await chooseOption(admin, filters.getByLabel('Período'), 'Últimos 30 dias');
      await filter(admin, filters, '/api/dashboard?', /days=30/);
      expect(await figure(admin, 'leads')).toBe('3');

      // Nenhum selecionado: no request, the spec's toast.
      await chooseOption(admin, filters.getByLabel('Período'), 'Nenhum selecionado');
      await filters.getByRole('button', { name: 'Filtrar' }).click();
      await admin.getByText('Parametrize o filtro').waitFor();

      // Each chart has its own days: yesterday alone has nothing; yesterday to today is per day.
      await pickDay(users.getByLabel('Data Inicial'), pickerDay(-1));
      await pickDay(users.getByLabel('Data Final'), pickerDay(-1));
      await filter(admin, users, '/api/dashboard/ticketsUsers', /initialDate=.*finalDate=/);
      await users.getByText('Nenhuma conversa no período').waitFor();
      expect(await users.getByTestId('chart-users-total').textContent()).toBe('Total: 0');
      await pickDay(perTime.getByLabel('Data Inicial'), pickerDay(-1));
      await filter(admin, perTime, '/api/dashboard/ticketsDay', /initialDate=.*finalDate=/);
      await perTime.getByText('Total de Conversas por Dia').waitFor();
      expect(await perTime.getByTestId('chart-time-total').textContent()).toBe('Total: 3');
      // One bar per day (yesterday's is empty), named DD/MM on the axis.
      for (const day of [pickerDay(-1), pickerDay()]) await perTime.locator('.recharts-xAxis-tick-labels').getByText(day.slice(0, 5), { exact: true }).waitFor();
      await shot(admin, 'dashboard-filtered-light');
    },
    JOURNEY_MS,
  );

  it(
    'on a phone the cards stack above the table and the charts',
    async () => {
      const phone = await browsers.page({ width: 375, height: 800 });
      await signIn(phone, server.url, tenant.admin.email, PASSWORD);
      await phone.waitForURL(/\/dashboard$/);
      await expect.poll(() => figure(phone, 'supportFinished')).toBe('1');
      await phone.getByTestId('chart-time-total').waitFor();
      const [first, second] = await Promise.all([phone.getByTestId('card-supportHappening').boundingBox(), phone.getByTestId('card-supportPending').boundingBox()]);
      expect(second!.y).toBeGreaterThan(first!.y + first!.height - 1);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      // No status column: a dot before each name says it.
      const lucas = phone.getByTestId('attendants-table').getByRole('row', { name: /lucas/ });
      await lucas.getByRole('img', { name: /^(Online|Offline)$/ }).waitFor();
      await shot(phone, 'dashboard-375-light');
    },
    JOURNEY_MS,
  );

  it(
    'a failed load says so, and Tentar novamente asks again',
    async () => {
      const admin = await browsers.page();
      // The counters fail once (the charts answer): the page offers a retry instead of figures.
      await admin.route(/\/api\/dashboard\?/, (route) => route.fulfill({ status: 500, json: { error: 'ERR_INTERNAL', message: 'Internal error' } }), { times: 1 });
      await signIn(admin, server.url, tenant.admin.email, PASSWORD);
      await admin.getByText('Não foi possível carregar os dados').waitFor();
      expect(await admin.getByTestId('card-leads').count()).toBe(0);
      await admin.getByRole('button', { name: 'Tentar novamente' }).click();
      await expect.poll(() => figure(admin, 'leads')).toBe('3');
    },
    JOURNEY_MS,
  );

  it(
    'a plain user has no Dashboard entry and /dashboard is denied',
    async () => {
      const user = await browsers.page();
      await signIn(user, server.url, agent.email, PASSWORD);
      await user.waitForURL(/\/tickets/);
      expect(await user.getByRole('menuitem', { name: 'Dashboard' }).count()).toBe(0);
      await user.goto(`${server.url}/dashboard`);
      await user.getByTestId('denied').getByText('Acesso não permitido').waitFor();
      await user.waitForURL(/\/tickets/);
    },
    JOURNEY_MS,
  );
});
