import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { isValidCnpj, isValidCpf } from '../../plugins/billing/signup/documents.js';
import { CHECKS_PER_ADDRESS } from '../../plugins/billing/signup/signup.service.js';

describe('CPF and CNPJ check digits', () => {
  it('accepts known valid documents, masked or not', () => {
    for (const cpf of ['529.982.247-25', '11144477735', '123.456.789-09']) expect(isValidCpf(cpf), cpf).toBe(true);
    for (const cnpj of ['11.222.333/0001-81', '11444777000161', '45.997.418/0001-53']) expect(isValidCnpj(cnpj), cnpj).toBe(true);
  });

  it('refuses a wrong check digit, a wrong length and repeated digits', () => {
    for (const cpf of ['529.982.247-24', '529.982.247-15', '111.111.111-11', '5299822472', '']) expect(isValidCpf(cpf), cpf).toBe(false);
    for (const cnpj of ['11.222.333/0001-80', '11.222.333/0001-91', '00.000.000/0000-00', '1122233300018']) expect(isValidCnpj(cnpj), cnpj).toBe(false);
  });
});

const isoDay = (plusDays: number) => {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + plusDays);
  return day.toISOString().slice(0, 10);
};

async function createPlan(server: TestServer, token: string, name: string): Promise<number> {
  const plan = await server.call('POST', '/api/plans', { token, body: { name, users: 5, connections: 2, queues: 5, value: 99.9 } });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  return plan.body.id;
}

describe('self-signup', () => {
  let server: TestServer;
  let superToken: string;
  let planId: number;
  const form = () => ({
    name: 'Padaria Pão Quente',
    cpf_cnpj: '11.222.333/0001-81',
    email: 'dono@paoquente.test',
    phone: '(11) 98888-7777',
    password: 'segredo1',
    planId,
  });
  const cadastro = (body: Record<string, unknown>) => server.call('POST', '/api/companies/cadastro', { body });
  const companyCount = async () => (await server.call('GET', '/api/companies/list', { token: superToken })).body.length as number;

  beforeAll(async () => {
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test' } } });
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    planId = await createPlan(server, superToken, 'Básico');
  });
  afterAll(async () => {
    await server.close();
  });

  it('says it is enabled, without login', async () => {
    const res = await server.call('GET', '/api/signup/status');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: true });
  });

  it('answers each field with the spec’s message', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A' }, 'name: Nome muito curto'],
      [{ name: 'x'.repeat(51) }, 'name: Nome muito longo'],
      [{ phone: '119888' }, 'phone: Telefone muito curto'],
      [{ password: '1234' }, 'password: Senha muito curta'],
      [{ password: 'x'.repeat(51) }, 'password: Senha muito longa'],
      [{ email: 'not-an-email' }, 'email: E-mail inválido'],
      [{ cpf_cnpj: '' }, 'cpf_cnpj: Cpf/Cnpj é obrigatório'],
      [{ cpf_cnpj: '529.982.247-24' }, 'cpf_cnpj: Documento inválido'],
      [{ cpf_cnpj: '11.222.333/0001-80' }, 'cpf_cnpj: Documento inválido'],
      [{ planId: undefined }, 'planId:'],
    ];
    const before = await companyCount();
    for (const [change, message] of cases) {
      const res = await cadastro({ ...form(), ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const promo = await cadastro({ ...form(), code: 'PROMO10' });
    expect(promo.status).toBe(400);
    expect(promo.body.message).toBe('Promoção inválida ou vencida');
    expect(await companyCount()).toBe(before);
  });

  it('signs a company up on the chosen plan with a 3-day MENSAL trial, whose admin logs in and sees its first invoice open', async () => {
    const res = await cadastro(form());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id as number;
    const company = await server.call('GET', `/api/companies/${id}`, { token: superToken });
    expect(company.body).toMatchObject({ name: 'Padaria Pão Quente', planId, recurrence: 'MENSAL', dueDate: isoDay(3), status: true });
    const admin = await server.login('dono@paoquente.test', 'segredo1');
    const invoices = await server.call('GET', '/api/invoices/all', { token: admin.token });
    expect(invoices.status).toBe(200);
    expect(invoices.body.invoices).toHaveLength(1);
    expect(invoices.body.invoices[0]).toMatchObject({ dueDate: isoDay(3), value: 99.9, status: 'open' });
  });

  it('says through the verify calls which values are taken', async () => {
    const verify = async (path: string) => {
      const res = await server.call('GET', `/api/companies/${path}`);
      expect(res.status, path).toBe(200);
      return res.body.status as boolean;
    };
    expect(await verify('verify/name/query/params?name=padaria%20p%C3%A3o%20QUENTE')).toBe(false);
    expect(await verify('verify/name/query/params?name=Outra%20Padaria')).toBe(true);
    expect(await verify('verify/email/DONO@paoquente.test')).toBe(false);
    expect(await verify('verify/email/outro@paoquente.test')).toBe(true);
    expect(await verify('verify/cpfcnpj/query/params?cpfcnpj=11222333000181')).toBe(false);
    expect(await verify('verify/cpfcnpj/query/params?cpfcnpj=11.444.777%2F0001-61')).toBe(true);
    expect(await verify('verify/cpfcnpj/query/params?cpfcnpj=11.444.777%2F0001-60')).toBe(false);
    expect(await verify('verify/phone/11988887777')).toBe(false);
    expect(await verify('verify/phone/11977776666')).toBe(true);
    expect(await verify('promotion/code/exist/valid/PROMO10')).toBe(false);
  });

  it('refuses each taken value at signup and creates nothing', async () => {
    const fresh = { name: 'Outra Padaria', cpf_cnpj: '529.982.247-25', email: 'outra@paoquente.test', phone: '11977776666' };
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'PADARIA PÃO QUENTE' }, 'Nome já cadastrado'],
      [{ phone: '11 98888 7777' }, 'Telefone já cadastrado'],
      [{ email: 'Dono@PaoQuente.test' }, 'E-mail já cadastrado'],
      [{ cpf_cnpj: '11222333000181' }, 'Cpf/Cnpj já cadastrado'],
    ];
    const before = await companyCount();
    for (const [change, message] of cases) {
      const res = await cadastro({ ...form(), ...fresh, ...change });
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(res.body.message).toBe(message);
    }
    expect(await companyCount()).toBe(before);
    const login = await server.call('POST', '/api/auth/login', { body: { email: 'outra@paoquente.test', password: 'segredo1' } });
    expect(login.status).toBe(401);
  });
});

