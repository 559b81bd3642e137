import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BrowserPool, chooseOption, signIn, shot, typeDate } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createTenant, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';

const JOURNEY_MS = 150_000;
const TZ = 'America/Sao_Paulo';

let server: TestServer;
let tenant: InboxTenant;
/** An admin that never signs in through a browser: it reads the API (a login ends the admin's browser session). */
let operator: Member;
const browsers = new BrowserPool();

/** The picker's text for a day 3 days ahead at 10:30 on the company's clock. */
function threeDaysAhead(): { text: string; iso: string } {
  const day = new Date(Date.now() + 3 * 86_400_000).toLocaleDateString('en-CA', { timeZone: TZ });
  const [y, m, d] = day.split('-');
  // São Paulo keeps UTC-3 all year.
  return { text: `${d}/${m}/${y} 10:30`, iso: `${day}T13:30:00.000Z` };
}

const row = (page: Page, name: string) => page.getByTestId('campaigns-table').getByRole('row', { name: new RegExp(name) });

describeE2E('campaigns and the opt-out list', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Loja Disparos');
    await createConnection(server, tenant, 'Loja', {}, false);
    operator = await createMember(server, tenant, 'operador', { profile: 'admin' });
    const list = await server.call('POST', '/api/contact-lists', { token: operator.token, body: { name: 'Clientes da feira' } });
    expect(list.status).toBe(201);
    await server.call('POST', '/api/campaign-settings', { token: operator.token, body: { settings: { variables: [{ key: 'loja', value: 'Loja Centro' }] } } });
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an admin schedules a campaign with two message tabs, sees it Programada, edits it, and keeps the opt-out list',
    async () => {
      const page = await browsers.page();
      await signIn(page, server.url, tenant.admin.email, PASSWORD);
      await page.evaluate(() => localStorage.setItem('cshow', '1'));
      await page.reload();
      await page.getByRole('menuitem', { name: 'Campanhas' }).click();
      await page.getByRole('heading', { name: 'Campanhas' }).waitFor();
      await page.getByText('Nenhuma campanha').waitFor();

      await page.getByRole('button', { name: 'Nova campanha' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nova campanha' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Required').waitFor();
      await dialog.getByLabel('Nome', { exact: true }).fill('Feira de sábado');
      await chooseOption(page, page.getByRole('dialog').getByLabel('Confirmação', { exact: true }), 'Habilitada');
      await chooseOption(page, page.getByRole('dialog').getByLabel('Lista de contatos', { exact: true }), 'Clientes da feira (0)');
      await chooseOption(page, page.getByRole('dialog').getByLabel('Conexão', { exact: true }), 'Loja');
      const when = threeDaysAhead();
      const picker = dialog.getByLabel('Agendamento', { exact: true });
      await typeDate(page, picker, when.text);
      await dialog.getByText('Use variáveis como {nome}, {numero}, {email}, {loja} nas mensagens.').waitFor();
      await dialog.getByLabel('Mensagem 1', { exact: true }).fill('Olá {nome}, a feira abre sábado!');
      // Confirmation on: each tab has its confirmation message.
      await dialog.getByText('Mensagem de confirmação').first().waitFor();
      await dialog.getByLabel('Mensagem de confirmação 1', { exact: true }).fill('Quer receber as ofertas da feira?');
      await dialog.getByRole('tab', { name: 'Msg. 2' }).click();
      await dialog.getByLabel('Mensagem 2', { exact: true }).fill('{nome}, sábado tem feira na {loja}.');
      await shot(page, 'campaign-dialog-confirmation-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.waitFor({ state: 'hidden' });

      await row(page, 'Feira de sábado').getByText('Programada').waitFor();
      await row(page, 'Feira de sábado').getByText('Clientes da feira').waitFor();
      await row(page, 'Feira de sábado').getByText('Habilitada').waitFor();
      await row(page, 'Feira de sábado').getByText('Não concluída').waitFor();
      const saved = await server.call('GET', '/api/campaigns', { token: operator.token });
      const campaign = saved.body.records[0];
      expect(campaign).toMatchObject({
        name: 'Feira de sábado',
        status: 'PROGRAMADA',
        confirmation: true,
        scheduledAt: when.iso,
        message1: 'Olá {nome}, a feira abre sábado!',
        confirmationMessage1: 'Quer receber as ofertas da feira?',
        message2: '{nome}, sábado tem feira na {loja}.',
        message3: null,
      });

      // Another campaign without schedule nor list; its row shows the placeholders, live from the API.
      await server.call('POST', '/api/campaigns', { token: operator.token, body: { name: 'Rascunho' } });
      await row(page, 'Rascunho').getByText('Inativa').waitFor();
      await row(page, 'Rascunho').getByText('Não definida').waitFor();
      await row(page, 'Rascunho').getByText('Não definido').waitFor();
      await row(page, 'Rascunho').getByText('Sem agendamento').waitFor();
      // Stop for a running campaign, restart for a cancelled one (the dispatch's calls; not clicked here).
      const running = await server.call('POST', '/api/campaigns', { token: operator.token, body: { name: 'Rodando' } });
      const cancelled = await server.call('POST', '/api/campaigns', { token: operator.token, body: { name: 'Parada' } });
      const db = server.atende.container.db;
      await db('campaigns').where({ id: running.body.id }).update({ status: 'EM_ANDAMENTO' });
      // A contact still to send keeps it running: the dispatch finishes a campaign with nothing left.
      const now = new Date().toISOString();
      await db('campaign_shippings').insert({ campaignId: running.body.id, companyId: tenant.companyId, number: '5511900001111', createdAt: now, updatedAt: now });
      await db('campaigns').where({ id: cancelled.body.id }).update({ status: 'CANCELADA' });
      await page.reload();
      await row(page, 'Rodando').getByRole('button', { name: 'Parar a campanha Rodando' }).waitFor();
      expect(await row(page, 'Rodando').getByRole('button', { name: /Reiniciar/ }).count()).toBe(0);
      await row(page, 'Parada').getByRole('button', { name: 'Reiniciar a campanha Parada' }).waitFor();
      expect(await row(page, 'Parada').getByRole('button', { name: /Parar/ }).count()).toBe(0);
      expect(await row(page, 'Feira de sábado').getByRole('link', { name: 'Relatório da campanha Feira de sábado' }).getAttribute('href')).toBe(`/campaign/${campaign.id}/report`);
      await shot(page, 'campaigns-list-light');

      // Edit: the saved values come back; a third message is added.
      await row(page, 'Feira de sábado').getByRole('button', { name: 'Editar a campanha Feira de sábado' }).click();
      const edit = page.getByRole('dialog', { name: 'Editar campanha' });
      await expect.poll(() => edit.getByLabel('Nome', { exact: true }).inputValue()).toBe('Feira de sábado');
      await expect.poll(() => edit.getByLabel('Agendamento', { exact: true }).inputValue()).toBe(when.text);
      await edit.getByRole('tab', { name: 'Msg. 3' }).click();
      await edit.getByLabel('Mensagem 3', { exact: true }).fill('Última chamada: feira no sábado!');
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await edit.waitFor({ state: 'hidden' });
      await expect.poll(async () => (await server.call('GET', `/api/campaigns/${campaign.id}`, { token: operator.token })).body.message3).toBe('Última chamada: feira no sábado!');

      // A running campaign opens read-only.
      await row(page, 'Rodando').getByRole('button', { name: 'Editar a campanha Rodando' }).click();
      const view = page.getByRole('dialog', { name: 'Campanha' });
      await view.getByText('Esta campanha não pode mais ser alterada', { exact: false }).waitFor();
      expect(await view.getByRole('button', { name: 'Salvar' }).count()).toBe(0);
      await view.getByRole('button', { name: 'Fechar' }).last().click();
      await view.waitFor({ state: 'hidden' });

      // The opt-out list: add a number, see it, export it.
      await page.getByRole('menuitem', { name: 'Descadastros' }).click();
      await page.getByRole('heading', { name: 'Descadastros' }).waitFor();
      await page.getByText('Nenhum número descadastrado').waitFor();
      await page.getByRole('button', { name: 'Adicionar número' }).click();
      const add = page.getByRole('dialog', { name: 'Adicionar número' });
      await add.getByLabel('Número').fill('+55 (11) 98765-4321');
      await add.getByRole('button', { name: 'Salvar' }).click();
      await add.waitFor({ state: 'hidden' });
      await page.getByTestId('opt-outs-table').getByText('5511987654321').waitFor();
      await page.getByTestId('opt-outs-table').getByText('Adicionado manualmente').waitFor();
      await shot(page, 'campaign-opt-outs-light');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
      expect(download.suggestedFilename()).toBe('descadastros.csv');
      const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
      expect(csv[0]).toBe('number;word;campaign;createdAt');
      expect(csv[1]).toMatch(/^5511987654321;;;/);

      // Dark theme at a phone's width.
      await page.getByTestId('theme-toggle').click();
      await page.setViewportSize({ width: 375, height: 760 });
      await shot(page, 'campaign-opt-outs-375-dark');
      await page.goto(`${server.url}/campaigns`);
      await row(page, 'Feira de sábado').getByText('Programada').waitFor();
      await shot(page, 'campaigns-375-dark');
    },
    JOURNEY_MS,
  );
});
