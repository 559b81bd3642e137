import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, createMember, customerWrites, eventually, type Member } from '../helpers/inbox.js';
import { withPlan, type TenantOnPlan } from '../helpers/plans.js';
import { restartableDatabase, startTestServer, type TestServer } from '../helpers/server.js';

/** One request the receiver got. */
interface Received {
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: { id: string; event: string; createdAt: string; companyId: number; data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- payloads read freely
  answered: number;
}

/**
 * A local receiver: records every request; `failFirst[path]` answers 500 to that many requests of a
 * path before 200s, `down` answers 503 to all.
 */
async function startReceiver() {
  const requests: Received[] = [];
  const failFirst: Record<string, number> = {};
  const state = { down: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      let answered = 200;
      if (state.down) answered = 503;
      else if ((failFirst[path] ?? 0) > 0) {
        failFirst[path]! -= 1;
        answered = 500;
      }
      requests.push({ path, headers: req.headers as Record<string, string>, raw, body: JSON.parse(raw), answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'try later');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    failFirst,
    state,
    to: (path: string) => requests.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** What a receiver does: HMAC-SHA256 of `<timestamp>.<raw body>` with the secret. */
function verified(r: Received, secret: string): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(`${r.headers['x-atende-timestamp']}.${r.raw}`).digest('hex')}`;
  return r.headers['x-atende-signature'] === expected;
}

const ALL = ['message.received', 'message.sent', 'message.status', 'ticket.created', 'ticket.updated', 'contact.created', 'contact.updated'];
const FAST = { retryDelayMs: 200, maxRetryDelayMs: 1000, sweepEveryMs: 1000 };

/** A receiver path of its own (a test's retry does not read its first attempt's deliveries). */
const pathOf = (name: string) => `/${name}/${Date.now()}`;

let numbers = 0;
function nextNumber(): string {
  numbers += 1;
  return `55119770${String(numbers).padStart(5, '0')}`;
}

describe('webhooks', () => {
  let server: TestServer;
  let receiver: Receiver;
  let t: TenantOnPlan;
  let other: TenantOnPlan;
  let agent: Member;
  let phone: number;

  async function register(tenant: TenantOnPlan, path: string, events = ALL): Promise<{ id: number; secret: string }> {
    const res = await server.call('POST', '/api/webhooks', { token: tenant.token, body: { url: receiver.url + path, events } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  async function deliveriesOf(webhookId: number): Promise<any[]> { // eslint-disable-line @typescript-eslint/no-explicit-any -- answers read freely
    const res = await server.call('GET', `/api/webhooks/${webhookId}/deliveries`, { token: t.token });
    expect(res.status).toBe(200);
    return res.body.deliveries;
  }

  /** The customer's ticket, once the inbound pipeline has made it. */
  async function ticketOf(number: string): Promise<number> {
    const db = server.atende.container.db;
    const row = await eventually(() => db('tickets').join('contacts', 'contacts.id', 'tickets.contact_id').where('contacts.number', number).select('tickets.id').first(), 10_000, 'the ticket');
    return row.id as number;
  }

  /** What the receiver got on `path` about the customer `number`. */
  const about = (path: string, number: string) => receiver.to(path).filter((r) => r.body.data.ticket?.contact?.number === number);

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ simulator: true, allowPrivateUrls: true, pluginConfig: { webhooks: { ...FAST, giveUpAfterMs: 4000 } } });
    t = await withPlan(server, {});
    other = await withPlan(server, {});
    agent = await createMember(server, t, 'agente', { allTicket: 'enabled' });
    phone = await createConnection(server, t, 'Principal');
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  describe('endpoints', () => {
    it('are created with a secret made by the server, listed without it, revealed and replaced by admins', async () => {
      const created = await server.call('POST', '/api/webhooks', { token: t.token, body: { url: `${receiver.url}/crud`, events: ['ticket.created', 'ticket.created'] } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ id: expect.any(Number), url: `${receiver.url}/crud`, events: ['ticket.created'], active: true, secret: expect.stringMatching(/^whsec_[\w-]{43}$/) });
      const { id, secret } = created.body;
      const list = await server.call('GET', '/api/webhooks', { token: t.token });
      expect(list.body.webhooks).toEqual([expect.objectContaining({ id, events: ['ticket.created'] })]);
      expect(JSON.stringify(list.body)).not.toContain(secret);
      const stored = await server.atende.container.db('webhook_endpoints').where({ id }).first();
      expect(stored.secret).not.toContain(secret);
      expect((await server.call('GET', `/api/webhooks/${id}/secret`, { token: t.token })).body.secret).toBe(secret);
      const rotated = await server.call('POST', `/api/webhooks/${id}/secret`, { token: t.token });
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(secret);
      const updated = await server.call('PUT', `/api/webhooks/${id}`, { token: t.token, body: { events: ['contact.created'], active: false } });
      expect(updated.body).toMatchObject({ id, events: ['contact.created'], active: false });
      expect((await server.call('DELETE', `/api/webhooks/${id}`, { token: t.token })).status).toBe(204);
      expect((await server.call('GET', `/api/webhooks/${id}`, { token: t.token })).status).toBe(404);
    });

    it('refuse bad input with a clear message', async () => {
      for (const body of [{ url: '', events: ['ticket.created'] }, { url: `${receiver.url}/x`, events: [] }, { url: `${receiver.url}/x`, events: ['ticket.deleted'] }, { events: ['ticket.created'] }]) {
        const res = await server.call('POST', '/api/webhooks', { token: t.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message: expect.any(String) });
      }
      for (const url of ['ftp://example.com/hook', 'not a url']) {
        const res = await server.call('POST', '/api/webhooks', { token: t.token, body: { url, events: ['ticket.created'] } });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('ERR_URL_NOT_ALLOWED');
      }
    });

    it('are for admins of their own company: another company\'s id is 404 and nothing changes', async () => {
      const mine = await register(t, '/tenancy', ['ticket.created']);
      for (const [method, path] of [
        ['GET', '/api/webhooks'],
        ['POST', '/api/webhooks'],
        ['GET', `/api/webhooks/${mine.id}`],
        ['PUT', `/api/webhooks/${mine.id}`],
        ['DELETE', `/api/webhooks/${mine.id}`],
        ['GET', `/api/webhooks/${mine.id}/secret`],
        ['GET', `/api/webhooks/${mine.id}/deliveries`],
      ] as const) {
        expect((await server.call(method, path, { token: agent.token, body: method === 'GET' || method === 'DELETE' ? undefined : { url: `${receiver.url}/a`, events: ['ticket.created'] } })).status, `${method} ${path}`).toBe(403);
      }
      for (const [method, path] of [
        ['GET', `/api/webhooks/${mine.id}`],
        ['PUT', `/api/webhooks/${mine.id}`],
        ['DELETE', `/api/webhooks/${mine.id}`],
        ['GET', `/api/webhooks/${mine.id}/secret`],
        ['POST', `/api/webhooks/${mine.id}/secret`],
        ['GET', `/api/webhooks/${mine.id}/deliveries`],
        ['POST', `/api/webhooks/${mine.id}/deliveries/1/resend`],
        ['GET', '/api/webhooks/abc'],
      ] as const) {
        const res = await server.call(method, path, { token: other.token, body: method === 'PUT' ? { active: false, url: `${receiver.url}/stolen` } : undefined });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error).toBe('ERR_NO_WEBHOOK_FOUND');
      }
      expect((await server.call('GET', '/api/webhooks', { token: other.token })).body.webhooks).toEqual([]);
      expect((await server.call('GET', `/api/webhooks/${mine.id}`, { token: t.token })).body).toMatchObject({ url: `${receiver.url}/tenancy`, active: true });
      expect((await server.call('GET', `/api/webhooks/${mine.id}/secret`, { token: t.token })).body.secret).toBe(mine.secret);
      await server.call('DELETE', `/api/webhooks/${mine.id}`, { token: t.token });
    });

    it('need the useExternalApi plan flag', async () => {
      const off = await withPlan(server, { features: { useExternalApi: false } });
      const res = await server.call('GET', '/api/webhooks', { token: off.token });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    });
  });

  describe('deliveries', () => {
    it('a whole conversation reaches the receiver signed, once per event id, in order per ticket', async () => {
      const path = pathOf('conversation');
      const hook = await register(t, path);
      const number = nextNumber();
      await customerWrites(server, t, phone, { from: number, body: 'Olá, quero um orçamento' });
      const ticketId = await ticketOf(number);
      // The agent answers a ticket it was shown: the message's event goes out with the ticket's first frame,
      // a moment after its row is committed (where ticketOf finds it).
      await eventually(async () => receiver.to(path).some((r) => r.body.event === 'message.received'), 15_000, 'the message announced');
      const accepted = await server.call('PUT', `/api/tickets/${ticketId}`, { token: agent.token, body: { status: 'open', userId: agent.id } });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const reply = await server.call('POST', `/api/messages/${ticketId}`, { token: agent.token, body: { body: 'Claro! Qual produto?' } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);

      const needed = ['contact.created', 'ticket.created', 'message.received', 'ticket.updated', 'message.sent', 'message.status'];
      await eventually(async () => needed.every((e) => receiver.to(path).some((r) => r.body.event === e)), 15_000, 'every event of the conversation');
      await eventually(async () => (await deliveriesOf(hook.id)).every((d) => d.status === 'sent'), 15_000, 'every delivery sent');
      const got = receiver.to(path);
      for (const r of got) {
        expect(verified(r, hook.secret), r.body.event).toBe(true);
        expect(r.headers['x-atende-event']).toBe(r.body.event);
        expect(r.headers['x-atende-delivery']).toBe(r.body.id);
        expect(Math.abs(Number(r.headers['x-atende-timestamp']) - Date.now() / 1000)).toBeLessThan(600);
        expect(r.body.companyId).toBe(t.companyId);
      }
      const ids = got.map((r) => r.body.id);
      expect(new Set(ids).size).toBe(ids.length);

      const received = got.find((r) => r.body.event === 'message.received')!;
      expect(received.body.data).toMatchObject({ message: { body: 'Olá, quero um orçamento', fromMe: false }, ticket: { id: ticketId } });
      expect(received.body.data.actor).toBeNull();
      const agentActor = { type: 'user', id: agent.id, name: 'agente' };
      expect(got.find((r) => r.body.event === 'message.sent')!.body.data).toMatchObject({ message: { body: 'Claro! Qual produto?', fromMe: true, userId: agent.id, apiToken: null }, actor: agentActor });
      expect(got.find((r) => r.body.event === 'ticket.updated')!.body.data).toMatchObject({ changes: { status: { before: 'pending', after: 'open' } }, actor: agentActor });

      // The ticket's events arrived in the order they happened.
      const ofTicket = got.filter((r) => r.body.event !== 'contact.created' && r.body.event !== 'contact.updated').map((r) => r.body.event);
      expect(ofTicket.indexOf('ticket.created')).toBeLessThan(ofTicket.indexOf('message.received'));
      expect(ofTicket.indexOf('message.received')).toBeLessThan(ofTicket.indexOf('ticket.updated'));
      expect(ofTicket.indexOf('ticket.updated')).toBeLessThan(ofTicket.indexOf('message.sent'));
      expect(ofTicket.indexOf('message.sent')).toBeLessThan(ofTicket.indexOf('message.status'));
      const stored = (await server.atende.container.db('webhook_deliveries').where({ endpointId: hook.id, orderKey: `ticket:${ticketId}` }).orderBy('eventSeq')).map((d) => d.eventId as string);
      const arrived = got.map((r) => r.body.id);
      // (An ack may still be on its way: compare what both sides have.)
      expect(arrived.filter((id) => stored.includes(id))).toEqual(stored.filter((id) => arrived.includes(id)));
      expect(stored.filter((id) => arrived.includes(id)).length).toBeGreaterThanOrEqual(5);
      await server.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.token });
    });

    it('what a company API token does is told as the token\'s, not its admin\'s', async () => {
      await register(t, '/by-token', ['message.sent', 'ticket.updated']);
      const made = await server.call('POST', '/api/api-tokens', { token: t.token, body: { name: 'ERP', scopes: ['tickets:write', 'messages:write'] } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const token = made.body.token as string;
      const tokenActor = { type: 'apiToken', id: made.body.id as number, name: 'ERP' };
      const number = nextNumber();
      await customerWrites(server, t, phone, { from: number, body: 'Meu pedido chegou?' });
      const ticketId = await ticketOf(number);
      expect((await server.call('PUT', `/api/tickets/${ticketId}`, { token, body: { status: 'open' } })).status).toBe(200);
      const reply = await server.call('POST', `/api/messages/${ticketId}`, { token, body: { body: 'Sim, entregue hoje' } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(reply.body.messages[0]).toMatchObject({ userId: null, apiToken: { id: tokenActor.id, name: 'ERP' } });

      await eventually(async () => about('/by-token', number).some((r) => r.body.event === 'message.sent'), 15_000, 'the token\'s reply');
      const got = about('/by-token', number);
      expect(got.find((r) => r.body.event === 'message.sent')!.body.data).toMatchObject({ message: { body: 'Sim, entregue hoje', userId: null, apiToken: { id: tokenActor.id, name: 'ERP' } }, actor: tokenActor });
      expect(got.find((r) => r.body.event === 'ticket.updated')!.body.data).toMatchObject({ changes: { status: { after: 'open' } }, actor: tokenActor });
    });

    it('a receiver answering 500 is tried again with the same event id; later events of the ticket wait for it', async () => {
      const hook = await register(t, '/flaky', ['message.received']);
      receiver.failFirst['/flaky'] = 2;
      const number = nextNumber();
      for (const body of ['primeira', 'segunda', 'terceira']) await customerWrites(server, t, phone, { from: number, body });
      await eventually(async () => about('/flaky', number).filter((r) => r.answered === 200).length === 3, 15_000, 'three deliveries');
      const got = about('/flaky', number);
      expect(got.map((r) => [r.body.data.message.body, r.answered])).toEqual([
        ['primeira', 500],
        ['primeira', 500],
        ['primeira', 200],
        ['segunda', 200],
        ['terceira', 200],
      ]);
      expect(new Set(got.slice(0, 3).map((r) => r.headers['x-atende-delivery'])).size).toBe(1);
      for (const r of got) expect(verified(r, hook.secret)).toBe(true);
      const deliveries = (await deliveriesOf(hook.id)).filter((d) => got.some((r) => r.body.id === d.eventId));
      expect(deliveries.map((d) => [d.status, d.attempts, d.lastStatusCode])).toEqual([
        ['sent', 1, 200],
        ['sent', 1, 200],
        ['sent', 3, 200],
      ]);
      await server.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.token });
    });

    it('a receiver that keeps failing is given up (failed) once the time is over, and the next event goes out', async () => {
      const hook = await register(t, '/down', ['message.received']);
      receiver.failFirst['/down'] = 1000;
      const number = nextNumber();
      await customerWrites(server, t, phone, { from: number, body: 'ninguém ouve' });
      await eventually(async () => (await deliveriesOf(hook.id))[0]?.status === 'failed', 15_000, 'the delivery given up');
      const [failed] = await deliveriesOf(hook.id);
      expect(failed).toMatchObject({ status: 'failed', lastStatusCode: 500, lastError: expect.stringContaining('HTTP 500'), deliveredAt: null });
      expect(failed.attempts).toBeGreaterThan(1);
      receiver.failFirst['/down'] = 0;
      await customerWrites(server, t, phone, { from: number, body: 'agora sim' });
      await eventually(async () => receiver.to('/down').some((r) => r.answered === 200), 10_000, 'the next delivery');

      // Resend: the same event id and body, attempted again.
      const resent = await server.call('POST', `/api/webhooks/${hook.id}/deliveries/${failed.id}/resend`, { token: t.token });
      expect(resent.status, JSON.stringify(resent.body)).toBe(200);
      expect(resent.body).toMatchObject({ id: failed.id, eventId: failed.eventId, status: 'pending' });
      await eventually(async () => receiver.to('/down').some((r) => r.answered === 200 && r.body.id === failed.eventId), 10_000, 'the resent delivery');
      const again = (await deliveriesOf(hook.id)).find((d) => d.id === failed.id);
      expect(again).toMatchObject({ status: 'sent', lastStatusCode: 200, attempts: failed.attempts + 1 });
      await server.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.token });
    });

    it('an inactive endpoint, an event it did not ask for and another company get nothing', async () => {
      const paused = await register(t, '/paused', ['message.received']);
      await server.call('PUT', `/api/webhooks/${paused.id}`, { token: t.token, body: { active: false } });
      const picky = await register(t, '/picky', ['ticket.updated']);
      const theirs = await register(other, '/theirs');
      const watched = await register(t, '/watched', ['message.received']);
      await customerWrites(server, t, phone, { from: nextNumber(), body: 'só para o ativo' });
      await eventually(async () => receiver.to('/watched').length > 0, 10_000, 'the active endpoint');
      // The deliveries are written as the event is emitted: none was written for the others.
      const rows = await server.atende.container.db('webhook_deliveries').whereIn('endpointId', [paused.id, picky.id, theirs.id]);
      expect(rows).toEqual([]);
      for (const path of ['/paused', '/picky', '/theirs']) expect(receiver.to(path)).toEqual([]);
      for (const hook of [paused, picky, watched]) await server.call('DELETE', `/api/webhooks/${hook.id}`, { token: t.token });
      await server.call('DELETE', `/api/webhooks/${theirs.id}`, { token: other.token });
    });
  });
});

describe('webhooks without allowPrivateUrls', () => {
  it('a private, loopback or link-local URL is refused when saving', async () => {
    const strict = await startTestServer();
    try {
      const s = await withPlan(strict, {});
      for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost:5678/webhook', 'http://10.0.0.5/hook', 'http://169.254.169.254/latest', 'http://[::1]:8080/hook']) {
        const res = await strict.call('POST', '/api/webhooks', { token: s.token, body: { url, events: ['ticket.created'] } });
        expect(res.status, url).toBe(400);
        expect(res.body.error).toBe('ERR_URL_NOT_ALLOWED');
        expect(res.body.message).toContain('private, loopback or link-local');
      }
      expect(await strict.atende.container.db('webhook_endpoints')).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('webhooks\' old deliveries', () => {
  it('settled ones older than the retention are deleted by the daily job, never one still pending', async () => {
    const receiver = await startReceiver();
    const s = await startTestServer({ simulator: true, allowPrivateUrls: true, pluginConfig: { webhooks: { pruneEveryMs: 1000, retentionDays: 30 } } });
    try {
      const tenant = await withPlan(s, {});
      const connection = await createConnection(s, tenant, 'Principal');
      const register = async (path: string) => (await s.call('POST', '/api/webhooks', { token: tenant.token, body: { url: receiver.url + path, events: ['message.received'] } })).body.id as number;
      const fine = await register('/fine');
      const failing = await register('/failing');
      receiver.failFirst['/failing'] = 1000;
      const db = s.atende.container.db;
      const number = nextNumber();
      await customerWrites(s, tenant, connection, { from: number, body: 'mensagem antiga' });
      await eventually(async () => (await db('webhook_deliveries').where({ endpointId: fine, status: 'sent' })).length === 1, 10_000, 'the delivery sent');
      await eventually(async () => receiver.to('/failing').length > 0, 10_000, 'the failing attempt');
      // Both made 40 days ago: the sent one is past the retention, the other is still being tried.
      const aged = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000).toISOString();
      await db('webhook_deliveries').update({ createdAt: aged });
      const old = await db('webhook_deliveries').select('id', 'endpointId', 'status');
      expect(old.map((d) => `${d.endpointId}:${d.status}`).sort()).toEqual([`${fine}:sent`, `${failing}:pending`].sort());

      await customerWrites(s, tenant, connection, { from: number, body: 'mensagem nova' });
      const oldSent = old.find((d) => d.endpointId === fine)!.id as number;
      const oldPending = old.find((d) => d.endpointId === failing)!.id as number;
      // The new message's delivery is sent and kept; the old sent one goes.
      await eventually(async () => {
        const rows = await db('webhook_deliveries').where({ endpointId: fine });
        return rows.length === 1 && rows[0].id !== oldSent && rows[0].status === 'sent';
      }, 15_000, 'the old sent delivery pruned, the new one kept');
      // The pending one stays, however old.
      expect(await db('webhook_deliveries').where({ id: oldPending }).first()).toMatchObject({ status: 'pending' });
    } finally {
      await s.close();
      await receiver.close();
    }
  }, 60_000);
});

describe('webhooks across a restart', () => {
  let databaseUrl: string;
  let drop: () => Promise<void>;
  let receiver: Receiver;
  const servers: TestServer[] = [];
  const jwtSecret = 'webhooks-restart-secret-0123456789abcdef';

  beforeAll(async () => {
    ({ databaseUrl, drop } = await restartableDatabase());
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await drop();
    await receiver.close();
  });

  async function boot(): Promise<TestServer> {
    const s = await startTestServer({ simulator: true, databaseUrl, jwtSecret, allowPrivateUrls: true, pluginConfig: { webhooks: FAST } });
    servers.push(s);
    return s;
  }

  it('deliveries pending at the stop are delivered after the restart, each event id once', async () => {
    const first = await boot();
    const tenant = await withPlan(first, {});
    const connection = await createConnection(first, tenant, 'Principal');
    const path = pathOf('restart');
    const created = await first.call('POST', '/api/webhooks', { token: tenant.token, body: { url: `${receiver.url}${path}`, events: ['message.received', 'ticket.created'] } });
    expect(created.status).toBe(201);
    receiver.state.down = true;
    const number = nextNumber();
    for (const body of ['antes', 'do', 'reinício']) await customerWrites(first, tenant, connection, { from: number, body });
    await eventually(async () => receiver.to(path).length > 0, 10_000, 'a first attempt');
    // The pipeline records the last message's events on its own time: wait for all four rows.
    const pending = await eventually(async () => {
      const rows = await first.atende.container.db('webhook_deliveries').where({ endpointId: created.body.id, status: 'pending' });
      return rows.length === 4 ? rows : undefined;
    }, 10_000, 'four pending deliveries');
    expect(pending).toHaveLength(4);
    servers.splice(servers.indexOf(first), 1);
    await first.close();

    receiver.state.down = false;
    const second = await boot();
    await eventually(async () => (await second.atende.container.db('webhook_deliveries').where({ endpointId: created.body.id, status: 'sent' })).length === 4, 40_000, 'the deliveries after the restart');
    const delivered = receiver.to(path).filter((r) => r.answered === 200);
    expect(delivered.map((r) => r.body.event)).toEqual(['ticket.created', 'message.received', 'message.received', 'message.received']);
    expect(delivered.slice(1).map((r) => r.body.data.message.body)).toEqual(['antes', 'do', 'reinício']);
    expect(new Set(delivered.map((r) => r.body.id)).size).toBe(4);
    for (const r of delivered) expect(verified(r, created.body.secret)).toBe(true);
  }, 90_000);
  it('a pending delivery whose job was lost is taken up by the sweep', async () => {
    // The last test's server stops first: two nodes without Redis may not run sessions on one database.
    for (const running of servers.splice(0)) await running.close();
    const s = await boot();
    const tenant = await withPlan(s, {});
    const connection = await createConnection(s, tenant, 'Principal');
    const path = pathOf('lost');
    const created = await s.call('POST', '/api/webhooks', { token: tenant.token, body: { url: `${receiver.url}${path}`, events: ['message.received'] } });
    receiver.state.down = true;
    await customerWrites(s, tenant, connection, { from: nextNumber(), body: 'job perdido' });
    await eventually(async () => receiver.to(path).length > 0, 10_000, 'a first attempt');
    // As if the process died between writing the row and its job: no job left for it, no attempt under way.
    const { jobs, db } = s.atende.container;
    const quiet = async () => (await jobs.cancel({ name: 'webhooks.deliver' })) === 0 && (await db('webhook_deliveries').where({ endpointId: created.body.id }).first()).leasedUntil === null;
    await eventually(async () => (await quiet()) && (await new Promise((r) => setTimeout(r, 300))) === undefined && quiet(), 10_000, 'no job left');
    receiver.state.down = false;
    await eventually(async () => (await db('webhook_deliveries').where({ endpointId: created.body.id }).first()).status === 'sent', 30_000, 'the sweep delivering it');
    expect(new Set(receiver.to(path).map((r) => r.body.id)).size).toBe(1);
  }, 90_000);
});
