import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signIn, BrowserPool, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createQueue, createTenant, PASSWORD, type InboxTenant } from '../helpers/inbox.js';
import { contrast, MIN_CONTRAST } from '../../web/src/theme/chip-colors.js';

const JOURNEY_MS = 120_000;
/** A pale yellow: white text on it, or the colour itself on a dark page, cannot be read. */
const PALE = '#fff59d';
const UUID = /\/tickets\/[0-9a-f-]{36}$/;

let server: TestServer;
let shop: InboxTenant;
let empty: InboxTenant;
let ticketUuid: string;
const browsers = new BrowserPool();

const menuLink = (page: Page, name: string) => page.getByTestId('main-menu').getByRole('link', { name, exact: true });

async function openInbox(page: Page, tenant: InboxTenant): Promise<void> {
  await signIn(page, server.url, tenant.admin.email, PASSWORD);
  await menuLink(page, 'Atendimentos').click();
  await page.getByTestId('tickets-manager').waitFor();
}

/** The text-on-background contrast of an element, from its computed styles. */
async function contrastOf(chip: Locator): Promise<number> {
  const { color, background } = await chip.evaluate((el) => {
    const style = getComputedStyle(el);
    return { color: style.color, background: style.backgroundColor };
  });
  const rgb = (css: string) => css.match(/\d+(\.\d+)?/g)!.slice(0, 3).map(Number) as unknown as [number, number, number];
  return contrast(rgb(color), rgb(background));
}

/** The relative lightness (0 to 255) of the page behind the login card. */
const bodyLightness = (page: Page) =>
  page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g)!.map(Number) as [number, number, number];
    return (r + g + b) / 3;
  });

