import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, BrowserPool, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createCampaign, createList, people } from '../helpers/campaigns.js';
import { createConnection, createMember, createTenant, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';

const JOURNEY_MS = 150_000;

let server: TestServer;
let tenant: InboxTenant;
let connection: number;
/** An admin that never signs in through a browser: it calls the API (a login ends the other sessions of its user). */
let operator: Member;
const browsers = new BrowserPool();

async function openReport(page: Page, campaignId: number): Promise<void> {
  await signIn(page, server.url, tenant.admin.email, PASSWORD);
  await page.evaluate(() => localStorage.setItem('cshow', '1'));
  await page.goto(`${server.url}/campaign/${campaignId}/report`);
}

/** A start an hour away: the campaign waits until the test makes it due (dueNow). */
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** The campaign's time comes: the dispatcher's next tick starts it. */
async function dueNow(campaignId: number): Promise<void> {
  await server.atende.container.db('campaigns').where({ id: campaignId }).update({ scheduledAt: new Date().toISOString() });
}

const status = (page: Page) => page.getByTestId('campaign-status');
const progress = (page: Page) => page.getByTestId('campaign-progress-text');

describeE2E('campaign report', () => {
  beforeAll(async () => {
    // Planned waits run at a hundredth: a 20 s interval is 0–200 ms, long enough to watch.
    server = await startTestServer({ simulator: true, pluginConfig: { campaigns: { waitScale: 0.01, tickEveryMs: 500 } } });
    tenant = await createTenant(server, 'Loja Relatório');
    connection = await createConnection(server, tenant, 'Vendas');
    operator = await createMember(server, tenant, 'operador', { profile: 'admin' });
    const saved = await server.call('POST', '/api/campaign-settings', { token: operator.token, body: { settings: { messageInterval: 20, longerIntervalAfter: 0, greaterInterval: 0 } } });
    expect(saved.status).toBe(200);
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'follows a campaign live from Programada through Em Andamento to Finalizada with every contact delivered',
    async () => {
      const listId = await createList(server, tenant.companyId, people(40));
      const id = await createCampaign(server, tenant.companyId, {
        name: 'Feirão de Verão',
        whatsappId: connection,
        contactListId: listId,
        message1: 'Olá {nome}, o feirão começou!',
        scheduledAt: inAnHour(),
      });
      const page = await browsers.page();
      await openReport(page, id);
      await page.getByRole('heading', { name: 'Relatório de Feirão de Verão' }).waitFor();
      await expect.poll(() => status(page).textContent()).toBe('Programada');
      await expect.poll(() => page.getByTestId('card-valid').textContent()).toContain('40');
      await expect.poll(() => page.getByTestId('card-connection').textContent()).toContain('Vendas');

      // Its time comes: the page follows the frames, no reload.
      await dueNow(id);
      await expect.poll(() => status(page).textContent(), { timeout: 20_000 }).toBe('Em Andamento');
      await expect.poll(async () => Number((await page.getByTestId('card-delivered').textContent())?.replace(/\D/g, '')), { timeout: 20_000 }).toBeGreaterThan(0);
      await shot(page, 'campaign-report-running');

      await expect.poll(() => status(page).textContent(), { timeout: 60_000 }).toBe('Finalizada');
      // The last acks land after FINALIZADA: the report reads itself again 5 s later.
      await expect.poll(() => progress(page).textContent(), { timeout: 20_000 }).toBe('Finalizada: 40 de 40 contatos válidos entregues');
      await expect.poll(() => page.getByTestId('card-completed').textContent()).not.toContain('Não concluída');
      await page.getByText('Nenhuma falha').waitFor();
      await shot(page, 'campaign-report-finished');
    },
    JOURNEY_MS,
  );

  it(
    'shows the pause of a disconnected connection, and cancel and restart made through the API',
    async () => {
      const listId = await createList(server, tenant.companyId, people(60, 100));
      // Due once the page shows it: on a loaded machine its 60 messages could all go before the page opens.
      const id = await createCampaign(server, tenant.companyId, { name: 'Liquidação', whatsappId: connection, contactListId: listId, message1: 'Oi {nome}', scheduledAt: inAnHour() });
      const page = await browsers.page();
      await openReport(page, id);
      await expect.poll(() => status(page).textContent()).toBe('Programada');
      await dueNow(id);
      await expect.poll(() => status(page).textContent(), { timeout: 20_000 }).toBe('Em Andamento');

      expect((await server.call('POST', `/api/simulator/${connection}/disconnect`, { token: operator.token })).status).toBe(200);
      await page.getByTestId('campaign-pause').getByText('Pausada: a conexão está desconectada. Continua quando ela voltar.').waitFor({ timeout: 20_000 });
      await shot(page, 'campaign-report-paused');

      const cancelled = await server.call('POST', `/api/campaigns/${id}/cancel`, { token: operator.token });
      expect(cancelled.status).toBe(200);
      await expect.poll(() => status(page).textContent()).toBe('Cancelada');
      await expect.poll(() => page.getByTestId('campaign-pause').count()).toBe(0);
      await page.getByRole('button', { name: 'Reiniciar' }).waitFor();

      expect((await server.call('POST', `/api/whatsappsession/${connection}`, { token: operator.token })).status).toBe(200);
      await expect.poll(async () => (await server.call('POST', `/api/simulator/${connection}/scan`, { token: operator.token })).status, { timeout: 10_000 }).toBe(200);
      expect((await server.call('POST', `/api/campaigns/${id}/restart`, { token: operator.token })).status).toBe(200);
      await expect.poll(() => status(page).textContent()).not.toBe('Cancelada');
      await expect.poll(() => status(page).textContent(), { timeout: 60_000 }).toBe('Finalizada');
    },
    JOURNEY_MS,
  );
});
