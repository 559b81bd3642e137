import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor } from '../helpers/socket.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { Queue } from '../../core/modules/queues/queue.model.js';
import { DEFAULT_SCHEDULES } from '../../core/modules/companies/companies.schema.js';

let server: TestServer;
const PASSWORD = 'secret-123';

interface Tenant {
  companyId: number;
  adminToken: string;
  userToken: string;
  userId: number;
  /** The queue every company starts with. */
  firstQueueId: number;
}

let plans = 0;
/** A company with its own plan, its admin and one agent signed in. */
async function tenant(name: string, queues = 50): Promise<Tenant> {
  const { db, services } = server.atende.container;
  plans += 1;
  const plan = await Plan.query(db).insert({ name: `Queues plan ${plans}`, users: 10, connections: 5, queues, value: 0 });
  const slug = name.toLowerCase().replace(/\W/g, '');
  const adminEmail = `admin@${slug}.test`;
  const { company } = await services.companies.createTenant({ name, email: adminEmail, password: PASSWORD, planId: plan.id });
  const adminToken = (await server.login(adminEmail, PASSWORD)).token;
  const agent = await server.call('POST', '/api/users', {
    token: adminToken,
    body: { name: 'Agent', email: `agent@${slug}.test`, password: PASSWORD, profile: 'user' },
  });
  const userToken = (await server.login(`agent@${slug}.test`, PASSWORD)).token;
  const first = await Queue.query(db).where('companyId', company.id).first();
  return { companyId: company.id, adminToken, userToken, userId: agent.body.id, firstQueueId: first!.id };
}

let colors = 0;
/** A colour nobody used yet in these tests. */
const freshColor = () => `#${(0x100000 + (colors += 1)).toString(16)}`;

