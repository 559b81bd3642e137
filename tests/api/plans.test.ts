import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Events, type DomainEvent } from '../../core/events/event-bus.js';
import { PLAN_FLAGS } from '../../core/contract/views.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';

let server: TestServer;
let superToken: string;
let defaultPlanId: number;
/** An admin of a tenant company: no super flag. */
let tenant: { companyId: number; token: string };

const allFlagsOn = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true]));

/* eslint-disable @typescript-eslint/no-explicit-any -- frame data is read as the test expects it */
/** The data of the first frame on `channel` (heard already or coming) whose data passes `match`. */
async function heard(socket: TestSocket, channel: string, match: (data: any) => boolean): Promise<any> {
  return (await socket.next((frame) => frame.channel === channel && match(frame.data))).data;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

async function createPlan(body: Record<string, unknown>) {
  const res = await server.call('POST', '/api/plans', { token: superToken, body });
  expect(res.status).toBe(201);
  return res.body;
}

async function createCompany(name: string, planId: number, password = 'tenant-pass') {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}@tenant.test`;
  const res = await server.call('POST', '/api/companies', { token: superToken, body: { name, email, planId, password } });
  expect(res.status).toBe(201);
  return { companyId: res.body.company.id as number, email, password };
}

beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
  defaultPlanId = (await server.call('GET', '/api/plans/list')).body[0].id;
  const company = await createCompany('Loja Plano', defaultPlanId);
  tenant = { companyId: company.companyId, token: (await server.login(company.email, company.password)).token };
});
afterAll(async () => {
  await server?.close();
});

describe('plan lists', () => {
  it('GET /api/plans/list is public and answers every plan ordered by id, with limits and flags', async () => {
    await createPlan({ name: 'Lista B', users: 3, connections: 1, queues: 2, value: 49.9 });
    const res = await server.call('GET', '/api/plans/list');
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({
      id: defaultPlanId,
      name: 'Plano Padrão',
      users: 10,
      connections: 5,
      queues: 10,
      value: 0,
      ...allFlagsOn,
    });
    const ids = res.body.map((p: { id: number }) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(res.body.find((p: { name: string }) => p.name === 'Lista B')).toMatchObject({ users: 3, value: 49.9 });
  });

  it('GET /api/plans/all answers the same list', async () => {
    const [all, list] = await Promise.all([server.call('GET', '/api/plans/all'), server.call('GET', '/api/plans/list')]);
    expect(all.status).toBe(200);
    expect(all.body).toEqual(list.body);
  });
});

describe('plan administration', () => {
  it('a super user creates a plan; flags default to true and unknown fields are dropped', async () => {
    const res = await server.call('POST', '/api/plans', {
      token: superToken,
      body: { name: 'Básico', users: 2, connections: 1, queues: 3, value: 19.99, useKanban: false, color: 'red' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Básico', users: 2, connections: 1, queues: 3, value: 19.99, useKanban: false });
    expect(res.body.useCampaigns).toBe(true);
    expect(res.body.useExternalApi).toBe(true);
    expect(res.body).not.toHaveProperty('color');
    const read = await server.call('GET', `/api/plans/${res.body.id}`, { token: superToken });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('a plan write is published to super users and emitted as plan.updated', async () => {
    const events: DomainEvent[] = [];
    const off = server.atende.container.bus.on(Events.planUpdated, (e) => void events.push(e));
    const socket = await openSocket(server.url, superToken);
    const tenantSocket = await openSocket(server.url, tenant.token);
    try {
      const plan = await createPlan({ name: 'Ao Vivo', users: 1, connections: 1, queues: 1, value: 0 });
      const frame = await heard(socket, 'plan', (d) => d.action === 'create' && d.plan.id === plan.id);
      expect(frame.plan.name).toBe('Ao Vivo');
      await server.call('DELETE', `/api/plans/${plan.id}`, { token: superToken });
      await heard(socket, 'plan', (d) => d.action === 'delete' && d.planId === plan.id);
      expect(tenantSocket.frames.filter((f) => f.channel === 'plan')).toEqual([]);
      expect(events.map((e) => (e.payload as { action: string }).action)).toEqual(['create', 'delete']);
    } finally {
      off();
      await socket.close();
      await tenantSocket.close();
    }
  });

  it('plan fields are validated: name required, counts whole and not negative, value not negative, flags boolean', async () => {
    const valid = { name: 'Válido', users: 1, connections: 1, queues: 1, value: 1 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, name: undefined }, 'name'],
      [{ ...valid, name: '   ' }, 'name'],
      [{ ...valid, name: 'x'.repeat(101) }, 'name'],
      [{ ...valid, users: -1 }, 'users'],
      [{ ...valid, connections: 1.5 }, 'connections'],
      [{ ...valid, queues: '3' }, 'queues'],
      [{ ...valid, value: -0.01 }, 'value'],
      [{ ...valid, useOpenAi: 'yes' }, 'useOpenAi'],
    ];
    for (const [body, field] of cases) {
      const res = await server.call('POST', '/api/plans', { token: superToken, body });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.message).toMatch(new RegExp(`^${field}:`));
    }
    const list = await server.call('GET', '/api/plans/list');
    expect(list.body.some((p: { name: string }) => p.name === 'Válido')).toBe(false);
  });

  it('plan names are unique regardless of case (409 ERR_PLAN_NAME_EXISTS)', async () => {
    await createPlan({ name: 'Único', users: 1, connections: 1, queues: 1, value: 0 });
    const res = await server.call('POST', '/api/plans', {
      token: superToken,
      body: { name: 'ÚNICO', users: 1, connections: 1, queues: 1, value: 0 },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_PLAN_NAME_EXISTS');
  });

  it('PUT /api/plans/:id changes only the fields sent', async () => {
    const plan = await createPlan({ name: 'Editável', users: 1, connections: 1, queues: 1, value: 10 });
    const res = await server.call('PUT', `/api/plans/${plan.id}`, {
      token: superToken,
      body: { users: 7, useSchedules: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: plan.id, name: 'Editável', users: 7, connections: 1, value: 10, useSchedules: false });
    expect(res.body.useKanban).toBe(true);
  });

  it('renaming a plan to another plan’s name is a conflict, keeping its own name is not', async () => {
    const a = await createPlan({ name: 'Nome A', users: 1, connections: 1, queues: 1, value: 0 });
    await createPlan({ name: 'Nome B', users: 1, connections: 1, queues: 1, value: 0 });
    const taken = await server.call('PUT', `/api/plans/${a.id}`, { token: superToken, body: { name: 'nome b' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('ERR_PLAN_NAME_EXISTS');
    const same = await server.call('PUT', `/api/plans/${a.id}`, { token: superToken, body: { name: 'Nome A', value: 5 } });
    expect(same.status).toBe(200);
    expect(same.body.value).toBe(5);
  });

  it('invalid values on PUT are rejected and change nothing', async () => {
    const plan = await createPlan({ name: 'Intacto', users: 4, connections: 1, queues: 1, value: 0 });
    const res = await server.call('PUT', `/api/plans/${plan.id}`, { token: superToken, body: { users: -4 } });
    expect(res.status).toBe(400);
    expect((await server.call('GET', `/api/plans/${plan.id}`, { token: superToken })).body.users).toBe(4);
  });

  it('an unknown plan id answers 404 ERR_NO_PLAN_FOUND on read, update and delete', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { users: 1 }],
      ['DELETE', undefined],
    ] as const) {
      for (const id of ['999999', 'abc']) {
        const res = await server.call(method, `/api/plans/${id}`, { token: superToken, body });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body.error).toBe('ERR_NO_PLAN_FOUND');
      }
    }
  });

  it('an unused plan is deleted (204); a plan a company uses is not (409 ERR_PLAN_IN_USE)', async () => {
    const unused = await createPlan({ name: 'Descartável', users: 1, connections: 1, queues: 1, value: 0 });
    const del = await server.call('DELETE', `/api/plans/${unused.id}`, { token: superToken });
    expect(del.status).toBe(204);
    expect((await server.call('GET', `/api/plans/${unused.id}`, { token: superToken })).status).toBe(404);

    const used = await server.call('DELETE', `/api/plans/${defaultPlanId}`, { token: superToken });
    expect(used.status).toBe(409);
    expect(used.body.error).toBe('ERR_PLAN_IN_USE');
    expect((await server.call('GET', `/api/plans/${defaultPlanId}`, { token: superToken })).status).toBe(200);
  });

  it('a company admin without the super flag gets 403 on every plan administration route', async () => {
    const calls: [string, string, unknown][] = [
      ['POST', '/api/plans', { name: 'Proibido', users: 1, connections: 1, queues: 1, value: 0 }],
      ['GET', `/api/plans/${defaultPlanId}`, undefined],
      ['PUT', `/api/plans/${defaultPlanId}`, { users: 999 }],
      ['DELETE', `/api/plans/${defaultPlanId}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.call(method, path, { token: tenant.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await server.call('GET', `/api/plans/${defaultPlanId}`, { token: superToken })).body.users).toBe(10);
  });

  it('plan administration without a token is 401', async () => {
    const res = await server.call('POST', '/api/plans', { body: { name: 'Anônimo', users: 1, connections: 1, queues: 1, value: 0 } });
    expect(res.status).toBe(401);
  });
});

