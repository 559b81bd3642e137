import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page, WebSocketRoute } from 'playwright-core';
import type { NormalizedMessage } from '../../core/channels/driver.js';
import { Events } from '../../core/events/event-bus.js';
import { BrowserPool, chooseOption, signIn, shot, confirmDialog } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';

const JOURNEY_MS = 180_000;
/** A 64×40 PNG, blue over yellow. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAoCAIAAADBrGu+AAAARElEQVR42u3PMQ0AMAgAMOQgdnKQgxKueeAjaVIDjXx9WggICAgICAgICAgICAgILANTeZqAgICAgICAgICAgICAwNIHSZL+8XIPSukAAAAASUVORK5CYII=';
const DIEGO = { from: '5511966665555', name: 'Diego Comprador' };
const ELISA = { from: '5511955554444', name: 'Elisa Antiga' };
const FABIO = { from: '5511944443333', name: 'Fabio Viajante' };

let server: TestServer;
let tenant: InboxTenant;
/** An admin that never signs in through a browser: it drives the simulator and reads the API. */
let operator: InboxTenant;
let agent: Member;
let connectionId: number;
const queues: Record<string, number> = {};
const browsers = new BrowserPool();
let customers = 0;
const names = new Set<string>();

/**
 * A customer no earlier journey (nor an earlier attempt of this one) wrote as: each journey starts
 * from a ticket of its own, so a retried journey never meets what the failed attempt left. A name
 * asked again (a retry) gets a number, so that the journey's steps find its ticket by name alone.
 */
function newCustomer(name: string): { from: string; name: string } {
  customers += 1;
  const unique = names.has(name) ? `${name} ${customers}` : name;
  names.add(name);
  return { from: `55119${80_000_000 + customers}`, name: unique };
}

interface TicketRow {
  id: number;
  uuid: string;
  status: string;
  contact: { number: string };
  queue: { name: string } | null;
}

/** Calls the API with the browser's own token: a second login would end its session. */
async function callAs(page: Page, method: string, path: string, body?: unknown) {
  const token = (await page.evaluate("localStorage.getItem('token')")) as string;
  return server.call(method, path, { token, body });
}

/** The contact's latest ticket with this status, once the pipeline has made it. */
function ticketOf(number: string, status: string): Promise<TicketRow> {
  return eventually(
    async () => {
      const res = await server.call('GET', `/api/tickets?status=${status}&showAll=true`, { token: operator.admin.token });
      return (res.body.tickets as TicketRow[] | undefined)?.find((t) => t.contact.number === number);
    },
    10_000,
    `a ${status} ticket of ${number}`,
  );
}

