import { crc32, deflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { BrowserPool, chooseOption, signIn, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';
import { createMember, createTenant, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';

const JOURNEY_MS = 120_000;

let server: TestServer;
let tenant: InboxTenant;
let agent: Member;
const browsers = new BrowserPool();

/** A real PNG (a blue-to-green band) of `width` × `height`, so the pop-over shows a picture. */
function bandPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(30, Math.round(90 + (120 * x) / width), Math.round(200 - (80 * y) / height));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const bell = (page: Page) => page.getByTestId('announcements-bell');
const unreadCount = (page: Page) => page.getByTestId('announcements-count').getAttribute('data-count');
const items = (page: Page) => page.getByTestId('announcements-list').getByTestId('announcement-item');

/** Whether an <img> has loaded and has pixels (a blob URL that worked). */
async function imageLoaded(scope: Locator): Promise<boolean> {
  const img = scope.getByTestId('announcement-image').first();
  await img.waitFor();
  return img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0);
}

describeE2E('announcements', () => {
  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server, 'Loja Informativos');
    agent = await createMember(server, tenant, 'atendente');
  }, JOURNEY_MS);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'a super user publishes an announcement with an image; a tenant user sees it live in the top bar with the image, reads it, and it stays read after a reload',
    async () => {
      const admin = await browsers.page();
      await signIn(admin, server.url, SUPER_EMAIL, SUPER_PASSWORD);
      // Super users write announcements: the top bar has none for them.
      expect(await bell(admin).count()).toBe(0);
      await admin.getByRole('menuitem', { name: 'Informativos' }).click();
      await admin.getByRole('heading', { name: 'Informativos' }).waitFor();

      // The tenant user is on the inbox meanwhile, with nothing to read.
      const user = await browsers.page();
      await signIn(user, server.url, agent.email, PASSWORD);
      await expect.poll(() => unreadCount(user)).toBe('0');

      await admin.getByRole('button', { name: 'Novo informativo' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Novo informativo' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expect.poll(() => dialog.getByText('Obrigatório').count()).toBe(2);
      await dialog.getByLabel('Título').fill('Manutenção programada');
      await dialog.getByLabel('Texto').fill('O sistema ficará fora do ar no sábado, das 22h às 23h.\nSalve seu trabalho antes.');
      await chooseOption(admin, dialog.getByLabel('Prioridade'), 'Alta');
      await dialog.locator('input[type=file]').setInputFiles({ name: 'manutencao.png', mimeType: 'image/png', buffer: bandPng(320, 180) });
      await dialog.getByTestId('announcement-image').getByText('manutencao.png').waitFor();
      await shot(admin, 'announcements-dialog-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await admin.getByText('Informativo salvo com sucesso.').waitFor();
      const row = admin.getByTestId('announcements-table').getByRole('row', { name: /Manutenção programada/ });
      await row.getByText('Alta').waitFor();
      await row.getByText('Ativo').waitFor();
      await row.getByText('manutencao.png').waitFor();
      await shot(admin, 'announcements-page-light');

      // A second one, lower, written through the API: both reach the user live, the high one first.
      const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
      await admin.close();
      const low = await server.call('POST', '/api/announcements', { token: superToken, body: { title: 'Novo atalho de teclado', text: 'Use Ctrl+K para buscar.' } });
      expect(low.status).toBe(201);

      await expect.poll(() => unreadCount(user), { timeout: 10_000 }).toBe('2');
      await bell(user).click();
      await expect.poll(() => items(user).count()).toBe(2);
      expect(await items(user).nth(0).textContent()).toContain('Manutenção programada');
      expect(await items(user).nth(1).textContent()).toContain('Novo atalho de teclado');
      await expect.poll(() => imageLoaded(items(user).nth(0))).toBe(true);
      await shot(user, 'announcements-popover-light');

      await items(user).nth(0).click();
      const detail = user.getByRole('dialog', { name: 'Manutenção programada' });
      await detail.getByText('Salve seu trabalho antes.', { exact: false }).waitFor();
      await expect.poll(() => imageLoaded(detail)).toBe(true);
      await shot(user, 'announcements-detail-light');
      await detail.getByRole('button', { name: 'Fechar' }).last().click();
      await expect.poll(() => unreadCount(user)).toBe('1');

      await user.reload();
      await user.getByTestId('greeting').waitFor();
      await expect.poll(() => unreadCount(user)).toBe('1');
      await bell(user).click();
      await expect.poll(() => items(user).nth(0).getAttribute('data-read')).toBe('true');
      expect(await items(user).nth(1).getAttribute('data-read')).toBe('false');

      // Dark theme.
      await user.keyboard.press('Escape');
      await user.getByTestId('theme-toggle').click();
      await bell(user).click();
      await items(user).nth(0).waitFor();
      await imageLoaded(items(user).nth(0));
      await shot(user, 'announcements-popover-dark');
      await items(user).nth(1).click();
      await user.getByRole('dialog', { name: 'Novo atalho de teclado' }).waitFor();
      await shot(user, 'announcements-detail-dark');
      await user.keyboard.press('Escape');
      await expect.poll(() => unreadCount(user)).toBe('0');

      // Deactivated, it leaves the user's list live.
      await server.call('PUT', `/api/announcements/${low.body.id}`, { token: superToken, body: { status: false } });
      await bell(user).click();
      await expect.poll(() => items(user).count()).toBe(1);
    },
    JOURNEY_MS,
  );

  it(
    'at 375 px the pop-over and the page fit the screen; a user who is not super is refused the page and sent home',
    async () => {
      // Its own announcement, the newest of the high ones: first in the list.
      const token = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
      const created = await server.call('POST', '/api/announcements', {
        token,
        body: { title: 'Treinamento na sexta-feira', text: 'Um treinamento sobre o novo painel de atendimento, às 15h, pela internet.', priority: 1 },
      });
      expect(created.status).toBe(201);
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(bandPng(240, 240))]), 'treinamento.png');
      const res = await fetch(`${server.url}/api/announcements/${created.body.id}/media-upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
      expect(res.status).toBe(200);

      const phone = await browsers.page({ width: 375, height: 812 });
      await signIn(phone, server.url, agent.email, PASSWORD);
      await bell(phone).click();
      await items(phone).nth(0).waitFor();
      await imageLoaded(items(phone).nth(0));
      await shot(phone, 'announcements-popover-375');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await items(phone).nth(0).click();
      await phone.getByRole('dialog', { name: 'Treinamento na sexta-feira' }).waitFor();
      await shot(phone, 'announcements-detail-375');
      await phone.keyboard.press('Escape');

      await phone.goto(`${server.url}/announcements`);
      await phone.getByText('Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.').waitFor();
      await phone.waitForURL((url) => url.pathname !== '/announcements', { timeout: 5000 });

      const superPhone = await browsers.page({ width: 375, height: 812 });
      await signIn(superPhone, server.url, SUPER_EMAIL, SUPER_PASSWORD, '/announcements');
      await superPhone.getByTestId('announcements-table').getByText('Treinamento na sexta-feira').waitFor();
      await shot(superPhone, 'announcements-page-375');
      expect(await superPhone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await superPhone.getByTestId('theme-toggle').click();
      await superPhone.getByRole('button', { name: 'Editar o informativo Treinamento na sexta-feira' }).click();
      const dialog = superPhone.getByRole('dialog', { name: 'Editar informativo' });
      await dialog.getByTestId('announcement-image').getByText('treinamento.png').waitFor();
      await shot(superPhone, 'announcements-dialog-375-dark');
    },
    JOURNEY_MS,
  );
});