describe('a company’s plan', () => {
  it('GET /api/companies/listPlan/:companyId answers the own company’s plan with its flags', async () => {
    const res = await server.call('GET', `/api/companies/listPlan/${tenant.companyId}`, { token: tenant.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: defaultPlanId, name: 'Plano Padrão', users: 10, ...allFlagsOn });
  });

  it('another company’s plan answers 404 ERR_NO_COMPANY_FOUND to its users', async () => {
    const platform = (await server.call('GET', '/api/companies', { token: superToken })).body.find(
      (c: { name: string }) => c.name === 'Atende',
    );
    const res = await server.call('GET', `/api/companies/listPlan/${platform.id}`, { token: tenant.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_COMPANY_FOUND');
  });

  it('a super user reads any company’s plan; an unknown company is 404', async () => {
    const res = await server.call('GET', `/api/companies/listPlan/${tenant.companyId}`, { token: superToken });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(defaultPlanId);
    const unknown = await server.call('GET', '/api/companies/listPlan/999999', { token: superToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ERR_NO_COMPANY_FOUND');
  });

  it('listPlan needs a token', async () => {
    expect((await server.call('GET', `/api/companies/listPlan/${tenant.companyId}`)).status).toBe(401);
  });

  it('isEnabled follows the flags of the company’s plan', async () => {
    const plan = await createPlan({ name: 'Sem Kanban', users: 5, connections: 1, queues: 5, value: 0, useKanban: false });
    const { companyId } = await createCompany('Loja Sem Kanban', plan.id);
    const plans = server.atende.container.services.plans;
    expect(await plans.isEnabled(companyId, 'useKanban')).toBe(false);
    expect(await plans.isEnabled(companyId, 'useCampaigns')).toBe(true);
    await server.call('PUT', `/api/plans/${plan.id}`, { token: superToken, body: { useKanban: true } });
    expect(await plans.isEnabled(companyId, 'useKanban')).toBe(true);
  });
});

describe('plan limits', () => {
  it('assertWithinLimit allows up to the plan’s number and refuses one more', async () => {
    const plan = await createPlan({ name: 'Limitado', users: 2, connections: 0, queues: 1, value: 0 });
    const { companyId } = await createCompany('Loja Limitada', plan.id);
    const plans = server.atende.container.services.plans;
    // The tenant already has its admin (1 of 2 users) and its first queue (1 of 1).
    await expect(plans.assertWithinLimit(companyId, 'users')).resolves.toBeUndefined();
    await expect(plans.assertWithinLimit(companyId, 'queues')).rejects.toMatchObject({
      code: 'ERR_PLAN_LIMIT_QUEUES',
      status: 403,
    });
    await expect(plans.assertWithinLimit(companyId, 'connections')).rejects.toMatchObject({
      code: 'ERR_PLAN_LIMIT_CONNECTIONS',
    });
  });

  it('a user over the plan’s limit is refused with 403 ERR_PLAN_LIMIT_USERS', async () => {
    const plan = await createPlan({ name: 'Um Usuário', users: 1, connections: 1, queues: 1, value: 0 });
    const company = await createCompany('Loja Um Usuário', plan.id);
    const { token } = await server.login(company.email, company.password);
    const res = await server.call('POST', '/api/users', {
      token,
      body: { name: 'Segundo', email: 'segundo@tenant.test', password: 'segundo-pass', profile: 'user' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_LIMIT_USERS');
  });

  it('a company whose plan allows no user cannot be created, and nothing of it is left', async () => {
    const plan = await createPlan({ name: 'Zero Usuários', users: 0, connections: 1, queues: 1, value: 0 });
    const res = await server.call('POST', '/api/companies', {
      token: superToken,
      body: { name: 'Loja Vazia', email: 'vazia@tenant.test', planId: plan.id },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_LIMIT_USERS');
    const companies = (await server.call('GET', '/api/companies', { token: superToken })).body;
    expect(companies.some((c: { name: string }) => c.name === 'Loja Vazia')).toBe(false);
  });

  it('an unknown plan answers 404 ERR_NO_PLAN_FOUND to forCompany', async () => {
    await expect(server.atende.container.services.plans.forCompany(999999)).rejects.toMatchObject({
      code: 'ERR_NO_PLAN_FOUND',
    });
  });
});
