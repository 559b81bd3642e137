import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, type InboxTenant, type Member } from '../helpers/inbox.js';
import { openSocket } from '../helpers/socket.js';
import { createMigrationSource } from '../../core/db/migrator.js';
import { pluginMigrationDirs } from '../../core/plugins/plugin-loader.js';

/**
 * The admin dashboard (spec Dashboard, §7 /dashboard): figures of the caller's company only, from
 * its attendances (ticket_tracking rows), the period in the company's local days
 * (America/Sao_Paulo, UTC-3). The fixture's every figure is worked out by hand below.
 */
let server: TestServer;
/** The company under test (its admin is named 'Alfa', first by name), and another one. */
let alfa: InboxTenant;
let other: InboxTenant;
let ana: Member;
let bruno: Member;
let carla: Member;
let otherAgent: Member;

const db = () => server.atende.container.db;
const MINUTE = 60_000;
const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();

let numberSeq = 0;
async function insertContact(companyId: number, createdAt: string, isGroup = false): Promise<number> {
  numberSeq += 1;
  const [row] = await db()('contacts')
    .insert({ companyId, uuid: randomUUID(), name: `Cliente ${numberSeq}`, number: `55119${String(70000000 + numberSeq)}`, isGroup, createdAt, updatedAt: createdAt })
    .returning('id');
  return row.id as number;
}

/** A ticket (its own contact, created long before the periods looked at). */
async function insertTicket(companyId: number, status: 'pending' | 'open' | 'closed', userId: number | null = null): Promise<number> {
  const at = '2020-01-01T00:00:00.000Z';
  const contactId = await insertContact(companyId, at);
  const [row] = await db()('tickets').insert({ companyId, uuid: randomUUID(), status, userId, contactId, createdAt: at, updatedAt: at }).returning('id');
  return row.id as number;
}

interface Attendance {
  userId?: number | null;
  createdAt: string;
  queuedAt?: string;
  startedAt?: string;
  ratingAt?: string;
  finishedAt?: string;
  rate?: number;
}

/** One attendance of a closed ticket (or of an open one while not finished). */
async function insertAttendance(companyId: number, a: Attendance): Promise<void> {
  const ticketId = await insertTicket(companyId, a.finishedAt ? 'closed' : 'open', a.userId ?? null);
  await db()('ticketTracking').insert({
    companyId,
    ticketId,
    userId: a.userId ?? null,
    queuedAt: a.queuedAt ?? null,
    startedAt: a.startedAt ?? null,
    ratingAt: a.ratingAt ?? null,
    finishedAt: a.finishedAt ?? null,
    rate: a.rate ?? null,
    rated: a.rate !== undefined,
    createdAt: a.createdAt,
    updatedAt: a.finishedAt ?? a.createdAt,
  });
}

