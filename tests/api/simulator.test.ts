import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, storeMedia } from '../helpers/media.js';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { Events, type DomainEvent } from '../../core/events/event-bus.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { Company } from '../../core/modules/companies/company.model.js';
import { Queue } from '../../core/modules/queues/queue.model.js';
import { User } from '../../core/modules/users/user.model.js';
import { Whatsapp } from '../../core/modules/whatsapp/whatsapp.model.js';
import { Message } from '../../core/modules/messages/message.model.js';
import { DEMO_COMPANY, seedDemo } from '../../core/demo/demo.js';
import type { NormalizedMessage } from '../../core/channels/driver.js';

const PASSWORD = 'secret-123';

interface Tenant {
  companyId: number;
  adminToken: string;
  userToken: string;
}

let tenants = 0;
async function tenant(on: TestServer, name: string): Promise<Tenant> {
  const { db, services } = on.atende.container;
  tenants += 1;
  const plan = await Plan.query(db).insert({ name: `Plan ${tenants} ${name}`, users: 10, connections: 10, queues: 10, value: 0 });
  const slug = name.toLowerCase().replace(/\W/g, '');
  await services.companies.createTenant({ name, email: `admin@${slug}.test`, password: PASSWORD, planId: plan.id });
  const company = await Company.query(db).findOne({ name });
  const adminToken = (await on.login(`admin@${slug}.test`, PASSWORD)).token;
  await on.call('POST', '/api/users', { token: adminToken, body: { name: 'Agent', email: `agent@${slug}.test`, password: PASSWORD, profile: 'user' } });
  return { companyId: company!.id, adminToken, userToken: (await on.login(`agent@${slug}.test`, PASSWORD)).token };
}

async function until<T>(read: () => Promise<T | undefined> | T | undefined, ms = 3000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() - started > ms) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function statusOf(on: TestServer, id: number): Promise<string> {
  return (await Whatsapp.query(on.atende.container.db).findById(id))!.status;
}

/** A simulator connection showing its QR code (or, with `scan`, CONNECTED). */
async function connection(on: TestServer, t: Tenant, name: string, scan = true): Promise<number> {
  const res = await on.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name, provider: 'simulator' } });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.id as number;
  await until(async () => ((await statusOf(on, id)) === 'qrcode' ? true : undefined));
  if (scan) await on.call('POST', `/api/simulator/${id}/scan`, { token: t.adminToken });
  return id;
}

