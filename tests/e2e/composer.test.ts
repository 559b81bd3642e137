import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { OutboxMessage } from '../../core/channels/simulator/simulator.js';
import { signIn, BrowserPool, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createQueue, createTenant, customerWrites, eventually, outbox, PASSWORD, type InboxTenant, ticketOf } from '../helpers/inbox.js';

const AGENT = { name: 'Ana Souza', handle: 'ana' };
const CUSTOMER = { from: '5511988887777', name: 'Maria Cliente' };
const WAITING = { from: '5511977776666', name: 'João Espera' };
const JOURNEY_MS = 180_000;
/** A 1×1 PNG: the attachment the agent picks. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
/** Chromium's fake microphone (a beeping tone) and no permission prompt. */
const FAKE_MICROPHONE = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

/** Where the silent recording's file lives, removed at the end. */
let scratch: string | undefined;

/** A WAV file of silence (48 kHz, 16-bit mono) for the fake microphone: Opus makes it tiny. */
function silence(): string {
  const rate = 48_000;
  const data = Buffer.alloc(rate * 2 * 5);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  scratch = mkdtempSync(path.join(tmpdir(), 'atende-silence-'));
  const file = path.join(scratch, 'silence.wav');
  writeFileSync(file, Buffer.concat([header, data]));
  return file;
}

let server: TestServer;
let tenant: InboxTenant;
let connectionId: number;
let agentId: number;
let openTicket: { id: number; uuid: string };
let customerMessageWid: string;
const browsers = new BrowserPool();

const sent = async (): Promise<OutboxMessage[]> => (await outbox(server, tenant, connectionId)).messages;

/** The one message the simulated phone sent with this body (waits for it; fails on two). */
async function sentOnce(match: (m: OutboxMessage) => boolean, what: string): Promise<OutboxMessage> {
  const found = await eventually(async () => {
    const hits = (await sent()).filter(match);
    return hits.length > 0 && hits;
  }, 10_000, what);
  expect(found, what).toHaveLength(1);
  return found[0]!;
}

const composer = (page: Page) => page.getByTestId('message-composer');
const input = (page: Page) => composer(page).getByRole('textbox', { name: 'Digite uma mensagem' });

/** Counts the sends the page makes to the messages API. */
function countSends(page: Page, ticketId: number): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === `/api/messages/${ticketId}`) count += 1;
  });
  return () => count;
}

async function openConversation(page: Page, uuid: string): Promise<void> {
  await page.goto(`${server.url}/tickets/${uuid}`);
  await page.getByTestId('message-composer').waitFor();
}