async function get(token: string, path: string) {
  return server.call('GET', path, { token });
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  alfa = await createTenant(server, 'Alfa');
  other = await createTenant(server, 'Outra Empresa');
  ana = await createMember(server, alfa, 'ana');
  bruno = await createMember(server, alfa, 'bruno');
  carla = await createMember(server, alfa, 'carla');
  otherAgent = await createMember(server, other, 'zeca');

  // Online follows open sockets and this fixture opens none: ana is marked online by hand.
  await db()('users').where({ id: ana.id }).update({ online: true });

  const A = alfa.companyId;
  // Local days 2024-03-10 and 2024-03-11 are [2024-03-10T03:00Z, 2024-03-12T03:00Z).
  // Support time: from start to the rating question, else to the finish. Wait: queued to started.
  await insertAttendance(A, { userId: ana.id, createdAt: '2024-03-10T12:00:00Z', queuedAt: '2024-03-10T12:00:00Z', startedAt: '2024-03-10T12:10:00Z', finishedAt: '2024-03-10T12:40:00Z' }); // support 30, wait 10
  await insertAttendance(A, { userId: ana.id, createdAt: '2024-03-11T13:00:00Z', queuedAt: '2024-03-11T13:00:00Z', startedAt: '2024-03-11T13:05:00Z', ratingAt: '2024-03-11T13:25:00Z', finishedAt: '2024-03-11T13:30:00Z', rate: 3 }); // support 20, wait 5
  // Asked to rate at 19:00 local, answered (finished) 23:30 local on the 11th: rated 1.
  await insertAttendance(A, { userId: bruno.id, createdAt: '2024-03-11T20:00:00Z', queuedAt: '2024-03-11T20:00:00Z', startedAt: '2024-03-11T20:30:00Z', ratingAt: '2024-03-11T22:00:00Z', finishedAt: '2024-03-12T02:30:00Z', rate: 1 }); // support 90 (to the rating question), wait 30
  // Created and started late on the 11th local (01:30Z and 02:00Z of the 12th), finished after the period.
  await insertAttendance(A, { userId: bruno.id, createdAt: '2024-03-12T01:30:00Z', queuedAt: '2024-03-12T01:30:00Z', startedAt: '2024-03-12T02:00:00Z', finishedAt: '2024-03-12T03:30:00Z' }); // wait 30
  // Closed with nobody assigned (never queued nor started): finished, not timed.
  await insertAttendance(A, { createdAt: '2024-03-10T14:00:00Z', finishedAt: '2024-03-10T15:00:00Z' });
  // 23:00–23:59 local on the 9th: before the period.
  await insertAttendance(A, { userId: ana.id, createdAt: '2024-03-10T02:00:00Z', queuedAt: '2024-03-10T02:00:00Z', startedAt: '2024-03-10T02:10:00Z', finishedAt: '2024-03-10T02:59:00Z', rate: 1 });
  // Still in progress (its ticket open).
  await insertAttendance(A, { userId: ana.id, createdAt: '2024-03-10T17:00:00Z', queuedAt: '2024-03-10T17:00:00Z', startedAt: '2024-03-10T18:00:00Z' }); // wait 60
  // Tickets now: one more open, one pending (supportHappening 2, supportPending 1).
  await insertTicket(A, 'open', ana.id);
  await insertTicket(A, 'pending');
  // Leads: the first and the last instant of the period count, the next instant and groups do not.
  await insertContact(A, '2024-03-10T03:00:00.000Z');
  await insertContact(A, '2024-03-12T02:59:59.999Z');
  await insertContact(A, '2024-03-12T03:00:00.000Z');
  await insertContact(A, '2024-03-10T12:00:00.000Z', true);

  // Recent: ana finished an hour ago (rated 2); bruno 40 days ago.
  await insertAttendance(A, { userId: ana.id, createdAt: ago(130), queuedAt: ago(130), startedAt: ago(120), finishedAt: ago(60), rate: 2 }); // support 60, wait 10
  await insertAttendance(A, { userId: bruno.id, createdAt: ago(40 * 1440 + 40), queuedAt: ago(40 * 1440 + 40), startedAt: ago(40 * 1440 + 30), finishedAt: ago(40 * 1440) }); // support 30, wait 10
  await insertContact(A, ago(60));
  await insertContact(A, ago(40 * 1440));

  // The other company, in the same periods: never counted for Alfa.
  const O = other.companyId;
  for (const at of ['2024-03-10T12:00:00Z', '2024-03-11T13:00:00Z', ago(120)]) {
    await insertAttendance(O, { userId: otherAgent.id, createdAt: at, queuedAt: at, startedAt: at, finishedAt: at, rate: 3 });
    await insertContact(O, at);
  }
  await insertTicket(O, 'open', otherAgent.id);
  await insertTicket(O, 'pending');
});
afterAll(async () => {
  await server?.close();
});

const attendant = (user: { id: number }, name: string, tickets: number, avgSupportTime: number, rating: number | null, ratings: number) => ({
  id: user.id,
  name,
  online: user.id === ana.id,
  tickets,
  avgSupportTime,
  rating,
  ratings,
});

