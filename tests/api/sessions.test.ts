import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartableDatabase, startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';
import { Events, type DomainEvent } from '../../core/events/event-bus.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { SESSION_WATCHDOG_JOB, STUCK_OPENING_MS } from '../../core/channels/session-manager.js';
import type { ChannelDriver, DriverContext } from '../../core/channels/driver.js';
import { AppError } from '../../core/errors.js';

const PASSWORD = 'secret-123';

interface Tenant {
  companyId: number;
  adminEmail: string;
  adminToken: string;
}

let tenants = 0;
async function tenant(on: TestServer, name: string): Promise<Tenant> {
  const { db, services } = on.atende.container;
  tenants += 1;
  const plan = await Plan.query(db).insert({ name: `Plan ${tenants} ${name}`, users: 10, connections: 10, queues: 10, value: 0 });
  const adminEmail = `admin@${name.toLowerCase().replace(/\W/g, '')}.test`;
  const { company } = await services.companies.createTenant({ name, email: adminEmail, password: PASSWORD, planId: plan.id });
  return { companyId: company.id, adminEmail, adminToken: (await on.login(adminEmail, PASSWORD)).token };
}

async function createConnection(on: TestServer, t: Tenant, name: string): Promise<number> {
  const res = await on.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name, provider: 'simulator' } });
  if (res.status !== 201) throw new Error(`create connection: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
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

type SessionFrame = { id: number; status: string; qrcode: string; retries: number; updatedAt: string; number: string };

/** Session frames of one connection, each awaited once and in order (a later wait never sees an earlier frame). */
function sessionFrames(socket: TestSocket, companyId: number, id: number) {
  let seen = 0;
  return async (status: string): Promise<SessionFrame> => {
    const found = await until(() => {
      for (let i = seen; i < socket.frames.length; i++) {
        const frame = socket.frames[i]!;
        const session = (frame.data as { session?: SessionFrame }).session;
        if (frame.channel === `company-${companyId}-whatsappSession` && session?.id === id && session.status === status) {
          seen = i + 1;
          return session;
        }
      }
      return undefined;
    });
    return found;
  };
}

async function status(on: TestServer, t: Tenant, id: number) {
  return (await on.call('GET', `/api/whatsapp/${id}`, { token: t.adminToken })).body as SessionFrame;
}

describe('the session state machine (simulator)', () => {
  let server: TestServer;
  let t: Tenant;
  let socket: TestSocket;
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    t = await tenant(server, 'Session Co');
    socket = await openSocket(server.url, t.adminToken);
  });
  afterAll(async () => {
    await socket?.close();
    await server?.close();
  });

  it('create → qrcode → scan → CONNECTED → disconnect → try again → qrcode → logout → DISCONNECTED, live and persisted', async () => {
    const id = await createConnection(server, t, 'Phone');
    const next = sessionFrames(socket, t.companyId, id);

    await next('OPENING');
    const qr = await next('qrcode');
    expect(qr).toEqual({ id, status: 'qrcode', qrcode: expect.stringMatching(new RegExp(`^atende-simulator:${id}:`)), retries: 1, updatedAt: expect.any(String), number: '', node: server.config.nodeId });
    expect(await status(server, t, id)).toMatchObject({ status: 'qrcode', qrcode: qr.qrcode });

    const scan = await server.call('POST', `/api/simulator/${id}/scan`, { token: t.adminToken, body: { number: '5511987654321' } });
    expect(scan.body).toEqual({ status: 'CONNECTED', number: '5511987654321' });
    await next('PAIRING');
    expect(await next('CONNECTED')).toMatchObject({ qrcode: '', retries: 0, number: '5511987654321' });
    expect(await status(server, t, id)).toMatchObject({ status: 'CONNECTED', qrcode: '', number: '5511987654321' });

    expect((await server.call('POST', `/api/simulator/${id}/disconnect`, { token: t.adminToken })).body).toEqual({ status: 'DISCONNECTED' });
    expect(await next('DISCONNECTED')).toMatchObject({ qrcode: '', number: '' });

    const retry = await server.call('POST', `/api/whatsappsession/${id}`, { token: t.adminToken });
    expect(retry).toMatchObject({ status: 200, body: { message: 'Starting session.' } });
    await next('OPENING');
    const again = await next('qrcode');
    expect(again.qrcode).not.toBe(qr.qrcode);

    const logout = await server.call('DELETE', `/api/whatsappsession/${id}`, { token: t.adminToken });
    expect(logout).toMatchObject({ status: 200, body: { message: 'Session disconnected.' } });
    expect(await next('DISCONNECTED')).toMatchObject({ qrcode: '', number: '', retries: 0 });
    expect(await status(server, t, id)).toMatchObject({ status: 'DISCONNECTED', qrcode: '', number: '' });
    // Logged out: the simulated phone is gone.
    const scanAfter = await server.call('POST', `/api/simulator/${id}/scan`, { token: t.adminToken });
    expect(scanAfter.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
  });

  it('PUT /whatsappsession/:id forgets a paired session and shows a new QR code', async () => {
    const id = await createConnection(server, t, 'Renewed');
    const next = sessionFrames(socket, t.companyId, id);
    await next('qrcode');
    await server.call('POST', `/api/simulator/${id}/scan`, { token: t.adminToken });
    await next('CONNECTED');
    const renew = await server.call('PUT', `/api/whatsappsession/${id}`, { token: t.adminToken });
    expect(renew).toMatchObject({ status: 200, body: { message: 'Starting session.' } });
    await next('DISCONNECTED');
    await next('OPENING');
    expect(await next('qrcode')).toMatchObject({ number: '', retries: 1 });
  });

  it('a paired session restarted with "try again" comes back CONNECTED without a scan', async () => {
    const id = await createConnection(server, t, 'Kept');
    const next = sessionFrames(socket, t.companyId, id);
    await next('qrcode');
    await server.call('POST', `/api/simulator/${id}/scan`, { token: t.adminToken, body: { number: '5511900000001' } });
    await next('CONNECTED');
    await server.call('POST', `/api/whatsappsession/${id}`, { token: t.adminToken });
    await next('OPENING');
    expect(await next('CONNECTED')).toMatchObject({ number: '5511900000001' });
  });

  it('driverFor answers the driver of a CONNECTED session only (400 ERR_WAPP_NOT_INITIALIZED otherwise)', async () => {
    const { sessions } = server.atende.container;
    const id = await createConnection(server, t, 'Sender');
    const next = sessionFrames(socket, t.companyId, id);
    await next('qrcode');
    expect(() => sessions.driverFor(id)).toThrow(expect.objectContaining({ code: 'ERR_WAPP_NOT_INITIALIZED', status: 400 }) as AppError);
    expect(() => sessions.driverFor(999_999)).toThrow(AppError);
    await server.call('POST', `/api/simulator/${id}/scan`, { token: t.adminToken });
    expect(sessions.driverFor(id)).toBeDefined();
  });

  it('a sent text gets acks 1 → 2 → 3, each a message.ack event; the outbox shows it', async () => {
    const { sessions, bus } = server.atende.container;
    const id = await createConnection(server, t, 'Acks');
    const next = sessionFrames(socket, t.companyId, id);
    await next('qrcode');
    await server.call('POST', `/api/simulator/${id}/scan`, { token: t.adminToken });
    const acks: DomainEvent[] = [];
    const off = bus.on(Events.messageAck, (event) => void acks.push(event), 'test');
    try {
      const sent = await sessions.driverFor(id).sendText('5511987654321', 'Olá!', { quotedId: 'Q1' });
      await until(() => (acks.length >= 3 ? true : undefined), 3000);
      expect(acks.map((e) => e.payload)).toEqual([1, 2, 3].map((ack) => ({ connectionId: id, companyId: t.companyId, type: 'ack', id: sent.id, ack })));
      expect(acks.every((e) => e.companyId === t.companyId)).toBe(true);
      const outbox = await server.call('GET', `/api/simulator/${id}/outbox`, { token: t.adminToken });
      expect(outbox.body.messages).toEqual([
        expect.objectContaining({ id: sent.id, to: '5511987654321', kind: 'text', body: 'Olá!', quotedId: 'Q1', ack: 3, deleted: false }),
      ]);
    } finally {
      off();
    }
  });

  it('the watchdog runs every minute as one Agenda job', async () => {
    const { jobs } = await server.atende.container.jobs.query({ name: SESSION_WATCHDOG_JOB });
    expect(jobs).toHaveLength(1);
    expect(Number(jobs[0]!.repeatInterval)).toBe(60_000);
  });
});

/** A driver whose start is given; every command fails as a disconnected session would. */
function fakeDriver(start: () => Promise<void>): ChannelDriver {
  const down = () => Promise.reject(new AppError('ERR_WAPP_NOT_INITIALIZED', 400, 'down'));
  return {
    start,
    stop: async () => undefined,
    logout: async () => undefined,
    sendText: down,
    sendMedia: down,
    sendLocation: down,
    delete: down,
    edit: down,
    markRead: down,
    checkNumber: down,
    profilePicture: down,
  };
}

describe('failing drivers and the watchdog', () => {
  let server: TestServer;
  let t: Tenant;
  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    t = await tenant(server, 'Watchdog Co');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a driver that cannot be made or whose start throws leaves the server up; the watchdog starts it again', async () => {
    const { providers, sessions } = server.atende.container;
    const real = providers.factoryFor('simulator')!;
    let calls = 0;
    providers.register('simulator', (ctx: DriverContext) => {
      calls += 1;
      if (calls === 1) throw new Error('factory exploded');
      if (calls === 2) return fakeDriver(() => Promise.reject(new Error('no network')));
      return real(ctx);
    });
    try {
      const id = await createConnection(server, t, 'Fragile');
      expect(calls).toBe(1);
      expect((await server.call('GET', '/api/version')).status).toBe(200);
      await sessions.watchdog();
      expect(calls).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await sessions.watchdog();
      expect(calls).toBe(3);
      await until(async () => ((await status(server, t, id)).status === 'qrcode' ? true : undefined));
      // Healthy now: the watchdog leaves it alone.
      await sessions.watchdog();
      expect(calls).toBe(3);
    } finally {
      providers.register('simulator', real);
    }
  });

  it('a session stuck in OPENING for more than two minutes is restarted', async () => {
    const { providers, sessions } = server.atende.container;
    const real = providers.factoryFor('simulator')!;
    let made = 0;
    providers.register('simulator', (ctx: DriverContext) => {
      made += 1;
      return made === 1 ? fakeDriver(async () => ctx.emit({ type: 'status', status: 'OPENING' })) : real(ctx);
    });
    try {
      const id = await createConnection(server, t, 'Stuck');
      await until(async () => ((await status(server, t, id)).status === 'OPENING' ? true : undefined));
      await sessions.watchdog();
      expect(made).toBe(1);
      await sessions.watchdog(Date.now() + STUCK_OPENING_MS + 1000);
      expect(made).toBe(2);
      await until(async () => ((await status(server, t, id)).status === 'qrcode' ? true : undefined));
    } finally {
      providers.register('simulator', real);
    }
  });
});

describe('after a restart on the same database', () => {
  let databaseUrl: string;
  let drop: () => Promise<void>;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    ({ databaseUrl, drop } = await restartableDatabase());
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await drop();
  });

  async function boot(simulator: boolean): Promise<TestServer> {
    const s = await startTestServer({ simulator, databaseUrl });
    servers.push(s);
    return s;
  }

  async function shutdown(s: TestServer): Promise<void> {
    servers.splice(servers.indexOf(s), 1);
    await s.close();
  }

  it('a paired connection comes back CONNECTED with its number, an unpaired one shows a new QR code', async () => {
    const first = await boot(true);
    let t = await tenant(first, 'Restart Co');
    const paired = await createConnection(first, t, 'Paired');
    const waiting = await createConnection(first, t, 'Waiting');
    await until(async () => ((await status(first, t, paired)).status === 'qrcode' ? true : undefined));
    const oldQr = await until(async () => {
      const s = await status(first, t, waiting);
      return s.status === 'qrcode' ? s.qrcode : undefined;
    });
    await first.call('POST', `/api/simulator/${paired}/scan`, { token: t.adminToken, body: { number: '5521912345678' } });
    await shutdown(first);

    const second = await boot(true);
    t = { ...t, adminToken: (await second.login(t.adminEmail, PASSWORD)).token };
    await until(async () => ((await status(second, t, paired)).status === 'CONNECTED' ? true : undefined));
    expect(await status(second, t, paired)).toMatchObject({ status: 'CONNECTED', number: '5521912345678', qrcode: '' });
    const newQr = await until(async () => {
      const s = await status(second, t, waiting);
      return s.status === 'qrcode' ? s.qrcode : undefined;
    });
    expect(newQr).not.toBe(oldQr);
    expect(second.atende.container.sessions.driverFor(paired)).toBeDefined();
    await shutdown(second);

    // Without the simulator its connections cannot run: DISCONNECTED, the pairing kept for later.
    const third = await boot(false);
    t = { ...t, adminToken: (await third.login(t.adminEmail, PASSWORD)).token };
    await until(async () => ((await status(third, t, paired)).status === 'DISCONNECTED' ? true : undefined));
    expect(await status(third, t, paired)).toMatchObject({ status: 'DISCONNECTED', number: '5521912345678' });
  });
});
