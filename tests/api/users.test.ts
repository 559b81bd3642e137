import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { Events, type DomainEvent } from '../../core/events/event-bus.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { Queue } from '../../core/modules/queues/queue.model.js';
import { Whatsapp } from '../../core/modules/whatsapp/whatsapp.model.js';
import { User } from '../../core/modules/users/user.model.js';

let server: TestServer;
const PASSWORD = 'secret-123';

interface Tenant {
  companyId: number;
  adminId: number;
  adminEmail: string;
  adminToken: string;
  queueId: number;
}

let lastPlan = 0;
/** A company (with its own plan when limits are given), its admin signed in, and its first queue. */
async function tenant(name: string, limits: { users?: number } = {}): Promise<Tenant> {
  const { db, services } = server.atende.container;
  lastPlan += 1;
  const plan = await Plan.query(db).insert({ name: `Plan ${lastPlan} ${name}`, users: limits.users ?? 50, connections: 5, queues: 10, value: 0 });
  const adminEmail = `admin@${name.toLowerCase().replace(/\W/g, '')}.test`;
  const { company, admin } = await services.companies.createTenant({ name, email: adminEmail, password: PASSWORD, planId: plan.id });
  const queue = await Queue.query(db).where('companyId', company.id).first();
  const { token } = await server.login(adminEmail, PASSWORD);
  return { companyId: company.id, adminId: admin.id, adminEmail, adminToken: token, queueId: queue!.id };
}

/** Creates a user through the API as the tenant's admin. */
async function createUser(t: Tenant, fields: Record<string, unknown>) {
  const res = await server.call('POST', '/api/users', {
    token: t.adminToken,
    body: { password: PASSWORD, profile: 'user', ...fields },
  });
  if (res.status !== 201) throw new Error(`create user: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; email: string; name: string };
}

/** A user of the tenant and that user's token. */
async function agent(t: Tenant, email: string, fields: Record<string, unknown> = {}) {
  const user = await createUser(t, { name: 'Agent', email, ...fields });
  const { token } = await server.login(email, PASSWORD);
  return { ...user, token };
}

function addQueue(companyId: number, name: string, color: string) {
  return Queue.query(server.atende.container.db).insert({ companyId, name, color, schedules: [] });
}

/** A websocket with every frame it received. */
async function openSocket(token: string) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws?token=${token}`);
  const frames: { channel: string; data: any }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  ws.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames, closed };
}

async function until<T>(read: () => T | undefined, ms = 2000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > ms) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Domain events emitted while the server runs. */
const events: DomainEvent[] = [];

let a: Tenant;
let b: Tenant;
let superToken: string;

beforeAll(async () => {
  server = await startTestServer();
  for (const name of [Events.userCreated, Events.userUpdated, Events.userDeleted]) {
    server.atende.container.bus.on(name, (event) => void events.push(event), 'test');
  }
  a = await tenant('Alpha');
  b = await tenant('Beta');
  superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
});
afterAll(async () => {
  await server?.close();
});