describe('the simulator test API', () => {
  let server: TestServer;
  let t: Tenant;
  let id: number;
  const received: DomainEvent<{ connectionId: number; companyId: number; type: string; message: NormalizedMessage }>[] = [];

  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    server.atende.container.bus.on(Events.messageReceived, (event) => void received.push(event as (typeof received)[number]), 'test');
    t = await tenant(server, 'Sim Co');
    id = await connection(server, t, 'Simulated');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an inbound message reaches the bus once, as message.received with the connection, company and journal entry', async () => {
    const res = await server.call('POST', `/api/simulator/${id}/inbound`, {
      token: t.adminToken,
      body: { from: '+55 (11) 8765-4321', name: 'Carla', body: 'Oi!', quotedId: 'Q-1' },
    });
    expect(res.status).toBe(201);
    const message = res.body.message as NormalizedMessage;
    expect(message).toEqual({
      id: expect.stringMatching(/^SIM[0-9A-F]{16}$/),
      chatId: '5511987654321',
      isGroup: false,
      fromMe: false,
      from: { number: '5511987654321', name: 'Carla' },
      body: 'Oi!',
      quotedId: 'Q-1',
      timestamp: expect.any(String),
    });
    await until(() => (received.some((e) => e.payload.message.id === message.id) ? true : undefined));
    const events = received.filter((e) => e.payload.message.id === message.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({
      name: 'message.received',
      companyId: t.companyId,
      payload: { connectionId: id, companyId: t.companyId, type: 'message', message, entryId: expect.any(Number) },
    });
  });

  it('a repeated id is delivered again with the same id: a provider replay', async () => {
    const body = { id: 'WAMID-1', from: '5511987654321', name: 'Carla', body: 'Once' };
    await server.call('POST', `/api/simulator/${id}/inbound`, { token: t.adminToken, body });
    await server.call('POST', `/api/simulator/${id}/inbound`, { token: t.adminToken, body });
    await until(() => (received.filter((e) => e.payload.message.id === 'WAMID-1').length === 2 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const replays = received.filter((e) => e.payload.message.id === 'WAMID-1');
    expect(replays).toHaveLength(2);
    expect(replays.map((e) => e.payload.message.body)).toEqual(['Once', 'Once']);
  });

  it('inbound media is saved in the company’s media folder under a safe name', async () => {
    const data = Buffer.from('%PDF-1.4 simulated');
    const res = await server.call('POST', `/api/simulator/${id}/inbound`, {
      token: t.adminToken,
      body: { from: '5511987654321', name: 'Carla', body: '', mediaType: 'application', mediaBase64: data.toString('base64'), mediaName: '../../etc/Nota fiscal.pdf' },
    });
    expect(res.status).toBe(201);
    const { media, mediaType } = res.body.message as NormalizedMessage;
    expect(mediaType).toBe('application');
    expect(media).toEqual({ path: expect.stringMatching(/-Nota_fiscal\.pdf$/), name: '../../etc/Nota fiscal.pdf', mimeType: 'application/pdf', size: data.length });
    const file = path.join(server.config.mediaDir, String(t.companyId), media!.path);
    expect(readFileSync(file)).toEqual(data);
  });

  it.each([
    [{ from: '123', name: 'X', body: 'hi' }, 'from: Must be a phone number of 8 to 15 digits'],
    [{ from: '5511987654321', body: 'hi' }, 'name: Required'],
    [{ from: '5511987654321', name: 'X' }, 'body: Required'],
    [{ from: '5511987654321', name: 'X', body: 'hi', mediaType: 'image' }, 'mediaBase64: mediaType and mediaBase64 go together'],
    [{ from: '5511987654321', name: 'X', body: 'hi', mediaType: 'image', mediaBase64: 'not base64!' }, 'mediaBase64: Must be base64'],
  ])('rejects %j: 400 %s', async (body, message) => {
    const res = await server.call('POST', `/api/simulator/${id}/inbound`, { token: t.adminToken, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
  });

  describe('an array of messages', () => {
    /** Messages of the company with these ids, as stored, in storing order. */
    const stored = (wids: string[]) =>
      Message.query(server.atende.container.db).where({ companyId: t.companyId }).whereIn('wid', wids).orderBy('id').select('wid', 'remoteJid', 'body');

    it('100 messages from 10 numbers: 201 once all are journaled, each stored once, every chat in order', async () => {
      const batch = Array.from({ length: 100 }, (_, k) => ({
        id: `BATCH-${String(k).padStart(3, '0')}`,
        from: `55119876500${String(k % 10).padStart(2, '0')}`,
        name: `Customer ${k % 10}`,
        body: `message ${k}`,
      }));
      const res = await server.call('POST', `/api/simulator/${id}/inbound`, { token: t.adminToken, body: batch });
      expect(res.status).toBe(201);
      const messages = res.body.messages as NormalizedMessage[];
      expect(messages.map((m) => m.id)).toEqual(batch.map((m) => m.id));
      expect(messages[3]).toMatchObject({ chatId: '5511987650003', from: { number: '5511987650003', name: 'Customer 3' }, body: 'message 3' });

      const wids = batch.map((m) => m.id);
      const rows = await until(async () => {
        const found = await stored(wids);
        return found.length >= 100 ? found : undefined;
      }, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await stored(wids)).toHaveLength(100);
      expect(new Set(rows.map((r) => r.wid)).size).toBe(100);
      for (let chat = 0; chat < 10; chat += 1) {
        const number = `55119876500${String(chat).padStart(2, '0')}`;
        const sent = batch.filter((m) => m.from === number).map((m) => m.id);
        expect(rows.filter((r) => r.remoteJid === number).map((r) => r.wid)).toEqual(sent);
      }
      expect(received.filter((e) => wids.includes(e.payload.message.id))).toHaveLength(100);
    });

    it('one invalid item: 400 naming it, and nothing of the array is taken', async () => {
      const batch = [
        { id: 'BAD-BATCH-1', from: '5511987651111', name: 'Ana', body: 'first' },
        { id: 'BAD-BATCH-2', from: '123', name: 'Ana', body: 'second' },
        { id: 'BAD-BATCH-3', from: '5511987651111', name: 'Ana', body: 'third' },
      ];
      const res = await server.call('POST', `/api/simulator/${id}/inbound`, { token: t.adminToken, body: batch });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message: '1.from: Must be a phone number of 8 to 15 digits' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received.filter((e) => e.payload.message.id.startsWith('BAD-BATCH-'))).toEqual([]);
      expect(await stored(batch.map((m) => m.id))).toEqual([]);
    });

    it('more than 1,000 messages: 400 ERR_SIMULATOR_TOO_MANY_MESSAGES, nothing taken; an empty array: 400', async () => {
      const batch = Array.from({ length: 1001 }, (_, k) => ({ id: `HUGE-${k}`, from: '5511987652222', name: 'Bia', body: `m${k}` }));
      const res = await server.call('POST', `/api/simulator/${id}/inbound`, { token: t.adminToken, body: batch });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_SIMULATOR_TOO_MANY_MESSAGES');
      const empty = await server.call('POST', `/api/simulator/${id}/inbound`, { token: t.adminToken, body: [] });
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'Must hold at least one message' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received.filter((e) => e.payload.message.id.startsWith('HUGE-'))).toEqual([]);
    });
  });

  it('scanning a connection that shows no QR code: 409 ERR_SIMULATOR_NO_QRCODE', async () => {
    const res = await server.call('POST', `/api/simulator/${id}/scan`, { token: t.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_SIMULATOR_NO_QRCODE');
  });

  it('a customer cannot write to a connection that is not connected: 400 ERR_WAPP_NOT_INITIALIZED', async () => {
    const waiting = await connection(server, t, 'Waiting', false);
    const res = await server.call('POST', `/api/simulator/${waiting}/inbound`, { token: t.adminToken, body: { from: '5511987654321', name: 'X', body: 'hi' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
  });

  it('checkNumber answers the canonical number: Brazilian mobiles with and without the ninth digit are one', async () => {
    const driver = server.atende.container.sessions.driverFor(id);
    expect(await driver.checkNumber('551187654321')).toBe('5511987654321');
    expect(await driver.checkNumber('+55 11 98765-4321')).toBe('5511987654321');
    expect(await driver.checkNumber('14155550123')).toBe('14155550123');
    expect(await driver.checkNumber('123')).toBeNull();
    expect(await driver.profilePicture('5511987654321')).toBeNull();
  });

  it('the outbox records media, locations, deletions, edits and reads', async () => {
    const driver = server.atende.container.sessions.driverFor(id);
    const stored = await storeMedia(server, t.companyId, 'photo.jpg', 'jpeg');
    const copy = await server.atende.container.media.localCopy(t.companyId, stored);
    const media = await driver.sendMedia('5511987654321', { path: copy.path, fileName: 'photo.jpg', mimeType: 'image/jpeg', caption: 'Look' });
    await copy.release();
    const place = await driver.sendLocation('5511987654321', { latitude: -23.5, longitude: -46.6, name: 'Loja' });
    await driver.edit('5511987654321', place.id, 'Nova loja');
    await driver.delete('5511987654321', media.id);
    await driver.markRead('5511987654321', ['IN-1', 'IN-2']);
    await expect(driver.sendMedia('5511987654321', { path: '/nonexistent/file.jpg', fileName: 'x.jpg', mimeType: 'image/jpeg' })).rejects.toMatchObject({
      code: 'ERR_SENDING_WAPP_MSG',
    });

    const res = await server.call('GET', `/api/simulator/${id}/outbox`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.messages).toEqual([
      expect.objectContaining({ id: media.id, kind: 'media', body: 'Look', deleted: true, media: { fileName: 'photo.jpg', mimeType: 'image/jpeg', size: 4, sha256: sha256('jpeg'), ptt: false } }),
      expect.objectContaining({ id: place.id, kind: 'location', location: { latitude: -23.5, longitude: -46.6, name: 'Loja' }, editedBody: 'Nova loja' }),
    ]);
    expect(res.body.operations.map((op: { type: string }) => op.type)).toEqual(['edit', 'delete', 'read']);
    expect(res.body.operations[2]).toMatchObject({ to: '5511987654321', ids: ['IN-1', 'IN-2'] });
  });

  it('an agent may not use it (403); an admin of another company gets 404, as for a real phone connection', async () => {
    const other = await tenant(server, 'Other Sim Co');
    const phone = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name: 'Real phone', provider: 'baileys' } });
    const routes = [
      ['POST', `/api/simulator/${id}/scan`],
      ['POST', `/api/simulator/${id}/inbound`],
      ['GET', `/api/simulator/${id}/outbox`],
      ['POST', `/api/simulator/${id}/disconnect`],
    ] as const;
    for (const [method, route] of routes) {
      const body = method === 'GET' ? undefined : { from: '5511987654321', name: 'X', body: 'hi' };
      const agent = await server.call(method, route, { token: t.userToken, body });
      expect(agent.status, `${method} ${route}`).toBe(403);
      const outsider = await server.call(method, route, { token: other.adminToken, body });
      expect(outsider.status, `${method} ${route}`).toBe(404);
      expect(outsider.body.error).toBe('ERR_NO_WAPP_FOUND');
    }
    const notSimulated = await server.call('POST', `/api/simulator/${phone.body.id}/scan`, { token: t.adminToken });
    expect(notSimulated.status).toBe(404);
    await server.call('DELETE', `/api/whatsapp/${phone.body.id}`, { token: t.adminToken });
  });

  it("a super user drives any company's simulated connection (atende simulate signs in as one)", async () => {
    const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const res = await server.call('POST', `/api/simulator/${id}/inbound`, { token: superToken, body: { from: '5511987654321', name: 'X', body: 'by super' } });
    expect(res.status).toBe(201);
    expect((await server.call('GET', `/api/simulator/${id}/outbox`, { token: superToken })).status).toBe(200);
  });

  it('disconnect: the phone unlinks the device, DISCONNECTED', async () => {
    const res = await server.call('POST', `/api/simulator/${id}/disconnect`, { token: t.adminToken });
    expect(res.body).toEqual({ status: 'DISCONNECTED' });
    await until(async () => ((await statusOf(server, id)) === 'DISCONNECTED' ? true : undefined));
    expect((await Whatsapp.query(server.atende.container.db).findById(id))!.number).toBe('');
  });
});

describe('with the simulator off', () => {
  let server: TestServer;
  let t: Tenant;
  beforeAll(async () => {
    server = await startTestServer();
    t = await tenant(server, 'No Sim Co');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the test API answers 404', async () => {
    for (const [method, route] of [
      ['POST', '/api/simulator/1/scan'],
      ['POST', '/api/simulator/1/inbound'],
      ['GET', '/api/simulator/1/outbox'],
      ['POST', '/api/simulator/1/disconnect'],
    ] as const) {
      const res = await server.call(method, route, { token: t.adminToken, body: method === 'GET' ? undefined : {} });
      expect(res.status, route).toBe(404);
      expect(res.body.error).toBe('ERR_ROUTE_NOT_FOUND');
    }
    expect(server.atende.container.simulator).toBeUndefined();
  });

  it("a connection may not use the 'simulator' provider: 400 ERR_SIMULATOR_DISABLED", async () => {
    const res = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name: 'Fake', provider: 'simulator' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_SIMULATOR_DISABLED');
  });
});

describe('serve --demo', () => {
  let server: TestServer;
  const received: DomainEvent<{ message: NormalizedMessage }>[] = [];
  beforeAll(async () => {
    server = await startTestServer({ demo: true });
    server.atende.container.bus.on(Events.messageReceived, (event) => void received.push(event as (typeof received)[number]), 'test');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('seeds a demo company: an admin, two agents, two queues and a connected default simulator connection', async () => {
    const { db } = server.atende.container;
    const company = await Company.query(db).findOne({ name: DEMO_COMPANY });
    expect(company).toBeDefined();
    const queues = await Queue.query(db).where('companyId', company!.id).orderBy('name');
    expect(queues.map((q) => q.name)).toEqual(['Suporte', 'Vendas']);
    expect(queues.every((q) => q.greetingMessage.length > 0)).toBe(true);
    const users = await User.query(db).where('companyId', company!.id).orderBy('email');
    expect(users.map((u) => [u.email, u.profile])).toEqual([
      ['admin@demonstracao.local', 'admin'],
      ['ana@demonstracao.local', 'user'],
      ['bruno@demonstracao.local', 'user'],
    ]);
    const [connection, ...others] = await Whatsapp.query(db).where('companyId', company!.id).withGraphFetched('queues');
    expect(others).toEqual([]);
    expect(connection).toMatchObject({ provider: 'simulator', isDefault: true, number: '5511999990000', token: expect.stringMatching(/^[\w-]{43}$/) });
    expect(connection!.queues).toHaveLength(2);
    await until(async () => ((await statusOf(server, connection!.id)) === 'CONNECTED' ? true : undefined));
  });

  it('keeps the passwords in data/demo-credentials.txt (0600) and they sign in', async () => {
    const demo = server.atende.demo!;
    expect(demo.created).toBe(true);
    expect(statSync(demo.file).mode & 0o777).toBe(0o600);
    const text = readFileSync(demo.file, 'utf8');
    for (const user of demo.users) {
      expect(text).toContain(`${user.email} password: ${user.password}`);
      expect((await server.login(user.email, user.password!)).token).toEqual(expect.any(String));
    }
  });

  it('customers write a few seconds apart through the simulated connection', async () => {
    await until(() => (received.some((e) => e.payload.message.id === 'DEMO-1') ? true : undefined), 6000);
    expect(received.find((e) => e.payload.message.id === 'DEMO-1')!.payload.message).toMatchObject({ from: { name: 'Carla Mendes' } });
  });

  it('seeds only once: a later start finds the company and keeps it as it is', async () => {
    const again = await seedDemo(server.atende.container);
    expect(again).toMatchObject({ created: false, connectionId: server.atende.demo!.connectionId });
    expect(again.users.every((u) => !('password' in u))).toBe(true);
    expect(await Company.query(server.atende.container.db).where('name', DEMO_COMPANY).resultSize()).toBe(1);
  });
});
