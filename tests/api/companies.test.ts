import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Events, type DomainEvent } from '../../core/events/event-bus.js';
import { Company } from '../../core/modules/companies/company.model.js';
import { DEFAULT_SCHEDULES } from '../../core/modules/companies/companies.schema.js';
import { Plan } from '../../core/modules/plans/plan.model.js';
import { Queue } from '../../core/modules/queues/queue.model.js';
import { Setting } from '../../core/modules/settings/setting.model.js';
import { SETTING_KEYS } from '../../core/modules/settings/settings.schema.js';
import { User } from '../../core/modules/users/user.model.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';

let server: TestServer;
let superToken: string;
let platformId: number;
let planId: number;

/* eslint-disable @typescript-eslint/no-explicit-any -- frame data is read as the test expects it */
/** The data of the first frame on `channel` (heard already or coming) whose data passes `match`. */
async function heard(socket: TestSocket, channel: string, match: (data: any) => boolean): Promise<any> {
  return (await socket.next((frame) => frame.channel === channel && match(frame.data))).data;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function emailOf(name: string): string {
  return `${name.toLowerCase().replace(/\W+/g, '-')}@tenant.test`;
}

/** POST /api/companies as the super user; answers the 201 body. */
async function createCompany(name: string, extra: Record<string, unknown> = {}) {
  const res = await server.call('POST', '/api/companies', {
    token: superToken,
    body: { name, email: emailOf(name), planId, password: 'tenant-pass', ...extra },
  });
  expect(res.status).toBe(201);
  return res.body;
}

function todayPlus(days: number): string {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

async function rowsOf(companyId: number) {
  const db = server.atende.container.db;
  return {
    companies: await Company.query(db).where('id', companyId).resultSize(),
    settings: await Setting.query(db).where('companyId', companyId).resultSize(),
    queues: await Queue.query(db).where('companyId', companyId).resultSize(),
    users: await User.query(db).where('companyId', companyId).resultSize(),
  };
}

beforeAll(async () => {
  server = await startTestServer();
  const login = await server.login(SUPER_EMAIL, SUPER_PASSWORD);
  superToken = login.token;
  platformId = (login.body.user as { companyId: number }).companyId;
  planId = (await server.call('GET', '/api/plans/list')).body[0].id;
});
afterAll(async () => {
  await server?.close();
});

describe('the platform at first start', () => {
  it('creates the default plan, the platform company and the super admin with the configured password', async () => {
    expect(server.atende.initialAdmin).toEqual({ email: SUPER_EMAIL, password: SUPER_PASSWORD, generated: false });
    const db = server.atende.container.db;
    const plan = (await server.atende.container.services.plans.list()).find((p) => p.name === 'Plano Padrão');
    expect(plan).toMatchObject({ users: 10, connections: 5, queues: 10, value: 0, useCampaigns: true, useExternalApi: true });
    const platform = await Company.query(db).findById(platformId);
    expect(platform).toMatchObject({ name: 'Atende', dueDate: null, status: true, planId: plan!.id });
    const admin = await User.query(db).findOne({ email: SUPER_EMAIL });
    expect(admin).toMatchObject({ name: 'Administrador', profile: 'admin', super: true, companyId: platformId });
    expect(await Setting.query(db).where('companyId', platformId).resultSize()).toBe(SETTING_KEYS.length);
  });

  it('ensurePlatform is idempotent: a second call answers undefined and leaves one super user', async () => {
    const companies = server.atende.container.services.companies;
    await expect(companies.ensurePlatform({ email: 'other@atende.test', password: 'other-pass' })).resolves.toBeUndefined();
    const db = server.atende.container.db;
    expect(await User.query(db).where('super', true).resultSize()).toBe(1);
    expect(await Company.query(db).where('name', 'Atende').resultSize()).toBe(1);
    expect(await Plan.query(db).where('name', 'Plano Padrão').resultSize()).toBe(1);
  });

  it('without a configured password the super admin gets a random one, answered once', async () => {
    const fresh = await startTestServer({ adminPassword: undefined, adminEmail: 'random@atende.test' });
    try {
      const initial = fresh.atende.initialAdmin!;
      expect(initial).toMatchObject({ email: 'random@atende.test', generated: true });
      expect(initial.password.length).toBeGreaterThanOrEqual(12);
      await fresh.login(initial.email, initial.password);
    } finally {
      await fresh.close();
    }
  });
});

describe('creating a company', () => {
  it('POST /api/companies creates the company with its settings, first queue and admin user', async () => {
    const body = await createCompany('Padaria Central', { phone: '5511999990000' });
    expect(body.company).toEqual({
      id: expect.any(Number),
      name: 'Padaria Central',
      email: 'padaria-central@tenant.test',
      phone: '5511999990000',
      planId,
      plan: { id: planId, name: 'Plano Padrão' },
      status: true,
      dueDate: todayPlus(30),
      recurrence: 'MENSAL',
      blockedAt: null,
      schedules: DEFAULT_SCHEDULES,
      campaignsEnabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // The password was given, so it is not echoed.
    expect(body.admin).toEqual({ id: expect.any(Number), email: 'padaria-central@tenant.test' });
    expect(await rowsOf(body.company.id)).toEqual({ companies: 1, settings: SETTING_KEYS.length, queues: 1, users: 1 });

    const queue = await Queue.query(server.atende.container.db).findOne({ companyId: body.company.id });
    expect(queue).toMatchObject({ name: 'Atendimento', color: '#0B7DDA', greetingMessage: '', schedules: DEFAULT_SCHEDULES });
    const admin = await User.query(server.atende.container.db).findById(body.admin.id);
    expect(admin).toMatchObject({ name: 'Padaria Central', profile: 'admin', super: false, companyId: body.company.id });

    const login = await server.login('padaria-central@tenant.test', 'tenant-pass');
    expect((login.body.user as { companyId: number }).companyId).toBe(body.company.id);
  });

  it('a generated admin password is answered once so the super user can hand it over', async () => {
    const res = await server.call('POST', '/api/companies', {
      token: superToken,
      body: { name: 'Senha Gerada', email: 'gerada@tenant.test', planId },
    });
    expect(res.status).toBe(201);
    expect(res.body.admin.password).toEqual(expect.any(String));
    await server.login('gerada@tenant.test', res.body.admin.password);
  });

  it('takes status, due date, recurrence and campaignsEnabled from the form', async () => {
    const body = await createCompany('Loja Configurada', {
      status: false,
      dueDate: '2031-12-31',
      recurrence: 'ANUAL',
      campaignsEnabled: false,
    });
    expect(body.company).toMatchObject({ status: false, dueDate: '2031-12-31', recurrence: 'ANUAL', campaignsEnabled: false });
    const setting = await Setting.query(server.atende.container.db).findOne({ companyId: body.company.id, key: 'campaignsEnabled' });
    expect(setting!.value).toBe('false');
  });

  it('an empty due date means the company never expires (null)', async () => {
    expect((await createCompany('Sem Vencimento', { dueDate: '' })).company.dueDate).toBeNull();
    expect((await createCompany('Sem Vencimento 2', { dueDate: null })).company.dueDate).toBeNull();
  });

  it('company fields are validated', async () => {
    const valid = { name: 'Validada', email: 'validada@tenant.test', planId };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, name: 'A' }, 'name'],
      [{ ...valid, name: 'x'.repeat(51) }, 'name'],
      [{ ...valid, email: 'not-an-email' }, 'email'],
      [{ ...valid, email: undefined }, 'email'],
      [{ ...valid, planId: undefined }, 'planId'],
      [{ ...valid, dueDate: '31/12/2030' }, 'dueDate'],
      [{ ...valid, dueDate: '2030-02-30' }, 'dueDate'],
      [{ ...valid, recurrence: 'SEMANAL' }, 'recurrence'],
      [{ ...valid, status: 'sim' }, 'status'],
      [{ ...valid, password: '1234' }, 'password'],
    ];
    for (const [body, field] of cases) {
      const res = await server.call('POST', '/api/companies', { token: superToken, body });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.message).toMatch(new RegExp(`^${field}:`));
    }
    expect(await Company.query(server.atende.container.db).where('name', 'Validada').resultSize()).toBe(0);
  });

  it('company names are unique regardless of case, accents included (409 ERR_COMPANY_NAME_EXISTS)', async () => {
    await createCompany('Padaria São João');
    for (const name of ['padaria são joão', 'PADARIA SÃO JOÃO']) {
      const res = await server.call('POST', '/api/companies', {
        token: superToken,
        body: { name, email: 'outro@tenant.test', planId },
      });
      expect(res.status, name).toBe(409);
      expect(res.body.error).toBe('ERR_COMPANY_NAME_EXISTS');
    }
    // A different accent is a different name.
    await createCompany('Padaria Sao Joao');
  });

  it('an unknown plan answers 404 ERR_NO_PLAN_FOUND', async () => {
    const res = await server.call('POST', '/api/companies', {
      token: superToken,
      body: { name: 'Plano Fantasma', email: 'fantasma@tenant.test', planId: 999999 },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_PLAN_FOUND');
  });

  it('an admin e-mail already in use rolls everything back: no company, settings, queue or user is left', async () => {
    const before = await Company.query(server.atende.container.db).resultSize();
    const settingsBefore = await Setting.query(server.atende.container.db).resultSize();
    const queuesBefore = await Queue.query(server.atende.container.db).resultSize();
    const res = await server.call('POST', '/api/companies', {
      token: superToken,
      body: { name: 'Email Repetido', email: SUPER_EMAIL, planId },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    const db = server.atende.container.db;
    expect(await Company.query(db).resultSize()).toBe(before);
    expect(await Company.query(db).where('name', 'Email Repetido').resultSize()).toBe(0);
    expect(await Setting.query(db).resultSize()).toBe(settingsBefore);
    expect(await Queue.query(db).resultSize()).toBe(queuesBefore);
  });

  it('createTenant picks the plan by name, or the first plan, and names the admin as told', async () => {
    const companies = server.atende.container.services.companies;
    const plan = await server.call('POST', '/api/plans', {
      token: superToken,
      body: { name: 'Plano CLI', users: 3, connections: 1, queues: 2, value: 0 },
    });
    const byName = await companies.createTenant({
      name: 'Loja CLI',
      email: 'cli@tenant.test',
      password: 'cli-pass',
      planName: 'plano cli',
      adminName: 'Dona Maria',
    });
    expect(byName).toMatchObject({ company: { planId: plan.body.id }, password: 'cli-pass', generatedPassword: false });
    expect((await User.query(server.atende.container.db).findById(byName.admin.id))!.name).toBe('Dona Maria');

    const first = await companies.createTenant({ name: 'Loja Primeiro Plano', email: 'primeiro@tenant.test' });
    expect(first.company.planId).toBe(planId);
    expect(first.generatedPassword).toBe(true);

    await expect(
      companies.createTenant({ name: 'Loja Sem Plano', email: 'sem-plano@tenant.test', planName: 'Inexistente' }),
    ).rejects.toMatchObject({ code: 'ERR_NO_PLAN_FOUND' });
    expect(await Company.query(server.atende.container.db).where('name', 'Loja Sem Plano').resultSize()).toBe(0);
  });

  it('createTenant inside a caller’s transaction that rolls back leaves nothing and announces nothing', async () => {
    const { db, bus, services } = server.atende.container;
    const events: DomainEvent[] = [];
    const off = bus.on(Events.companyCreated, (e) => void events.push(e));
    try {
      await expect(
        db.transaction(async (trx) => {
          await services.companies.createTenant({ name: 'Loja Desfeita', email: 'desfeita@tenant.test' }, trx);
          throw new Error('caller gives up');
        }),
      ).rejects.toThrow('caller gives up');
      expect(await Company.query(db).where('name', 'Loja Desfeita').resultSize()).toBe(0);
      expect(await User.query(db).where('email', 'desfeita@tenant.test').resultSize()).toBe(0);
      expect(events).toEqual([]);
    } finally {
      off();
    }
  });
});

describe('company administration', () => {
  it('GET /api/companies and /api/companies/list answer every company by name with its plan', async () => {
    await createCompany('Zebra Modas');
    await createCompany('Abacaxi Frutas');
    await createCompany('Água Viva');
    for (const path of ['/api/companies', '/api/companies/list']) {
      const res = await server.call('GET', path, { token: superToken });
      expect(res.status).toBe(200);
      const names = res.body.map((c: { name: string }) => c.name);
      expect(names).toEqual([...names].sort((x: string, y: string) => x.localeCompare(y, 'pt-BR')));
      expect(names.indexOf('Abacaxi Frutas')).toBeLessThan(names.indexOf('Atende'));
      expect(names.indexOf('Água Viva')).toBeLessThan(names.indexOf('Atende'));
      expect(names.indexOf('Atende')).toBeLessThan(names.indexOf('Zebra Modas'));
      expect(res.body.find((c: { name: string }) => c.name === 'Zebra Modas')).toMatchObject({
        plan: { id: planId, name: 'Plano Padrão' },
        campaignsEnabled: true,
      });
    }
  });

  it('GET /api/companies/:id answers the company; an unknown id is 404 ERR_NO_COMPANY_FOUND', async () => {
    const { company } = await createCompany('Consulta Única');
    const res = await server.call('GET', `/api/companies/${company.id}`, { token: superToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(company);
    for (const id of ['999999', 'zero']) {
      const missing = await server.call('GET', `/api/companies/${id}`, { token: superToken });
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('ERR_NO_COMPANY_FOUND');
    }
  });

  it('PUT /api/companies/:id changes the fields sent; campaignsEnabled is kept as the setting', async () => {
    const { company } = await createCompany('Antes Editar');
    const other = await server.call('POST', '/api/plans', {
      token: superToken,
      body: { name: 'Plano Troca', users: 5, connections: 1, queues: 5, value: 99 },
    });
    const res = await server.call('PUT', `/api/companies/${company.id}`, {
      token: superToken,
      body: { name: 'Depois Editar', planId: other.body.id, dueDate: '2030-01-15', campaignsEnabled: false, status: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: company.id,
      name: 'Depois Editar',
      email: company.email,
      planId: other.body.id,
      plan: { id: other.body.id, name: 'Plano Troca' },
      dueDate: '2030-01-15',
      status: false,
      campaignsEnabled: false,
      recurrence: 'MENSAL',
    });
    const setting = await Setting.query(server.atende.container.db).findOne({ companyId: company.id, key: 'campaignsEnabled' });
    expect(setting!.value).toBe('false');

    const cleared = await server.call('PUT', `/api/companies/${company.id}`, { token: superToken, body: { dueDate: '' } });
    expect(cleared.body.dueDate).toBeNull();
  });

  it('PUT rejects a taken name (409), an unknown plan (404), invalid fields (400) and an unknown company (404)', async () => {
    const { company } = await createCompany('Editar Falhas');
    await createCompany('Nome Ocupado');
    const cases: [string, unknown, number, string][] = [
      [`/api/companies/${company.id}`, { name: 'NOME OCUPADO' }, 409, 'ERR_COMPANY_NAME_EXISTS'],
      [`/api/companies/${company.id}`, { planId: 999999 }, 404, 'ERR_NO_PLAN_FOUND'],
      [`/api/companies/${company.id}`, { email: 'nope' }, 400, 'ERR_VALIDATION'],
      [`/api/companies/${company.id}`, { dueDate: '2030-13-01' }, 400, 'ERR_VALIDATION'],
      ['/api/companies/999999', { name: 'Qualquer' }, 404, 'ERR_NO_COMPANY_FOUND'],
    ];
    for (const [path, body, status, error] of cases) {
      const res = await server.call('PUT', path, { token: superToken, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error).toBe(error);
    }
    const unchanged = await server.call('GET', `/api/companies/${company.id}`, { token: superToken });
    expect(unchanged.body).toEqual(company);
  });

  it('DELETE /api/companies/:id removes the company and everything it owns', async () => {
    const { company, admin } = await createCompany('Para Apagar');
    const res = await server.call('DELETE', `/api/companies/${company.id}`, { token: superToken });
    expect(res.status).toBe(204);
    expect(await rowsOf(company.id)).toEqual({ companies: 0, settings: 0, queues: 0, users: 0 });
    expect(await User.query(server.atende.container.db).findById(admin.id)).toBeUndefined();
    const again = await server.call('DELETE', `/api/companies/${company.id}`, { token: superToken });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('ERR_NO_COMPANY_FOUND');
  });

  it('a super user cannot delete the own company (400 ERR_CANNOT_DELETE_OWN_COMPANY)', async () => {
    const res = await server.call('DELETE', `/api/companies/${platformId}`, { token: superToken });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_CANNOT_DELETE_OWN_COMPANY');
    expect(await rowsOf(platformId)).toMatchObject({ companies: 1 });
  });

  it('a company admin without the super flag gets 403 on every company administration route', async () => {
    const { company } = await createCompany('Admin Comum');
    const { token } = await server.login(emailOf('Admin Comum'), 'tenant-pass');
    const calls: [string, string, unknown][] = [
      ['GET', '/api/companies', undefined],
      ['GET', '/api/companies/list', undefined],
      ['POST', '/api/companies', { name: 'Intrusa', email: 'intrusa@tenant.test', planId }],
      ['PUT', `/api/companies/${company.id}`, { dueDate: '2099-01-01' }],
      ['DELETE', `/api/companies/${platformId}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.call(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await server.call('GET', `/api/companies/${company.id}`, { token: superToken })).body.dueDate).toBe(company.dueDate);
    expect(await Company.query(server.atende.container.db).where('name', 'Intrusa').resultSize()).toBe(0);
  });

  it("a company's admin reads their own company (its working hours), a plain user may not", async () => {
    const { company } = await createCompany('Leitura Própria');
    const { token } = await server.login(emailOf('Leitura Própria'), 'tenant-pass');
    const own = await server.call('GET', `/api/companies/${company.id}`, { token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: company.id, schedules: expect.any(Array) });
    const other = await server.call('GET', `/api/companies/${platformId}`, { token });
    expect([other.status, other.body.error]).toEqual([404, 'ERR_NO_COMPANY_FOUND']);
    await server.atende.container.services.users.create(company.id, {
      name: 'Agente',
      email: 'agente@leitura.test',
      password: 'agent-pass',
      profile: 'user',
    });
    const agent = await server.login('agente@leitura.test', 'agent-pass');
    expect((await server.call('GET', `/api/companies/${company.id}`, { token: agent.token })).status).toBe(403);
  });

  it('company administration without a token is 401', async () => {
    expect((await server.call('GET', '/api/companies')).status).toBe(401);
  });
});

describe('company working hours', () => {
  const week = DEFAULT_SCHEDULES.map((entry) =>
    entry.weekdayEn === 'saturday' ? { ...entry, startTime: '09:00', endTime: '13:30' } : entry,
  );

  it('an admin sets the own company’s schedules', async () => {
    const { company } = await createCompany('Horário Próprio');
    const { token } = await server.login(emailOf('Horário Próprio'), 'tenant-pass');
    const res = await server.call('PUT', `/api/companies/${company.id}/schedules`, { token, body: { schedules: week } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: company.id, schedules: week });
    const stored = await Company.query(server.atende.container.db).findById(company.id);
    expect(stored!.schedules).toEqual(week);
  });

  it('a super user sets any company’s schedules', async () => {
    const { company } = await createCompany('Horário Super');
    const res = await server.call('PUT', `/api/companies/${company.id}/schedules`, {
      token: superToken,
      body: { schedules: week.slice(0, 5) },
    });
    expect(res.status).toBe(200);
    expect(res.body.schedules).toEqual(week.slice(0, 5));
  });

  it('another company’s schedules answer 404 ERR_NO_COMPANY_FOUND and stay as they were', async () => {
    const { company: mine } = await createCompany('Horário Meu');
    const { company: theirs } = await createCompany('Horário Deles');
    const { token } = await server.login(emailOf('Horário Meu'), 'tenant-pass');
    expect(mine.id).not.toBe(theirs.id);
    const res = await server.call('PUT', `/api/companies/${theirs.id}/schedules`, { token, body: { schedules: week } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_COMPANY_FOUND');
    expect((await Company.query(server.atende.container.db).findById(theirs.id))!.schedules).toEqual(DEFAULT_SCHEDULES);
  });

  it('a user who is not an admin gets 403 ERR_NO_PERMISSION on the own company’s schedules', async () => {
    const { company } = await createCompany('Horário Atendente');
    await server.atende.container.services.users.create(company.id, {
      name: 'Atendente',
      email: 'atendente-horario@tenant.test',
      password: 'atendente-pass',
      profile: 'user',
    });
    const { token } = await server.login('atendente-horario@tenant.test', 'atendente-pass');
    const res = await server.call('PUT', `/api/companies/${company.id}/schedules`, { token, body: { schedules: week } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('times must be HH:MM from 00:00 to 23:59, weekdays known and not repeated', async () => {
    const { company } = await createCompany('Horário Inválido');
    const monday = DEFAULT_SCHEDULES[0]!;
    const cases: unknown[] = [
      [{ ...monday, startTime: '24:00' }],
      [{ ...monday, endTime: '8:00' }],
      [{ ...monday, endTime: '12:60' }],
      [{ ...monday, weekdayEn: 'funday' }],
      [monday, monday],
      'not a list',
    ];
    for (const schedules of cases) {
      const res = await server.call('PUT', `/api/companies/${company.id}/schedules`, { token: superToken, body: { schedules } });
      expect(res.status, JSON.stringify(schedules)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    expect((await Company.query(server.atende.container.db).findById(company.id))!.schedules).toEqual(DEFAULT_SCHEDULES);
  });
});

describe('company live events', () => {
  it('company writes reach super users on channel "company" and the event bus, never tenants', async () => {
    await createCompany('Observadora');
    const tenantToken = (await server.login(emailOf('Observadora'), 'tenant-pass')).token;
    const events: DomainEvent[] = [];
    const offs = [Events.companyCreated, Events.companyUpdated, Events.companyDeleted].map((name) =>
      server.atende.container.bus.on(name, (e) => void events.push(e)),
    );
    const superSocket = await openSocket(server.url, superToken);
    const tenantSocket = await openSocket(server.url, tenantToken);
    try {
      const { company } = await createCompany('Ao Vivo Ltda');
      const created = await heard(superSocket, 'company', (d) => d.action === 'create' && d.company.id === company.id);
      expect(created.company).toEqual(company);

      await server.call('PUT', `/api/companies/${company.id}`, { token: superToken, body: { phone: '5511988887777' } });
      const updated = await heard(superSocket, 'company', (d) => d.action === 'update' && d.company.id === company.id);
      expect(updated.company.phone).toBe('5511988887777');

      await server.call('DELETE', `/api/companies/${company.id}`, { token: superToken });
      await heard(superSocket, 'company', (d) => d.action === 'delete' && d.companyId === company.id);

      expect(tenantSocket.frames.filter((f) => f.channel === 'company')).toEqual([]);
      expect(events.map((e) => [e.name, e.companyId])).toEqual([
        [Events.companyCreated, company.id],
        [Events.companyUpdated, company.id],
        [Events.companyDeleted, company.id],
      ]);
    } finally {
      offs.forEach((off) => off());
      await superSocket.close();
      await tenantSocket.close();
    }
  });
});
