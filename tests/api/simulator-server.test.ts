import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startSimulatorServer } from '../helpers/cli.js';
import { PASSWORD, createConnection, createMember, createTenant, eventually, outbox, ticketTakenByAdmin, type InboxTenant } from '../helpers/inbox.js';
import { restartableDatabase, startTestServer, type TestServer } from '../helpers/server.js';
import { Events } from '../../core/events/event-bus.js';
import { Message } from '../../core/modules/messages/message.model.js';
import { Whatsapp } from '../../core/modules/whatsapp/whatsapp.model.js';
import type { NormalizedMessage } from '../../core/channels/driver.js';

// `atende simulate server` as its own process (the real binary), nodes linked to it by ATENDE_SIMULATOR_URL.
let simulator: ResultPromise;
let simulatorUrl: string;
let databaseUrl: string;
let drop: () => Promise<void>;
const nodes: TestServer[] = [];

/** A node of the installation: the same database, its phones at the simulator server. */
async function startNode(): Promise<TestServer> {
  const node = await startTestServer({ simulatorUrl, databaseUrl });
  nodes.push(node);
  return node;
}

async function stopNode(node: TestServer): Promise<void> {
  nodes.splice(nodes.indexOf(node), 1);
  await node.close();
}

/** A call to the simulator server's own test API, as a test or a load generator makes it. */
async function atSimulator(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(simulatorUrl + route, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

function storedOf(node: TestServer, companyId: number, wids: string[]) {
  return Message.query(node.atende.container.db).where({ companyId }).whereIn('wid', wids).orderBy('id').select('wid', 'remoteJid', 'body', 'mediaName', 'mediaType');
}

async function connectionRow(node: TestServer, id: number) {
  return (await Whatsapp.query(node.atende.container.db).findById(id))!;
}

beforeAll(async () => {
  ({ sub: simulator, url: simulatorUrl } = await startSimulatorServer());
  ({ databaseUrl, drop } = await restartableDatabase());
});

afterAll(async () => {
  for (const node of nodes.splice(0)) await node.close();
  simulator?.kill('SIGTERM');
  await simulator;
  await drop?.();
});

describe('a simulated WhatsApp in its own process (ATENDE_SIMULATOR_URL)', () => {
  let node: TestServer;
  let t: InboxTenant;
  let id: number;

  beforeAll(async () => {
    node = await startNode();
    t = await createTenant(node, 'Remote Sim Co');
    id = await createConnection(node, t, 'Remote phone');
  });

  it('scan through the node pairs the phone at the server: the connection is CONNECTED with its number', async () => {
    const row = await eventually(async () => {
      const found = await connectionRow(node, id);
      return found.status === 'CONNECTED' ? found : undefined;
    });
    expect(row.number).toMatch(/^55119\d{8}$/);
    const again = await node.call('POST', `/api/simulator/${id}/scan`, { token: t.admin.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_SIMULATOR_NO_QRCODE');
  });

  it('inbound through the node: one message and an array answer 201 once journaled, each stored once and every chat in order', async () => {
    const one = await node.call('POST', `/api/simulator/${id}/inbound`, { token: t.admin.token, body: { id: 'REMOTE-1', from: '+55 (11) 8765-4321', name: 'Carla', body: 'Oi!' } });
    expect(one.status).toBe(201);
    expect(one.body.message).toEqual({
      id: 'REMOTE-1',
      chatId: '5511987654321',
      isGroup: false,
      fromMe: false,
      from: { number: '5511987654321', name: 'Carla' },
      body: 'Oi!',
      timestamp: expect.any(String),
    });

    const batch = Array.from({ length: 30 }, (_, k) => ({ id: `REMOTE-B${String(k).padStart(2, '0')}`, from: `551198765000${k % 3}`, name: `Customer ${k % 3}`, body: `message ${k}` }));
    const many = await node.call('POST', `/api/simulator/${id}/inbound`, { token: t.admin.token, body: batch });
    expect(many.status).toBe(201);
    expect((many.body.messages as NormalizedMessage[]).map((m) => m.id)).toEqual(batch.map((m) => m.id));

    const wids = ['REMOTE-1', ...batch.map((m) => m.id)];
    const rows = await eventually(async () => {
      const found = await storedOf(node, t.companyId, wids);
      return found.length === wids.length ? found : undefined;
    }, 15_000, 'the messages to be stored');
    expect(new Set(rows.map((r) => r.wid)).size).toBe(wids.length);
    for (let chat = 0; chat < 3; chat += 1) {
      const number = `551198765000${chat}`;
      expect(rows.filter((r) => r.remoteJid === number).map((r) => r.wid)).toEqual(batch.filter((m) => m.from === number).map((m) => m.id));
    }
  });

  it("an agent's reply goes out through the server: the outbox, read through the node or at the server, shows it acked up to read", async () => {
    const ticketId = await ticketTakenByAdmin(node, t, id, '5511987651234');
    const sent = await node.call('POST', `/api/messages/${ticketId}`, { token: t.admin.token, body: { body: 'Olá, em que posso ajudar?' } });
    expect(sent.status).toBeLessThan(300);
    const message = await eventually(async () => {
      const found = (await outbox(node, t, id)).messages.find((m) => m.body.endsWith('Olá, em que posso ajudar?'));
      return found?.ack === 3 ? found : undefined;
    });
    expect(message).toMatchObject({ to: '5511987651234', kind: 'text' });
    const direct = await atSimulator('GET', `/connections/${id}/outbox`);
    expect(direct.status).toBe(200);
    expect(direct.body).toEqual(await outbox(node, t, id));
  });

  it('the node checks permissions before the server is asked: an agent gets 403, another company 404, bad input 400', async () => {
    const agent = await createMember(node, t, 'agent');
    const other = await createTenant(node, 'Other Remote Co');
    for (const [method, action] of [['POST', 'scan'], ['POST', 'inbound'], ['GET', 'outbox'], ['POST', 'disconnect'], ['POST', 'limit']] as const) {
      const body = method === 'GET' ? undefined : { from: '5511987654321', name: 'X', body: 'hi', active: true };
      expect((await node.call(method, `/api/simulator/${id}/${action}`, { token: agent.token, body })).status, action).toBe(403);
      const outsider = await node.call(method, `/api/simulator/${id}/${action}`, { token: other.admin.token, body });
      expect(outsider.status, action).toBe(404);
      expect(outsider.body.error).toBe('ERR_NO_WAPP_FOUND');
    }
    const invalid = await node.call('POST', `/api/simulator/${id}/inbound`, { token: t.admin.token, body: { from: '123', name: 'X', body: 'hi' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'from: Must be a phone number of 8 to 15 digits' });
  });

  it('limit through the node reaches the node as whatsapp.limited', async () => {
    const limited: unknown[] = [];
    node.atende.container.bus.on(Events.whatsappLimited, (event) => void limited.push(event.payload), 'test');
    const res = await node.call('POST', `/api/simulator/${id}/limit`, { token: t.admin.token, body: { active: true } });
    expect(res).toMatchObject({ status: 200, body: { active: true } });
    await eventually(async () => limited.length > 0);
    expect(limited[0]).toMatchObject({ connectionId: id, active: true, reason: 'simulated' });
  });

  it('messages written while no node runs wait at the server, and the next node on the database stores each once, in order', async () => {
    await stopNode(node);
    // The phones outlived the node: the server still answers.
    expect(simulator.exitCode).toBeNull();
    expect((await atSimulator('GET', `/connections/${id}/outbox`)).status).toBe(200);

    const waiting = Array.from({ length: 12 }, (_, k) => ({ id: `AWAY-${String(k).padStart(2, '0')}`, from: `551198766000${k % 2}`, name: 'Away', body: `while away ${k}` }));
    waiting[5] = { ...waiting[5]!, mediaType: 'image', mediaBase64: Buffer.from('jpeg bytes').toString('base64'), mediaName: 'foto.jpg' } as (typeof waiting)[number];
    const kept = await atSimulator('POST', `/connections/${id}/inbound`, waiting);
    expect(kept.status).toBe(202);
    expect((kept.body.messages as NormalizedMessage[]).map((m) => m.id)).toEqual(waiting.map((m) => m.id));
    expect(kept.body.messages[5]).toMatchObject({ mediaType: 'image' });
    expect(kept.body.messages[5].media).toBeUndefined();

    const next = await startNode();
    const received: string[] = [];
    next.atende.container.bus.on(Events.messageReceived, (event) => void received.push((event.payload as { message: NormalizedMessage }).message.id), 'test');
    const wids = waiting.map((m) => m.id);
    const rows = await eventually(async () => {
      const found = await storedOf(next, t.companyId, wids);
      return found.length === wids.length ? found : undefined;
    }, 15_000, 'the waiting messages to be stored');
    expect((await connectionRow(next, id)).status).toBe('CONNECTED');
    for (let chat = 0; chat < 2; chat += 1) {
      const number = `551198766000${chat}`;
      expect(rows.filter((r) => r.remoteJid === number).map((r) => r.wid)).toEqual(waiting.filter((m) => m.from === number).map((m) => m.id));
    }
    expect(rows.find((r) => r.wid === 'AWAY-05')).toMatchObject({ mediaType: 'image', mediaName: 'foto.jpg' });

    // Acknowledged once journaled, the server forgets them: the session's next driver is not handed them again.
    const before = received.length;
    await next.atende.container.sessions.start(id);
    await eventually(async () => next.atende.container.sessions.statusOf(id) === 'CONNECTED');
    const token = (await next.login(t.admin.email, PASSWORD)).token;
    const fresh = await next.call('POST', `/api/simulator/${id}/inbound`, { token, body: { id: 'AFTER-1', from: '5511987660000', name: 'Away', body: 'back' } });
    expect(fresh.status).toBe(201);
    expect(received.slice(before)).toEqual(['AFTER-1']);
    expect(await storedOf(next, t.companyId, wids)).toHaveLength(wids.length);
  });

  it('a node writing to a server that is not there gets 502 ERR_SIMULATOR_UNREACHABLE', async () => {
    const lone = await startTestServer({ simulatorUrl: `http://127.0.0.1:${await freePort()}` });
    try {
      const tenant = await createTenant(lone, 'Lonely Co');
      const created = await lone.call('POST', '/api/whatsapp', { token: tenant.admin.token, body: { name: 'Nowhere', provider: 'simulator' } });
      expect(created.status).toBe(201);
      const res = await lone.call('POST', `/api/simulator/${created.body.id}/inbound`, { token: tenant.admin.token, body: { from: '5511987654321', name: 'X', body: 'hi' } });
      expect(res.status).toBe(502);
      expect(res.body.error).toBe('ERR_SIMULATOR_UNREACHABLE');
    } finally {
      await lone.close();
    }
  });
});

describe('when the simulator server restarts', () => {
  let server: ResultPromise;
  let node: TestServer;

  async function startSimulator(port: number): Promise<{ url: string }> {
    const started = await startSimulatorServer({ port });
    server = started.sub;
    return started;
  }

  afterAll(async () => {
    await node?.close();
    server?.kill('SIGTERM');
    await server;
  });

  it('the drivers link again by themselves, CONNECTED with their stored number, and customers reach the node', async () => {
    const port = await freePort();
    const { url } = await startSimulator(port);
    node = await startTestServer({ simulatorUrl: url });
    const t = await createTenant(node, 'Restarted Sim Co');
    const id = await createConnection(node, t, 'Phone');
    const paired = await eventually(async () => {
      const row = await connectionRow(node, id);
      return row.status === 'CONNECTED' ? row.number : undefined;
    });

    server.kill('SIGTERM');
    expect((await server).exitCode).toBe(0);
    await eventually(async () => node.atende.container.sessions.statusOf(id) === 'OPENING', 10_000, 'the session to show OPENING');
    await startSimulator(port);
    await eventually(async () => node.atende.container.sessions.statusOf(id) === 'CONNECTED', 30_000, 'the session to link again');
    expect((await connectionRow(node, id)).number).toBe(paired);

    const res = await node.call('POST', `/api/simulator/${id}/inbound`, { token: t.admin.token, body: { id: 'AFTER-RESTART', from: '5511987654321', name: 'Carla', body: 'Oi de novo' } });
    expect(res.status).toBe(201);
    await eventually(async () => ((await storedOf(node, t.companyId, ['AFTER-RESTART'])).length === 1 ? true : undefined), 15_000);
  });
});

describe('two nodes of one installation', () => {
  it('the last driver linked to a phone takes it over: its node hears the customers, the other goes quiet', async () => {
    const first = await startTestServer({ simulatorUrl });
    // Started before the first runs a session: later, a node without Redis would refuse to start.
    const second = await startTestServer({ simulatorUrl }, { sameDatabaseAs: first });
    try {
      const t = await createTenant(first, 'Two Nodes Co');
      const id = await createConnection(first, t, 'Shared phone');
      await eventually(async () => first.atende.container.sessions.statusOf(id) === 'CONNECTED');
      const heard = { first: [] as string[], second: [] as string[] };
      first.atende.container.bus.on(Events.messageReceived, (event) => void heard.first.push((event.payload as { message: NormalizedMessage }).message.id), 'test');
      second.atende.container.bus.on(Events.messageReceived, (event) => void heard.second.push((event.payload as { message: NormalizedMessage }).message.id), 'test');

      // The lease moves to the second node as its taking it writes it: its scan starts a driver
      // there, linked to the phone while the first's still is (until its next renewal).
      const db = second.atende.container.db;
      await db('sessionLeases').where({ connectionId: id }).update({ nodeId: second.config.nodeId, token: db.raw('token + 1') });
      await second.atende.container.leases.scan();
      await eventually(async () => second.atende.container.sessions.statusOf(id) === 'CONNECTED', 15_000);

      // Asked through the first node, answered by the second's journal.
      const res = await first.call('POST', `/api/simulator/${id}/inbound`, { token: t.admin.token, body: { id: 'TAKEN-OVER', from: '5511987654321', name: 'Carla', body: 'Oi' } });
      expect(res.status).toBe(201);
      // Answered once the second node's journal holds it; stored and told a moment later.
      await eventually(async () => heard.second.length > 0, 10_000, 'the second node to hear it');
      expect(heard).toEqual({ first: [], second: ['TAKEN-OVER'] });
    } finally {
      await second.close();
      await first.close();
    }
  });
});
