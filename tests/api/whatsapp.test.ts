import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor } from '../helpers/socket.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { Queue } from '../../core/modules/queues/queue.model.js';
import { Whatsapp } from '../../core/modules/whatsapp/whatsapp.model.js';

let server: TestServer;
const PASSWORD = 'secret-123';

interface Tenant {
  companyId: number;
  adminToken: string;
  userToken: string;
  queueId: number;
}

let tenants = 0;
/** A company with its own plan, its admin and one agent signed in, and its first queue. */
async function tenant(name: string, limits: { connections?: number } = {}): Promise<Tenant> {
  const { db, services } = server.atende.container;
  tenants += 1;
  const plan = await Plan.query(db).insert({ name: `Plan ${tenants} ${name}`, users: 10, connections: limits.connections ?? 10, queues: 10, value: 0 });
  const slug = name.toLowerCase().replace(/\W/g, '');
  const { company } = await services.companies.createTenant({ name, email: `admin@${slug}.test`, password: PASSWORD, planId: plan.id });
  const queue = await Queue.query(db).where('companyId', company.id).first();
  const adminToken = (await server.login(`admin@${slug}.test`, PASSWORD)).token;
  const agent = await server.call('POST', '/api/users', {
    token: adminToken,
    body: { name: 'Agent', email: `agent@${slug}.test`, password: PASSWORD, profile: 'user' },
  });
  if (agent.status !== 201) throw new Error(`agent: ${agent.status}`);
  const userToken = (await server.login(`agent@${slug}.test`, PASSWORD)).token;
  return { companyId: company.id, adminToken, userToken, queueId: queue!.id };
}

function addQueue(companyId: number, name: string, color: string) {
  return Queue.query(server.atende.container.db).insert({ companyId, name, color, schedules: [] });
}

