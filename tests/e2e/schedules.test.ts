import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, BrowserPool, shot, typeDate } from './browser.js';
import { describeE2E } from './setup.js';
import { expectPlanHidesPage } from './plan-gate.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createTenant, outbox, PASSWORD, type InboxTenant } from '../helpers/inbox.js';

const JOURNEY_MS = 120_000;
const TZ = 'America/Sao_Paulo';
const MARINA = { name: 'Marina Souza', number: '5511977770001' };
const OTAVIO = { name: 'Otávio Lima', number: '5511977770002' };

let server: TestServer;
let tenant: InboxTenant;
/** An admin that never signs in through a browser: it calls the API (a browser login ends the tenant admin's token). */
let operator: InboxTenant;
let connectionId: number;
const contacts: Record<string, number> = {};
const browsers = new BrowserPool();

/** A day in the company's timezone, `days` from today: YYYY-MM-DD and DD/MM/YYYY. */
function companyDay(days: number): { iso: string; br: string } {
  const iso = new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: TZ });
  const [y, m, d] = iso.split('-');
  return { iso, br: `${d}/${m}/${y}` };
}

const calendar = (page: Page) => page.getByTestId('schedules-calendar');
const dayCell = (page: Page, iso: string) => calendar(page).locator(`td[title="${iso}"]`);
const listRow = (page: Page, text: string) => page.getByTestId('schedules-table').getByRole('row', { name: new RegExp(text) });

async function openSchedules(page: Page): Promise<void> {
  await signIn(page, server.url, tenant.admin.email, PASSWORD);
  await page.getByRole('menuitem', { name: 'Agendamentos' }).click();
  await page.getByRole('heading', { name: 'Agendamentos' }).waitFor();
}

/** Types a date and time into the dialog's picker and leaves it. */
async function typeSendAt(page: Page, text: string): Promise<void> {
  await typeDate(page, page.getByRole('dialog').getByLabel('Data e hora do envio'), text);
}