describeE2E('message composer', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Loja Composer');
    const queueId = await createQueue(server, tenant, 'Vendas');
    const agent = await server.call('POST', '/api/users', {
      token: tenant.admin.token,
      body: { name: AGENT.name, email: `${AGENT.handle}@${tenant.slug}.test`, password: PASSWORD, profile: 'user', queueIds: [queueId], allTicket: 'disabled' },
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    agentId = agent.body.id;
    connectionId = await createConnection(server, tenant, 'Loja', { queueIds: [queueId] });

    customerMessageWid = await customerWrites(server, tenant, connectionId, { ...CUSTOMER, body: 'Olá, preciso de ajuda' });
    openTicket = await ticketOf(server, tenant.companyId, CUSTOMER.from);
    // Signed in here only to accept and to write quick replies: the browser's login ends this session.
    const agentToken = (await server.login(`${AGENT.handle}@${tenant.slug}.test`, PASSWORD)).token;
    const accepted = await server.call('PUT', `/api/tickets/${openTicket.id}`, { token: agentToken, body: { status: 'open', userId: agentId } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    const text = await server.call('POST', '/api/quick-messages', { token: agentToken, body: { shortcode: 'ola', message: 'Olá {{firstName}}, em que posso ajudar hoje?', geral: false } });
    expect(text.status).toBe(201);
    const media = await server.call('POST', '/api/quick-messages', { token: agentToken, body: { shortcode: 'catalogo', message: 'Nosso catálogo', geral: false } });
    expect(media.status).toBe(201);
    const form = new FormData();
    form.set('typeArch', 'quickMessage');
    form.set('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'catalogo.png');
    const uploaded = await fetch(`${server.url}/api/quick-messages/${media.body.id}/media-upload`, { method: 'POST', headers: { Authorization: `Bearer ${agentToken}` }, body: form });
    expect(uploaded.status).toBe(200);

    await customerWrites(server, tenant, connectionId, { ...WAITING, body: 'Alguém aí?' });
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it(
    'an agent sends signed and unsigned texts with Enter, never blank ones, uses variables and quick replies, attaches a file and replies to a message',
    async () => {
      const page = await browsers.page();
      await signIn(page, server.url, `${AGENT.handle}@${tenant.slug}.test`, PASSWORD);
      const sends = countSends(page, openTicket.id);
      await openConversation(page, openTicket.uuid);
      await page.getByTestId('message').filter({ hasText: 'Olá, preciso de ajuda' }).waitFor();

      // Enter sends, once even when pressed twice, signed with the agent's name in bold by default.
      await input(page).fill('Bom dia!');
      await input(page).press('Enter');
      await input(page).press('Enter');
      await sentOnce((m) => m.body === `*${AGENT.name}*:\nBom dia!`, 'the signed greeting');
      expect(sends()).toBe(1);
      expect(await input(page).inputValue()).toBe('');
      await page.getByTestId('message').filter({ hasText: 'Bom dia!' }).waitFor();

      // Shift+Enter breaks the line; Enter sends both lines.
      await input(page).pressSequentially('Linha 1');
      await input(page).press('Shift+Enter');
      await input(page).pressSequentially('Linha 2');
      expect(await input(page).inputValue()).toBe('Linha 1\nLinha 2');
      await input(page).press('Enter');
      await sentOnce((m) => m.body === `*${AGENT.name}*:\nLinha 1\nLinha 2`, 'the two lines');

      // Blank text is never sent: the button is disabled and Enter does nothing.
      await input(page).fill('   ');
      expect(await composer(page).getByRole('button', { name: 'Enviar', exact: true }).isDisabled()).toBe(true);
      await input(page).press('Enter');
      expect(await input(page).inputValue()).toBe('   ');
      expect(sends()).toBe(2);

      // An emoji goes in at the cursor.
      await input(page).fill('Oi tudo bem');
      await input(page).evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(2, 2));
      await composer(page).getByTestId('emoji-button').click();
      const emoji = page.locator('.ant-popover');
      await emoji.getByRole('tablist', { name: 'Navegação por categorias' }).waitFor();
      await shot(page, 'composer-emoji-light');
      await emoji.getByRole('searchbox').or(emoji.getByRole('textbox')).first().fill('pizza');
      await emoji.getByRole('gridcell', { name: 'pizza' }).click();
      await expect.poll(() => input(page).inputValue()).toBe('Oi🍕 tudo bem');
      await composer(page).getByTestId('emoji-button').click();
      await emoji.waitFor({ state: 'hidden' });

      // The sign option off: the text goes as typed, and the choice is remembered.
      const sign = composer(page).getByRole('button', { name: 'Assinar' });
      expect(await sign.getAttribute('aria-pressed')).toBe('true');
      await sign.click();
      expect(await sign.getAttribute('aria-pressed')).toBe('false');
      expect(await page.evaluate(() => localStorage.getItem('signOption'))).toBe('false');

      // A variable goes in at the cursor and is filled in before sending.
      await input(page).fill('');
      await composer(page).getByRole('button', { name: 'Variáveis' }).click();
      await page.getByRole('menuitem', { name: /Primeiro nome/ }).click();
      expect(await input(page).inputValue()).toBe('{{firstName}}');
      await input(page).pressSequentially(', tudo bem?');
      await input(page).press('Enter');
      await sentOnce((m) => m.body === 'Maria, tudo bem?', 'the text with the first name');

      // '/' opens the quick replies; a text reply fills the input.
      await input(page).pressSequentially('/o');
      const picker = page.getByRole('listbox', { name: 'Respostas rápidas' });
      const textReply = picker.getByRole('option', { name: '/ola - Olá {{firstName}}, em que posso aju...' });
      await textReply.waitFor();
      expect(await picker.getByRole('option').count()).toBe(1);
      await shot(page, 'composer-quick-replies-light');
      await input(page).press('Enter');
      await picker.waitFor({ state: 'detached' });
      expect(await input(page).inputValue()).toBe('Olá {{firstName}}, em que posso ajudar hoje?');
      await input(page).press('Enter');
      await sentOnce((m) => m.body === 'Olá Maria, em que posso ajudar hoje?', 'the text quick reply');

      // A media quick reply sends its file at once, its message as the caption.
      await input(page).pressSequentially('/cat');
      await picker.getByRole('option', { name: /^\/catalogo - Nosso catálogo/ }).click();
      const catalogue = await sentOnce((m) => m.kind === 'media' && m.body === 'Nosso catálogo', 'the media quick reply');
      expect(catalogue.media).toMatchObject({ fileName: 'catalogo.png', ptt: false });
      expect(await input(page).inputValue()).toBe('');

      // Attachments: a pasted image and a picked file are previewed; the typed text becomes the caption.
      await input(page).fill('Segue a foto');
      await input(page).evaluate((el, base64) => {
        const data = new DataTransfer();
        data.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], 'colado.png', { type: 'image/png' }));
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, PNG.toString('base64'));
      const preview = page.getByTestId('composer-attachments');
      await preview.getByRole('img', { name: 'colado.png' }).waitFor();
      await page.getByTestId('composer-file-input').setInputFiles({ name: 'produto.png', mimeType: 'image/png', buffer: PNG });
      await preview.getByRole('img', { name: 'produto.png' }).waitFor();
      await preview.getByText('2 arquivos').waitFor();
      await preview.getByRole('button', { name: 'Remover colado.png' }).click();
      await preview.getByText('1 arquivo').waitFor();
      const caption = preview.getByRole('textbox', { name: 'Legenda' });
      expect(await caption.inputValue()).toBe('Segue a foto');
      await caption.fill('Foto do produto');
      await shot(page, 'composer-attachment-light');
      await caption.press('Enter');
      const photo = await sentOnce((m) => m.kind === 'media' && m.body === 'Foto do produto', 'the attached photo');
      expect(photo.media).toMatchObject({ fileName: 'produto.png', mimeType: 'image/png', ptt: false });
      await preview.waitFor({ state: 'detached' });

      // Reply-to: the quoted message shows above the input and goes with the send.
      const customerMessage = page.locator('[data-testid="message"][data-from-me="false"]').filter({ hasText: 'Olá, preciso de ajuda' });
      await customerMessage.hover();
      await customerMessage.getByRole('button', { name: 'Opções da mensagem' }).click();
      await page.getByRole('menuitem', { name: 'Responder' }).click();
      const quoted = page.getByTestId('composer-reply');
      await quoted.getByText(`Respondendo a ${CUSTOMER.name}`).waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('composer-input');
      await input(page).pressSequentially('Claro, vamos lá');
      await shot(page, 'composer-reply-light');
      await input(page).press('Enter');
      const answer = await sentOnce((m) => m.body === 'Claro, vamos lá', 'the reply');
      expect(answer.quotedId).toBe(customerMessageWid);
      await quoted.waitFor({ state: 'detached' });

      // Escape closes a reply without sending it.
      await customerMessage.hover();
      await customerMessage.getByRole('button', { name: 'Opções da mensagem' }).click();
      await page.getByRole('menuitem', { name: 'Responder' }).click();
      await quoted.waitFor();
      await input(page).press('Escape');
      await quoted.waitFor({ state: 'detached' });

      // Dark theme and a phone's width.
      await page.getByTestId('theme-toggle').click();
      await input(page).pressSequentially('/');
      await picker.waitFor();
      await shot(page, 'composer-quick-replies-dark');
      await input(page).press('Escape');
      await picker.waitFor({ state: 'detached' });
      expect(await input(page).inputValue()).toBe('/');
      await input(page).fill('Uma mensagem longa\nem várias\nlinhas\npara ver\no limite\nde cinco');
      await shot(page, 'composer-rows-dark');
      const height = await input(page).evaluate((el) => el.getBoundingClientRect().height);
      const lineHeight = await input(page).evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
      expect(height).toBeLessThan(lineHeight * 6);
      await input(page).fill('');
      await page.setViewportSize({ width: 375, height: 740 });
      await openConversation(page, openTicket.uuid);
      await input(page).fill('Olá pelo celular');
      await shot(page, 'composer-mobile-dark');
      await composer(page).getByRole('button', { name: 'Mais opções' }).click();
      await page.getByRole('menuitem', { name: /Assinar/ }).waitFor();
      await shot(page, 'composer-mobile-menu-dark');
      await page.keyboard.press('Escape');
      await page.getByTestId('theme-toggle').click();
      await shot(page, 'composer-mobile-light');
    },
    JOURNEY_MS,
  );

  it(
    'a voice note is recorded, cancelled or sent as a push-to-talk audio',
    async () => {
      const page = await browsers.page({ args: FAKE_MICROPHONE });
      await page.context().grantPermissions(['microphone'], { origin: server.url });
      await signIn(page, server.url, `${AGENT.handle}@${tenant.slug}.test`, PASSWORD);
      const sends = countSends(page, openTicket.id);
      await openConversation(page, openTicket.uuid);

      const record = composer(page).getByRole('button', { name: 'Gravar áudio' });
      const recording = page.getByTestId('composer-recording');
      await record.click();
      await recording.getByText('Gravando…').waitFor();
      await composer(page).getByRole('button', { name: 'Cancelar gravação' }).click();
      await recording.waitFor({ state: 'detached' });
      await record.waitFor();

      await record.click();
      // Long enough to be well over the 10,000 bytes a voice note needs at 128 kbit/s.
      await expect.poll(() => recording.getByTestId('composer-recording-time').innerText(), { timeout: 10_000 }).toBe('0:02');
      await shot(page, 'composer-recording-light');
      await composer(page).getByRole('button', { name: 'Enviar áudio' }).click();
      const note = await sentOnce((m) => m.kind === 'media' && m.media?.ptt === true, 'the voice note');
      expect(note.media!.size).toBeGreaterThanOrEqual(10_000);
      expect(note.media!.fileName).toMatch(/^audio-\d{14}\.(webm|ogg)$/);
      expect(sends()).toBe(1);
    },
    JOURNEY_MS,
  );

  it(
    'a recording under 10,000 bytes (two seconds of silence) is discarded with a message',
    async () => {
      const page = await browsers.page({ args: [...FAKE_MICROPHONE, `--use-file-for-fake-audio-capture=${silence()}`] });
      await page.context().grantPermissions(['microphone'], { origin: server.url });
      await signIn(page, server.url, `${AGENT.handle}@${tenant.slug}.test`, PASSWORD);
      const sends = countSends(page, openTicket.id);
      await openConversation(page, openTicket.uuid);

      await composer(page).getByRole('button', { name: 'Gravar áudio' }).click();
      const recording = page.getByTestId('composer-recording');
      await expect.poll(() => recording.getByTestId('composer-recording-time').innerText(), { timeout: 10_000 }).toBe('0:02');
      await composer(page).getByRole('button', { name: 'Enviar áudio' }).click();
      await page.getByText('Áudio muito curto: a gravação foi descartada.').waitFor();
      await recording.waitFor({ state: 'detached' });
      expect(sends()).toBe(0);
    },
    JOURNEY_MS,
  );

  it(
    'the composer is disabled with a hint on a pending ticket and on a closed one',
    async () => {
      const waiting = await ticketOf(server, tenant.companyId, WAITING.from);
      expect(waiting.status).toBe('pending');
      const page = await browsers.page();
      await signIn(page, server.url, `${AGENT.handle}@${tenant.slug}.test`, PASSWORD);
      await openConversation(page, waiting.uuid);
      const pendingInput = page.getByPlaceholder('Aceite o ticket para enviar mensagens');
      await pendingInput.waitFor();
      expect(await pendingInput.isDisabled()).toBe(true);
      expect(await composer(page).getByRole('button', { name: 'Gravar áudio' }).count()).toBe(0);
      await shot(page, 'composer-pending-light');

      const token = (await page.evaluate("localStorage.getItem('token')")) as string;
      const closed = await server.call('PUT', `/api/tickets/${openTicket.id}`, { token, body: { status: 'closed' } });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      await openConversation(page, openTicket.uuid);
      const closedInput = page.getByPlaceholder('Reabra o ticket para enviar mensagens');
      await closedInput.waitFor();
      expect(await closedInput.isDisabled()).toBe(true);
    },
    JOURNEY_MS,
  );
});
