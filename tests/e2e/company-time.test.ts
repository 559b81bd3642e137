import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BrowserPool, signIn, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, outbox, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';

/**
 * One clock for everyone: the company's timezone (America/Sao_Paulo, UTC-3), whatever the
 * browser's. The agent's browser runs in Asia/Tokyo (UTC+9), twelve hours ahead, so any time or
 * greeting taken from the browser's clock would show.
 */
const COMPANY_ZONE = 'America/Sao_Paulo';
const BROWSER_ZONE = 'Asia/Tokyo';
const CUSTOMER = { from: '5511988885555', name: 'Maria Cliente' };
const JOURNEY_MS = 150_000;
const LIVE = { timeout: 10_000, interval: 100 };

let server: TestServer;
let tenant: InboxTenant;
let agent: Member;
let manager: Member;
let connectionId: number;
const browsers = new BrowserPool();

/** The server's greeting of an hour (core/modules/tickets/templates.ts). */
function greetingAt(instant: Date): string {
  const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: COMPANY_ZONE, hour: '2-digit', hourCycle: 'h23' }).format(instant));
  if (hour < 6) return 'Boa madrugada';
  if (hour < 12) return 'Bom dia';
  if (hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

const hhmm = (instant: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant));

/** The customer's row in Atendendo. */
const row = (page: Page) => page.getByTestId('tickets-assigned').getByTestId('ticket-row').filter({ hasText: CUSTOMER.name });
const bubble = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });

async function sentBodies(): Promise<string[]> {
  return (await outbox(server, tenant, connectionId)).messages.map((m) => m.body ?? '');
}

describeE2E('the company clock', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Loja Fuso');
    const queueId = await createQueue(server, tenant, 'Vendas');
    agent = await createMember(server, tenant, 'ana', { queueIds: [queueId] });
    manager = await createMember(server, tenant, 'gerente', { profile: 'admin' });
    connectionId = await createConnection(server, tenant, 'Loja', { queueIds: [queueId] });
    const greeting = await server.call('PUT', '/api/settings/sendGreetingAccepted', { token: tenant.admin.token, body: { value: 'enabled' } });
    expect(greeting.status, JSON.stringify(greeting.body)).toBeLessThan(300);
    await customerWrites(server, tenant, connectionId, { ...CUSTOMER, body: 'Oi, tudo bem?' });
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    "in a browser twelve hours ahead, the composer's {{ms}} says what the server's greeting says, times are the company's, and the row's preview reads as the conversation",
    async () => {
      const page = await browsers.page({ timezoneId: BROWSER_ZONE });
      await signIn(page, server.url, agent.email, PASSWORD, '/tickets');
      await page.getByRole('tab', { name: /Aguardando/ }).click();
      const before = new Date();
      await page.getByRole('button', { name: `Aceitar o ticket de ${CUSTOMER.name}` }).click();
      await page.getByTestId('message-composer').waitFor();

      // The server greets on accepting, on the company's clock.
      const serverGreeting = await eventually(async () => (await sentBodies()).find((body) => body.includes('meu nome é')), 10_000, 'the greeting');
      const word = serverGreeting.slice(0, serverGreeting.indexOf(' *'));
      expect([greetingAt(before), greetingAt(new Date())]).toContain(word);
      await bubble(page, 'meu nome é').waitFor();

      // The agent's {{ms}}, signed: the same greeting.
      const input = page.getByTestId('message-composer').getByRole('textbox', { name: 'Digite uma mensagem' });
      await input.fill('{{ms}}');
      await input.press('Enter');
      const signed = `*ana*:\n${word}`;
      await eventually(async () => (await sentBodies()).includes(signed), 10_000, 'the signed greeting');

      // Times on the company's clock, the zone named on hover.
      const db = server.atende.container.db;
      const message = (await db('messages').where({ body: signed }).first('createdAt')) as { createdAt: string | Date };
      const createdAt = new Date(message.createdAt).toISOString();
      const time = bubble(page, word).last().getByTestId('message-time');
      await expect.poll(() => time.innerText(), LIVE).toBe(hhmm(createdAt, COMPANY_ZONE));
      expect(hhmm(createdAt, COMPANY_ZONE)).not.toBe(hhmm(createdAt, BROWSER_ZONE));
      expect(await time.getAttribute('title')).toContain(COMPANY_ZONE);
      const ticket = (await db('tickets').where({ companyId: tenant.companyId }).first('updatedAt')) as { updatedAt: string | Date };
      await expect.poll(() => row(page).getByTestId('ticket-time').innerText(), LIVE).toBe(hhmm(new Date(ticket.updatedAt).toISOString(), COMPANY_ZONE));

      // The preview renders WhatsApp's marks as the conversation does, on one line.
      const preview = row(page).getByTestId('ticket-last-message');
      await expect.poll(() => preview.innerText(), LIVE).toBe(`ana: ${word}`);
      expect(await preview.locator('strong').innerText()).toBe('ana');
      await shot(page, 'company-time-conversation');

      // Deleting the last message: the preview shows the newest message still there, live.
      const mine = bubble(page, word).last();
      await mine.hover();
      await mine.getByRole('button', { name: 'Opções da mensagem' }).click();
      await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: 'Apagar' }).click();
      await page.getByRole('dialog').filter({ hasText: 'Apagar mensagem?' }).getByRole('button', { name: 'Apagar' }).click();
      await expect.poll(() => preview.innerText(), LIVE).toBe(`${word} ${CUSTOMER.name}, meu nome é ana e agora vou prosseguir com seu atendimento!`);
      expect(await preview.innerText()).not.toContain('*');
      await shot(page, 'company-time-after-delete');

      // Pages of times say which zone they are in.
      await page.goto(`${server.url}/schedules`);
      await expect.poll(() => page.getByTestId('company-zone-note').innerText(), LIVE).toContain(`${COMPANY_ZONE} (UTC-03:00)`);
    },
    JOURNEY_MS,
  );

  it(
    "the dashboard names the company's zone where the browser's differs, and says nothing where they agree",
    async () => {
      const away = await browsers.page({ timezoneId: BROWSER_ZONE });
      await signIn(away, server.url, manager.email, PASSWORD, '/dashboard');
      await expect.poll(() => away.getByTestId('company-zone-note').innerText(), LIVE).toContain(`${COMPANY_ZONE} (UTC-03:00)`);
      await away.getByTestId('chart-time').waitFor();
      await shot(away, 'company-time-dashboard');

      const home = await browsers.page({ timezoneId: COMPANY_ZONE });
      await signIn(home, server.url, manager.email, PASSWORD, '/dashboard');
      await home.getByTestId('dashboard-filters').waitFor();
      expect(await home.getByTestId('company-zone-note').count()).toBe(0);
    },
    JOURNEY_MS,
  );
});