/** Creates a simulator connection as the tenant's admin (the simulator keeps tests off the network). */
async function createConnection(t: Tenant, fields: Record<string, unknown> = {}) {
  const res = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body: { provider: 'simulator', ...fields } });
  if (res.status !== 201) throw new Error(`create connection: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; name: string; isDefault: boolean; token: string };
}

async function defaults(companyId: number): Promise<string[]> {
  const rows = await Whatsapp.query(server.atende.container.db).where({ companyId, isDefault: true }).orderBy('name');
  return rows.map((w) => w.name);
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
});
afterAll(async () => {
  await server?.close();
});

describe('POST /api/whatsapp', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant('Create Co');
  });

  it("creates a connection with the spec's defaults, a generated token and a starting session; the first is the default", async () => {
    const res = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name: ' Main ', provider: 'simulator' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      companyId: t.companyId,
      name: 'Main',
      provider: 'simulator',
      status: 'OPENING',
      qrcode: '',
      retries: 0,
      number: '',
      // The node that created it runs its session.
      node: server.config.nodeId,
      isDefault: true,
      greetingMessage: '',
      complationMessage: '',
      outOfHoursMessage: '',
      ratingMessage: '',
      expiresInactiveMessage: '',
      expiresTicket: 0,
      timeUseBotQueues: 0,
      maxUseBotQueues: 3,
      timeToTransfer: null,
      transferQueueId: null,
      promptId: null,
      integrationId: null,
      token: expect.stringMatching(/^[\w-]{43}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      queues: [],
    });
  });

  it("the provider defaults to baileys and 'beta' (the old product's name) is stored as baileys", async () => {
    const plain = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name: 'Real phone' } });
    const beta = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name: 'Beta phone', provider: 'beta' } });
    expect(plain.body.provider).toBe('baileys');
    expect(beta.body.provider).toBe('baileys');
    for (const id of [plain.body.id, beta.body.id]) expect((await server.call('DELETE', `/api/whatsapp/${id}`, { token: t.adminToken })).status).toBe(204);
  });

  it('drops fields nobody may set: status, token, company, session', async () => {
    const other = await tenant('Other Create Co');
    const res = await server.call('POST', '/api/whatsapp', {
      token: t.adminToken,
      body: { name: 'Sneaky', provider: 'simulator', status: 'CONNECTED', token: 'mine', companyId: other.companyId, session: 'x', number: '5511999999999' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ companyId: t.companyId, status: 'OPENING', number: '' });
    expect(res.body.token).not.toBe('mine');
  });

  it('takes numbers as form text, an emptied optional number as null', async () => {
    const res = await server.call('POST', '/api/whatsapp', {
      token: t.adminToken,
      body: { name: 'Form', provider: 'simulator', expiresTicket: '12', maxUseBotQueues: 5, timeToTransfer: '', transferQueueId: '' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ expiresTicket: 12, maxUseBotQueues: 5, timeToTransfer: null, transferQueueId: null });
  });

  it.each([
    [{}, 'name: Required'],
    [{ name: 'A' }, 'name: Too Short!'],
    [{ name: 'x'.repeat(51) }, 'name: Too Long!'],
    [{ name: 'Bad provider', provider: 'wwebjs' }, 'provider: Must be baileys or simulator'],
    [{ name: 'Bad number', expiresTicket: 'soon' }, 'expiresTicket: Must be a number'],
    [{ name: 'Negative', maxUseBotQueues: -1 }, 'maxUseBotQueues: Must not be negative'],
  ])('rejects %j: 400 %s', async (body, message) => {
    const res = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
  });

  it('a name is unique within the company (409), not across companies', async () => {
    const taken = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name: 'Main', provider: 'simulator' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('ERR_WAPP_NAME_EXISTS');
    const elsewhere = await tenant('Same Name Co');
    expect((await createConnection(elsewhere, { name: 'Main' })).name).toBe('Main');
  });

  it('requires a greeting when the connection has more than one queue', async () => {
    const second = await addQueue(t.companyId, 'Second', '#111111');
    const without = await server.call('POST', '/api/whatsapp', {
      token: t.adminToken,
      body: { name: 'Two queues', provider: 'simulator', queueIds: [t.queueId, second.id], greetingMessage: '  ' },
    });
    expect(without.status).toBe(400);
    expect(without.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const withGreeting = await createConnection(t, { name: 'Two queues', queueIds: [t.queueId, second.id], greetingMessage: 'Hello' });
    expect((withGreeting as unknown as { queues: { name: string }[] }).queues.map((q) => q.name)).toEqual(['Atendimento', 'Second']);
    const one = await createConnection(t, { name: 'One queue', queueIds: [t.queueId] });
    expect(one).toMatchObject({ queues: [{ id: t.queueId, name: 'Atendimento', color: expect.any(String) }] });
  });

  it("queues and the transfer queue of another company answer 404 ERR_NO_QUEUE_FOUND", async () => {
    const other = await tenant('Queue Owner Co');
    for (const body of [{ queueIds: [other.queueId] }, { transferQueueId: other.queueId }]) {
      const res = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name: 'Foreign', provider: 'simulator', ...body } });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_QUEUE_FOUND');
    }
    const own = await createConnection(t, { name: 'Transfer', transferQueueId: t.queueId, timeToTransfer: 15 });
    expect(own).toMatchObject({ transferQueueId: t.queueId, timeToTransfer: 15 });
  });

  it("beyond the plan's connections: 403 ERR_PLAN_LIMIT_CONNECTIONS", async () => {
    const small = await tenant('Small Plan Co', { connections: 1 });
    await createConnection(small, { name: 'Only' });
    const res = await server.call('POST', '/api/whatsapp', { token: small.adminToken, body: { name: 'Second', provider: 'simulator' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_LIMIT_CONNECTIONS');
    expect(await Whatsapp.query(server.atende.container.db).where('companyId', small.companyId).resultSize()).toBe(1);
  });

  it('every connection gets its own token', async () => {
    const rows = await Whatsapp.query(server.atende.container.db).where('companyId', t.companyId);
    const tokens = rows.map((w) => w.token);
    expect(tokens.every((token) => typeof token === 'string' && token.length === 43)).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});

describe('the default connection', () => {
  let t: Tenant;
  let first: { id: number };
  let second: { id: number };
  beforeAll(async () => {
    t = await tenant('Default Co');
    first = await createConnection(t, { name: 'First', isDefault: false });
    second = await createConnection(t, { name: 'Second' });
  });

  it('the first connection is the default even when asked otherwise; later ones are not', async () => {
    expect(await defaults(t.companyId)).toEqual(['First']);
  });

  it('creating a connection as default moves the flag, live for the demoted one too', async () => {
    const socket = await openSocket(server.url, t.userToken);
    try {
      const third = await createConnection(t, { name: 'Third', isDefault: true });
      expect(await defaults(t.companyId)).toEqual(['Third']);
      await socket.next((f) => f.channel === `company-${t.companyId}-whatsapp` && (f.data as any).whatsapp?.id === first.id && (f.data as any).whatsapp.isDefault === false); // eslint-disable-line @typescript-eslint/no-explicit-any
      await socket.next((f) => f.channel === `company-${t.companyId}-whatsapp` && (f.data as any).whatsapp?.id === third.id && (f.data as any).whatsapp.isDefault === true); // eslint-disable-line @typescript-eslint/no-explicit-any
      await server.call('DELETE', `/api/whatsapp/${third.id}`, { token: t.adminToken }).then((res) => expect(res.status).toBe(400));
      const moved = await server.call('PUT', `/api/whatsapp/${first.id}`, { token: t.adminToken, body: { isDefault: true } });
      expect(moved.status).toBe(200);
      expect(await defaults(t.companyId)).toEqual(['First']);
      expect((await server.call('DELETE', `/api/whatsapp/${third.id}`, { token: t.adminToken })).status).toBe(204);
    } finally {
      await socket.close();
    }
  });

  it('unsetting the only default: 400 ERR_NO_OTHER_WHATSAPP', async () => {
    const res = await server.call('PUT', `/api/whatsapp/${first.id}`, { token: t.adminToken, body: { isDefault: false } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_NO_OTHER_WHATSAPP');
    expect(await defaults(t.companyId)).toEqual(['First']);
  });

  it('setting isDefault on another connection moves it', async () => {
    const res = await server.call('PUT', `/api/whatsapp/${second.id}`, { token: t.adminToken, body: { isDefault: true } });
    expect(res.body.isDefault).toBe(true);
    expect(await defaults(t.companyId)).toEqual(['Second']);
  });

  it('the default cannot be deleted while others exist; the last connection can', async () => {
    const refused = await server.call('DELETE', `/api/whatsapp/${second.id}`, { token: t.adminToken });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_NO_OTHER_WHATSAPP');
    expect((await server.call('DELETE', `/api/whatsapp/${first.id}`, { token: t.adminToken })).status).toBe(204);
    expect((await server.call('DELETE', `/api/whatsapp/${second.id}`, { token: t.adminToken })).status).toBe(204);
    expect(await server.call('GET', '/api/whatsapp', { token: t.adminToken }).then((r) => r.body)).toEqual([]);
  });
});

describe('PUT /api/whatsapp/:id', () => {
  let t: Tenant;
  let conn: { id: number };
  beforeAll(async () => {
    t = await tenant('Update Co');
    conn = await createConnection(t, { name: 'Editable' });
  });

  it('changes the given fields and keeps the others', async () => {
    const res = await server.call('PUT', `/api/whatsapp/${conn.id}`, {
      token: t.adminToken,
      body: { name: 'Edited', complationMessage: 'Bye', expiresTicket: 24, queueIds: [t.queueId] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Edited',
      complationMessage: 'Bye',
      expiresTicket: 24,
      maxUseBotQueues: 3,
      isDefault: true,
      queues: [{ id: t.queueId }],
      token: expect.any(String),
    });
  });

  it('a second queue needs a greeting, given now or already stored', async () => {
    const second = await addQueue(t.companyId, 'Vendas', '#222222');
    const refused = await server.call('PUT', `/api/whatsapp/${conn.id}`, { token: t.adminToken, body: { queueIds: [t.queueId, second.id] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const ok = await server.call('PUT', `/api/whatsapp/${conn.id}`, {
      token: t.adminToken,
      body: { queueIds: [t.queueId, second.id], greetingMessage: 'Hi' },
    });
    expect(ok.status).toBe(200);
    const cleared = await server.call('PUT', `/api/whatsapp/${conn.id}`, { token: t.adminToken, body: { greetingMessage: '' } });
    expect(cleared.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
  });

  it('renaming to a taken name: 409; validation as on create', async () => {
    await createConnection(t, { name: 'Taken' });
    const taken = await server.call('PUT', `/api/whatsapp/${conn.id}`, { token: t.adminToken, body: { name: 'Taken' } });
    expect(taken.status).toBe(409);
    const short = await server.call('PUT', `/api/whatsapp/${conn.id}`, { token: t.adminToken, body: { name: 'x' } });
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'name: Too Short!' });
  });

  it('sends the update live to the company, without the token', async () => {
    const socket = await openSocket(server.url, t.adminToken);
    try {
      await server.call('PUT', `/api/whatsapp/${conn.id}`, { token: t.adminToken, body: { ratingMessage: 'Rate us' } });
      const frame = await socket.next((f) => f.channel === `company-${t.companyId}-whatsapp`);
      expect(frame.data).toMatchObject({ action: 'update', whatsapp: { id: conn.id, ratingMessage: 'Rate us' } });
      expect((frame.data as { whatsapp: object }).whatsapp).not.toHaveProperty('token');
    } finally {
      await socket.close();
    }
  });
});

describe('reading connections', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant('Read Co');
    for (const name of ['Zeta', 'Ágata', 'beta']) await createConnection(t, { name, queueIds: [t.queueId] });
  });

  it('GET /api/whatsapp lists the company’s connections by name with their queues (?session=0 changes nothing)', async () => {
    const res = await server.call('GET', '/api/whatsapp?session=0', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.map((w: { name: string }) => w.name)).toEqual(['Ágata', 'beta', 'Zeta']);
    expect(res.body[0]).toMatchObject({ queues: [{ id: t.queueId, name: 'Atendimento', color: expect.any(String) }], token: expect.any(String) });
  });

  it('any user of the company reads them, without the token', async () => {
    const list = await server.call('GET', '/api/whatsapp', { token: t.userToken });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
    for (const w of list.body) expect(w).not.toHaveProperty('token');
    const one = await server.call('GET', `/api/whatsapp/${list.body[0].id}`, { token: t.userToken });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: list.body[0].id, qrcode: expect.any(String) });
    expect(one.body).not.toHaveProperty('token');
  });

  it('an agent may not change connections or sessions: 403', async () => {
    const [w] = (await server.call('GET', '/api/whatsapp', { token: t.userToken })).body;
    for (const [method, route] of [
      ['POST', '/api/whatsapp'],
      ['PUT', `/api/whatsapp/${w.id}`],
      ['DELETE', `/api/whatsapp/${w.id}`],
      ['POST', `/api/whatsapp/${w.id}/token`],
      ['POST', `/api/whatsappsession/${w.id}`],
      ['PUT', `/api/whatsappsession/${w.id}`],
      ['DELETE', `/api/whatsappsession/${w.id}`],
    ] as const) {
      const res = await server.call(method, route, { token: t.userToken, body: { name: 'Nope', provider: 'simulator' } });
      expect(res.status, `${method} ${route}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
  });

  it('without a token: 401', async () => {
    expect((await server.call('GET', '/api/whatsapp')).status).toBe(401);
  });
});

