import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The tenancy promise: an admin of company B who tries every id-taking route on company A's
 * records gets 404 (or 403 where the route is for super users) and nothing of A changes.
 */
let server: TestServer;
let tokenB: string;
let companyA: number;
let companyB: number;
let userOfA: number;
let queueOfA: number;

async function snapshotOf(companyId: number) {
  const db = server.atende.container.db;
  return {
    company: await db('companies').where({ id: companyId }).first(),
    users: await db('users').where({ companyId }).orderBy('id'),
    settings: await db('settings').where({ companyId }).orderBy('id'),
    queues: await db('queues').where({ companyId }).orderBy('id'),
    userQueues: await db('userQueues').whereIn('queueId', db('queues').select('id').where({ companyId })),
    plans: await db('plans').orderBy('id'),
  };
}

beforeAll(async () => {
  server = await startTestServer();
  const { companies } = server.atende.container.services;
  const a = await companies.createTenant({ name: 'Empresa A', email: 'admin@a.test', password: 'secret-a' });
  const b = await companies.createTenant({ name: 'Empresa B', email: 'admin@b.test', password: 'secret-b' });
  companyA = a.company.id;
  companyB = b.company.id;
  userOfA = a.admin.id;
  queueOfA = (await server.atende.container.db('queues').where({ companyId: companyA }).first('id')).id;
  tokenB = (await server.login('admin@b.test', 'secret-b')).token;
});

afterAll(async () => {
  await server?.close();
});

describe("an admin of company B on company A's records", () => {
  it('gets 404 or 403 on every id-taking route, and company A is unchanged', async () => {
    const before = await snapshotOf(companyA);
    const attempts: [string, string, unknown, number[]][] = [
      ['GET', `/api/users/${userOfA}`, undefined, [404]],
      ['PUT', `/api/users/${userOfA}`, { name: 'Hacked', profile: 'user' }, [404]],
      ['PUT', `/api/users/${userOfA}`, { password: 'taken-over' }, [404]],
      ['DELETE', `/api/users/${userOfA}`, undefined, [404]],
      ['GET', `/api/users/list?companyId=${companyA}`, undefined, [403, 404]],
      ['POST', '/api/users', { name: 'Intruso', email: 'intruso@b.test', password: 'secret', profile: 'user', queueIds: [queueOfA] }, [404]],
      ['GET', `/api/companies/listPlan/${companyA}`, undefined, [404]],
      ['GET', `/api/companies/${companyA}`, undefined, [404]],
      ['PUT', `/api/companies/${companyA}`, { name: 'Hacked' }, [403]],
      ['DELETE', `/api/companies/${companyA}`, undefined, [403]],
      ['PUT', `/api/companies/${companyA}/schedules`, { schedules: [] }, [403, 404]],
      ['GET', '/api/companies', undefined, [403]],
      ['POST', '/api/plans', { name: 'Grátis', users: 99, connections: 99, queues: 99, value: 0 }, [403]],
      ['PUT', '/api/plans/1', { users: 999 }, [403]],
      ['DELETE', '/api/plans/1', undefined, [403]],
    ];
    for (const [method, path, body, statuses] of attempts) {
      const res = await server.call(method, path, { token: tokenB, body });
      expect(statuses, `${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      expect(res.body.error, `${method} ${path}`).toMatch(/^ERR_/);
    }
    expect(await snapshotOf(companyA)).toEqual(before);
  });

  it("sees only its own company's users and settings", async () => {
    const users = await server.call('GET', '/api/users', { token: tokenB });
    expect(users.status).toBe(200);
    expect(users.body.users.map((u: { email: string }) => u.email)).toEqual(['admin@b.test']);
    const list = await server.call('GET', '/api/users/list', { token: tokenB });
    expect(list.body.users.every((u: { id: number }) => u.id !== userOfA)).toBe(true);

    const put = await server.call('PUT', '/api/settings/userRating', { token: tokenB, body: { value: 'enabled' } });
    expect(put.status).toBe(200);
    const db = server.atende.container.db;
    expect((await db('settings').where({ companyId: companyB, key: 'userRating' }).first()).value).toBe('enabled');
    expect((await db('settings').where({ companyId: companyA, key: 'userRating' }).first()).value).toBe('disabled');
  });

  it('a super user reaches other companies through the companies routes', async () => {
    const { token } = await server.login(SUPER_EMAIL, SUPER_PASSWORD);
    const res = await server.call('GET', `/api/companies/${companyA}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Empresa A');
  });
});