async function createQueue(t: Tenant, fields: Record<string, unknown> = {}) {
  const res = await server.call('POST', '/api/queue', { token: t.adminToken, body: { name: 'Queue', color: freshColor(), ...fields } });
  if (res.status !== 201) throw new Error(`create queue: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; name: string; color: string };
}

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant('Alpha Filas');
  b = await tenant('Beta Filas');
});
afterAll(async () => {
  await server?.close();
});

describe('POST /api/queue', () => {
  it('an admin creates a queue with the spec’s working hours by default', async () => {
    const res = await server.call('POST', '/api/queue', {
      token: a.adminToken,
      body: { name: ' Vendas ', color: '#2196f3', greetingMessage: 'Olá!', orderQueue: 2, extra: 'dropped' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      companyId: a.companyId,
      name: 'Vendas',
      color: '#2196f3',
      greetingMessage: 'Olá!',
      outOfHoursMessage: '',
      orderQueue: 2,
      promptId: null,
      integrationId: null,
      schedules: DEFAULT_SCHEDULES,
    });
    expect(res.body).not.toHaveProperty('extra');
    expect(res.body.schedules).toHaveLength(7);
    expect(res.body.schedules.find((s: { weekdayEn: string }) => s.weekdayEn === 'saturday')).toMatchObject({ startTime: '08:00', endTime: '12:00' });
    expect(res.body.schedules.find((s: { weekdayEn: string }) => s.weekdayEn === 'sunday')).toMatchObject({ startTime: '00:00', endTime: '00:00' });
  });

  it('keeps the schedules and out-of-hours message it is given', async () => {
    const schedules = DEFAULT_SCHEDULES.map((s) => ({ ...s, startTime: '09:00', endTime: '17:30' }));
    const queue = await createQueue(a, { name: 'Suporte', outOfHoursMessage: 'Voltamos às 9h.', schedules });
    const read = await server.call('GET', `/api/queue/${queue.id}`, { token: a.adminToken });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ outOfHoursMessage: 'Voltamos às 9h.', schedules });
  });

  it.each([
    [{ color: '#101010' }, 'name: Required'],
    [{ name: 'A', color: '#101010' }, 'name: Too Short!'],
    [{ name: 'x'.repeat(51), color: '#101010' }, 'name: Too Long!'],
    [{ name: 'Sem cor' }, 'color: Required'],
    [{ name: 'Cor curta', color: '#1' }, 'color: Too Short!'],
    [{ name: 'Cor longa', color: '#1234567890' }, 'color: Too Long!'],
    [{ name: 'Ordem', color: '#101010', orderQueue: -1 }, 'orderQueue: Must be 0 or more'],
    [{ name: 'Ordem', color: '#101010', orderQueue: 1.5 }, 'orderQueue: Must be a whole number'],
    [{ name: 'Horário', color: '#101010', schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '25:00', endTime: '18:00' }] }, 'schedules.0.startTime: must be a time HH:MM between 00:00 and 23:59'],
    [{ name: 'Prompt', color: '#101010', promptId: 'x' }, 'promptId: Must be a number'],
    [{ name: 'Integração', color: '#101010', integrationId: 0 }, 'integrationId: Must be a positive id'],
  ])('validates the queue: %j → "%s"', async (body, message) => {
    const res = await server.call('POST', '/api/queue', { token: a.adminToken, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
  });

  it('accepts null prompt and integration, and an empty order as no order', async () => {
    const queue = await createQueue(a, { name: 'Sem ordem', promptId: null, integrationId: null, orderQueue: '' });
    expect(queue).toMatchObject({ promptId: null, integrationId: null, orderQueue: null });
  });

  it('a colour already used in the company, in any case, is 409 ERR_QUEUE_COLOR_ALREADY_EXISTS', async () => {
    await createQueue(a, { name: 'Laranja', color: '#FF9800' });
    const res = await server.call('POST', '/api/queue', { token: a.adminToken, body: { name: 'Outra', color: '#ff9800' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  });

  it('another company may use the same colour', async () => {
    await createQueue(a, { name: 'Verde', color: '#4caf50' });
    const queue = await createQueue(b, { name: 'Verde', color: '#4caf50' });
    expect(queue.color).toBe('#4caf50');
  });

  it('a queue beyond the plan’s limit is 403 ERR_PLAN_LIMIT_QUEUES', async () => {
    const small = await tenant('Gamma Filas', 2);
    await createQueue(small, { name: 'Segunda' });
    const res = await server.call('POST', '/api/queue', { token: small.adminToken, body: { name: 'Terceira', color: freshColor() } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_LIMIT_QUEUES');
    expect(await Queue.query(server.atende.container.db).where('companyId', small.companyId).resultSize()).toBe(2);
  });

  it('a user who is not admin gets 403 ERR_NO_PERMISSION', async () => {
    const res = await server.call('POST', '/api/queue', { token: a.userToken, body: { name: 'Nope', color: freshColor() } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('without a token it is 401', async () => {
    const res = await server.call('POST', '/api/queue', { body: { name: 'Nope', color: freshColor() } });
    expect(res.status).toBe(401);
  });
});

describe('GET /api/queue', () => {
  it('every user of the company reads its queues: ordered ones by order, then the rest, by name', async () => {
    const c = await tenant('Delta Filas');
    await createQueue(c, { name: 'Zeta', orderQueue: 1 });
    await createQueue(c, { name: 'Beta', orderQueue: 2 });
    await createQueue(c, { name: 'Alfa', orderQueue: 2 });
    await createQueue(c, { name: 'Ômega' });
    await createQueue(c, { name: 'Caixa', orderQueue: 0 });
    const res = await server.call('GET', '/api/queue', { token: c.userToken });
    expect(res.status).toBe(200);
    expect(res.body.map((q: { name: string }) => q.name)).toEqual(['Caixa', 'Zeta', 'Alfa', 'Beta', 'Atendimento', 'Ômega']);
    expect(res.body[0].schedules).toHaveLength(7);
  });

  it('never lists another company’s queues', async () => {
    const res = await server.call('GET', '/api/queue', { token: b.adminToken });
    expect(res.body.every((q: { companyId: number }) => q.companyId === b.companyId)).toBe(true);
  });

  it('a super user may read another company’s queues; an admin may not', async () => {
    const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const asSuper = await server.call('GET', `/api/queue?companyId=${a.companyId}`, { token: superToken });
    expect(asSuper.status).toBe(200);
    expect(asSuper.body.length).toBeGreaterThan(0);
    expect(asSuper.body.every((q: { companyId: number }) => q.companyId === a.companyId)).toBe(true);
    const asAdmin = await server.call('GET', `/api/queue?companyId=${a.companyId}`, { token: b.adminToken });
    expect(asAdmin.status).toBe(403);
  });

  it('another company’s queue (or no number) is 404 ERR_NO_QUEUE_FOUND', async () => {
    for (const path of [`/api/queue/${b.firstQueueId}`, '/api/queue/999999', '/api/queue/abc']) {
      const res = await server.call('GET', path, { token: a.adminToken });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_QUEUE_FOUND');
      expect(JSON.stringify(res.body)).not.toContain('Beta');
    }
  });
});

describe('PUT /api/queue/:id', () => {
  it('an admin changes any subset of the fields', async () => {
    const queue = await createQueue(a, { name: 'Antes', greetingMessage: 'Oi' });
    const schedules = DEFAULT_SCHEDULES.map((s) => (s.weekdayEn === 'sunday' ? { ...s, startTime: '10:00', endTime: '14:00' } : s));
    const res = await server.call('PUT', `/api/queue/${queue.id}`, {
      token: a.adminToken,
      body: { name: 'Depois', orderQueue: null, outOfHoursMessage: 'Fechado', schedules },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: queue.id, name: 'Depois', color: queue.color, greetingMessage: 'Oi', outOfHoursMessage: 'Fechado', orderQueue: null, schedules });
  });

  it('keeping its own colour is fine; taking another queue’s colour is 409', async () => {
    const one = await createQueue(a, { name: 'Um' });
    const two = await createQueue(a, { name: 'Dois' });
    const same = await server.call('PUT', `/api/queue/${one.id}`, { token: a.adminToken, body: { color: one.color.toUpperCase() } });
    expect(same.status).toBe(200);
    const taken = await server.call('PUT', `/api/queue/${two.id}`, { token: a.adminToken, body: { color: one.color } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  });

  it('validates like create', async () => {
    const res = await server.call('PUT', `/api/queue/${a.firstQueueId}`, { token: a.adminToken, body: { name: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('name: Too Short!');
  });

  it('another company’s queue is 404 and stays as it was', async () => {
    const res = await server.call('PUT', `/api/queue/${b.firstQueueId}`, { token: a.adminToken, body: { name: 'Roubada' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_QUEUE_FOUND');
    expect((await Queue.query(server.atende.container.db).findById(b.firstQueueId))!.name).toBe('Atendimento');
  });

  it('a user who is not admin gets 403', async () => {
    const res = await server.call('PUT', `/api/queue/${a.firstQueueId}`, { token: a.userToken, body: { name: 'Nope' } });
    expect(res.status).toBe(403);
  });
});

describe('DELETE /api/queue/:id', () => {
  it('detaches the queue from users, connections and tickets, and takes its options', async () => {
    const db = server.atende.container.db;
    const queue = await createQueue(a, { name: 'Temporária' });
    const other = await createQueue(a, { name: 'Fica' });
    const now = new Date().toISOString();
    await server.call('PUT', `/api/users/${a.userId}`, { token: a.adminToken, body: { queueIds: [queue.id, other.id] } });
    const [whatsapp] = await db('whatsapps')
      .insert({ companyId: a.companyId, name: 'Loja', transferQueueId: queue.id, createdAt: now, updatedAt: now })
      .returning('id');
    const whatsappId = (whatsapp as { id: number }).id;
    await db('whatsappQueues').insert([{ whatsappId, queueId: queue.id }, { whatsappId, queueId: other.id }]);
    const [contact] = await db('contacts').insert({ companyId: a.companyId, uuid: randomUUID(), name: 'Cliente', number: '5511999990001', createdAt: now, updatedAt: now }).returning('id');
    const [ticket] = await db('tickets')
      .insert({ companyId: a.companyId, uuid: randomUUID(), contactId: (contact as { id: number }).id, whatsappId, queueId: queue.id, createdAt: now, updatedAt: now })
      .returning('id');
    const option = await server.call('POST', '/api/queue-options', { token: a.adminToken, body: { queueId: queue.id, title: 'Menu', option: '1' } });
    expect(option.status).toBe(201);

    const res = await server.call('DELETE', `/api/queue/${queue.id}`, { token: a.adminToken });
    expect(res.status).toBe(204);
    expect(await Queue.query(db).findById(queue.id)).toBeUndefined();
    expect(await db('userQueues').where('userId', a.userId).select('queueId')).toEqual([{ queueId: other.id }]);
    expect(await db('whatsappQueues').where('whatsappId', whatsappId).select('queueId')).toEqual([{ queueId: other.id }]);
    expect((await db('whatsapps').where('id', whatsappId).first()).transferQueueId).toBeNull();
    expect((await db('tickets').where('id', (ticket as { id: number }).id).first()).queueId).toBeNull();
    expect(await db('queueOptions').where('queueId', queue.id)).toEqual([]);
  });

  it('another company’s queue is 404 and is kept', async () => {
    const res = await server.call('DELETE', `/api/queue/${b.firstQueueId}`, { token: a.adminToken });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_QUEUE_FOUND');
    expect(await Queue.query(server.atende.container.db).findById(b.firstQueueId)).toBeDefined();
  });

  it('a user who is not admin gets 403', async () => {
    const res = await server.call('DELETE', `/api/queue/${a.firstQueueId}`, { token: a.userToken });
    expect(res.status).toBe(403);
  });
});

describe('live frames', () => {
  it('the company hears company-{id}-queue create, update and delete; another company hears nothing', async () => {
    const mine = await openSocket(server.url, a.userToken);
    const theirs = await openSocket(server.url, b.adminToken);
    try {
      const channel = `company-${a.companyId}-queue`;
      const queue = await createQueue(a, { name: 'Ao vivo' });
      const created = await mine.next((f) => f.channel === channel && (f.data as { action: string }).action === 'create');
      expect(created.data).toMatchObject({ action: 'create', queue: { id: queue.id, name: 'Ao vivo', schedules: DEFAULT_SCHEDULES } });

      await server.call('PUT', `/api/queue/${queue.id}`, { token: a.adminToken, body: { name: 'Ao vivo 2' } });
      const updated = await mine.next((f) => f.channel === channel && (f.data as { action: string }).action === 'update');
      expect(updated.data).toMatchObject({ action: 'update', queue: { id: queue.id, name: 'Ao vivo 2' } });

      await server.call('DELETE', `/api/queue/${queue.id}`, { token: a.adminToken });
      const deleted = await mine.next((f) => f.channel === channel && (f.data as { action: string }).action === 'delete');
      expect(deleted.data).toEqual({ action: 'delete', queueId: queue.id });

      await quietFor();
      expect(theirs.frames.filter((f) => String(f.channel).endsWith('-queue'))).toEqual([]);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});