/** A customer writes through the simulator (with a media file name, which customerWrites does not take). */
async function inbound(body: Record<string, unknown>): Promise<void> {
  const res = await server.call('POST', `/api/simulator/${connectionId}/inbound`, { token: operator.admin.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** A message as a provider would report it (location, contact card): straight onto the bus. */
async function providerDelivers(message: Record<string, unknown>): Promise<void> {
  const { bus } = server.atende.container;
  await bus.emit(Events.messageReceived, tenant.companyId, {
    connectionId,
    companyId: tenant.companyId,
    type: 'message',
    message: { isGroup: false, fromMe: false, body: '', timestamp: new Date().toISOString(), ...message } as NormalizedMessage,
  });
}

/** The customer shares the shop's location (a provider's location message). */
function sharesLocation(customer: { from: string; name: string }): Promise<void> {
  return providerDelivers({
    id: `location-${customer.from}`,
    chatId: customer.from,
    from: { number: customer.from, name: customer.name },
    mediaType: 'locationMessage',
    location: { latitude: -23.5614, longitude: -46.6559, name: 'Loja Paulista', address: 'Av. Paulista, 1000' },
  });
}

const header = (page: Page) => page.getByTestId('conversation-header');
const list = (page: Page) => page.getByTestId('message-list');
const bubble = (page: Page, text: string | RegExp) => list(page).getByTestId('message').filter({ hasText: text });

async function openTicket(page: Page, uuid: string): Promise<void> {
  await page.goto(`${server.url}/tickets/${uuid}`);
  await header(page).waitFor();
}

/** Opens a message's option menu and picks an entry. */
async function messageMenu(page: Page, text: string | RegExp, entry: string): Promise<void> {
  const target = bubble(page, text).last();
  await target.hover();
  await target.getByRole('button', { name: 'Opções da mensagem' }).click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: entry }).click();
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describeE2E('conversation of a ticket', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Loja Conversa');
    queues.Vendas = await createQueue(server, tenant, 'Vendas');
    queues.Suporte = await createQueue(server, tenant, 'Suporte');
    agent = await createMember(server, tenant, 'ana', { queueIds: [queues.Vendas] });
    await createMember(server, tenant, 'bruno', { queueIds: [queues.Suporte] });
    operator = { ...tenant, admin: await createMember(server, tenant, 'operador', { profile: 'admin' }) };
    connectionId = await createConnection(server, operator, 'Loja Centro', { queueIds: [queues.Vendas] });
    const greeting = await server.call('PUT', '/api/settings/sendGreetingAccepted', { token: operator.admin.token, body: { value: 'enabled' } });
    expect(greeting.status, JSON.stringify(greeting.body)).toBeLessThan(300);
    const tag = await server.call('POST', '/api/tags', { token: operator.admin.token, body: { name: 'Cliente VIP', color: '#eb2f96' } });
    expect(tag.status).toBe(201);
  }, JOURNEY_MS);
  // One login per user at a time: a later login ends the earlier sessions (single session).
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    "an agent accepts a waiting ticket, reads the customer's media, location and contact card, answers, keeps notes, and transfers it away",
    async () => {
      const CARLA = newCustomer('Carla Cliente');
      await customerWrites(server, operator, connectionId, { ...CARLA, body: 'Olá, quero comprar um sofá' });
      const carlaTicket = await ticketOf(CARLA.from, 'pending');
      const page = await browsers.page();
      await signIn(page, server.url, agent.email, PASSWORD);
      await openTicket(page, carlaTicket.uuid);
      await expect.poll(() => header(page).getAttribute('data-status')).toBe('pending');
      await bubble(page, 'Olá, quero comprar um sofá').waitFor();
      await header(page).getByRole('button', { name: 'Aceitar' }).waitFor();
      expect(await header(page).getByRole('button', { name: 'Resolver' }).count()).toBe(0);
      expect(await page.getByTestId('date-separator').count()).toBe(1);
      await shot(page, 'conversation-pending-light');

      await header(page).getByRole('button', { name: 'Aceitar' }).click();
      await expect.poll(() => header(page).getAttribute('data-status')).toBe('open');
      for (const action of ['Resolver', 'Transferir', 'Retornar']) await header(page).getByRole('button', { name: action }).waitFor();
      expect(await header(page).getByRole('button', { name: 'Excluir' }).count()).toBe(0);
      await header(page).getByText('Atribuído a ana').waitFor();
      // The greeting naming the agent (sendGreetingAccepted) arrives live, as an own message.
      const greeting = bubble(page, 'meu nome é ana');
      await greeting.waitFor();
      expect(await greeting.getAttribute('data-from-me')).toBe('true');
      await greeting.locator('[data-ack]').waitFor();

      await inbound({ ...CARLA, body: 'Este modelo', mediaType: 'image', mediaBase64: PNG, mediaName: 'sofa.png' });
      const image = bubble(page, 'Este modelo').locator('img');
      await expect.poll(() => image.getAttribute('src')).toMatch(/^blob:/);
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
      await sharesLocation(CARLA);
      const location = list(page).getByTestId('message-location');
      await location.getByText('Loja Paulista').waitFor();
      expect(await location.getByRole('link', { name: 'Ver no mapa' }).getAttribute('href')).toBe('https://maps.google.com/?q=-23.5614,-46.6559');
      await providerDelivers({
        id: `vcard-${CARLA.from}`,
        chatId: CARLA.from,
        from: { number: CARLA.from, name: CARLA.name },
        mediaType: 'vcard',
        vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:João Indicado\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD',
      });
      await list(page).getByTestId('message-vcard').getByText('João Indicado').waitFor();
      await list(page).getByTestId('message-vcard').getByText('+55 11 97777-6666').waitFor();
      await inbound({ ...CARLA, body: '', mediaType: 'audio', mediaBase64: Buffer.from('OggS audio de teste').toString('base64'), mediaName: 'nota.ogg' });
      await expect.poll(() => list(page).getByTestId('message-audio').getAttribute('src')).toMatch(/^blob:/);
      await inbound({ ...CARLA, body: 'catalogo.pdf', mediaType: 'application', mediaBase64: Buffer.from('%PDF-1.4 catálogo').toString('base64'), mediaName: 'catalogo.pdf' });
      const [download] = await Promise.all([page.waitForEvent('download'), list(page).getByRole('button', { name: 'Baixar catalogo.pdf' }).click()]);
      expect(download.suggestedFilename()).toBe('catalogo.pdf');
      // A missed call becomes a call log on the ticket.
      await server.atende.container.bus.emit(Events.callReceived, tenant.companyId, {
        connectionId,
        companyId: tenant.companyId,
        type: 'call',
        from: { number: CARLA.from, name: CARLA.name },
        timestamp: new Date().toISOString(),
      });
      await list(page).getByTestId('message-call').waitFor();
      // The agent has the conversation on screen: what the customer wrote is read.
      await eventually(async () => (await server.call('GET', `/api/tickets/${carlaTicket.id}`, { token: operator.admin.token })).body.unreadMessages === 0, 5000, 'the ticket read');

      // Reply: the composer shows the message being answered.
      await messageMenu(page, 'Olá, quero comprar um sofá', 'Responder');
      await page.getByTestId('composer-reply').getByText('Olá, quero comprar um sofá').waitFor();
      await page.getByTestId('composer-reply').getByRole('button').click();

      // Own messages: edited, then deleted.
      const sent = await callAs(page, 'POST', `/api/messages/${carlaTicket.id}`, { body: 'Temos em azul e cinza' });
      expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
      await bubble(page, 'Temos em azul e cinza').waitFor();
      await messageMenu(page, 'Temos em azul e cinza', 'Editar');
      const edit = page.getByRole('dialog', { name: 'Editar mensagem' });
      await edit.getByRole('textbox').fill('Temos em azul, cinza e verde');
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await bubble(page, 'Temos em azul, cinza e verde').getByText('Editada').waitFor();
      await messageMenu(page, 'Temos em azul, cinza e verde', 'Apagar');
      await page.getByRole('dialog').filter({ hasText: 'Apagar mensagem?' }).getByRole('button', { name: 'Apagar' }).click();
      await list(page).getByText('Esta mensagem foi apagada').waitFor();
      await shot(page, 'conversation-open-light');

      // Tags
      await page.getByTestId('tag-editor').click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('Cliente VIP').click();
      await eventually(async () => {
        const res = await callAs(page, 'GET', `/api/tickets/${carlaTicket.id}`);
        return (res.body.tags as { name: string }[]).some((t) => t.name === 'Cliente VIP');
      });
      await page.keyboard.press('Escape');

      // Drawer: contact details and notes.
      await header(page).getByRole('button', { name: 'Ver dados do contato' }).click();
      const drawer = page.locator('.ant-drawer-open');
      await drawer.getByText('Dados do contato').waitFor();
      await drawer.getByText('Informações adicionais').waitFor();
      await drawer.getByText(CARLA.from).waitFor();
      await drawer.getByText('Observações').waitFor();
      await drawer.getByRole('textbox', { name: 'Escreva uma observação' }).fill('x');
      await drawer.getByRole('button', { name: 'Adicionar' }).click();
      await drawer.getByText('Observação muito curta').waitFor();
      await drawer.getByRole('textbox', { name: 'Escreva uma observação' }).fill('Prefere entrega à tarde');
      await drawer.getByRole('button', { name: 'Adicionar' }).click();
      await page.getByText('Observação adicionada com sucesso!').first().waitFor();
      await drawer.getByTestId('note').filter({ hasText: 'Prefere entrega à tarde' }).waitFor();
      await shot(page, 'conversation-drawer-light');
      await drawer.getByTestId('note').getByRole('button', { name: 'Excluir observação' }).click();
      await confirmDialog(page, 'Excluir esta observação?');
      await page.getByText('Observação excluída com sucesso!').first().waitFor();
      await drawer.getByTestId('note').waitFor({ state: 'detached' });
      await drawer.getByRole('button', { name: 'Fechar' }).click();
      await drawer.waitFor({ state: 'detached' });

      // Transfer: a queue is required; users are searched from the third letter.
      await header(page).getByRole('button', { name: 'Transferir' }).click();
      const dialog = page.getByRole('dialog', { name: 'Transferir ticket' });
      await dialog.getByRole('button', { name: 'Transferir' }).click();
      await dialog.getByText('Selecione uma fila').last().waitFor();
      const userField = dialog.getByRole('combobox').last();
      await userField.fill('br');
      const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
      expect(await options.count()).toBe(0);
      await userField.fill('bru');
      await options.filter({ hasText: 'bruno' }).waitFor();
      await shot(page, 'conversation-transfer-light');
      await page.keyboard.press('Escape');
      await chooseOption(page, dialog.getByRole('combobox').first(), 'Suporte');
      await dialog.getByRole('button', { name: 'Transferir' }).click();
      await page.getByText('Ticket transferido com sucesso!').first().waitFor();
      await page.waitForURL(`${server.url}/tickets`);
      const moved = await server.call('GET', `/api/tickets/${carlaTicket.id}`, { token: operator.admin.token });
      expect(moved.body).toMatchObject({ status: 'pending', userId: null, queue: { name: 'Suporte' } });
    },
    JOURNEY_MS,
  );

  it(
    "a user outside the ticket's queue is told 'Acesso não permitido' and goes back to the list",
    async () => {
      const HELENA = newCustomer('Helena Suporte');
      await customerWrites(server, operator, connectionId, { ...HELENA, body: 'Meu pedido não chegou' });
      const ticket = await ticketOf(HELENA.from, 'pending');
      // Moved once the chatbot has given it the connection's only queue, as a person would see it.
      await eventually(async () => (await server.call('GET', `/api/tickets/${ticket.id}`, { token: operator.admin.token })).body.queue?.name === 'Vendas');
      const moved = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: operator.admin.token, body: { queueId: queues.Suporte, userId: null } });
      expect(moved.body, JSON.stringify(moved.body)).toMatchObject({ status: 'pending', userId: null, queue: { name: 'Suporte' } });
      const page = await browsers.page();
      await signIn(page, server.url, agent.email, PASSWORD, `/tickets/${ticket.uuid}`);
      await page.getByText('Acesso não permitido').first().waitFor();
      await page.waitForURL(`${server.url}/tickets`);
      expect(await page.getByTestId('conversation').count()).toBe(0);
    },
    JOURNEY_MS,
  );

  it(
    'an admin accepts, resolves, reopens and deletes the ticket, in light and dark',
    async () => {
      const IGOR = newCustomer('Igor Cliente');
      await customerWrites(server, operator, connectionId, { ...IGOR, body: 'Vocês têm poltronas?' });
      const igorTicket = await ticketOf(IGOR.from, 'pending');
      await inbound({ ...IGOR, body: 'Este modelo', mediaType: 'image', mediaBase64: PNG, mediaName: 'poltrona.png' });
      await sharesLocation(IGOR);
      const page = await browsers.page();
      await signIn(page, server.url, tenant.admin.email, PASSWORD);
      await openTicket(page, igorTicket.uuid);
      await list(page).getByTestId('message-location').waitFor();
      await header(page).getByRole('button', { name: 'Aceitar' }).waitFor();
      await header(page).getByRole('button', { name: 'Excluir' }).waitFor();
      await header(page).getByRole('button', { name: 'Aceitar' }).click();
      await header(page).getByRole('button', { name: 'Resolver' }).click();
      await page.waitForURL(`${server.url}/tickets`);
      expect((await server.call('GET', `/api/tickets/${igorTicket.id}`, { token: operator.admin.token })).body.status).toBe('closed');

      await openTicket(page, igorTicket.uuid);
      await expect.poll(() => header(page).getAttribute('data-status')).toBe('closed');
      await header(page).getByRole('button', { name: 'Reabrir' }).waitFor();
      await list(page).getByTestId('message-location').waitFor();
      await shot(page, 'conversation-closed-light');
      await header(page).getByRole('button', { name: 'Reabrir' }).click();
      await expect.poll(() => header(page).getAttribute('data-status')).toBe('open');
      await header(page).getByRole('button', { name: 'Resolver' }).waitFor();

      // The peek from the list: the same conversation, read only.
      await page.getByRole('button', { name: `Espiar a conversa de ${IGOR.name}`, exact: true }).click();
      const peek = page.getByTestId('peek-conversation');
      await peek.getByTestId('message-location').waitFor();
      expect(await peek.getByTestId('conversation-actions').count()).toBe(0);
      expect(await peek.getByTestId('message-composer').count()).toBe(0);
      expect(await peek.getByRole('button', { name: 'Opções da mensagem' }).count()).toBe(0);
      await shot(page, 'conversation-peek-light');
      await page.keyboard.press('Escape');
      await peek.waitFor({ state: 'detached' });

      await page.getByTestId('theme-toggle').click();
      await bubble(page, 'Este modelo').locator('img[src^="blob:"]').waitFor();
      await shot(page, 'conversation-open-dark');
      await header(page).getByRole('button', { name: 'Ver dados do contato' }).click();
      await page.locator('.ant-drawer-open').getByText('Observações').waitFor();
      await shot(page, 'conversation-drawer-dark');
      await page.locator('.ant-drawer-open').getByRole('button', { name: 'Fechar' }).click();
      await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
      await header(page).getByRole('button', { name: 'Transferir' }).click();
      await page.getByRole('dialog', { name: 'Transferir ticket' }).getByText('Fila', { exact: true }).waitFor();
      await shot(page, 'conversation-transfer-dark');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Transferir ticket' }).waitFor({ state: 'detached' });

      await header(page).getByRole('button', { name: 'Excluir' }).click();
      const confirm = page.getByRole('dialog').filter({ hasText: `Excluir o ticket #${igorTicket.id}?` });
      await confirm.getByText('Todas as mensagens relacionadas ao ticket serão perdidas.', { exact: false }).waitFor();
      await shot(page, 'conversation-delete-dark');
      await confirm.getByRole('button', { name: 'Excluir' }).click();
      await page.waitForURL(`${server.url}/tickets`);
      expect((await server.call('GET', `/api/tickets/u/${igorTicket.uuid}`, { token: operator.admin.token })).status).toBe(404);
      await page.getByTestId('theme-toggle').click();
    },
    JOURNEY_MS,
  );

  it(
    'on a phone the header keeps its main action and a menu; earlier tickets of the contact are set apart',
    async () => {
      await customerWrites(server, operator, connectionId, { ...DIEGO, body: 'Vocês entregam em Campinas?' });
      const first = await ticketOf(DIEGO.from, 'pending');
      const phone = await browsers.page({ width: 375, height: 812 });
      await signIn(phone, server.url, agent.email, PASSWORD);
      await openTicket(phone, first.uuid);
      await header(phone).getByRole('button', { name: 'Aceitar' }).click();
      await expect.poll(() => header(phone).getAttribute('data-status')).toBe('open');
      await header(phone).getByRole('button', { name: 'Resolver' }).waitFor();
      expect(await header(phone).getByRole('button', { name: 'Transferir' }).count()).toBe(0);
      await header(phone).getByRole('button', { name: 'Mais ações' }).click();
      const menu = phone.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
      await menu.getByRole('menuitem', { name: 'Transferir' }).waitFor();
      await menu.getByRole('menuitem', { name: 'Retornar' }).waitFor();
      await shot(phone, 'conversation-375-menu');
      await phone.keyboard.press('Escape');
      expect(await overflow(phone)).toBeLessThanOrEqual(0);

      await header(phone).getByRole('button', { name: 'Resolver' }).click();
      await phone.waitForURL(`${server.url}/tickets`);
      await customerWrites(server, operator, connectionId, { ...DIEGO, body: 'Voltei: e para Sorocaba?' });
      const second = await ticketOf(DIEGO.from, 'pending');
      expect(second.id).not.toBe(first.id);
      await openTicket(phone, second.uuid);
      await bubble(phone, 'Voltei: e para Sorocaba?').waitFor();
      await bubble(phone, 'Vocês entregam em Campinas?').waitFor();
      await list(phone).getByTestId('ticket-ended').getByText(`Conversa encerrada · #${first.id}`).waitFor();
      await list(phone).getByTestId('ticket-started').getByText(`Conversa iniciada · #${second.id}`, { exact: false }).waitFor();
      await shot(phone, 'conversation-375-light');
      expect(await overflow(phone)).toBeLessThanOrEqual(0);
      await phone.getByTestId('theme-toggle').click();
      await shot(phone, 'conversation-375-dark');
      await phone.getByTestId('theme-toggle').click();
    },
    JOURNEY_MS,
  );

  it(
    'older messages load near the top without moving what the reader sees',
    async () => {
      for (let i = 1; i <= 30; i += 1) {
        await customerWrites(server, operator, connectionId, { ...ELISA, body: `Mensagem ${String(i).padStart(2, '0')}` });
      }
      const ticket = await ticketOf(ELISA.from, 'pending');
      const page = await browsers.page({ width: 1280, height: 800 });
      await signIn(page, server.url, agent.email, PASSWORD);
      await openTicket(page, ticket.uuid);
      // Opens at the bottom with the newest page (20 messages).
      await bubble(page, 'Mensagem 30').waitFor();
      expect(await bubble(page, 'Mensagem 10').count()).toBe(0);
      const atBottom = () => list(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 2);
      await expect.poll(atBottom).toBe(true);

      const anchorTop = () => bubble(page, 'Mensagem 11').evaluate((el) => el.getBoundingClientRect().top);
      await list(page).evaluate((el) => (el.scrollTop = 0));
      await bubble(page, 'Mensagem 01').waitFor();
      // Mensagem 11 (the oldest of the first page) stays where the reader had it, near the top.
      const top = await anchorTop();
      const listTop = await list(page).evaluate((el) => el.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(listTop);
      expect(top - listTop).toBeLessThan(120);
      await shot(page, 'conversation-older-light');
    },
    JOURNEY_MS,
  );

  it(
    'a message that arrives while the socket is down appears in the open conversation once it is back',
    async () => {
      await customerWrites(server, operator, connectionId, { ...FABIO, body: 'Antes da queda' });
      const ticket = await ticketOf(FABIO.from, 'pending');
      const page = await browsers.page();
      // The socket goes through a relay that can lose the server's frames, as a dropped link does.
      let down = false;
      const sockets: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
      await page.routeWebSocket(/\/ws/, (socket) => {
        const upstream = socket.connectToServer();
        upstream.onMessage((frame) => {
          if (!down) socket.send(frame);
        });
        sockets.push({ page: socket, server: upstream });
      });
      await signIn(page, server.url, agent.email, PASSWORD);
      await openTicket(page, ticket.uuid);
      await bubble(page, 'Antes da queda').waitFor();

      down = true;
      // Meanwhile an admin hands the ticket to the agent, and the customer writes again.
      const accepted = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: operator.admin.token, body: { status: 'open', userId: agent.id, queueId: queues.Vendas } });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      await customerWrites(server, operator, connectionId, { ...FABIO, body: 'Escrevi durante a queda' });
      await eventually(async () => {
        const res = await server.call('GET', `/api/messages/${ticket.id}`, { token: operator.admin.token });
        return (res.body.messages as { body: string }[]).some((m) => m.body === 'Escrevi durante a queda');
      });
      // Their frames were lost: the conversation knows neither yet.
      await page.waitForTimeout(500);
      expect(await bubble(page, 'Escrevi durante a queda').count()).toBe(0);
      expect(await header(page).getAttribute('data-status')).toBe('pending');

      // The link drops and the client connects again: what it shows loads again, this ticket too.
      down = false;
      for (const socket of sockets.splice(0)) {
        await socket.server.close();
        await socket.page.close();
      }
      await bubble(page, 'Escrevi durante a queda').waitFor({ timeout: 10_000 });
      await expect.poll(() => header(page).getAttribute('data-status')).toBe('open');
      expect(await bubble(page, 'Antes da queda').count()).toBe(1);
    },
    JOURNEY_MS,
  );
});
