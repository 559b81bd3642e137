import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { OutboxMessage } from '../../core/channels/simulator/simulator.js';
import { BrowserPool, chooseOption, signIn, shot, confirmDialog } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, outbox, PASSWORD, type InboxTenant, type Member, ticketOf } from '../helpers/inbox.js';
import { sha256 } from '../helpers/media.js';

const JOURNEY_MS = 120_000;
const CUSTOMER = { from: '5511955550001', name: 'Renata Alves' };
const PDF = Buffer.from('%PDF-1.4 catálogo de produtos');
const JPG = Buffer.from('jpeg tabela de preços');

let server: TestServer;
let tenant: InboxTenant;
/** An admin that never signs in through a browser: it reads the simulator's outbox (a browser login ends the tenant admin's token). */
let operator: InboxTenant;
let agent: Member;
let connectionId: number;
let ticket: { id: number; uuid: string };
const browsers = new BrowserPool();

const table = (page: Page) => page.getByTestId('files-table');

describeE2E('file lists', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Loja Arquivos');
    const queueId = await createQueue(server, tenant, 'Vendas');
    agent = await createMember(server, tenant, 'agente', { queueIds: [queueId] });
    operator = { ...tenant, admin: await createMember(server, tenant, 'operador', { profile: 'admin' }) };
    connectionId = await createConnection(server, tenant, 'Loja', { queueIds: [queueId] });
    await customerWrites(server, tenant, connectionId, { ...CUSTOMER, body: 'Oi, podem me mandar o catálogo?' });
    ticket = await ticketOf(server, tenant.companyId, CUSTOMER.from);
    const accepted = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: agent.token, body: { status: 'open', userId: agent.id } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an admin makes a list with two files in /files; an agent sends it from the composer and the phone gets the message, then the files in order',
    async () => {
      const admin = await browsers.page();
      await signIn(admin, server.url, tenant.admin.email, PASSWORD);
      await admin.getByRole('menuitem', { name: 'Lista de arquivos' }).click();
      await admin.getByRole('heading', { name: 'Lista de arquivos' }).waitFor();
      await admin.getByText('Nenhuma lista de arquivos').waitFor();
      await shot(admin, 'files-empty-light');

      await admin.getByRole('button', { name: 'Adicionar lista' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Adicionar lista de arquivos' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expect.poll(() => dialog.getByText('Obrigatório').count()).toBe(2);
      await dialog.getByLabel('Nome', { exact: true }).fill('Bo');
      await dialog.getByText('nome muito curto').waitFor();
      await dialog.getByLabel('Nome', { exact: true }).fill('Boas-vindas');
      await dialog.getByLabel('Mensagem').fill('Olá! Seguem nosso catálogo e a tabela de preços.');

      await dialog.getByRole('button', { name: 'Adicionar arquivo' }).click();
      await dialog.getByLabel('Nome do arquivo 1').fill('Tabela de preços');
      await dialog.getByTestId('file-option').nth(0).locator('input[type=file]').setInputFiles({ name: 'precos.jpg', mimeType: 'image/jpeg', buffer: JPG });
      await dialog.getByText('precos.jpg').waitFor();
      await dialog.getByRole('button', { name: 'Adicionar arquivo' }).click();
      await dialog.getByTestId('file-option').nth(1).locator('input[type=file]').setInputFiles({ name: 'catalogo.pdf', mimeType: 'application/pdf', buffer: PDF });
      // An option not named takes its file's name.
      await expect.poll(() => dialog.getByLabel('Nome do arquivo 2').inputValue()).toBe('catalogo');
      await dialog.getByLabel('Nome do arquivo 2').fill('Catálogo');
      // The catalogue goes first.
      await dialog.getByRole('button', { name: 'Subir o arquivo 2' }).click();
      await expect.poll(() => dialog.getByLabel('Nome do arquivo 1').inputValue()).toBe('Catálogo');
      await expect.poll(() => dialog.getByTestId('file-option').nth(0).getByText('catalogo.pdf').count()).toBe(1);
      await shot(admin, 'files-dialog-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await admin.getByText('Operação realizada com sucesso!').first().waitFor();
      await dialog.waitFor({ state: 'hidden' });
      const row = table(admin).getByRole('row', { name: /Boas-vindas/ });
      await row.getByText('2 arquivos').waitFor();
      await shot(admin, 'files-list-light');

      // The agent's composer: the list is sent into the open ticket.
      const page = await browsers.page();
      await signIn(page, server.url, agent.email, PASSWORD, `/tickets/${ticket.uuid}`);
      const composer = page.getByTestId('message-composer');
      await composer.getByRole('button', { name: 'Enviar lista de arquivos' }).click();
      const picker = page.getByRole('dialog', { name: 'Enviar lista de arquivos' });
      await chooseOption(page, picker.getByLabel('Lista'), 'Boas-vindas');
      await picker.getByTestId('send-file-list-preview').getByText('Tabela de preços (precos.jpg)').waitFor();
      await shot(page, 'files-send-picker-light');
      await picker.getByRole('button', { name: 'Enviar' }).click();
      await page.getByText('Operação realizada com sucesso!').first().waitFor();
      await picker.waitFor({ state: 'hidden' });

      const sent = await eventually(async () => {
        const mine = (await outbox(server, operator, connectionId)).messages.filter((m: OutboxMessage) => m.to === CUSTOMER.from);
        return mine.length === 3 && mine;
      }, 15_000, 'the list on the phone');
      expect(sent.map((m) => [m.kind, m.body, m.media?.fileName ?? null])).toEqual([
        ['text', 'Olá! Seguem nosso catálogo e a tabela de preços.', null],
        ['media', 'Catálogo', 'catalogo.pdf'],
        ['media', 'Tabela de preços', 'precos.jpg'],
      ]);
      expect(sent[1]!.media?.sha256).toBe(sha256(PDF));
      expect(sent[2]!.media?.sha256).toBe(sha256(JPG));
      // The conversation shows them to the agent.
      await page.getByText('Olá! Seguem nosso catálogo e a tabela de preços.').waitFor();
      await shot(page, 'files-sent-conversation-light');

      // Dark theme, then a phone's width.
      await admin.getByTestId('theme-toggle').click();
      await row.getByRole('button', { name: 'Editar a lista Boas-vindas' }).click();
      const edit = admin.getByRole('dialog', { name: 'Editar lista de arquivos' });
      await edit.getByText('catalogo.pdf').waitFor();
      await shot(admin, 'files-dialog-dark');
      await edit.getByRole('button', { name: 'Cancelar' }).click();
      await shot(admin, 'files-list-dark');
      await page.getByTestId('theme-toggle').click();
      await composer.getByRole('button', { name: 'Enviar lista de arquivos' }).click();
      await chooseOption(page, picker.getByLabel('Lista'), 'Boas-vindas');
      await shot(page, 'files-send-picker-dark');
      await picker.getByRole('button', { name: 'Cancelar' }).click();

      await admin.setViewportSize({ width: 375, height: 760 });
      await row.getByText('2 arquivos').waitFor();
      await shot(admin, 'files-list-375-dark');
      await row.getByRole('button', { name: 'Editar a lista Boas-vindas' }).click();
      await edit.getByText('precos.jpg').waitFor();
      await shot(admin, 'files-dialog-375-dark');
      // A phone's narrow composer folds the tool into its menu.
      await page.setViewportSize({ width: 375, height: 760 });
      await composer.getByRole('button', { name: 'Enviar lista de arquivos' }).waitFor({ state: 'detached' });
      await composer.getByRole('button', { name: 'Mais opções' }).click();
      await page.getByRole('menuitem', { name: 'Enviar lista de arquivos' }).click();
      await picker.getByLabel('Lista').waitFor();
      await shot(page, 'files-send-picker-375-dark');
      await picker.getByRole('button', { name: 'Cancelar' }).click();
      await picker.waitFor({ state: 'hidden' });
      await shot(page, 'files-composer-375-dark');
    },
    JOURNEY_MS,
  );

  it(
    'the admin replaces a file and removes the other; deleting the list removes it for everyone, live',
    async () => {
      const admin = await browsers.page();
      await signIn(admin, server.url, tenant.admin.email, PASSWORD, '/files');
      const row = table(admin).getByRole('row', { name: /Boas-vindas/ });
      await row.getByRole('button', { name: 'Editar a lista Boas-vindas' }).click();
      const edit = admin.getByRole('dialog', { name: 'Editar lista de arquivos' });
      await edit.getByText('catalogo.pdf').waitFor();
      await edit.getByTestId('file-option').nth(0).locator('input[type=file]').setInputFiles({ name: 'catalogo-2027.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF novo') });
      await edit.getByRole('button', { name: 'Remover o arquivo 2' }).click();
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await edit.waitFor({ state: 'hidden' });
      await row.getByText('1 arquivo', { exact: true }).waitFor();
      // The agent's browser login ended the setup's session: a new one reads the list.
      const { token } = await server.login(agent.email, PASSWORD);
      const saved = await server.call('GET', '/api/files?companyId=0', { token });
      expect(saved.body.files[0].options).toMatchObject([{ name: 'Catálogo', mediaName: 'catalogo-2027.pdf' }]);

      await row.getByRole('button', { name: 'Excluir a lista Boas-vindas' }).click();
      await confirmDialog(admin, 'Excluir Boas-vindas?');
      await row.waitFor({ state: 'detached' });
      await admin.getByText('Nenhuma lista de arquivos').waitFor();
    },
    JOURNEY_MS,
  );
});
