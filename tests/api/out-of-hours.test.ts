import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createQueue, createTenant, customerWrites, eventually, outbox, type InboxTenant } from '../helpers/inbox.js';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Message } from '../../core/modules/messages/message.model.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { Ticket } from '../../core/modules/tickets/ticket.model.js';
import { WEEKDAYS_EN } from '../../core/modules/companies/companies.schema.js';
import type { ScheduleEntry } from '../../core/modules/companies/company.model.js';
import { isWithinSchedule } from '../../core/modules/pipeline/out-of-hours.js';

let server: TestServer;

let numberSeq = 0;
function customerNumber(): string {
  numberSeq += 1;
  return `55319${String(60_000_000 + numberSeq).padStart(8, '0')}`;
}

/**
 * A zone where it is about noon right now (Etc/GMT-N is UTC+N), so "08:00-18:00" is open and
 * "20:00-22:00" is closed whatever the hour the tests run at; the company's clock decides, not
 * the server's.
 */
function noonZone(now = new Date()): string {
  const offset = 12 - now.getUTCHours();
  if (offset === 0) return 'Etc/GMT';
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

function everyDay(startTime: string, endTime: string) {
  return WEEKDAYS_EN.map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime, endTime }));
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  await Plan.query(server.atende.container.db).patch({ users: 50, connections: 50, queues: 50 });
});
afterAll(async () => {
  await server?.close();
});