describe('signup switched off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', signup: false } } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('says so and answers its calls 404 ERR_SIGNUP_OFF', async () => {
    expect((await server.call('GET', '/api/signup/status')).body).toEqual({ enabled: false });
    const verify = await server.call('GET', '/api/companies/verify/email/a@b.test');
    expect(verify.status).toBe(404);
    expect(verify.body.error).toBe('ERR_SIGNUP_OFF');
    const res = await server.call('POST', '/api/companies/cadastro', {
      body: { name: 'Fechada', cpf_cnpj: '529.982.247-25', email: 'f@f.test', phone: '11977776666', password: 'segredo1', planId: 1 },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_SIGNUP_OFF');
  });
});

describe('signup rate limit', () => {
  let server: TestServer;
  let planId: number;
  beforeAll(async () => {
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual' } } });
    planId = await createPlan(server, (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token, 'Básico');
  });
  afterAll(async () => {
    await server.close();
  });

  it('lets one address sign up 5 companies an hour, then answers 429 with Retry-After', async () => {
    const documents = ['529.982.247-25', '111.444.777-35', '123.456.789-09', '987.654.321-00', '390.533.447-05', '935.411.347-80'];
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestServer['call']>> | undefined;
    for (const [i, cpf_cnpj] of documents.entries()) {
      last = await server.call('POST', '/api/companies/cadastro', {
        body: { name: `Empresa ${i}`, cpf_cnpj, email: `e${i}@signup.test`, phone: `1197777000${i}`, password: 'segredo1', planId },
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(last!.body.error).toBe('ERR_TOO_MANY_SIGNUPS');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits the verify calls of one address, so they cannot sweep e-mails', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < CHECKS_PER_ADDRESS; i += 1) statuses.add((await server.call('GET', `/api/companies/verify/email/sweep${i}@signup.test`)).status);
    expect([...statuses]).toEqual([200]);
    const over = await server.call('GET', '/api/companies/verify/email/one-more@signup.test');
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('ERR_TOO_MANY_SIGNUPS');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
