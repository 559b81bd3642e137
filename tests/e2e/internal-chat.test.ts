import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BrowserPool, chooseOptions, signIn, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createMember, createTenant, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';

const JOURNEY_MS = 120_000;

let server: TestServer;
let tenant: InboxTenant;
let ana: Member;
let bia: Member;
let caio: Member;
const browsers = new BrowserPool();

const dot = (page: Page) => page.getByTestId('main-menu').getByTestId('chats-unread-dot');
const chatItem = (page: Page, title: string) => page.getByTestId('chat-item').filter({ hasText: title });
const messages = (page: Page) => page.getByTestId('chat-messages').getByTestId('chat-message');

async function openChats(page: Page, member: Member, phone = false): Promise<void> {
  await signIn(page, server.url, member.email, PASSWORD);
  if (phone) await page.getByRole('button', { name: 'Abrir menu' }).click();
  await page.getByRole('menuitem', { name: /Chat Interno/ }).click();
  await page.getByRole('heading', { name: 'Chat Interno' }).waitFor();
}

describeE2E('internal chat', () => {
  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server, 'Loja Conversa');
    ana = await createMember(server, tenant, 'ana', { profile: 'admin' });
    bia = await createMember(server, tenant, 'bia');
    caio = await createMember(server, tenant, 'caio');
  }, JOURNEY_MS);
  // One login per user at a time: a later login ends the earlier sessions (single session).
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'two colleagues chat live: the new chat appears, the unread dot shows on the other menu, opening the chat clears it, a rename shows at once and a delete sends the other back to /chats',
    async () => {
      const anaPage = await browsers.page();
      const biaPage = await browsers.page({ colorScheme: 'dark' });
      await openChats(anaPage, ana);
      await signIn(biaPage, server.url, bia.email, PASSWORD);
      await expect.poll(() => dot(biaPage).count()).toBe(0);

      // 'Nova': the spec's two alerts, then a chat with Bia.
      await anaPage.getByRole('button', { name: 'Nova conversa' }).click();
      const dialog = anaPage.getByRole('dialog', { name: 'Nova conversa' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.getByText('Por favor, preencha o título da conversa.').waitFor();
      await dialog.getByText('Por favor, selecione pelo menos um usuário.').waitFor();
      await dialog.getByLabel('Título').fill('Plantão de sábado');
      await chooseOptions(anaPage, dialog.getByLabel('Usuários'), ['bia']);
      await anaPage.keyboard.press('Escape');
      await shot(anaPage, 'internal-chat-dialog-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await anaPage.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
      await dialog.waitFor({ state: 'hidden' });
      await anaPage.getByTestId('chat-title').filter({ hasText: 'Plantão de sábado' }).waitFor();

      // Enter sends, Shift+Enter breaks the line.
      const composer = anaPage.getByTestId('chat-composer');
      await composer.fill('Bom dia, Bia!');
      await composer.press('Shift+Enter');
      await composer.pressSequentially('Você cobre o sábado?');
      await composer.press('Enter');
      await expect.poll(() => messages(anaPage).count()).toBe(1);
      await expect.poll(() => messages(anaPage).first().innerText()).toContain('Bom dia, Bia!\nVocê cobre o sábado?');
      await expect.poll(() => composer.inputValue()).toBe('');

      // Bia, on another page, gets the dot on her menu entry.
      await dot(biaPage).waitFor();
      await biaPage.getByRole('menuitem', { name: /Chat Interno/ }).click();
      await chatItem(biaPage, 'Plantão de sábado').getByTestId('chat-unread').waitFor();
      await shot(biaPage, 'internal-chat-list-dark');
      await chatItem(biaPage, 'Plantão de sábado').getByRole('link').click();
      await biaPage.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
      await expect.poll(() => messages(biaPage).count()).toBe(1);
      // Opening the chat marked it read: the dot and the count go.
      await expect.poll(() => dot(biaPage).count()).toBe(0);
      await expect.poll(() => chatItem(biaPage, 'Plantão de sábado').getByTestId('chat-unread').count()).toBe(0);
      // Only the owner edits and deletes.
      expect(await biaPage.getByRole('button', { name: 'Excluir Plantão de sábado' }).count()).toBe(0);

      await biaPage.getByTestId('chat-composer').fill('Cubro sim!');
      await biaPage.getByTestId('chat-composer').press('Enter');
      await expect.poll(() => messages(anaPage).count()).toBe(2);
      await expect.poll(() => messages(anaPage).last().innerText()).toContain('Cubro sim!');
      // Ana has it open: no dot for her.
      await expect.poll(() => dot(anaPage).count()).toBe(0);
      await shot(biaPage, 'internal-chat-conversation-dark');
      await shot(anaPage, 'internal-chat-conversation-light');

      // The owner renames it; Bia sees the new title at once.
      await anaPage.getByTestId('chat-pane').getByRole('button', { name: 'Editar Plantão de sábado' }).click();
      const editing = anaPage.getByRole('dialog', { name: 'Editar conversa' });
      await expect.poll(() => editing.getByLabel('Título').inputValue()).toBe('Plantão de sábado');
      await editing.getByLabel('Título').fill('Plantão de domingo');
      await editing.getByRole('button', { name: 'Salvar' }).click();
      await biaPage.getByTestId('chat-title').filter({ hasText: 'Plantão de domingo' }).waitFor();
      await chatItem(biaPage, 'Plantão de domingo').waitFor();

      // The owner deletes it; Bia, who had it open, is back on /chats with nothing selected.
      await anaPage.getByTestId('chat-pane').getByRole('button', { name: 'Excluir Plantão de domingo' }).click();
      await anaPage.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
      await biaPage.waitForURL(/\/chats$/);
      await biaPage.getByTestId('chat-pick').waitFor();
      await expect.poll(() => chatItem(biaPage, 'Plantão de domingo').count()).toBe(0);
      await expect.poll(() => chatItem(anaPage, 'Plantão de domingo').count()).toBe(0);
      await anaPage.waitForURL(/\/chats$/);
    },
    JOURNEY_MS,
  );

  it(
    "at 375 px the 'Chats' and 'Mensagens' tabs show one at a time, and older messages load when scrolled near the top",
    async () => {
      // The first test's browser login ended Ana's earlier token (single session).
      const token = (await server.login(ana.email, PASSWORD)).token;
      const created = await server.call('POST', '/api/chats', { token, body: { title: 'Histórico longo', users: [caio.id] } });
      expect(created.status).toBe(201);
      for (let i = 1; i <= 60; i += 1) {
        const res = await server.call('POST', `/api/chats/${created.body.id}/messages`, { token, body: { message: `Mensagem ${i}` } });
        expect(res.status).toBe(201);
      }
      const phone = await browsers.page({ width: 375, height: 812 });
      await openChats(phone, caio, true);
      await phone.getByRole('tab', { name: 'Chats', selected: true }).waitFor();
      await phone.getByRole('tab', { name: 'Mensagens' }).waitFor();
      await chatItem(phone, 'Histórico longo').waitFor();
      await shot(phone, 'internal-chat-list-375');

      await chatItem(phone, 'Histórico longo').getByRole('link').click();
      await phone.getByRole('tab', { name: 'Mensagens', selected: true }).waitFor();
      // The newest page (40) at the bottom; the rest comes as the top is neared.
      await messages(phone).getByText('Mensagem 60', { exact: true }).waitFor();
      await shot(phone, 'internal-chat-conversation-375');
      expect(await messages(phone).count()).toBe(40);
      await phone.getByTestId('chat-messages').evaluate((el) => (el.scrollTop = 0));
      await expect.poll(() => messages(phone).count()).toBe(60);
      await messages(phone).getByText('Mensagem 1', { exact: true }).waitFor({ state: 'attached' });

      await phone.getByRole('tab', { name: 'Chats' }).click();
      await chatItem(phone, 'Histórico longo').waitFor();
    },
    JOURNEY_MS,
  );
});
