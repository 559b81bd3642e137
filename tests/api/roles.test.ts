import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorServer } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';
import { createConnection, createTenant, eventually, type InboxTenant } from '../helpers/inbox.js';

/**
 * A web node and a worker node of one installation (one database, one data folder, one Redis, the
 * phones at `atende simulate server`): the web node serves the API and the sockets and runs no
 * session and no job; the worker runs both and answers only its health check.
 */
const redisUrl = process.env.ATENDE_TEST_REDIS_URL;

describe.skipIf(!redisUrl)('a web node and a worker node', () => {
  let phones: ResultPromise;
  let web: TestServer;
  let worker: TestServer;
  let tenant: InboxTenant;
  let connectionId: number;
  const sockets: TestSocket[] = [];
  const runs: { node: string; n: number }[] = [];

  beforeAll(async () => {
    const { sub, url: simulatorUrl } = await startSimulatorServer();
    phones = sub;
    web = await startTestServer({ redisUrl, simulatorUrl, role: 'web' });
    tenant = await createTenant(web, 'Roles Co');
    // Made through the web node before the worker starts: the worker's boot finds it and runs it.
    connectionId = await createConnection(web, tenant, 'Roles phone', {}, false);
    worker = await startTestServer({ redisUrl, simulatorUrl, role: 'worker' }, { sameDatabaseAs: web });
    for (const [node, server] of [['web', web], ['worker', worker]] as const) {
      server.atende.container.jobs.define<{ n: number }>('test.roles.where', async ({ n }) => {
        runs.push({ node, n });
      });
    }
  });

  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await worker?.close();
    await web?.close();
    phones?.kill('SIGTERM');
    await phones;
  });

  const connection = async () => (await web.call('GET', `/api/whatsapp/${connectionId}`, { token: tenant.admin.token })).body as { status: string };

  it('the worker answers its health check, and no API, app or socket', async () => {
    const health = await worker.call('GET', '/api/version');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ version: worker.config.version });
    const login = await worker.call('POST', '/api/auth/login', { body: { email: tenant.admin.email, password: 'whatever' } });
    expect(login.status).toBe(404);
    expect(login.body.error).toBe('ERR_ROUTE_NOT_FOUND');
    expect((await worker.call('GET', '/')).status).toBe(404);
    await expect(openSocket(worker.url, tenant.admin.token)).rejects.toThrow();
    expect(worker.atende.container.realtime.size).toBe(0);
  });

  it('the worker runs the session; the web node runs none, even when asked through its API', async () => {
    const onWeb = await openSocket(web.url, tenant.admin.token);
    sockets.push(onWeb);
    await eventually(async () => worker.atende.container.sessions.statusOf(connectionId) !== 'DISCONNECTED', 10_000, 'the session on the worker');
    await eventually(async () => (await connection()).status === 'qrcode', 10_000, 'a QR code');

    // "Start again" asked of the web node: still no session there.
    const restart = await web.call('POST', `/api/whatsappsession/${connectionId}`, { token: tenant.admin.token });
    expect(restart.status).toBeLessThan(300);
    expect(web.atende.container.sessions.statusOf(connectionId)).toBe('DISCONNECTED');

    // The phone scans the worker's QR code, through the web node's test API: the status moves on the worker, and the web node's socket hears it.
    // The worker starts the session again as asked: until it is up, a scan answers ERR_WAPP_NOT_INITIALIZED.
    const scan = await eventually(
      async () => {
        const answer = await web.call('POST', `/api/simulator/${connectionId}/scan`, { token: tenant.admin.token, body: { number: '5511977770001' } });
        return answer.body.error === 'ERR_WAPP_NOT_INITIALIZED' ? undefined : answer;
      },
      10_000,
      'the session started again on the worker',
    );
    expect(scan.status, JSON.stringify(scan.body)).toBe(200);
    await onWeb.next((f) => f.channel === `company-${tenant.companyId}-whatsappSession` && (f.data as { session: { status: string } }).session.status === 'CONNECTED');
    expect(await connection()).toMatchObject({ status: 'CONNECTED' });
    expect(worker.atende.container.sessions.statusOf(connectionId)).toBe('CONNECTED');
    expect(web.atende.container.sessions.statusOf(connectionId)).toBe('DISCONNECTED');
  });

  it('a reply written through the web node is sent by the worker', async () => {
    const inbound = await web.call('POST', `/api/simulator/${connectionId}/inbound`, { token: tenant.admin.token, body: { from: '5511966660001', name: 'Cliente', body: 'Oi' } });
    expect(inbound.status, JSON.stringify(inbound.body)).toBe(201);
    const ticket: { id: number } = await eventually(() => web.atende.container.db('tickets').where({ companyId: tenant.companyId }).first('id'), 10_000, 'the ticket');
    const take = await web.call('PUT', `/api/tickets/${ticket.id}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.admin.id } });
    expect(take.status).toBe(200);
    const reply = await web.call('POST', `/api/messages/${ticket.id}`, { token: tenant.admin.token, body: { body: 'Olá, em que posso ajudar?' } });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    await eventually(
      () => web.atende.container.db('messages').where({ ticketId: ticket.id, fromMe: true, sendStatus: 'sent' }).first('id'),
      15_000,
      'the reply sent',
    );
    const sent = await web.call('GET', `/api/simulator/${connectionId}/outbox`, { token: tenant.admin.token });
    expect((sent.body as { messages: { body: string }[] }).messages.map((m) => m.body)).toEqual(['Olá, em que posso ajudar?']);
  });

  it('jobs scheduled through the web node run on the worker only', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, n) => web.atende.container.jobs.now('test.roles.where', { n })));
    await eventually(async () => runs.length >= 10, 30_000, '10 runs');
    // A web node polling for due jobs would have taken some within a poll or two.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(runs).toHaveLength(10);
    expect(runs.every((run) => run.node === 'worker')).toBe(true);
  });
});