describe('GET /api/dashboard', () => {
  it('date_from..date_to: every counter and attendant of those local days', async () => {
    const res = await get(alfa.admin.token, '/api/dashboard?date_from=2024-03-10&date_to=2024-03-11');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      counters: {
        supportHappening: 2,
        supportPending: 1,
        supportFinished: 4,
        leads: 2,
        avgSupportTime: 46.7, // (30 + 20 + 90) / 3
        avgWaitTime: 27, // (10 + 5 + 30 + 30 + 60) / 5
      },
      attendants: [
        attendant(alfa.admin, 'Alfa', 0, 0, null, 0),
        attendant(ana, 'ana', 2, 25, 3, 1),
        attendant(bruno, 'bruno', 1, 90, 1, 1),
        attendant(carla, 'carla', 0, 0, null, 0),
      ],
    });
  });

  it('days=N: the last N local days, today included', async () => {
    const two = await get(alfa.admin.token, '/api/dashboard?days=2');
    expect(two.status).toBe(200);
    expect(two.body.counters).toEqual({ supportHappening: 2, supportPending: 1, supportFinished: 1, leads: 1, avgSupportTime: 60, avgWaitTime: 10 });
    expect(two.body.attendants.map((a: { name: string; tickets: number; rating: number | null }) => [a.name, a.tickets, a.rating])).toEqual([
      ['Alfa', 0, null],
      ['ana', 1, 2],
      ['bruno', 0, null],
      ['carla', 0, null],
    ]);

    const thirty = await get(alfa.admin.token, '/api/dashboard?days=30');
    expect(thirty.body.counters.supportFinished).toBe(1);

    const sixty = await get(alfa.admin.token, '/api/dashboard?days=60');
    expect(sixty.body.counters).toEqual({ supportHappening: 2, supportPending: 1, supportFinished: 2, leads: 2, avgSupportTime: 45, avgWaitTime: 10 });
    expect(sixty.body.attendants.find((a: { id: number }) => a.id === bruno.id)).toEqual(attendant(bruno, 'bruno', 1, 30, null, 0));
  });

  it("another company's rows never count, whatever companyId the query names", async () => {
    const res = await get(other.admin.token, `/api/dashboard?date_from=2024-03-10&date_to=2024-03-11&companyId=${alfa.companyId}`);
    expect(res.status).toBe(200);
    expect(res.body.counters).toEqual({ supportHappening: 1, supportPending: 1, supportFinished: 2, leads: 2, avgSupportTime: 0, avgWaitTime: 0 });
    expect(res.body.attendants).toEqual([attendant(other.admin, 'Outra Empresa', 0, 0, null, 0), attendant(otherAgent, 'zeca', 2, 0, 3, 2)]);
  });

  it("without a period or dates: 400 'Parametrize o filtro'", async () => {
    for (const query of ['', '?days=', '?days=0', '?date_from=&date_to=']) {
      const res = await get(alfa.admin.token, `/api/dashboard${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual({ error: 'ERR_DASHBOARD_FILTER', message: 'Parametrize o filtro' });
    }
  });

  it('a bad period or a reversed range is 400', async () => {
    for (const query of ['?days=abc', '?days=400', '?date_from=2024-02-30&date_to=2024-03-01', '?date_from=2024-03-11&date_to=2024-03-10']) {
      const res = await get(alfa.admin.token, `/api/dashboard${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });
});

describe('GET /api/dashboard/ticketsUsers', () => {
  it('attendances started in the local days, per user, most first', async () => {
    const res = await get(alfa.admin.token, '/api/dashboard/ticketsUsers?initialDate=2024-03-10&finalDate=2024-03-11');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [{ nome: 'ana', quantidade: 3 }, { nome: 'bruno', quantidade: 2 }], count: 5 });
  });

  it('another company sees its own', async () => {
    const res = await get(other.admin.token, `/api/dashboard/ticketsUsers?initialDate=2024-03-10&finalDate=2024-03-11&companyId=${alfa.companyId}`);
    expect(res.body).toEqual({ data: [{ nome: 'zeca', quantidade: 2 }], count: 2 });
  });
});