describeE2E('schedules page', () => {
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Loja Agenda');
    operator = { ...tenant, admin: await createMember(server, tenant, 'operador', { profile: 'admin' }) };
    connectionId = await createConnection(server, operator, 'Loja Centro', { isDefault: true });
    for (const contact of [MARINA, OTAVIO]) {
      const res = await server.call('POST', '/api/contacts', { token: operator.admin.token, body: contact });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      contacts[contact.name] = res.body.id as number;
    }
  }, JOURNEY_MS);
  // One login per user at a time: a later login ends the earlier sessions (single session).
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'an admin schedules a message with a file on a calendar day (after its validation), sees it on the day and in the list, edits it, removes the file and deletes it',
    async () => {
      const page = await browsers.page();
      await openSchedules(page);
      const day = companyDay(2);

      await dayCell(page, day.iso).click();
      const dialog = page.getByRole('dialog', { name: 'Nova mensagem agendada' });
      // The clicked day, at the default time (now + 1 hour).
      await expect.poll(() => dialog.getByLabel('Data e hora do envio').inputValue()).toMatch(new RegExp(`^${day.br} \\d\\d:\\d\\d$`));
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expect.poll(() => dialog.getByText('Obrigatório').count()).toBe(2);
      await dialog.getByLabel('Mensagem').fill('Oi');
      await dialog.getByText('Mensagem muito curta').waitFor();
      await dialog.getByLabel('Contato').click();
      await page.keyboard.type('Mar');
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="Marina Souza"]').click();
      await dialog.getByLabel('Mensagem').fill('Olá {{firstName}}, seu pedido chega amanhã!');
      await typeSendAt(page, `${day.br} 10:30`);
      await dialog.locator('input[type=file]').setInputFiles({ name: 'pedido.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 pedido') });
      await dialog.getByTestId('schedule-attachment').getByText('pedido.pdf').waitFor();
      await shot(page, 'schedules-dialog-new-light');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await page.getByText('Agendamento salvo com sucesso.').first().waitFor();
      await dialog.waitFor({ state: 'hidden' });

      const event = dayCell(page, day.iso).getByTestId('schedule-event');
      await event.getByText('Marina Souza').waitFor();
      await event.getByText('10:30').waitFor();
      await shot(page, 'schedules-calendar-light');

      await page.getByRole('tab', { name: 'Lista' }).click();
      const row = listRow(page, 'Marina Souza');
      await row.getByText('Pendente').waitFor();
      await row.getByText(`${day.br} 10:30`).waitFor();
      await row.getByText('seu pedido chega amanhã').waitFor();
      await shot(page, 'schedules-list-light');

      await page.getByRole('tab', { name: 'Calendário' }).click();
      await event.getByRole('button', { name: `Editar agendamento de Marina Souza às ${day.br} 10:30` }).click();
      const edit = page.getByRole('dialog', { name: 'Mensagem Pendente' });
      await expect.poll(() => edit.getByLabel('Mensagem').inputValue()).toBe('Olá {{firstName}}, seu pedido chega amanhã!');
      await edit.getByLabel('Mensagem').fill('Olá {{firstName}}, seu pedido chega amanhã à tarde!');
      await typeSendAt(page, `${day.br} 11:45`);
      await edit.getByTestId('schedule-attachment').getByText('pedido.pdf').waitFor();
      await edit.getByRole('button', { name: 'Remover anexo' }).click();
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await edit.waitFor({ state: 'hidden' });
      const saved = await server.call('GET', '/api/schedules?searchParam=tarde', { token: operator.admin.token });
      expect(saved.body.schedules[0]).toMatchObject({ mediaName: null, body: 'Olá {{firstName}}, seu pedido chega amanhã à tarde!' });
      await event.getByText('11:45').waitFor();
      expect(await event.count()).toBe(1);

      await page.getByRole('tab', { name: 'Lista' }).click();
      await row.getByText(`${day.br} 11:45`).waitFor();
      await row.getByRole('button', { name: `Excluir agendamento de Marina Souza às ${day.br} 11:45` }).click();
      const confirm = page.getByRole('dialog').filter({ hasText: `Excluir Marina Souza (${day.br} 11:45)?` });
      await confirm.getByRole('button', { name: 'Excluir' }).click();
      await row.waitFor({ state: 'detached' });
      await page.getByRole('tab', { name: 'Calendário' }).click();
      await event.waitFor({ state: 'detached' });
    },
    JOURNEY_MS,
  );

  it(
    "at 375 px the contacts page's schedule action opens the dialog with that contact, and the day lists the new schedule",
    async () => {
      const phone = await browsers.page({ width: 375, height: 812 });
      await signIn(phone, server.url, tenant.admin.email, PASSWORD, '/contacts');
      const action = phone.getByRole('link', { name: 'Agendar mensagem para Otávio Lima' });
      await action.waitFor();
      await shot(phone, 'schedules-contacts-action-375');
      await action.click();
      const dialog = phone.getByRole('dialog', { name: 'Nova mensagem agendada' });
      await dialog.getByTestId('schedule-contact').getByText('Otávio Lima').waitFor();
      // The parameter did its work and left the address.
      expect(new URL(phone.url()).pathname + new URL(phone.url()).search).toBe('/schedules');
      await dialog.getByLabel('Mensagem').fill('Otávio, sua visita técnica está confirmada.');
      await shot(phone, 'schedules-dialog-375');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // The default time is in an hour: today's or (near midnight) tomorrow's agenda lists it.
      const saved = await server.call('GET', '/api/schedules?searchParam=visita', { token: operator.admin.token });
      const sendAt = new Date(saved.body.schedules[0].sendAt as string);
      const day = sendAt.toLocaleDateString('en-CA', { timeZone: TZ });
      await dayCell(phone, day).click();
      await phone.getByTestId('schedules-day').getByText('Otávio Lima').waitFor();
      await shot(phone, 'schedules-calendar-375');
      await phone.getByRole('tab', { name: 'Lista' }).click();
      await listRow(phone, 'Otávio Lima').getByText('Pendente').waitFor();
      await shot(phone, 'schedules-list-375');
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      // The address itself opens the dialog too.
      await phone.goto(`${server.url}/schedules?contactId=${contacts[MARINA.name]}`);
      await phone.getByRole('dialog', { name: 'Nova mensagem agendada' }).getByTestId('schedule-contact').getByText('Marina Souza').waitFor();
    },
    JOURNEY_MS,
  );

  it(
    'a schedule due in a few seconds turns Enviada live, goes out with the first name, and its dialog is read-only',
    async () => {
      const page = await browsers.page();
      await openSchedules(page);
      await page.getByRole('tab', { name: 'Lista' }).click();
      await page.getByTestId('schedules-table').waitFor();

      const sendAt = new Date(Date.now() + 3000).toISOString();
      const created = await server.call('POST', '/api/schedules', {
        token: operator.admin.token,
        body: { contactId: contacts[MARINA.name], body: 'Bom dia {{firstName}}, sua encomenda saiu.', sendAt },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const row = listRow(page, 'sua encomenda saiu');
      await row.getByText('Pendente').waitFor();
      await row.getByText('Enviada', { exact: true }).waitFor({ timeout: 30_000 });
      const sent = await outbox(server, operator, connectionId);
      expect(JSON.stringify(sent)).toContain('Bom dia Marina, sua encomenda saiu.');

      await row.getByRole('button', { name: /^Ver agendamento de Marina Souza/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Mensagem Enviada' });
      await dialog.getByText(/^Enviada em \d\d\/\d\d\/\d{4} \d\d:\d\d$/).waitFor();
      expect(await dialog.getByRole('button', { name: 'Salvar' }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Fechar' }).first().waitFor();
      expect(await dialog.getByLabel('Mensagem').isDisabled()).toBe(true);
      await shot(page, 'schedules-dialog-sent-light');
    },
    JOURNEY_MS,
  );

  it(
    "a company whose plan has no schedules sees no Agendamentos entry, and /schedules is denied",
    async () => {
      await expectPlanHidesPage(server, await browsers.page(), 'useSchedules', { menu: 'Agendamentos', path: '/schedules' });
    },
    JOURNEY_MS,
  );
});