async function setting(tenant: InboxTenant, key: string, value: string): Promise<void> {
  const res = await server.call('PUT', `/api/settings/${key}`, { token: tenant.admin.token, body: { value } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function companyHours(tenant: InboxTenant, schedules: ReturnType<typeof everyDay>): Promise<void> {
  const res = await server.call('PUT', `/api/companies/${tenant.companyId}/schedules`, { token: tenant.admin.token, body: { schedules } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** What the customer got, once the pipeline and the send queue are done. */
async function received(tenant: InboxTenant, connectionId: number, number: string): Promise<string[]> {
  const db = server.atende.container.db;
  await server.atende.container.services.pipeline.idle();
  const contact = await Contact.query(db).findOne({ companyId: tenant.companyId, number });
  if (contact) {
    await eventually(async () => {
      const queued = await Message.query(db).join('tickets', 'tickets.id', 'messages.ticketId').where({ 'tickets.contactId': contact.id, 'messages.sendStatus': 'queued' }).resultSize();
      return queued === 0;
    });
  }
  return (await outbox(server, tenant, connectionId)).messages.filter((m) => m.to === number).map((m) => m.body);
}

async function writes(tenant: InboxTenant, connectionId: number, number: string, body: string): Promise<string[]> {
  const before = (await received(tenant, connectionId, number)).length;
  const wid = await customerWrites(server, tenant, connectionId, { from: number, name: 'Bruno Lima', body });
  // The driver's event reaches the pipeline a moment after the simulator answers.
  await eventually(async () => Message.query(server.atende.container.db).findOne({ companyId: tenant.companyId, wid }), 5000, 'the message to be stored');
  return (await received(tenant, connectionId, number)).slice(before);
}

describe('working hours on the company clock', () => {
  it('a day window is [start, end); equal times close the day; an end before the start spans midnight', () => {
    const monday = (time: string) => new Date(`2026-03-02T${time}:00Z`); // a Monday, in UTC
    const hours: ScheduleEntry[] = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }];
    expect(isWithinSchedule(hours, monday('08:00'), 'UTC')).toBe(true);
    expect(isWithinSchedule(hours, monday('17:59'), 'UTC')).toBe(true);
    expect(isWithinSchedule(hours, monday('18:00'), 'UTC')).toBe(false);
    // 10:00 in UTC is 07:00 in São Paulo: not open yet there.
    expect(isWithinSchedule(hours, monday('10:00'), 'America/Sao_Paulo')).toBe(false);
    expect(isWithinSchedule(hours, monday('11:00'), 'America/Sao_Paulo')).toBe(true);
    expect(isWithinSchedule([{ ...hours[0]!, startTime: '00:00', endTime: '00:00' }], monday('12:00'), 'UTC')).toBe(false);
    const night = [{ ...hours[0]!, startTime: '22:00', endTime: '06:00' }];
    expect(isWithinSchedule(night, monday('23:00'), 'UTC')).toBe(true);
    expect(isWithinSchedule(night, monday('05:00'), 'UTC')).toBe(true);
    expect(isWithinSchedule(night, monday('12:00'), 'UTC')).toBe(false);
    // Tuesday has no entry: closed.
    expect(isWithinSchedule(hours, new Date('2026-03-03T12:00:00Z'), 'UTC')).toBe(false);
    expect(isWithinSchedule([], monday('03:00'), 'UTC')).toBe(true);
  });
});

describe("scheduleType 'company'", () => {
  let tenant: InboxTenant;
  beforeAll(async () => {
    tenant = await createTenant(server, 'Company Hours');
    await setting(tenant, 'timezone', noonZone());
    await setting(tenant, 'scheduleType', 'company');
  });

  it("outside the company's hours answers the out-of-hours message once and nothing else; inside, the bot goes on", async () => {
    const connectionId = await createConnection(server, tenant, 'Hours', { greetingMessage: 'Olá!', outOfHoursMessage: 'Estamos fechados, {{firstName}}. Voltamos amanhã.' });
    await companyHours(tenant, everyDay('20:00', '22:00'));
    const late = customerNumber();
    expect(await writes(tenant, connectionId, late, 'oi')).toEqual(['Estamos fechados, Bruno. Voltamos amanhã.']);
    expect(await writes(tenant, connectionId, late, 'alguém aí?')).toEqual([]);
    const ticket = await Ticket.query(server.atende.container.db)
      .join('contacts', 'contacts.id', 'tickets.contactId')
      .findOne({ 'contacts.number': late, 'tickets.companyId': tenant.companyId })
      .select('tickets.*');
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 2 });

    await companyHours(tenant, everyDay('08:00', '18:00'));
    expect(await writes(tenant, connectionId, customerNumber(), 'oi')).toEqual(['Olá!']);
  });

  it('with no out-of-hours message says nothing at all outside the hours', async () => {
    const connectionId = await createConnection(server, tenant, 'Hours Quiet', { greetingMessage: 'Olá!' });
    await companyHours(tenant, everyDay('00:00', '00:00'));
    expect(await writes(tenant, connectionId, customerNumber(), 'oi')).toEqual([]);
  });
});

describe("scheduleType 'queue'", () => {
  let tenant: InboxTenant;
  beforeAll(async () => {
    tenant = await createTenant(server, 'Queue Hours');
    await setting(tenant, 'timezone', noonZone());
    await setting(tenant, 'scheduleType', 'queue');
  });

  it("a closed queue answers with its own out-of-hours message instead of its greeting, once; an open one greets", async () => {
    const closed = await createQueue(server, tenant, 'Noturna', {
      greetingMessage: 'Noturna: olá.',
      outOfHoursMessage: 'A fila Noturna abre às 20h.',
      schedules: everyDay('20:00', '22:00'),
    });
    const open = await createQueue(server, tenant, 'Diurna', {
      greetingMessage: 'Diurna: olá.',
      outOfHoursMessage: 'A fila Diurna está fechada.',
      schedules: everyDay('08:00', '18:00'),
    });
    const connectionId = await createConnection(server, tenant, 'Queue Hours', {
      greetingMessage: 'Escolha:',
      outOfHoursMessage: 'Mensagem da conexão (não usada por filas).',
      queueIds: [closed, open],
    });
    const menu = 'Escolha:\n\n*[ 1 ]* - Diurna\n*[ 2 ]* - Noturna';

    const night = customerNumber();
    // No queue yet: the queue hours do not apply, the menu is offered.
    expect(await writes(tenant, connectionId, night, 'oi')).toEqual([menu]);
    expect(await writes(tenant, connectionId, night, '2')).toEqual(['A fila Noturna abre às 20h.']);
    expect(await writes(tenant, connectionId, night, 'ok')).toEqual([]);

    const day = customerNumber();
    expect(await writes(tenant, connectionId, day, 'oi')).toEqual([menu]);
    expect(await writes(tenant, connectionId, day, '1')).toEqual(['Diurna: olá.']);
    expect(await writes(tenant, connectionId, day, 'preciso de ajuda')).toEqual([]);
  });

  it('a single closed queue is still taken, with its out-of-hours message', async () => {
    const queueId = await createQueue(server, tenant, 'Fechada', { greetingMessage: 'Fechada: olá.', outOfHoursMessage: 'Fechada agora.', schedules: everyDay('00:00', '00:00') });
    const connectionId = await createConnection(server, tenant, 'Queue Hours One', { queueIds: [queueId] });
    const number = customerNumber();
    expect(await writes(tenant, connectionId, number, 'oi')).toEqual(['Fechada agora.']);
    expect(await writes(tenant, connectionId, number, 'oi?')).toEqual([]);
    const contact = await Contact.query(server.atende.container.db).findOne({ companyId: tenant.companyId, number });
    expect(await Ticket.query(server.atende.container.db).findOne({ contactId: contact!.id })).toMatchObject({ queueId, chatbot: false });
  });
});
