import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BrowserPool, chooseOption, signIn, shot, typeDate } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createCampaign, createList, people } from '../helpers/campaigns.js';
import { createConnection, createMember, createTenant, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';

const JOURNEY_MS = 240_000;
const TZ = 'America/Sao_Paulo';

let server: TestServer;
let tenant: InboxTenant;
/** An admin that never signs in through a browser: it reads the API (a login ends the admin's browser session). */
let operator: Member;
const browsers = new BrowserPool();

/** The picker's text for tomorrow at 10:30 on the company's clock. */
function tomorrow(): string {
  const day = new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA', { timeZone: TZ });
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y} 10:30`;
}

const row = (page: Page, name: string) => page.getByTestId('campaigns-table').getByRole('row', { name: new RegExp(name) });
const status = (page: Page) => page.getByTestId('campaign-status');
const progress = (page: Page) => page.getByTestId('campaign-progress-text');

describeE2E('a campaign from the spreadsheet to its report', () => {
  beforeAll(async () => {
    // Planned waits run at a hundredth: a 20 s interval is 0–200 ms, long enough to watch and to stop.
    server = await startTestServer({ simulator: true, pluginConfig: { campaigns: { waitScale: 0.01, tickEveryMs: 500 } } });
    tenant = await createTenant(server, 'Loja Jornada');
    await createConnection(server, tenant, 'Vendas');
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
    'an admin imports a list, schedules a campaign on it and watches it to Finalizada; another is stopped and restarted from the pages',
    async () => {
      const page = await browsers.page();
      await signIn(page, server.url, tenant.admin.email, PASSWORD);
      await page.evaluate(() => localStorage.setItem('cshow', '1'));

      // The list, by import of a .csv.
      await page.goto(`${server.url}/contact-lists`);
      await page.getByRole('button', { name: 'Adicionar lista' }).click();
      const dialog = page.getByRole('dialog', { name: 'Adicionar lista de contatos' });
      await dialog.getByLabel('Nome').fill('Clientes VIP');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByTestId('contact-lists-table').getByRole('link', { name: 'Clientes VIP', exact: true }).click();
      await page.waitForURL(/\/contact-lists\/\d+\/contacts$/);
      await page.getByRole('button', { name: 'Importar' }).click();
      const importer = page.getByRole('dialog', { name: 'Importar contatos para Clientes VIP' });
      const csv = ['Nome;Numero;Email', ...people(6, 900).map((p) => `${p.name};${p.number};${p.email}`)].join('\r\n');
      await importer.locator('input[type=file]').setInputFiles({ name: 'vip.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await importer.getByTestId('import-report').waitFor();
      await importer.getByRole('button', { name: 'Importar', exact: true }).click();
      await page.getByText('Importação concluída: 6 novos, 0 atualizados, 0 rejeitados.').waitFor();
      await page.getByText('6 válidos, 0 inválidos').waitFor({ timeout: 20_000 });

      // The campaign on it, scheduled for tomorrow in the dialog.
      await page.goto(`${server.url}/campaigns`);
      await page.getByRole('button', { name: 'Nova campanha' }).click();
      const modal = page.getByRole('dialog', { name: 'Nova campanha' });
      await modal.getByLabel('Nome', { exact: true }).fill('Clube VIP');
      await chooseOption(page, page.getByRole('dialog').getByLabel('Lista de contatos', { exact: true }), 'Clientes VIP (6)');
      await chooseOption(page, page.getByRole('dialog').getByLabel('Conexão', { exact: true }), 'Vendas');
      const picker = modal.getByLabel('Agendamento', { exact: true });
      await typeDate(page, picker, tomorrow());
      await modal.getByLabel('Mensagem 1', { exact: true }).fill('Olá {nome}, você é VIP!');
      await modal.getByRole('button', { name: 'Salvar' }).click();
      await modal.waitFor({ state: 'hidden' });
      await row(page, 'Clube VIP').getByText('Programada').waitFor();

      // Its report, live: the time comes (moved to now), and it runs to the end without a reload.
      await row(page, 'Clube VIP').getByRole('link', { name: 'Relatório da campanha Clube VIP' }).click();
      await page.waitForURL(/\/campaign\/\d+\/report$/);
      await expect.poll(() => status(page).textContent()).toBe('Programada');
      const id = Number(/\/campaign\/(\d+)\/report$/.exec(page.url())![1]);
      await server.atende.container.db('campaigns').where({ id }).update({ scheduledAt: new Date().toISOString() });
      await expect.poll(() => status(page).textContent(), { timeout: 60_000 }).toBe('Finalizada');
      await expect.poll(() => progress(page).textContent(), { timeout: 20_000 }).toBe('Finalizada: 6 de 6 contatos válidos entregues');
      await shot(page, 'campaign-journey-finished');
      const sent = (await server.call('GET', `/api/campaigns/${id}/report`, { token: operator.token })).body as { counts: Record<string, number> };
      expect(sent.counts.read + sent.counts.delivered + sent.counts.sent).toBe(6);

      // Another, already running: stopped from the campaigns page, restarted from its report.
      const other = await createCampaign(server, tenant.companyId, {
        name: 'Queima de estoque',
        whatsappId: (await server.atende.container.db('whatsapps').where({ companyId: tenant.companyId }).first('id')).id,
        contactListId: await createList(server, tenant.companyId, people(200, 1000)),
        message1: 'Oi {nome}, queima de estoque!',
      });
      await page.goto(`${server.url}/campaigns`);
      await row(page, 'Queima de estoque').getByText('Em Andamento').waitFor({ timeout: 20_000 });
      await row(page, 'Queima de estoque').getByRole('button', { name: 'Parar a campanha Queima de estoque' }).click();
      await page.getByText('Campanha cancelada').first().waitFor();
      await row(page, 'Queima de estoque').getByText('Cancelada').waitFor();
      const stopped = (await server.call('GET', `/api/campaigns/${other}/report`, { token: operator.token })).body as { counts: Record<string, number> };
      expect(stopped.counts.pending + stopped.counts.queued).toBeGreaterThan(0);

      await row(page, 'Queima de estoque').getByRole('link', { name: 'Relatório da campanha Queima de estoque' }).click();
      await expect.poll(() => status(page).textContent()).toBe('Cancelada');
      await page.getByRole('button', { name: 'Reiniciar' }).click();
      await expect.poll(() => status(page).textContent(), { timeout: 20_000 }).not.toBe('Cancelada');
      await expect.poll(() => status(page).textContent(), { timeout: 120_000 }).toBe('Finalizada');
      await expect.poll(() => progress(page).textContent(), { timeout: 20_000 }).toBe('Finalizada: 200 de 200 contatos válidos entregues');
      await shot(page, 'campaign-journey-restarted');
    },
    JOURNEY_MS,
  );
});