describe('GET /api/dashboard/ticketsDay', () => {
  it('a range: every local day, zeros included (01:30Z belongs to the day before in São Paulo)', async () => {
    const res = await get(alfa.admin.token, '/api/dashboard/ticketsDay?initialDate=2024-03-08&finalDate=2024-03-12');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { data: '2024-03-08', total: 0 },
        { data: '2024-03-09', total: 1 },
        { data: '2024-03-10', total: 3 },
        { data: '2024-03-11', total: 3 },
        { data: '2024-03-12', total: 0 },
      ],
      count: 7,
    });
  });

  it('one day: all 24 local hours', async () => {
    const res = await get(alfa.admin.token, '/api/dashboard/ticketsDay?initialDate=2024-03-11&finalDate=2024-03-11');
    expect(res.status).toBe(200);
    const expected = Array.from({ length: 24 }, (_, h) => ({ horario: String(h).padStart(2, '0'), total: [10, 17, 22].includes(h) ? 1 : 0 }));
    expect(res.body).toEqual({ data: expected, count: 3 });
  });

  it('follows the company time zone', async () => {
    const put = await server.call('PUT', '/api/settings/timezone', { token: alfa.admin.token, body: { value: 'UTC' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    try {
      const res = await get(alfa.admin.token, '/api/dashboard/ticketsDay?initialDate=2024-03-09&finalDate=2024-03-12');
      expect(res.body.data).toEqual([
        { data: '2024-03-09', total: 0 },
        { data: '2024-03-10', total: 4 },
        { data: '2024-03-11', total: 2 },
        { data: '2024-03-12', total: 1 },
      ]);
    } finally {
      await server.call('PUT', '/api/settings/timezone', { token: alfa.admin.token, body: { value: 'America/Sao_Paulo' } });
    }
  });

  it('an hour bar is the company clock: a conversation begun at 23:04Z is at 20h in America/Sao_Paulo, at 08h of the next day in Asia/Tokyo', async () => {
    await insertAttendance(alfa.companyId, { createdAt: '2024-05-20T23:04:00.000Z', finishedAt: '2024-05-20T23:30:00.000Z' });
    const hourOf = async (day: string) => {
      const res = await get(alfa.admin.token, `/api/dashboard/ticketsDay?initialDate=${day}&finalDate=${day}`);
      expect(res.status).toBe(200);
      return (res.body.data as { horario: string; total: number }[]).filter((bar) => bar.total > 0).map((bar) => bar.horario);
    };
    expect(await hourOf('2024-05-20')).toEqual(['20']);
    await server.call('PUT', '/api/settings/timezone', { token: alfa.admin.token, body: { value: 'Asia/Tokyo' } });
    try {
      expect(await hourOf('2024-05-20')).toEqual([]);
      expect(await hourOf('2024-05-21')).toEqual(['08']);
    } finally {
      await server.call('PUT', '/api/settings/timezone', { token: alfa.admin.token, body: { value: 'America/Sao_Paulo' } });
    }
  });

  it("missing or invalid dates: 400 'Obrigatório'; a reversed or too long range: 400", async () => {
    for (const path of ['/api/dashboard/ticketsDay', '/api/dashboard/ticketsUsers']) {
      const missing = await get(alfa.admin.token, `${path}?initialDate=2024-03-10`);
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'finalDate: Obrigatório' });
      const empty = await get(alfa.admin.token, `${path}?initialDate=&finalDate=2024-03-10`);
      expect(empty.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'initialDate: Obrigatório' });
      for (const query of ['initialDate=2024-13-01&finalDate=2024-03-10', 'initialDate=2024-03-11&finalDate=2024-03-10', 'initialDate=2023-01-01&finalDate=2024-03-10']) {
        const res = await get(alfa.admin.token, `${path}?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error).toBe('ERR_VALIDATION');
      }
    }
  });
});

describe('permissions', () => {
  it('an agent gets 403, nobody signed in 401', async () => {
    const paths = ['/api/dashboard?days=7', '/api/dashboard/ticketsUsers?initialDate=2024-03-10&finalDate=2024-03-11', '/api/dashboard/ticketsDay?initialDate=2024-03-10&finalDate=2024-03-11'];
    for (const path of paths) {
      const forbidden = await get(ana.token, path);
      expect(forbidden.status, path).toBe(403);
      expect(forbidden.body.error).toBe('ERR_NO_PERMISSION');
      expect((await server.call('GET', path)).status, path).toBe(401);
    }
  });
});

describe('through the real flow', () => {
  it('a customer writes, an agent accepts and resolves: one finished attendance, by that agent', async () => {
    const flow = await createTenant(server, 'Fluxo Real');
    const queue = await createQueue(server, flow, 'Vendas');
    const agent = await createMember(server, flow, 'agente', { queueIds: [queue] });
    const connection = await createConnection(server, flow, 'Principal', { queueIds: [queue] });
    await customerWrites(server, flow, connection, { from: '5511988887777', name: 'Maria', body: 'Olá' });
    const ticket = await eventually(() => db()('tickets').where({ companyId: flow.companyId, queueId: queue }).first(), 5000, 'the queued ticket');

    for (const status of ['open', 'closed']) {
      const res = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: agent.token, body: { status } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    const res = await get(flow.admin.token, '/api/dashboard?days=1');
    expect(res.status).toBe(200);
    expect(res.body.counters).toMatchObject({ supportHappening: 0, supportPending: 0, supportFinished: 1, leads: 1 });
    expect(res.body.attendants.find((a: { id: number }) => a.id === agent.id)).toMatchObject({ name: 'agente', tickets: 1, rating: null, ratings: 0 });
  });
});

describe('stored durations', () => {
  type Durations = { waitMinutes: number | null; supportMinutes: number | null };
  const durations = async (id: number): Promise<Durations> => {
    const row = (await db()('ticketTracking').where({ id }).first('waitMinutes', 'supportMinutes')) as Durations;
    return { waitMinutes: row.waitMinutes === null ? null : Number(row.waitMinutes), supportMinutes: row.supportMinutes === null ? null : Number(row.supportMinutes) };
  };
  const minutes = (from: unknown, to: unknown) => (new Date(to as string).getTime() - new Date(from as string).getTime()) / MINUTE;
  /** SQLite's julianday() is exact to about a millisecond: minutes are compared to 4 decimals. */
  const expectDurations = async (id: number, expected: Durations) => {
    const stored = await durations(id);
    for (const key of ['waitMinutes', 'supportMinutes'] as const) {
      if (expected[key] === null) expect(stored[key], key).toBeNull();
      else expect(stored[key], key).toBeCloseTo(expected[key], 4);
    }
  };

  it('each attendance keeps its wait once taken and its support time once ended, whoever writes the row', async () => {
    const company = await createTenant(server, 'Duracoes');
    const C = company.companyId;
    const ticketId = await insertTicket(C, 'pending');
    const [row] = await db()('ticketTracking').insert({ companyId: C, ticketId, queuedAt: '2024-05-01T10:00:00Z', rated: false, createdAt: '2024-05-01T10:00:00Z', updatedAt: '2024-05-01T10:00:00Z' }).returning('id');
    const id = row.id as number;
    await expectDurations(id, { waitMinutes: null, supportMinutes: null });

    await db()('ticketTracking').where({ id }).update({ startedAt: '2024-05-01T10:12:00Z' });
    await expectDurations(id, { waitMinutes: 12, supportMinutes: null });

    // The rating question ends the support time; the attendance ends with the answer.
    await db()('ticketTracking').where({ id }).update({ ratingAt: '2024-05-01T10:42:00Z' });
    expect((await durations(id)).supportMinutes).toBeNull();
    await db()('ticketTracking').where({ id }).update({ finishedAt: '2024-05-01T11:00:00Z', rate: 3 });
    await expectDurations(id, { waitMinutes: 12, supportMinutes: 30 });

    // Back to waiting: no wait measured until taken again.
    await db()('ticketTracking').where({ id }).update({ startedAt: null, ratingAt: null, finishedAt: null });
    await expectDurations(id, { waitMinutes: null, supportMinutes: null });
  });

  it('through the real flow: accepting stores the wait, resolving the support time', async () => {
    const flow = await createTenant(server, 'Duracao Real');
    const queue = await createQueue(server, flow, 'Vendas');
    const agent = await createMember(server, flow, 'agente', { queueIds: [queue] });
    const connection = await createConnection(server, flow, 'Principal', { queueIds: [queue] });
    await customerWrites(server, flow, connection, { from: '5511977776666', name: 'Rita', body: 'Oi' });
    const ticket = await eventually(() => db()('tickets').where({ companyId: flow.companyId, queueId: queue }).first(), 5000, 'the queued ticket');
    for (const status of ['open', 'closed']) {
      const res = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: agent.token, body: { status } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const tracked = await db()('ticketTracking').where({ ticketId: ticket.id }).first();
    await expectDurations(tracked.id, { waitMinutes: minutes(tracked.queuedAt, tracked.startedAt), supportMinutes: minutes(tracked.startedAt, tracked.finishedAt) });
  });

  it('the migration gives the attendances already written their durations; down removes them', async () => {
    const company = await createTenant(server, 'Duracao Migracao');
    const config = { migrationSource: createMigrationSource(await pluginMigrationDirs(server.config)), tableName: 'knex_migrations', name: '20261127060100_core_tracking_durations' };
    await db().migrate.down(config);
    try {
      expect(await db().schema.hasColumn('ticket_tracking', 'wait_minutes')).toBe(false);
      await insertAttendance(company.companyId, { userId: null, createdAt: '2024-06-01T09:00:00Z', queuedAt: '2024-06-01T09:00:00Z', startedAt: '2024-06-01T09:05:00Z', finishedAt: '2024-06-01T09:50:00Z' });
    } finally {
      await db().migrate.up(config);
    }
    const row = await db()('ticketTracking').where({ companyId: company.companyId }).first('id');
    await expectDurations(row.id, { waitMinutes: 5, supportMinutes: 45 });
  });
});

describe('online', () => {
  it('online means a live socket: REST calls alone leave a user offline, a socket makes them online until it closes', async () => {
    const company = await createTenant(server, 'Presenca');
    const agent = await createMember(server, company, 'agente');
    const online = async () => {
      const res = await get(company.admin.token, '/api/dashboard?days=1');
      return res.body.attendants.find((a: { id: number }) => a.id === agent.id)?.online;
    };
    for (const path of ['/api/auth/me', '/api/tickets', `/api/users/${agent.id}`]) {
      expect((await get(agent.token, path)).status, path).toBe(200);
    }
    expect(await online()).toBe(false);

    const socket = await openSocket(server.url, agent.token);
    await expect.poll(online).toBe(true);
    await socket.close();
    await expect.poll(online).toBe(false);
  });
});