describe('tenancy', () => {
  it("another company's connection, or an id that names nothing, answers 404 ERR_NO_WAPP_FOUND", async () => {
    const owner = await tenant('Owner Co');
    const outsider = await tenant('Outsider Co');
    const conn = await createConnection(owner, { name: 'Private' });
    for (const [method, route] of [
      ['GET', `/api/whatsapp/${conn.id}`],
      ['PUT', `/api/whatsapp/${conn.id}`],
      ['DELETE', `/api/whatsapp/${conn.id}`],
      ['POST', `/api/whatsapp/${conn.id}/token`],
      ['POST', `/api/whatsappsession/${conn.id}`],
      ['PUT', `/api/whatsappsession/${conn.id}`],
      ['DELETE', `/api/whatsappsession/${conn.id}`],
      ['GET', '/api/whatsapp/999999'],
      ['GET', '/api/whatsapp/abc'],
    ] as const) {
      const res = await server.call(method, route, { token: outsider.adminToken, body: method === 'GET' ? undefined : { name: 'Mine now' } });
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_WAPP_FOUND');
    }
    expect((await server.call('GET', '/api/whatsapp', { token: outsider.adminToken })).body).toEqual([]);
    const row = await Whatsapp.query(server.atende.container.db).findById(conn.id);
    expect(row).toMatchObject({ name: 'Private', token: conn.token });
  });

  it("live connection frames reach only the company's own sockets", async () => {
    const owner = await tenant('Live Owner Co');
    const outsider = await tenant('Live Outsider Co');
    const own = await openSocket(server.url, owner.userToken);
    const other = await openSocket(server.url, outsider.adminToken);
    try {
      const conn = await createConnection(owner, { name: 'Live' });
      const frame = await own.next((f) => f.channel === `company-${owner.companyId}-whatsapp`);
      expect(frame.data).toMatchObject({ action: 'update', whatsapp: { id: conn.id, name: 'Live', isDefault: true } });
      expect((frame.data as { whatsapp: object }).whatsapp).not.toHaveProperty('token');
      await createConnection(owner, { name: 'Second live' });
      const second = (await server.call('GET', '/api/whatsapp', { token: owner.adminToken })).body.find((w: { name: string }) => w.name === 'Second live');
      expect((await server.call('DELETE', `/api/whatsapp/${second.id}`, { token: owner.adminToken })).status).toBe(204);
      await own.next((f) => f.channel === `company-${owner.companyId}-whatsapp` && (f.data as { action: string }).action === 'delete');
      expect(own.frames.find((f) => (f.data as { action?: string }).action === 'delete')?.data).toEqual({ action: 'delete', whatsappId: second.id });
      await quietFor();
      expect(other.frames.filter((f) => String(f.channel).includes('whatsapp'))).toEqual([]);
    } finally {
      await own.close();
      await other.close();
    }
  });
});

describe('POST /api/whatsapp/:id/token', () => {
  it('an admin regenerates the token: a new, unique value replaces the old one', async () => {
    const t = await tenant('Token Co');
    const conn = await createConnection(t, { name: 'Tokened' });
    const res = await server.call('POST', `/api/whatsapp/${conn.id}/token`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[\w-]{43}$/);
    expect(res.body.token).not.toBe(conn.token);
    const row = await Whatsapp.query(server.atende.container.db).findById(conn.id);
    expect(row!.token).toBe(res.body.token);
    expect(await Whatsapp.query(server.atende.container.db).where('token', conn.token).resultSize()).toBe(0);
  });
});
