import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';
import { createConnection, createMember, createTenant, customerWrites, eventually, PASSWORD, type InboxTenant } from '../helpers/inbox.js';
import { PRESENCE_SWEEP_JOB } from '../../core/cluster/presence.js';

/**
 * Two nodes of one installation: one database, one data folder (so one token secret), one Redis.
 * CI sets ATENDE_TEST_REDIS_URL (and fails on a skip); elsewhere the suite runs when a Redis is named.
 */
const redisUrl = process.env.ATENDE_TEST_REDIS_URL;

describe.skipIf(!redisUrl)('several nodes on one Redis', () => {
  let a: TestServer;
  let b: TestServer;
  let tenant: InboxTenant;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    a = await startTestServer({ redisUrl, simulator: true });
    b = await startTestServer({ redisUrl, simulator: true }, { sameDatabaseAs: a });
    tenant = await createTenant(a, 'Cluster Co');
  });

  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await b?.close();
    await a?.close();
  });

  async function socketOn(server: TestServer, token: string): Promise<TestSocket> {
    const socket = await openSocket(server.url, token);
    sockets.push(socket);
    return socket;
  }

  it("a customer's message handled on one node reaches an agent's socket on the other", async () => {
    const connectionId = await createConnection(a, tenant, 'Cluster phone');
    const onB = await socketOn(b, tenant.admin.token);
    const wid = await customerWrites(a, tenant, connectionId, { from: '5511988880001', body: 'olá de outro nó' });
    const frame = await onB.next((f) => f.channel === `company-${tenant.companyId}-appMessage` && (f.data as { message?: { wid?: string } }).message?.wid === wid);
    expect((frame.data as { message: { body: string } }).message.body).toBe('olá de outro nó');
  });

  it('a frame published on one node reaches each socket once, on every node', async () => {
    const onA = await socketOn(a, tenant.admin.token);
    const onB = await socketOn(b, tenant.admin.token);
    const channel = `company-${tenant.companyId}-cluster-check`;
    b.atende.container.realtime.publish(tenant.companyId, channel, { n: 1 });
    b.atende.container.realtime.publish(tenant.companyId, channel, { n: 2 });
    await onA.next((f) => f.channel === channel && (f.data as { n: number }).n === 2);
    await onB.next((f) => f.channel === channel && (f.data as { n: number }).n === 2);
    for (const socket of [onA, onB]) {
      expect(socket.frames.filter((f) => f.channel === channel).map((f) => (f.data as { n: number }).n)).toEqual([1, 2]);
    }
  });

  it('failed logins count across nodes', async () => {
    const email = tenant.admin.email;
    const fail = (server: TestServer) => server.call('POST', '/api/auth/login', { body: { email, password: 'wrong-password' } });
    for (const server of [a, b, a, b, a]) expect((await fail(server)).status).toBe(401);
    const blocked = await b.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe('ERR_TOO_MANY_LOGIN_ATTEMPTS');
  });

  it("a plan change on one node is seen by the other's cache at once", async () => {
    const plans = b.atende.container.services.plans;
    expect(await plans.isEnabled(tenant.companyId, 'useKanban')).toBe(true);
    const { planId } = (await a.atende.container.db('companies').where({ id: tenant.companyId }).first('planId')) as { planId: number };
    const superToken = (await a.login('super@atende.test', 'super-secret')).token;
    expect((await a.call('PUT', `/api/plans/${planId}`, { token: superToken, body: { useKanban: false } })).status).toBe(200);
    // Within the signal's trip, far below the cache's 30 s.
    await eventually(async () => !(await plans.isEnabled(tenant.companyId, 'useKanban')), 2000, 'node B to drop the plan');
  });

  it('a user stays online while a socket is open on any node', async () => {
    const { token } = await b.login('super@atende.test', 'super-secret');
    const me = (await b.call('GET', '/api/auth/me', { token })).body.user as { id: number };
    const online = async () => ((await a.atende.container.db('users').where({ id: me.id }).first('online')) as { online: boolean | number }).online;
    const onA = await openSocket(a.url, token);
    const onB = await openSocket(b.url, token);
    await eventually(async () => Boolean(await online()), 3000, 'online');
    await onA.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Boolean(await online())).toBe(true);
    await onB.close();
    await eventually(async () => !(await online()), 3000, 'offline');
  });

  it("a user a dead node left online goes offline at the next sweep, live for the company; one with a socket stays", async () => {
    const db = a.atende.container.db;
    const heldId = tenant.admin.id;
    const onB = await socketOn(b, tenant.admin.token);
    const flag = async (id: number) => Boolean(((await db('users').where({ id }).first('online')) as { online: boolean | number }).online);
    await eventually(() => flag(heldId), 3000, 'the socket holder online');
    // A user whose only node died: flagged online, no socket anywhere.
    const stale = (await createMember(a, tenant, 'stale')).id;
    await db('users').where({ id: stale }).update({ online: true });

    await a.atende.container.jobs.now(PRESENCE_SWEEP_JOB, {});
    await eventually(async () => !(await flag(stale)), 5000, 'the stale user offline');
    const frame = await onB.next(
      (f) => f.channel === `company-${tenant.companyId}-user` && (f.data as { user?: { id: number; online: boolean } }).user?.id === stale,
    );
    expect((frame.data as { user: { online: boolean } }).user.online).toBe(false);
    expect(await flag(heldId)).toBe(true);
  });
});