describe('POST /api/users', () => {
  it('an admin creates a user of the company: 201 with queues, never the password', async () => {
    const res = await server.call('POST', '/api/users', {
      token: a.adminToken,
      body: { name: ' Carla ', email: 'Carla@Alpha.test', password: PASSWORD, profile: 'supervisor', allTicket: 'enabled', queueIds: [a.queueId] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Carla',
      email: 'carla@alpha.test',
      profile: 'supervisor',
      super: false,
      financial: false,
      companyId: a.companyId,
      allTicket: 'enabled',
      whatsappId: null,
      online: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      queues: [{ id: a.queueId, name: 'Atendimento', color: expect.any(String) }],
      whatsapp: null,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|tokenVersion|refreshTokenId/);
    expect((await server.login('carla@alpha.test', PASSWORD)).body.user).toMatchObject({ queues: [{ id: a.queueId }] });
  });

  it('accepts the spec’s other spelling of allTicket (enable/disable)', async () => {
    const enabled = await createUser(a, { name: 'Alias One', email: 'alias1@alpha.test', allTicket: 'enable' });
    const disabled = await createUser(a, { name: 'Alias Two', email: 'alias2@alpha.test', allTicket: 'disable' });
    expect(enabled).toMatchObject({ allTicket: 'enabled' });
    expect(disabled).toMatchObject({ allTicket: 'disabled' });
  });

  it('sets the default connection of the same company', async () => {
    const whatsapp = await Whatsapp.query(server.atende.container.db).insert({ companyId: a.companyId, name: 'Alpha Main' });
    const user = await createUser(a, { name: 'With Wapp', email: 'wapp@alpha.test', whatsappId: whatsapp.id });
    expect(user).toMatchObject({ whatsappId: whatsapp.id, whatsapp: { id: whatsapp.id, name: 'Alpha Main' } });
  });

  it.each([
    [{ email: 'v@alpha.test', password: PASSWORD, profile: 'user' }, 'name: Required'],
    [{ name: 'A', email: 'v@alpha.test', password: PASSWORD, profile: 'user' }, 'name: Too Short!'],
    [{ name: 'x'.repeat(51), email: 'v@alpha.test', password: PASSWORD, profile: 'user' }, 'name: Too Long!'],
    [{ name: 'Val', password: PASSWORD, profile: 'user' }, 'email: Required'],
    [{ name: 'Val', email: 'not-an-email', password: PASSWORD, profile: 'user' }, 'email: Invalid email'],
    [{ name: 'Val', email: 'v@alpha.test', profile: 'user' }, 'password: Required'],
    [{ name: 'Val', email: 'v@alpha.test', password: '1234', profile: 'user' }, 'password: Too Short!'],
    [{ name: 'Val', email: 'v@alpha.test', password: 'x'.repeat(51), profile: 'user' }, 'password: Too Long!'],
    [{ name: 'Val', email: 'v@alpha.test', password: PASSWORD }, 'profile: Required'],
    [{ name: 'Val', email: 'v@alpha.test', password: PASSWORD, profile: 'owner' }, 'profile: Must be admin, user or supervisor'],
    [{ name: 'Val', email: 'v@alpha.test', password: PASSWORD, profile: 'user', allTicket: 'sometimes' }, 'allTicket: Must be enabled or disabled'],
  ])('validates the user: %j → "%s"', async (body, message) => {
    const res = await server.call('POST', '/api/users', { token: a.adminToken, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
  });

  it('an e-mail already used on the platform, in any case and any company, is 409 ERR_EMAIL_ALREADY_EXISTS', async () => {
    const res = await server.call('POST', '/api/users', {
      token: b.adminToken,
      body: { name: 'Copy', email: a.adminEmail.toUpperCase(), password: PASSWORD, profile: 'user' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });

  it('a queue of another company is 404 ERR_NO_QUEUE_FOUND', async () => {
    const res = await server.call('POST', '/api/users', {
      token: a.adminToken,
      body: { name: 'Cross Queue', email: 'crossq@alpha.test', password: PASSWORD, profile: 'user', queueIds: [a.queueId, b.queueId] },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_QUEUE_FOUND');
    expect(await User.query(server.atende.container.db).findOne({ email: 'crossq@alpha.test' })).toBeUndefined();
  });

  it('a connection of another company is 404 ERR_NO_WAPP_FOUND', async () => {
    const whatsapp = await Whatsapp.query(server.atende.container.db).insert({ companyId: b.companyId, name: 'Beta Main' });
    const res = await server.call('POST', '/api/users', {
      token: a.adminToken,
      body: { name: 'Cross Wapp', email: 'crossw@alpha.test', password: PASSWORD, profile: 'user', whatsappId: whatsapp.id },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('a user who is not admin gets 403 ERR_NO_PERMISSION', async () => {
    const plain = await agent(a, 'plain-create@alpha.test');
    const res = await server.call('POST', '/api/users', {
      token: plain.token,
      body: { name: 'Nope', email: 'nope@alpha.test', password: PASSWORD, profile: 'user' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('an admin’s companyId is ignored: the user lands in the admin’s own company', async () => {
    const user = await createUser(a, { name: 'Stays Home', email: 'stays@alpha.test', companyId: b.companyId });
    expect(user).toMatchObject({ companyId: a.companyId });
  });

  it('only super users set the super or financial flags', async () => {
    for (const flag of ['super', 'financial']) {
      const res = await server.call('POST', '/api/users', {
        token: a.adminToken,
        body: { name: 'Flagged', email: `flag-${flag}@alpha.test`, password: PASSWORD, profile: 'admin', [flag]: true },
      });
      expect(res.status).toBe(403);
    }
  });

  it('a super user creates a user in another company, with flags', async () => {
    const res = await server.call('POST', '/api/users', {
      token: superToken,
      body: { name: 'Beta Finance', email: 'finance@beta.test', password: PASSWORD, profile: 'user', companyId: b.companyId, financial: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ companyId: b.companyId, financial: true });
    const missing = await server.call('POST', '/api/users', {
      token: superToken,
      body: { name: 'Nowhere', email: 'nowhere@beta.test', password: PASSWORD, profile: 'user', companyId: 999_999 },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_COMPANY_FOUND');
  });

  it('the plan’s user limit is enforced: 403 ERR_PLAN_LIMIT_USERS', async () => {
    const small = await tenant('Small Plan', { users: 2 });
    await createUser(small, { name: 'Second', email: 'second@small.test' });
    const res = await server.call('POST', '/api/users', {
      token: small.adminToken,
      body: { name: 'Third', email: 'third@small.test', password: PASSWORD, profile: 'user' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_LIMIT_USERS');
  });

  it('publishes company-{id}-user create to the company and emits user.created', async () => {
    const socket = await openSocket(a.adminToken);
    const outsider = await openSocket(b.adminToken);
    const user = await createUser(a, { name: 'Live One', email: 'live1@alpha.test' });
    const frame = await until(() => socket.frames.find((f) => f.data?.user?.id === user.id));
    expect(frame).toEqual({ channel: `company-${a.companyId}-user`, data: { action: 'create', user } });
    expect(events).toContainEqual({ name: Events.userCreated, companyId: a.companyId, payload: { user } });
    expect(outsider.frames.filter((f) => f.data?.user?.id === user.id)).toEqual([]);
    socket.ws.close();
    outsider.ws.close();
  });
});

describe('GET /api/users', () => {
  it('lists the admin’s company only, by name, 20 a page, with count and hasMore', async () => {
    const big = await tenant('Big Team');
    for (let i = 1; i <= 21; i += 1) await createUser(big, { name: `Member ${String(i).padStart(2, '0')}`, email: `m${i}@big.test` });
    const first = await server.call('GET', '/api/users', { token: big.adminToken });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(22);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.users).toHaveLength(20);
    expect(first.body.users[0]).toMatchObject({ name: 'Big Team', queues: [] });
    expect(first.body.users[1].name).toBe('Member 01');
    expect(first.body.users.every((u: { companyId: number }) => u.companyId === big.companyId)).toBe(true);
    const second = await server.call('GET', '/api/users?pageNumber=2', { token: big.adminToken });
    expect(second.body).toMatchObject({ count: 22, hasMore: false });
    expect(second.body.users.map((u: { name: string }) => u.name)).toEqual(['Member 20', 'Member 21']);
  });

  it('searches name and e-mail, lowercased', async () => {
    await createUser(a, { name: 'Zoraide Search', email: 'zoraide@alpha.test' });
    await createUser(a, { name: 'Other Person', email: 'zor-mail@alpha.test' });
    const byName = await server.call('GET', '/api/users?searchParam=ZORAIDE', { token: a.adminToken });
    expect(byName.body.users.map((u: { name: string }) => u.name)).toEqual(['Zoraide Search']);
    const both = await server.call('GET', '/api/users?searchParam=zor', { token: a.adminToken });
    expect(both.body.users.map((u: { name: string }) => u.name)).toEqual(['Other Person', 'Zoraide Search']);
    const wildcard = await server.call('GET', '/api/users?searchParam=%25', { token: a.adminToken });
    expect(wildcard.body).toMatchObject({ users: [], count: 0, hasMore: false });
  });

  it('a super user lists, creates in and edits another company’s users (the Empresas tab’s Usuário); an admin’s companyId is ignored', async () => {
    const shop = await tenant('Usuario Loja');
    const cases: [Record<string, string>, string][] = [
      [{ name: 'A' }, 'Too Short!'],
      [{ email: 'nope' }, 'Invalid email'],
      [{ password: '123' }, 'Too Short!'],
    ];
    for (const [change, message] of cases) {
      const body = { name: 'Carla Caixa', email: 'carla@usuarioloja.test', password: PASSWORD, profile: 'user', companyId: shop.companyId, ...change };
      const invalid = await server.call('POST', '/api/users', { token: superToken, body });
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toContain(message);
    }
    const created = await server.call('POST', '/api/users', {
      token: superToken,
      body: { name: 'Carla Caixa', email: 'carla@usuarioloja.test', password: PASSWORD, profile: 'user', allTicket: 'enabled', companyId: shop.companyId },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ companyId: shop.companyId, profile: 'user', allTicket: 'enabled' });

    const listed = await server.call('GET', `/api/users?companyId=${shop.companyId}`, { token: superToken });
    expect(listed.status).toBe(200);
    expect(listed.body.users.map((u: { email: string }) => u.email).sort()).toEqual(['admin@usuarioloja.test', 'carla@usuarioloja.test']);
    const own = await server.call('GET', `/api/users?companyId=${shop.companyId}`, { token: a.adminToken });
    expect(own.body.users.every((u: { companyId: number }) => u.companyId === a.companyId)).toBe(true);

    const edited = await server.call('PUT', `/api/users/${created.body.id}`, { token: superToken, body: { name: 'Carla Gerente', profile: 'admin', password: 'nova-senha' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Carla Gerente', profile: 'admin', companyId: shop.companyId });
    expect((await server.call('POST', '/api/auth/login', { body: { email: 'carla@usuarioloja.test', password: 'nova-senha' } })).status).toBe(200);
  });

  it('a user who is not admin gets 403', async () => {
    const plain = await agent(a, 'plain-list@alpha.test');
    expect((await server.call('GET', '/api/users', { token: plain.token })).status).toBe(403);
  });

  it('needs a session', async () => {
    expect((await server.call('GET', '/api/users')).status).toBe(401);
  });
});

describe('GET /api/users/list', () => {
  it('any user of the company gets the names and profiles of its users', async () => {
    const plain = await agent(b, 'plain-names@beta.test');
    const res = await server.call('GET', '/api/users/list', { token: plain.token });
    expect(res.status).toBe(200);
    expect(res.body.users).toContainEqual({ id: b.adminId, name: 'Beta', profile: 'admin' });
    expect(res.body.users).toContainEqual({ id: plain.id, name: 'Agent', profile: 'user' });
    expect(Object.keys(res.body.users[0]).sort()).toEqual(['id', 'name', 'profile']);
    const own = await server.call('GET', `/api/users/list?companyId=${b.companyId}`, { token: plain.token });
    expect(own.body).toEqual(res.body);
  });

  it('another company’s list is 403 unless the caller is a super user', async () => {
    const denied = await server.call('GET', `/api/users/list?companyId=${b.companyId}`, { token: a.adminToken });
    expect(denied.status).toBe(403);
    const allowed = await server.call('GET', `/api/users/list?companyId=${b.companyId}`, { token: superToken });
    expect(allowed.status).toBe(200);
    expect(allowed.body.users).toContainEqual({ id: b.adminId, name: 'Beta', profile: 'admin' });
  });
});

describe('GET /api/users/:id', () => {
  it('an admin sees a user of the company; a user sees themselves', async () => {
    const plain = await agent(a, 'plain-show@alpha.test');
    const byAdmin = await server.call('GET', `/api/users/${plain.id}`, { token: a.adminToken });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ id: plain.id, email: 'plain-show@alpha.test', queues: [] });
    const bySelf = await server.call('GET', `/api/users/${plain.id}`, { token: plain.token });
    expect(bySelf.status).toBe(200);
  });

  it('a user looking at a colleague gets 403 ERR_NO_PERMISSION', async () => {
    const plain = await agent(a, 'plain-peek@alpha.test');
    const res = await server.call('GET', `/api/users/${a.adminId}`, { token: plain.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('a user of another company gets 404 ERR_NO_USER_FOUND, and so does a bad id', async () => {
    const res = await server.call('GET', `/api/users/${a.adminId}`, { token: b.adminToken });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_USER_FOUND');
    expect((await server.call('GET', '/api/users/abc', { token: b.adminToken })).status).toBe(404);
  });
});

describe('PUT /api/users/:id', () => {
  it('an admin changes profile, queues, allTicket and default connection', async () => {
    const user = await createUser(a, { name: 'Editable', email: 'editable@alpha.test' });
    const queue = await addQueue(a.companyId, 'Vendas', '#FF0000');
    const whatsapp = await Whatsapp.query(server.atende.container.db).insert({ companyId: a.companyId, name: 'Alpha Sales' });
    const res = await server.call('PUT', `/api/users/${user.id}`, {
      token: a.adminToken,
      body: { profile: 'supervisor', queueIds: [queue.id, a.queueId], allTicket: 'enabled', whatsappId: whatsapp.id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      profile: 'supervisor',
      allTicket: 'enabled',
      whatsappId: whatsapp.id,
      queues: [
        { id: a.queueId, name: 'Atendimento' },
        { id: queue.id, name: 'Vendas', color: '#FF0000' },
      ],
    });
    const cleared = await server.call('PUT', `/api/users/${user.id}`, { token: a.adminToken, body: { queueIds: [], whatsappId: '' } });
    expect(cleared.body).toMatchObject({ queues: [], whatsappId: null, whatsapp: null });
  });

  it('a user changes their own name and e-mail', async () => {
    const plain = await agent(a, 'plain-self@alpha.test');
    const res = await server.call('PUT', `/api/users/${plain.id}`, {
      token: plain.token,
      body: { name: 'New Name', email: 'renamed@alpha.test', profile: 'user', queueIds: [] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'New Name', email: 'renamed@alpha.test', profile: 'user' });
    expect(res.body.token).toBeUndefined();
    expect((await server.call('GET', '/api/auth/me', { token: plain.token })).status).toBe(200);
  });

  it.each([
    ['profile', { profile: 'admin' }],
    ['queues', { queueIds: [1] }],
    ['allTicket', { allTicket: 'enabled' }],
    ['default connection', { whatsappId: 1 }],
    ['super flag', { super: true }],
  ])('a user who changes their own %s gets 403 ERR_NO_PERMISSION', async (_field, body) => {
    const plain = await agent(a, `plain-escalate-${Object.keys(body)[0]}@alpha.test`);
    const res = await server.call('PUT', `/api/users/${plain.id}`, { token: plain.token, body });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('a user editing a colleague gets 403', async () => {
    const plain = await agent(a, 'plain-other@alpha.test');
    const res = await server.call('PUT', `/api/users/${a.adminId}`, { token: plain.token, body: { name: 'Hacked' } });
    expect(res.status).toBe(403);
  });

  it('an admin of another company gets 404', async () => {
    const res = await server.call('PUT', `/api/users/${a.adminId}`, { token: b.adminToken, body: { name: 'Hacked' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_USER_FOUND');
  });

  it('an admin cannot remove their own admin profile: 400 ERR_CANNOT_DEMOTE_SELF', async () => {
    const res = await server.call('PUT', `/api/users/${a.adminId}`, { token: a.adminToken, body: { profile: 'user' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_CANNOT_DEMOTE_SELF');
  });

  it('a non-super admin cannot grant the super or financial flags', async () => {
    const user = await createUser(a, { name: 'Not Super', email: 'notsuper@alpha.test' });
    for (const body of [{ super: true }, { financial: true }]) {
      expect((await server.call('PUT', `/api/users/${user.id}`, { token: a.adminToken, body })).status).toBe(403);
    }
  });

  it('validates like creation; the password is optional and an empty one keeps the current', async () => {
    const user = await createUser(a, { name: 'Validated', email: 'validated@alpha.test' });
    const short = await server.call('PUT', `/api/users/${user.id}`, { token: a.adminToken, body: { name: 'V' } });
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'name: Too Short!' });
    const weak = await server.call('PUT', `/api/users/${user.id}`, { token: a.adminToken, body: { password: '123' } });
    expect(weak.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'password: Too Short!' });
    const kept = await server.call('PUT', `/api/users/${user.id}`, { token: a.adminToken, body: { name: 'Validated Two', password: '' } });
    expect(kept.status).toBe(200);
    expect((await server.call('POST', '/api/auth/login', { body: { email: 'validated@alpha.test', password: PASSWORD } })).status).toBe(200);
  });

  it('an e-mail used by another user is 409 ERR_EMAIL_ALREADY_EXISTS', async () => {
    const user = await createUser(a, { name: 'Duplicate', email: 'duplicate@alpha.test' });
    const res = await server.call('PUT', `/api/users/${user.id}`, { token: a.adminToken, body: { email: b.adminEmail } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });

  it('an admin setting a user’s password ends that user’s sessions', async () => {
    const plain = await agent(a, 'reset@alpha.test');
    const socket = await openSocket(plain.token);
    const res = await server.call('PUT', `/api/users/${plain.id}`, { token: a.adminToken, body: { password: 'brand-new-1' } });
    expect(res.status).toBe(200);
    expect(res.body.token).toBeUndefined();
    expect(await socket.closed).toBe(4001);
    expect((await server.call('GET', '/api/auth/me', { token: plain.token })).status).toBe(401);
    expect((await server.call('POST', '/api/auth/login', { body: { email: 'reset@alpha.test', password: PASSWORD } })).status).toBe(401);
    expect((await server.call('POST', '/api/auth/login', { body: { email: 'reset@alpha.test', password: 'brand-new-1' } })).status).toBe(200);
  });

  it('a user changing their own password keeps this session (new token and cookie) and ends the others', async () => {
    await createUser(a, { name: 'Self Reset', email: 'selfreset@alpha.test' });
    const other = await server.login('selfreset@alpha.test', PASSWORD);
    const current = await server.call('POST', '/api/auth/refresh_token', { cookie: other.cookie });
    const otherToken = other.token;
    const me = current.body.user as { id: number };
    const res = await server.call('PUT', `/api/users/${me.id}`, { token: current.body.token, body: { password: 'changed-pw-1' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: me.id, token: expect.any(String) });
    expect((await server.call('GET', '/api/auth/me', { token: res.body.token })).status).toBe(200);
    expect((await server.call('GET', '/api/auth/me', { token: current.body.token })).status).toBe(401);
    expect((await server.call('GET', '/api/auth/me', { token: otherToken })).status).toBe(401);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('jrt='))!.split(';')[0]!;
    expect((await server.call('POST', '/api/auth/refresh_token', { cookie })).status).toBe(200);
  });

  it('publishes company-{id}-user update and emits user.updated', async () => {
    const user = await createUser(a, { name: 'Live Two', email: 'live2@alpha.test' });
    const socket = await openSocket(a.adminToken);
    const res = await server.call('PUT', `/api/users/${user.id}`, { token: a.adminToken, body: { name: 'Live Two Renamed' } });
    const frame = await until(() => socket.frames.find((f) => f.data?.user?.name === 'Live Two Renamed'));
    expect(frame).toEqual({ channel: `company-${a.companyId}-user`, data: { action: 'update', user: res.body } });
    expect(events).toContainEqual({ name: Events.userUpdated, companyId: a.companyId, payload: { user: res.body } });
    socket.ws.close();
  });
});

describe('DELETE /api/users/:id', () => {
  it('an admin deletes a user of the company: 204, the user gone, its sockets closed, the company told', async () => {
    const plain = await agent(a, 'deleted@alpha.test');
    const own = await openSocket(plain.token);
    const admin = await openSocket(a.adminToken);
    const res = await server.call('DELETE', `/api/users/${plain.id}`, { token: a.adminToken });
    expect(res.status).toBe(204);
    expect(await own.closed).toBe(4001);
    expect((await server.call('GET', `/api/users/${plain.id}`, { token: a.adminToken })).status).toBe(404);
    const frame = await until(() => admin.frames.find((f) => f.data?.action === 'delete'));
    expect(frame).toEqual({ channel: `company-${a.companyId}-user`, data: { action: 'delete', userId: plain.id } });
    expect(events).toContainEqual({ name: Events.userDeleted, companyId: a.companyId, payload: { userId: plain.id } });
    admin.ws.close();
  });

  it('an admin cannot delete themselves: 400 ERR_CANNOT_DELETE_SELF', async () => {
    const res = await server.call('DELETE', `/api/users/${a.adminId}`, { token: a.adminToken });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_CANNOT_DELETE_SELF');
  });

  it('a user who is not admin gets 403, an admin of another company 404', async () => {
    const plain = await agent(a, 'plain-delete@alpha.test');
    const victim = await createUser(a, { name: 'Victim', email: 'victim@alpha.test' });
    expect((await server.call('DELETE', `/api/users/${victim.id}`, { token: plain.token })).status).toBe(403);
    const foreign = await server.call('DELETE', `/api/users/${victim.id}`, { token: b.adminToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_USER_FOUND');
    expect((await server.call('GET', `/api/users/${victim.id}`, { token: a.adminToken })).status).toBe(200);
  });
});
