import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobData } from '../../core/jobs/job-engine.js';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Schedule } from '../../plugins/schedules/schedule.model.js';
import { SCHEDULES_SEND_JOB, SCHEDULES_SWEEP_JOB } from '../../plugins/schedules/schedule-sender.js';
import { createConnection, createMember, createTenant, eventually, outbox, PASSWORD, type InboxTenant, type Member } from '../helpers/inbox.js';
import { storedBytes } from '../helpers/media.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';

let server: TestServer;
let t: InboxTenant;
let other: InboxTenant;
let agent: Member;
let colleague: Member;
let connectionId: number;
let colleagueSocket: TestSocket;

let seq = 0;
/** A contact of the tenant, straight into the table (contacts are not under test). */
async function contactOf(on: TestServer, tenant: InboxTenant, name = 'Cliente'): Promise<Contact> {
  seq += 1;
  return Contact.query(on.atende.container.db).insertAndFetch({
    companyId: tenant.companyId,
    uuid: randomUUID(),
    name: `${name} ${seq}`,
    number: `5511977${String(seq).padStart(6, '0')}`,
    isGroup: false,
  });
}

/** An instant `ms` from now, as an ISO string with seconds. */
function inMs(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

const HOUR = 3_600_000;

async function createSchedule(on: TestServer, token: string, body: Record<string, unknown>) {
  const res = await on.call('POST', '/api/schedules', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; sendAt: string; status: string; [key: string]: unknown };
}

async function row(on: TestServer, id: number): Promise<Schedule> {
  return Schedule.query(on.atende.container.db).findById(id).throwIfNotFound();
}

/** POST /schedules/:id/media-upload as the browser sends it. */
async function upload(token: string, id: number, name: string, data: string) {
  const form = new FormData();
  form.set('file', new Blob([data]), name);
  const res = await fetch(`${server.url}/api/schedules/${id}/media-upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read any shape
}

/** Runs a job now and waits until it has run. */
async function runJob(on: TestServer, name: string, data: JobData): Promise<void> {
  const { jobs } = on.atende.container;
  const id = await jobs.now(name, data);
  await eventually(async () => (await jobs.query({ id })).jobs[0]?.state === 'completed', 8000, `job ${name} to run`);
}

function scheduleFrame(socket: TestSocket, companyId: number, match: (data: Record<string, any>) => boolean) { // eslint-disable-line @typescript-eslint/no-explicit-any -- frames of any shape
  return socket.next((f) => f.channel === `company${companyId}-schedule` && match(f.data as Record<string, unknown>));
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await createTenant(server, 'Agenda Loja');
  other = await createTenant(server, 'Outra Agenda');
  agent = await createMember(server, t, 'agente');
  colleague = await createMember(server, t, 'colega');
  colleagueSocket = await openSocket(server.url, colleague.token);
  connectionId = await createConnection(server, t, 'Principal');
});
afterAll(async () => {
  await colleagueSocket?.close();
  await server?.close();
});

describe('creating and reading schedules', () => {
  it('any user schedules a message for a contact; every user of the company sees it, live', async () => {
    const contact = await contactOf(server, t, 'Maria Souza');
    const sendAt = inMs(HOUR);
    const created = await createSchedule(server, agent.token, { body: '  Olá, tudo bem?  ', contactId: contact.id, sendAt, extra: 'dropped' });
    expect(created).toMatchObject({
      companyId: t.companyId,
      body: 'Olá, tudo bem?',
      sendAt,
      sentAt: null,
      status: 'PENDENTE',
      error: null,
      mediaName: null,
      mediaUrl: null,
      contactId: contact.id,
      contact: { id: contact.id, name: contact.name, number: contact.number, profilePicUrl: '' },
      userId: agent.id,
      user: { id: agent.id, name: 'agente' },
      ticketId: null,
      editable: true,
    });
    expect(created).not.toHaveProperty('extra');
    const frame = await scheduleFrame(colleagueSocket, t.companyId, (d) => d.action === 'create' && d.schedule.id === created.id);
    expect((frame.data as { schedule: unknown }).schedule).toEqual(created);

    const shown = await server.call('GET', `/api/schedules/${created.id}`, { token: colleague.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(created);
  });

  it("reads a wall-clock sendAt in the company's time zone", async () => {
    const contact = await contactOf(server, t);
    const created = await createSchedule(server, agent.token, { body: 'Lembrete da consulta', contactId: contact.id, sendAt: '2031-05-10T14:30' });
    // America/Sao_Paulo, the default time zone, is UTC-3.
    expect(created.sendAt).toBe('2031-05-10T17:30:00.000Z');
    const offset = await createSchedule(server, agent.token, { body: 'Lembrete da consulta', contactId: contact.id, sendAt: '2031-05-10T14:30:00+01:00' });
    expect(offset.sendAt).toBe('2031-05-10T13:30:00.000Z');
  });

  it('answers each field its message', async () => {
    const contact = await contactOf(server, t);
    const valid = { body: 'Mensagem agendada', contactId: contact.id, sendAt: inMs(HOUR) };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, body: undefined }, 'body: Obrigatório'],
      [{ ...valid, body: '    ' }, 'body: Obrigatório'],
      [{ ...valid, body: ' Oi! ' }, 'body: Mensagem muito curta'],
      [{ ...valid, body: 'x'.repeat(4097) }, 'body: Too Long!'],
      [{ ...valid, contactId: undefined }, 'contactId: Obrigatório'],
      [{ ...valid, sendAt: undefined }, 'sendAt: Obrigatório'],
      [{ ...valid, sendAt: 'amanhã cedo' }, 'sendAt: Must be a date and time (YYYY-MM-DDTHH:mm)'],
      [{ ...valid, sendAt: '2031-02-30T10:00' }, 'sendAt: Must be a date and time (YYYY-MM-DDTHH:mm)'],
      [{ ...valid, sendAt: inMs(-5 * 60_000) }, 'sendAt: Must be in the future'],
    ];
    for (const [body, message] of cases) {
      const res = await server.call('POST', '/api/schedules', { token: agent.token, body });
      expect(res.status, message).toBe(400);
      expect(res.body, message).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
    // The minute being typed is still accepted.
    const typing = await createSchedule(server, agent.token, { ...valid, sendAt: inMs(-20_000) });
    expect((await server.call('DELETE', `/api/schedules/${typing.id}`, { token: agent.token })).status).toBe(204);

    const theirs = await contactOf(server, other);
    const res = await server.call('POST', '/api/schedules', { token: agent.token, body: { ...valid, contactId: theirs.id } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_CONTACT_FOUND');
    expect(await Schedule.query(server.atende.container.db).where({ contactId: theirs.id })).toEqual([]);
  });
});

describe('the list and the calendar', () => {
  let lista: InboxTenant;
  let ana: Contact;
  let bruno: Contact;

  beforeAll(async () => {
    lista = await createTenant(server, 'Agenda Lista');
    ana = await contactOf(server, lista, 'Ana Lima');
    bruno = await contactOf(server, lista, 'Bruno Prado');
    // 21 for Ana an hour apart, one for Bruno: two pages.
    for (let i = 1; i <= 21; i += 1) {
      await createSchedule(server, lista.admin.token, { body: `Cobrança número ${i}`, contactId: ana.id, sendAt: inMs(i * HOUR) });
    }
    await createSchedule(server, lista.admin.token, { body: 'PROMOÇÃO de 50%_off', contactId: bruno.id, sendAt: inMs(30 * 60_000) });
  });

  it('pages 20 at a time, newest sendAt first', async () => {
    const first = await server.call('GET', '/api/schedules?pageNumber=1', { token: lista.admin.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 22, hasMore: true });
    expect(first.body.schedules).toHaveLength(20);
    const times = first.body.schedules.map((s: { sendAt: string }) => s.sendAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(first.body.schedules[0].body).toBe('Cobrança número 21');

    const second = await server.call('GET', '/api/schedules?pageNumber=2', { token: lista.admin.token });
    expect(second.body).toMatchObject({ count: 22, hasMore: false });
    expect(second.body.schedules.map((s: { body: string }) => s.body)).toEqual(['Cobrança número 1', 'PROMOÇÃO de 50%_off']);
  });

  it("searches the text and the contact's name and number, case-insensitively, and filters by contact", async () => {
    const search = async (query: string) => {
      const res = await server.call('GET', `/api/schedules?${query}`, { token: lista.admin.token });
      expect(res.status).toBe(200);
      return res.body as { schedules: { body: string; contactId: number }[]; count: number };
    };
    expect((await search('searchParam=promo')).schedules.map((s) => s.body)).toEqual(['PROMOÇÃO de 50%_off']);
    expect((await search(`searchParam=${encodeURIComponent('50%_')}`)).count).toBe(1);
    expect((await search('searchParam=BRUNO')).schedules.map((s) => s.contactId)).toEqual([bruno.id]);
    expect((await search(`searchParam=${ana.number.slice(-6)}`)).count).toBe(21);
    expect((await search('searchParam=número 1')).count).toBe(11);
    expect((await search(`contactId=${bruno.id}`)).count).toBe(1);
    expect((await search('searchParam=nada disso')).count).toBe(0);
  });

  it("shows the schedules of company-local days, in time order, within 62 days", async () => {
    const at = async (sendAt: string) => (await createSchedule(server, lista.admin.token, { body: `Calendário ${sendAt}`, contactId: ana.id, sendAt })).id;
    const late = await at('2031-03-01T23:50');
    const early = await at('2031-03-01T00:30');
    const nextDay = await at('2031-03-02T00:10');
    await at('2031-02-28T23:59');

    const day = await server.call('GET', '/api/schedules/calendar?from=2031-03-01&to=2031-03-01', { token: lista.admin.token });
    expect(day.status).toBe(200);
    expect(day.body.schedules.map((s: { id: number }) => s.id)).toEqual([early, late]);
    const twoDays = await server.call('GET', '/api/schedules/calendar?from=2031-03-01&to=2031-03-02', { token: lista.admin.token });
    expect(twoDays.body.schedules.map((s: { id: number }) => s.id)).toEqual([early, late, nextDay]);
    expect((await server.call('GET', '/api/schedules/calendar?from=2031-03-01&to=2031-05-01', { token: lista.admin.token })).status).toBe(200);

    for (const [query, message] of [
      ['to=2031-03-01', 'from: Obrigatório'],
      ['from=2031-03-02&to=2031-03-01', 'to: Must not be before from'],
      ['from=2031-03-01&to=2031-05-02', 'to: At most 62 days'],
      ['from=2031-02-30&to=2031-03-01', 'from: Must be a day (YYYY-MM-DD)'],
    ]) {
      const res = await server.call('GET', `/api/schedules/calendar?${query}`, { token: lista.admin.token });
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
  });

  it("never shows another company's schedules", async () => {
    const res = await server.call('GET', '/api/schedules?searchParam=Cobrança', { token: t.admin.token });
    expect(res.body.count).toBe(0);
    const calendar = await server.call('GET', '/api/schedules/calendar?from=2031-03-01&to=2031-03-02', { token: t.admin.token });
    expect(calendar.body.schedules).toEqual([]);
  });
});

describe('changing and deleting schedules', () => {
  it('the author edits a schedule; every user hears it', async () => {
    const contact = await contactOf(server, t);
    const next = await contactOf(server, t);
    const created = await createSchedule(server, agent.token, { body: 'Primeira versão', contactId: contact.id, sendAt: inMs(HOUR) });
    const sendAt = inMs(2 * HOUR);
    const res = await server.call('PUT', `/api/schedules/${created.id}`, { token: agent.token, body: { body: 'Segunda versão', contactId: next.id, sendAt } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, body: 'Segunda versão', contactId: next.id, contact: { id: next.id }, sendAt, status: 'PENDENTE' });
    await scheduleFrame(colleagueSocket, t.companyId, (d) => d.action === 'update' && d.schedule.id === created.id && d.schedule.body === 'Segunda versão');

    for (const [body, message] of [
      [{ body: 'Oi' }, 'body: Mensagem muito curta'],
      [{ sendAt: inMs(-10 * 60_000) }, 'sendAt: Must be in the future'],
    ] as const) {
      const bad = await server.call('PUT', `/api/schedules/${created.id}`, { token: agent.token, body });
      expect(bad.body, message).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
    const theirs = await contactOf(server, other);
    expect((await server.call('PUT', `/api/schedules/${created.id}`, { token: agent.token, body: { contactId: theirs.id } })).body.error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it('another user may read it but not change or delete it (403); an admin may', async () => {
    const contact = await contactOf(server, t);
    const created = await createSchedule(server, agent.token, { body: 'Só do autor', contactId: contact.id, sendAt: inMs(HOUR) });
    for (const [method, path, body] of [
      ['PUT', `/api/schedules/${created.id}`, { body: 'Mudado por outro' }],
      ['DELETE', `/api/schedules/${created.id}`, undefined],
      ['DELETE', `/api/schedules/${created.id}/media-upload`, undefined],
    ] as const) {
      const res = await server.call(method, path, { token: colleague.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await upload(colleague.token, created.id, 'a.pdf', '%PDF')).status).toBe(403);
    expect((await row(server, created.id)).body).toBe('Só do autor');

    const edited = await server.call('PUT', `/api/schedules/${created.id}`, { token: t.admin.token, body: { body: 'Mudado pelo admin' } });
    expect(edited.status).toBe(200);
    expect(edited.body.userId).toBe(agent.id);
    expect((await server.call('DELETE', `/api/schedules/${created.id}`, { token: t.admin.token })).status).toBe(204);
  });

  it('deleting removes the schedule and its send job, live', async () => {
    const contact = await contactOf(server, t);
    const created = await createSchedule(server, agent.token, { body: 'Vai ser apagada', contactId: contact.id, sendAt: inMs(HOUR) });
    const { jobs } = server.atende.container;
    expect((await jobs.query({ name: SCHEDULES_SEND_JOB, data: { scheduleId: created.id } })).jobs).toHaveLength(1);

    expect((await server.call('DELETE', `/api/schedules/${created.id}`, { token: agent.token })).status).toBe(204);
    await scheduleFrame(colleagueSocket, t.companyId, (d) => d.action === 'delete' && d.scheduleId === created.id);
    expect((await server.call('GET', `/api/schedules/${created.id}`, { token: agent.token })).status).toBe(404);
    expect((await jobs.query({ name: SCHEDULES_SEND_JOB, data: { scheduleId: created.id } })).jobs).toEqual([]);
  });

  it('an edit moves the send job to the new time (one job per schedule)', async () => {
    const contact = await contactOf(server, t);
    const created = await createSchedule(server, agent.token, { body: 'Mudou de hora', contactId: contact.id, sendAt: inMs(HOUR) });
    const sendAt = inMs(3 * HOUR);
    await server.call('PUT', `/api/schedules/${created.id}`, { token: agent.token, body: { sendAt } });
    const { jobs } = await server.atende.container.jobs.query({ name: SCHEDULES_SEND_JOB, data: { scheduleId: created.id } });
    expect(jobs.map((j) => new Date(j.nextRunAt!).toISOString())).toEqual([sendAt]);
  });

  it("another company's schedule is 404, whatever the method", async () => {
    const contact = await contactOf(server, t);
    const created = await createSchedule(server, agent.token, { body: 'Da Agenda Loja', contactId: contact.id, sendAt: inMs(HOUR) });
    for (const [method, path] of [
      ['GET', `/api/schedules/${created.id}`],
      ['PUT', `/api/schedules/${created.id}`],
      ['DELETE', `/api/schedules/${created.id}`],
      ['DELETE', `/api/schedules/${created.id}/media-upload`],
      ['GET', '/api/schedules/abc'],
    ] as const) {
      const res = await server.call(method, path, { token: other.admin.token, body: method === 'PUT' ? { body: 'Invasão' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_SCHEDULE_FOUND');
    }
    expect((await upload(other.admin.token, created.id, 'a.pdf', '%PDF')).status).toBe(404);
    expect((await row(server, created.id)).body).toBe('Da Agenda Loja');
  });

  it("answers 403 ERR_PLAN_FEATURE_DISABLED when the company's plan has no schedules", async () => {
    const { token } = await withPlan(server, { features: { useSchedules: false } });
    for (const [method, path] of [
      ['GET', '/api/schedules'],
      ['GET', '/api/schedules/calendar?from=2031-03-01&to=2031-03-01'],
      ['POST', '/api/schedules'],
    ] as const) {
      const res = await server.call(method, path, { token, body: method === 'POST' ? {} : undefined });
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });
});

describe('media of a schedule', () => {
  it('uploads, replaces and removes the file; deleting the schedule removes it too', async () => {
    const contact = await contactOf(server, t);
    const created = await createSchedule(server, agent.token, { body: 'Segue o boleto', contactId: contact.id, sendAt: inMs(HOUR) });

    const first = await upload(agent.token, created.id, 'boleto março.pdf', '%PDF-1 março');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ id: created.id, mediaName: 'boleto março.pdf', mediaUrl: expect.stringMatching(/^\/api\/media\/.+boleto_mar/) });
    await scheduleFrame(colleagueSocket, t.companyId, (d) => d.action === 'update' && d.schedule.id === created.id && d.schedule.mediaName === 'boleto março.pdf');
    const served = await fetch(server.url + first.body.mediaUrl, { headers: { Authorization: `Bearer ${colleague.token}` } });
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('%PDF-1 março');
    const firstStored = (await row(server, created.id)).mediaPath!;

    const second = await upload(agent.token, created.id, 'boleto abril.pdf', '%PDF-1 abril');
    expect(second.body.mediaName).toBe('boleto abril.pdf');
    await expect(storedBytes(server, t.companyId, firstStored)).rejects.toThrow();
    expect((await upload(agent.token, created.id, 'script.exe', 'MZ')).status).toBe(415);

    const removed = await server.call('DELETE', `/api/schedules/${created.id}/media-upload`, { token: agent.token });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ mediaName: null, mediaUrl: null });
    expect((await fetch(server.url + second.body.mediaUrl, { headers: { Authorization: `Bearer ${agent.token}` } })).status).toBe(404);

    const third = await upload(agent.token, created.id, 'foto.jpg', 'jpeg bytes');
    const thirdStored = (await row(server, created.id)).mediaPath!;
    expect(third.status).toBe(200);
    expect((await server.call('DELETE', `/api/schedules/${created.id}`, { token: agent.token })).status).toBe(204);
    await expect(storedBytes(server, t.companyId, thirdStored)).rejects.toThrow();
  });
});

describe('delivery', () => {
  it('a schedule reaches WhatsApp once at its time, on a new ticket of the contact assigned to the author', async () => {
    const contact = await contactOf(server, t, 'Joana Dias');
    const created = await createSchedule(server, agent.token, { body: 'Olá {{firstName}}, sua consulta é amanhã.', contactId: contact.id, sendAt: inMs(1500) });

    const sent = await eventually(async () => (await outbox(server, t, connectionId)).messages.find((m) => m.to === contact.number), 10_000, 'the message on the phone');
    expect(sent).toMatchObject({ kind: 'text', body: 'Olá Joana, sua consulta é amanhã.' });
    const done = await eventually(async () => {
      const s = await row(server, created.id);
      return s.status === 'ENVIADA' && s;
    });
    expect(Date.parse(done.sentAt!)).toBeGreaterThanOrEqual(Date.parse(created.sendAt));
    const frames = await Promise.all(
      ['AGENDADA', 'ENVIADA'].map((status) => scheduleFrame(colleagueSocket, t.companyId, (d) => d.action === 'update' && d.schedule.id === created.id && d.schedule.status === status)),
    );
    expect((frames[1]!.data as { schedule: unknown }).schedule).toMatchObject({ status: 'ENVIADA', editable: false, ticketId: done.ticketId, sentAt: done.sentAt });

    const { db } = server.atende.container;
    const ticket = await db('tickets').where({ id: done.ticketId }).first();
    expect(ticket).toMatchObject({ companyId: t.companyId, contactId: contact.id, whatsappId: connectionId, status: 'open', userId: agent.id });
    expect(await db('ticketTracking').where({ ticketId: ticket.id }).select('userId')).toEqual([{ userId: agent.id }]);
    const messages = await server.call('GET', `/api/messages/${ticket.id}`, { token: agent.token });
    expect(messages.body.messages).toMatchObject([{ id: done.messageId, body: 'Olá Joana, sua consulta é amanhã.', fromMe: true, userId: agent.id, sendStatus: 'sent' }]);

    // Sent is history: no more edits.
    const edit = await server.call('PUT', `/api/schedules/${created.id}`, { token: agent.token, body: { body: 'Tarde demais' } });
    expect(edit.status).toBe(409);
    expect(edit.body.error).toBe('ERR_SCHEDULE_ALREADY_SENT');
    expect((await upload(agent.token, created.id, 'a.pdf', '%PDF')).status).toBe(409);

    // A stale job and the sweep find nothing left to send.
    await runJob(server, SCHEDULES_SEND_JOB, { companyId: t.companyId, scheduleId: created.id });
    await runJob(server, SCHEDULES_SWEEP_JOB, {});
    expect((await outbox(server, t, connectionId)).messages.filter((m) => m.to === contact.number)).toHaveLength(1);
  });

  it("goes on the contact's open ticket when there is one, with its file", async () => {
    const contact = await contactOf(server, t);
    const opened = await server.call('POST', '/api/tickets', { token: t.admin.token, body: { contactId: contact.id } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const created = await createSchedule(server, agent.token, { body: 'Segue a foto', contactId: contact.id, sendAt: inMs(1500) });
    expect((await upload(agent.token, created.id, 'foto.jpg', 'jpeg bytes')).status).toBe(200);

    const sent = await eventually(async () => (await outbox(server, t, connectionId)).messages.find((m) => m.to === contact.number), 10_000, 'the photo');
    expect(sent).toMatchObject({ kind: 'media', body: 'Segue a foto', media: { fileName: 'foto.jpg', mimeType: 'image/jpeg' } });
    const done = await eventually(async () => {
      const s = await row(server, created.id);
      return s.status === 'ENVIADA' && s;
    });
    expect(done.ticketId).toBe(opened.body.id);

    // The message keeps its own copy: deleting the schedule leaves the ticket's media in place.
    const message = await server.atende.container.db('messages').where({ id: done.messageId }).first();
    expect((await server.call('DELETE', `/api/schedules/${created.id}`, { token: agent.token })).status).toBe(204);
    expect((await storedBytes(server, t.companyId, message.mediaPath)).toString()).toBe('jpeg bytes');
  });

  it('a company without a connection gets ERRO; editing it makes it wait again', async () => {
    const lone = await createTenant(server, 'Agenda Sem Conexao');
    const socket = await openSocket(server.url, lone.admin.token);
    try {
      const contact = await contactOf(server, lone);
      const created = await createSchedule(server, lone.admin.token, { body: 'Ninguém vai enviar', contactId: contact.id, sendAt: inMs(1000) });
      const frame = await scheduleFrame(socket, lone.companyId, (d) => d.action === 'update' && d.schedule.id === created.id && d.schedule.status === 'ERRO');
      expect((frame.data as { schedule: unknown }).schedule).toMatchObject({ error: 'ERR_NO_DEF_WAPP_FOUND', ticketId: null, sentAt: null, editable: true });
      expect(await server.atende.container.db('tickets').where({ companyId: lone.companyId })).toEqual([]);

      const sendAt = inMs(HOUR);
      const edited = await server.call('PUT', `/api/schedules/${created.id}`, { token: lone.admin.token, body: { sendAt } });
      expect(edited.body).toMatchObject({ status: 'PENDENTE', error: null, sendAt });
    } finally {
      await socket.close();
    }
  });

  it('the sweep sends a schedule whose job was lost, once, only for companies with the feature', async () => {
    const { db, services } = server.atende.container;
    const contact = await contactOf(server, t);
    const now = new Date().toISOString();
    const lost = await Schedule.query(db).insert({ companyId: t.companyId, contactId: contact.id, userId: agent.id, body: 'Perdida e achada', sendAt: inMs(-5 * 60_000), status: 'PENDENTE' });

    const plan = await services.plans.create({ name: 'Agenda desligada', users: 5, connections: 1, queues: 1, value: 0, useSchedules: false });
    const { company } = await services.companies.createTenant({ name: 'Agenda Desligada', email: 'admin@agendadesligada.test', password: PASSWORD, planId: plan.id });
    const [offContact] = await db('contacts').insert({ companyId: company.id, uuid: randomUUID(), name: 'Fora', number: '5511900000001', createdAt: now, updatedAt: now }).returning('id');
    const off = await Schedule.query(db).insert({ companyId: company.id, contactId: offContact.id, userId: null, body: 'Plano sem agenda', sendAt: inMs(-5 * 60_000), status: 'PENDENTE' });

    await runJob(server, SCHEDULES_SWEEP_JOB, {});
    const sent = await eventually(async () => (await outbox(server, t, connectionId)).messages.filter((m) => m.to === contact.number).length > 0 && row(server, lost.id));
    expect(sent.status).not.toBe('PENDENTE');
    await runJob(server, SCHEDULES_SWEEP_JOB, {});
    expect((await outbox(server, t, connectionId)).messages.filter((m) => m.to === contact.number)).toMatchObject([{ body: 'Perdida e achada' }]);
    expect((await row(server, off.id)).status).toBe('PENDENTE');
  });

  it('the sweep settles an AGENDADA schedule whose message was sent but whose hook never ran (a crash between them)', async () => {
    const { db } = server.atende.container;
    const contact = await contactOf(server, t);
    const opened = await server.call('POST', '/api/tickets', { token: t.admin.token, body: { contactId: contact.id } });
    const sentOne = await createSchedule(server, agent.token, { body: 'Esta foi enviada', contactId: contact.id, sendAt: inMs(HOUR) });
    const failedOne = await createSchedule(server, agent.token, { body: 'Esta não foi enviada', contactId: contact.id, sendAt: inMs(HOUR) });
    // As a crash leaves them: the send queue settled the messages, no event ever reached the plugin.
    const now = new Date().toISOString();
    const message = (wid: string, sendStatus: string, sendError: string | null) =>
      db('messages')
        .insert({ companyId: t.companyId, wid, ticketId: opened.body.id, body: wid, fromMe: true, read: true, ack: 1, sendStatus, sendError, createdAt: now, updatedAt: now })
        .returning('id');
    const [sent] = await message('3EB0CRASHSENT', 'sent', null);
    const [failed] = await message('3EB0CRASHFAIL', 'failed', 'ERR_SENDING_WAPP_MSG');
    await Schedule.query(db).findById(sentOne.id).patch({ status: 'AGENDADA', ticketId: opened.body.id, messageId: sent.id });
    await Schedule.query(db).findById(failedOne.id).patch({ status: 'AGENDADA', ticketId: opened.body.id, messageId: failed.id });

    await runJob(server, SCHEDULES_SWEEP_JOB, {});
    expect(await row(server, sentOne.id)).toMatchObject({ status: 'ENVIADA', error: null });
    expect((await row(server, sentOne.id)).sentAt).not.toBeNull();
    expect(await row(server, failedOne.id)).toMatchObject({ status: 'ERRO', error: 'ERR_SENDING_WAPP_MSG' });
  });

  it('a send that failed for good makes the schedule ERRO with the reason', async () => {
    const { db, bus } = server.atende.container;
    const contact = await contactOf(server, t);
    const opened = await server.call('POST', '/api/tickets', { token: t.admin.token, body: { contactId: contact.id } });
    const created = await createSchedule(server, agent.token, { body: 'Não chegou', contactId: contact.id, sendAt: inMs(HOUR) });
    // As the send queue leaves it after its last attempt failed.
    const now = new Date().toISOString();
    const [message] = await db('messages')
      .insert({ companyId: t.companyId, wid: '3EB0FAILED', ticketId: opened.body.id, body: 'Não chegou', fromMe: true, read: true, ack: 0, sendStatus: 'failed', createdAt: now, updatedAt: now })
      .returning('id');
    await Schedule.query(db).findById(created.id).patch({ status: 'AGENDADA', ticketId: opened.body.id, messageId: message.id });
    await bus.emit('message.send_failed', t.companyId, { messageId: message.id, ticketId: opened.body.id, error: 'ERR_SENDING_WAPP_MSG' });
    // The hook is durable: it runs as a job, a moment after the event.
    await expect.poll(async () => (await row(server, created.id)).status, { timeout: 5000 }).toBe('ERRO');
    expect(await row(server, created.id)).toMatchObject({ status: 'ERRO', error: 'ERR_SENDING_WAPP_MSG', sentAt: null });
    await scheduleFrame(colleagueSocket, t.companyId, (d) => d.action === 'update' && d.schedule.id === created.id && d.schedule.status === 'ERRO');
  });
});

describe('a schedule due while the server is stopped', () => {
  it('is sent once after the restart', async () => {
    const first = await startTestServer({ simulator: true });
    let second: TestServer | undefined;
    try {
      let tenant = await createTenant(first, 'Agenda Reinicio');
      const connection = await createConnection(first, tenant, 'Principal');
      const contact = await contactOf(first, tenant);
      const created = await createSchedule(first, tenant.admin.token, { body: 'Enviada depois da volta', contactId: contact.id, sendAt: inMs(1500) });
      await first.atende.stop();
      // The server stays down past the schedule's time.
      await eventually(async () => Date.now() > Date.parse(created.sendAt) + 500, 5000, 'the time to pass');

      second = await startTestServer({ simulator: true }, { sameDatabaseAs: first });
      tenant = { ...tenant, admin: { ...tenant.admin, token: (await second.login(tenant.admin.email, PASSWORD)).token } };
      // The stored job, overdue, runs as the second process starts.
      await eventually(async () => (await row(second!, created.id)).status === 'ENVIADA', 10_000, 'the schedule to be sent');

      await runJob(second, SCHEDULES_SEND_JOB, { companyId: tenant.companyId, scheduleId: created.id });
      await runJob(second, SCHEDULES_SWEEP_JOB, {});
      expect((await outbox(second, tenant, connection)).messages.filter((m) => m.to === contact.number)).toMatchObject([{ body: 'Enviada depois da volta' }]);
    } finally {
      await second?.close();
      // The first owns the database and its folder; stopping it again is harmless.
      await first.close();
    }
  });
});