describeE2E('web shell: links, counts, chips, theme, contact modal', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    empty = await createTenant(server, 'Loja Vazia');
    shop = await createTenant(server, 'Loja Links');
    const vendas = await createQueue(server, shop, 'Vendas', { color: PALE });
    await createConnection(server, shop, 'Loja Links', { queueIds: [vendas] });
    const token = shop.admin.token;
    const contact = await server.call('POST', '/api/contacts', { token, body: { name: 'Rita Links', number: '5511933330001' } });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);
    const ticket = await server.call('POST', '/api/tickets', { token, body: { contactId: contact.body.id, queueId: vendas, status: 'open' } });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
    ticketUuid = ticket.body.uuid;
    const tag = await server.call('POST', '/api/tags', { token, body: { name: 'Amarelo', color: PALE } });
    expect(tag.status).toBe(201);
    const synced = await server.call('POST', '/api/tags/sync', { token, body: { ticketId: ticket.body.id, tags: [{ id: tag.body.id }] } });
    expect(synced.status, JSON.stringify(synced.body)).toBeLessThan(300);
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an empty inbox shows 0 beside Atendendo and Aguardando',
    async () => {
      const page = await browsers.page();
      await openInbox(page, empty);
      for (const testId of ['assigned-count', 'pending-count']) {
        await expect.poll(() => page.getByTestId(testId).getAttribute('data-count')).toBe('0');
        await expect.poll(() => page.getByTestId(testId).locator('.ant-badge-count').innerText()).toBe('0');
      }
      await shot(page, 'shell-empty-inbox-counts');
    },
    JOURNEY_MS,
  );

  it(
    'menu entries and ticket rows are links to their pages; a middle or ctrl click opens a new tab, a plain click or Enter stays in the app',
    async () => {
      const page = await browsers.page();
      await openInbox(page, shop);
      const hrefs = await page.getByTestId('main-menu').getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(expect.arrayContaining(['/dashboard', '/tickets', '/quick-messages', '/contacts', '/tags', '/connections', '/queues', '/users', '/settings']));

      const row = page.getByTestId('tickets-assigned').getByRole('option', { name: 'Rita Links' });
      const rowLink = row.getByTestId('ticket-link');
      expect(await rowLink.getAttribute('href')).toBe(`/tickets/${ticketUuid}`);

      const [ctrlTab] = await Promise.all([page.context().waitForEvent('page'), rowLink.click({ modifiers: ['Control'] })]);
      await ctrlTab.waitForURL(`${server.url}/tickets/${ticketUuid}`);
      const [middleTab] = await Promise.all([page.context().waitForEvent('page'), menuLink(page, 'Contatos').click({ button: 'middle' })]);
      await middleTab.waitForURL(`${server.url}/contacts`);
      expect(page.url()).toBe(`${server.url}/tickets`);

      // A plain click opens the ticket in place, without reloading the app.
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await rowLink.click();
      await page.waitForURL(`${server.url}/tickets/${ticketUuid}`);
      await page.getByTestId('conversation').waitFor();
      await menuLink(page, 'Contatos').click();
      await page.getByRole('heading', { name: 'Contatos' }).waitFor();
      expect(await page.getByTestId('main-menu').locator('.ant-menu-item-selected').innerText()).toBe('Contatos');
      await menuLink(page, 'Tags').focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.url}/tags`);
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await shot(page, 'shell-menu-links');
    },
    JOURNEY_MS,
  );

  it(
    'saving a contact added from the new ticket dialog opens its ticket; the dialog speaks Portuguese',
    async () => {
      const page = await browsers.page();
      await openInbox(page, shop);
      await page.getByTestId('new-ticket').click();
      const dialog = page.getByRole('dialog', { name: 'Criar Ticket' });
      await dialog.getByRole('combobox', { name: 'Contato' }).fill('Joana Nova');
      // Nobody by that name: the suggestions (a popup outside the dialog) offer to add the person.
      await page.getByRole('button', { name: 'Adicionar contato' }).click();
      const contactDialog = page.getByRole('dialog', { name: 'Adicionar contato' });
      expect(await contactDialog.getByLabel('Nome', { exact: true }).inputValue()).toBe('Joana Nova');
      await contactDialog.getByRole('button', { name: 'Salvar' }).click();
      await contactDialog.getByText('Obrigatório').first().waitFor();
      await contactDialog.getByLabel('Email').fill('joana@');
      await contactDialog.getByText('Email inválido').waitFor();
      await shot(page, 'shell-contact-modal-validation');
      await contactDialog.getByLabel('Email').fill('');
      await contactDialog.getByLabel('Número do WhatsApp').fill('+55 11 93333-0002');
      await contactDialog.getByRole('button', { name: 'Salvar' }).click();

      await page.waitForURL(UUID);
      const uuid = page.url().split('/').pop();
      const ticket = await server.atende.container
        .db('tickets')
        .join('contacts', 'contacts.id', 'tickets.contact_id')
        .where({ 'tickets.uuid': uuid, 'tickets.company_id': shop.companyId })
        .first('contacts.name', 'contacts.number', 'tickets.status');
      expect(ticket).toEqual({ name: 'Joana Nova', number: '5511933330002', status: 'open' });
      await page.getByTestId('conversation-contact').filter({ hasText: 'Joana Nova' }).waitFor();
      await shot(page, 'shell-contact-ticket-opened');
    },
    JOURNEY_MS,
  );

  it(
    'dialogs open without animating when the system asks for less motion, and animated otherwise',
    async () => {
      for (const [reducedMotion, animated] of [['reduce', false], ['no-preference', true]] as const) {
        const page = await browsers.page({ reducedMotion });
        await openInbox(page, shop);
        // Every class an element takes while the dialog opens, caught as it is set.
        await page.evaluate(() => {
          const seen: string[] = [];
          (window as unknown as { motionClasses: string[] }).motionClasses = seen;
          new MutationObserver((records) => {
            for (const r of records) if (r.target instanceof Element) seen.push(r.target.className.toString());
          }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'], childList: true });
        });
        await page.getByTestId('new-ticket').click();
        const dialog = page.getByRole('dialog', { name: 'Criar Ticket' });
        await dialog.getByRole('combobox', { name: 'Contato' }).waitFor();
        // The zoom's active class comes a frame after the dialog shows (later on a loaded machine):
        // once the dialog's element has no zoom class left, its motion, if any, has run.
        await expect.poll(() => page.locator('.ant-modal').first().getAttribute('class')).not.toMatch(/ant-zoom/);
        const classes = await page.evaluate(() => (window as unknown as { motionClasses: string[] }).motionClasses.join(' '));
        expect(/ant-zoom-(appear|enter)-active/.test(classes), reducedMotion).toBe(animated);
        await browsers.closeAll();
      }
    },
    JOURNEY_MS,
  );

  it(
    'a pale queue or tag chip reads with a contrast of at least 4.5, in dark and in light mode',
    async () => {
      const page = await browsers.page();
      await openInbox(page, shop);
      const row = page.getByTestId('tickets-assigned').getByRole('option', { name: 'Rita Links' });
      await row.waitFor();
      const chips = [row.getByTestId('ticket-tag'), row.getByTestId('ticket-queue')];
      for (const chip of chips) expect(await contrastOf(chip)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      await shot(page, 'shell-chips-light');

      await page.getByTestId('theme-toggle').click();
      await expect.poll(() => bodyLightness(page)).toBeLessThan(40);
      // The chips repaint with the theme (and its colour transition) after the page behind them.
      for (const chip of chips) await expect.poll(() => contrastOf(chip)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      await shot(page, 'shell-chips-dark');

      await menuLink(page, 'Tags').click();
      const tagChip = page.getByTestId('tag-chip').filter({ hasText: 'Amarelo' });
      await tagChip.waitFor();
      await expect.poll(() => contrastOf(tagChip)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      await shot(page, 'shell-tags-dark');
    },
    JOURNEY_MS,
  );

  it(
    'the login page follows the system theme until the user chooses one',
    async () => {
      const dark = await browsers.page({ colorScheme: 'dark' });
      await dark.goto(`${server.url}/login`);
      await dark.getByRole('button', { name: 'Entrar' }).waitFor();
      expect(await bodyLightness(dark)).toBeLessThan(40);
      await shot(dark, 'shell-login-dark');

      // A choice made with the toggle wins over the system's.
      await dark.evaluate(() => localStorage.setItem('preferredTheme', 'light'));
      await dark.reload();
      await dark.getByRole('button', { name: 'Entrar' }).waitFor();
      expect(await bodyLightness(dark)).toBeGreaterThan(200);

      const light = await browsers.page({ colorScheme: 'light' });
      await light.goto(`${server.url}/login`);
      await light.getByRole('button', { name: 'Entrar' }).waitFor();
      expect(await bodyLightness(light)).toBeGreaterThan(200);
      await shot(light, 'shell-login-light');
    },
    JOURNEY_MS,
  );
});
