import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signIn, BrowserPool, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { expectPlanHidesPage } from './plan-gate.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createMember, createQueue, createTenant, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';

const JOURNEY_MS = 120_000;

let server: TestServer;
let tenant: InboxTenant;
/** An admin that never signs in through a browser: it calls the API (a browser login ends the tenant admin's token). */
let operator: Member;
/** An agent of the Vendas queue: the second board. */
let agent: Member;
let queueId: number;
const lanes = { proposta: 0, fechamento: 0 };
const tickets: Record<string, number> = {};
const browsers = new BrowserPool();

const db = () => server.atende.container.db;

let seq = 0;
/** Open or pending tickets straight into the tables (the board is under test, not the inbox). */
async function insertTickets(companyId: number, rows: { name: string; lastMessage: string; queueId: number | null; status?: string; minutesAgo?: number }[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const contacts = chunk.map((row) => {
      seq += 1;
      const at = new Date(Date.now() - (row.minutesAgo ?? 0) * 60_000).toISOString();
      return { companyId, uuid: randomUUID(), name: row.name, number: `55119${String(60000000 + seq)}`, isGroup: false, createdAt: at, updatedAt: at };
    });
    const contactIds = (await db()('contacts').insert(contacts).returning('id')).map((r: { id: number }) => r.id);
    const inserted = await db()('tickets')
      .insert(
        chunk.map((row, j) => ({
          companyId,
          uuid: randomUUID(),
          status: row.status ?? 'pending',
          lastMessage: row.lastMessage,
          queueId: row.queueId,
          contactId: contactIds[j],
          createdAt: contacts[j]!.createdAt,
          updatedAt: contacts[j]!.updatedAt,
        })),
      )
      .returning('id');
    ids.push(...inserted.map((r: { id: number }) => r.id));
  }
  return ids;
}

const lane = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const card = (page: Page, laneName: string, contact: string) => lane(page, laneName).getByTestId('kanban-card').filter({ hasText: contact });
const laneCount = (page: Page, name: string) => lane(page, name).getByTestId('lane-count').getAttribute('data-count');

async function openBoard(page: Page, email: string): Promise<void> {
  await signIn(page, server.url, email, PASSWORD);
  await page.getByRole('menuitem', { name: 'Kanban' }).click();
  await page.waitForURL(/\/kanban$/);
  await page.getByRole('heading', { name: 'Kanban' }).waitFor();
  await page.getByTestId('kanban-board').waitFor();
}

/** Drags with the mouse, in small steps as a hand does, from the card's middle to the lane's. */
async function dragWithMouse(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + 20);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + 25, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 3, { steps: 12 });
  await page.mouse.up();
}

/** The card's handle: the keyboard's way to drag it, named after the ticket, its contact and its lane. */
const handle = (target: Locator, ticketId: number, laneName: string) => target.getByRole('button', { name: new RegExp(`^Mover o ticket ${ticketId} de .+, na coluna ${laneName}$`) });

/** What the board's live region told a screen reader last. */
const announced = (page: Page, text: string | RegExp) => page.locator('[role=status][aria-live]', { hasText: text }).waitFor({ state: 'attached' });

/** A card picked up: "selecionado", at once followed by the lane it is over, its own. */
const pickedUp = (page: Page, ticketId: number, lane: string) => announced(page, new RegExp(`^Ticket ${ticketId} (selecionado, na|sobre a) coluna ${lane}\\.$`));

/**
 * Moves a card with the keyboard as a person does, waiting for what the screen reader hears after
 * each key: space picks it up, each arrow puts it over a lane (`over` names them in turn), space drops it.
 */
async function dragWithKeyboard(
  page: Page,
  target: Locator,
  ticketId: number,
  from: string,
  steps: [key: 'ArrowLeft' | 'ArrowRight', over: string][],
  screenshotName?: string,
): Promise<void> {
  await handle(target, ticketId, from).focus();
  await page.keyboard.press('Space');
  await pickedUp(page, ticketId, from);
  for (const [key, over] of steps) {
    await page.keyboard.press(key);
    await announced(page, `Ticket ${ticketId} sobre a coluna ${over}.`);
  }
  if (screenshotName) await shot(page, screenshotName);
  await page.keyboard.press('Space');
}

async function tagsOf(ticketId: number): Promise<number[]> {
  return (await db()('ticketTags').where({ ticketId }).orderBy('tagId').select('tagId')).map((r: { tagId: number }) => r.tagId);
}

describeE2E('kanban board', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Loja Quadro');
    operator = await createMember(server, tenant, 'operador', { profile: 'admin' });
    queueId = await createQueue(server, tenant, 'Vendas');
    agent = await createMember(server, tenant, 'vendedora', { queueIds: [queueId] });
    for (const [key, name, color] of [
      ['proposta', 'Proposta', '#1677ff'],
      ['fechamento', 'Fechamento', '#52c41a'],
    ] as const) {
      const res = await server.call('POST', '/api/tags', { token: operator.token, body: { name, color, kanban: 1 } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      lanes[key] = res.body.id;
    }
    const [marina, otavio, lucia] = await insertTickets(tenant.companyId, [
      { name: 'Marina Souza', lastMessage: 'Quero o orçamento da cozinha', queueId },
      { name: 'Otávio Lima', lastMessage: 'Vocês entregam no sábado?', queueId, minutesAgo: 5 },
      { name: 'Lúcia Prado', lastMessage: 'Obrigada!', queueId, minutesAgo: 10 },
    ]);
    Object.assign(tickets, { marina, otavio, lucia });
    const res = await server.call('PUT', `/api/ticket-tags/${otavio}/${lanes.proposta}`, { token: operator.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }, JOURNEY_MS);
  // One login per user at a time: a later login ends the earlier sessions (single session).
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'a card dragged with the mouse, then with the keyboard (space, arrows, space), moves on a second open board without a reload',
    async () => {
      const admin = await browsers.page();
      const seller = await browsers.page();
      await openBoard(admin, tenant.admin.email);
      await openBoard(seller, agent.email);
      for (const page of [admin, seller]) {
        await card(page, 'Em aberto', 'Marina Souza').waitFor();
        await card(page, 'Proposta', 'Otávio Lima').waitFor();
        await expect.poll(() => laneCount(page, 'Em aberto')).toBe('2');
        await expect.poll(() => laneCount(page, 'Proposta')).toBe('1');
        await expect.poll(() => laneCount(page, 'Fechamento')).toBe('0');
      }
      const marina = card(admin, 'Em aberto', 'Marina Souza');
      await marina.getByText('Quero o orçamento da cozinha').waitFor();
      await marina.getByText(`Ticket nº ${tickets.marina}`).waitFor();
      const uuid = (await db()('tickets').where({ id: tickets.marina }).first('uuid')).uuid as string;
      expect(await marina.getByRole('link', { name: /Ver ticket/ }).getAttribute('href')).toBe(`/tickets/${uuid}`);
      await shot(admin, 'kanban-board-light');
      const marks = { admin: await admin.evaluate(() => performance.timeOrigin), seller: await seller.evaluate(() => performance.timeOrigin) };

      // The mouse: Em aberto → Proposta.
      await dragWithMouse(admin, marina, lane(admin, 'Proposta'));
      await admin.getByText('Ticket Tag Adicionado com Sucesso!').first().waitFor();
      await card(admin, 'Proposta', 'Marina Souza').waitFor();
      await card(seller, 'Proposta', 'Marina Souza').waitFor();
      expect(await card(seller, 'Em aberto', 'Marina Souza').count()).toBe(0);
      await expect.poll(() => laneCount(seller, 'Proposta')).toBe('2');
      expect(await tagsOf(tickets.marina)).toEqual([lanes.proposta]);

      // The keyboard, on the second board: Proposta → Fechamento, the lane to its left (space, left arrow, space).
      await dragWithKeyboard(seller, card(seller, 'Proposta', 'Marina Souza'), tickets.marina, 'Proposta', [['ArrowLeft', 'Fechamento']], 'kanban-keyboard-drag');
      await seller.getByText('Ticket Tag Adicionado com Sucesso!').first().waitFor();
      await card(seller, 'Fechamento', 'Marina Souza').waitFor();
      await card(admin, 'Fechamento', 'Marina Souza').waitFor();
      expect(await card(admin, 'Proposta', 'Marina Souza').count()).toBe(0);
      expect(await tagsOf(tickets.marina)).toEqual([lanes.fechamento]);

      // Back to 'Em aberto' with the keyboard, by way of Proposta: the kanban tag comes off.
      await dragWithKeyboard(admin, card(admin, 'Fechamento', 'Marina Souza'), tickets.marina, 'Fechamento', [
        ['ArrowRight', 'Proposta'],
        ['ArrowLeft', 'Fechamento'],
        ['ArrowLeft', 'Em aberto'],
      ]);
      await admin.getByText('Ticket Tag Removido!').first().waitFor();
      await card(seller, 'Em aberto', 'Marina Souza').waitFor();
      expect(await tagsOf(tickets.marina)).toEqual([]);

      // Escape cancels a keyboard move.
      await handle(card(admin, 'Em aberto', 'Lúcia Prado'), tickets.lucia, 'Em aberto').focus();
      await admin.keyboard.press('Space');
      await pickedUp(admin, tickets.lucia, 'Em aberto');
      await admin.keyboard.press('ArrowRight');
      await announced(admin, `Ticket ${tickets.lucia} sobre a coluna Fechamento.`);
      await admin.keyboard.press('Escape');
      await announced(admin, `Movimento do ticket ${tickets.lucia} cancelado.`);
      await card(admin, 'Em aberto', 'Lúcia Prado').waitFor();
      expect(await tagsOf(tickets.lucia)).toEqual([]);

      // Someone else closes a ticket and moves another: both boards follow.
      let res = await server.call('PUT', `/api/tickets/${tickets.otavio}`, { token: operator.token, body: { status: 'closed' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      res = await server.call('PUT', `/api/ticket-tags/${tickets.lucia}/${lanes.fechamento}`, { token: operator.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const page of [admin, seller]) {
        await card(page, 'Fechamento', 'Lúcia Prado').waitFor();
        await expect.poll(() => card(page, 'Proposta', 'Otávio Lima').count()).toBe(0);
        await expect.poll(() => laneCount(page, 'Proposta')).toBe('0');
      }
      // A new kanban tag is a new lane, in its place by name, on both boards.
      res = await server.call('POST', '/api/tags', { token: operator.token, body: { name: 'Negociação', color: '#722ed1', kanban: 1 } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      for (const page of [admin, seller]) {
        await lane(page, 'Negociação').waitFor();
        await expect.poll(() => page.getByTestId('kanban-lane').evaluateAll((all) => all.map((l) => l.getAttribute('aria-label')))).toEqual(['Em aberto', 'Fechamento', 'Negociação', 'Proposta']);
      }
      // No reload happened on either board.
      expect(await admin.evaluate(() => performance.timeOrigin)).toBe(marks.admin);
      expect(await seller.evaluate(() => performance.timeOrigin)).toBe(marks.seller);
    },
    JOURNEY_MS,
  );

  it(
    'in dark theme and at 375 px the board reads well and scrolls its lanes sideways, not the page',
    async () => {
      const dark = await browsers.page({ colorScheme: 'dark' });
      await openBoard(dark, tenant.admin.email);
      await card(dark, 'Em aberto', 'Marina Souza').waitFor();
      await shot(dark, 'kanban-board-dark');
      await browsers.closeAll();

      const phone = await browsers.page({ width: 375, height: 812 });
      await signIn(phone, server.url, agent.email, PASSWORD, '/kanban');
      await card(phone, 'Em aberto', 'Marina Souza').waitFor();
      await shot(phone, 'kanban-board-375');
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // The lane after the screen's edge is reached by scrolling the board.
      await lane(phone, 'Fechamento').scrollIntoViewIfNeeded();
      await card(phone, 'Fechamento', 'Lúcia Prado').waitFor();
      await shot(phone, 'kanban-board-375-scrolled');
    },
    JOURNEY_MS,
  );

  it(
    'a lane of 2,000 cards keeps only the cards in view on the page and scrolls to the last',
    async () => {
      const big = await createTenant(server, 'Loja Grande');
      await insertTickets(
        big.companyId,
        Array.from({ length: 2000 }, (_, i) => ({ name: `Cliente ${String(i + 1).padStart(4, '0')}`, lastMessage: `Mensagem ${i + 1}`, queueId: null, minutesAgo: i })),
      );
      const page = await browsers.page();
      await openBoard(page, big.admin.email);
      await card(page, 'Em aberto', 'Cliente 0001').waitFor();
      await expect.poll(() => laneCount(page, 'Em aberto')).toBe('2000');
      expect(await page.getByTestId('kanban-card').count()).toBeLessThan(40);
      const scroller = lane(page, 'Em aberto').getByTestId('lane-scroll');
      for (let step = 0; step < 6; step += 1) {
        await scroller.evaluate((el) => el.scrollBy(0, el.scrollHeight / 5));
        await page.waitForTimeout(50);
      }
      await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
      await card(page, 'Em aberto', 'Cliente 2000').waitFor();
      expect(await page.getByTestId('kanban-card').count()).toBeLessThan(40);
      await shot(page, 'kanban-lane-2000-bottom');
    },
    JOURNEY_MS,
  );

  it(
    'a company whose plan has no kanban sees no Kanban entry, and /kanban is denied',
    async () => {
      await expectPlanHidesPage(server, await browsers.page(), 'useKanban', { menu: 'Kanban', path: '/kanban' });
    },
    JOURNEY_MS,
  );
});
