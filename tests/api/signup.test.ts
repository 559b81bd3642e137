import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { eventually } from '../helpers/inbox.js';
import { isValidCnpj, isValidCpf } from '../../plugins/billing/signup/documents.js';
import { CHECKS_PER_ADDRESS } from '../../plugins/billing/signup/signup.service.js';
import { REFUSAL, REFUSED_CARD, startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas.js';

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
    expect(res.body).toEqual({ enabled: true, card: false });
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

describe('self-signup with a card (Asaas)', () => {
  let server: TestServer;
  let fake: FakeAsaas;
  let superToken: string;
  let planId: number;
  const CARD_NUMBER = '5162306219378829';
  const card = { number: '5162 3062 1937 8829', holderName: 'Joana Prado', expiryMonth: '05', expiryYear: '2031', ccv: '318', postalCode: '89223-005', addressNumber: '277', holderCpfCnpj: '111.444.777-35', holderPhone: '(47) 99999-1234' };
  const form = (extra: Record<string, unknown> = {}) => ({
    name: 'Sorveteria Gelada',
    cpf_cnpj: '45.997.418/0001-53',
    email: 'dona@gelada.test',
    phone: '(47) 98888-1111',
    password: 'segredo1',
    planId,
    card,
    ...extra,
  });
  const cadastro = (body: Record<string, unknown>) => server.call('POST', '/api/companies/cadastro', { body });
  const companyCount = async () => (await server.call('GET', '/api/companies/list', { token: superToken })).body.length as number;
  const db = () => server.atende.container.db;

  beforeAll(async () => {
    fake = await startFakeAsaas();
    server = await startTestServer({ allowPrivateUrls: true, pluginConfig: { billing: { provider: 'asaas', asaasUrl: fake.url, asaasKey: fake.key, asaasWebhookToken: 'secret' } } });
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    planId = await createPlan(server, superToken, 'Básico');
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('says the page has its Cartão step', async () => {
    expect((await server.call('GET', '/api/signup/status')).body).toEqual({ enabled: true, card: true });
  });

  it('asks for the card, checked as §5 says, before anything is made', async () => {
    const before = await companyCount();
    const noCard = await cadastro(form({ card: undefined }));
    expect(noCard.status).toBe(400);
    expect(noCard.body.message).toContain('Informe o cartão de crédito');
    const bad = await cadastro(form({ card: { ...card, number: '5162306219378828', holderCpfCnpj: '111.444.777-00', postalCode: '123' } }));
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues).toEqual([
      { path: 'card.number', message: 'Número do cartão inválido' },
      { path: 'card.postalCode', message: 'CEP inválido' },
      { path: 'card.holderCpfCnpj', message: 'Documento inválido' },
    ]);
    expect(fake.calls).toHaveLength(0);
    expect(await companyCount()).toBe(before);
  });

  it('a refused card answers ERR_CARD_REFUSED with Asaas’s reason and leaves no company, user or customer', async () => {
    const before = await companyCount();
    const refused = await cadastro(form({ card: { ...card, number: REFUSED_CARD } }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_CARD_REFUSED');
    expect(refused.body.details.errors).toEqual([{ code: 'invalid_creditCard', description: REFUSAL }]);
    expect(await companyCount()).toBe(before);
    expect((await server.call('POST', '/api/auth/login', { body: { email: 'dona@gelada.test', password: 'segredo1' } })).status).toBe(401);
    for (const table of ['billing_customers', 'billing_subscriptions', 'company_documents']) {
      expect(Number((await db()(table).count({ n: '*' }))[0]!.n), table).toBe(0);
    }
    // The customer made for it is removed at Asaas again.
    expect([...fake.customers.values()].every((c) => c.deleted === true)).toBe(true);
  });

  it('signs up with a card: the Asaas customer and a subscription at the plan’s value from the trial’s end; the card number is kept nowhere', async () => {
    const res = await cadastro(form({ price: 0.01, value: 0.01 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id as number;
    expect((await server.call('GET', `/api/companies/${id}`, { token: superToken })).body).toMatchObject({ planId, dueDate: isoDay(3), recurrence: 'MENSAL' });
    const customer = [...fake.customers.values()].find((c) => !c.deleted)!;
    expect(customer).toMatchObject({ name: 'Sorveteria Gelada', cpfCnpj: '45997418000153', email: 'dona@gelada.test' });
    const sent = fake.calls.filter((c) => c.method === 'POST' && c.path === '/v3/subscriptions').at(-1)!;
    expect(sent.body).toMatchObject({
      customer: customer.id,
      billingType: 'CREDIT_CARD',
      cycle: 'MONTHLY',
      value: 99.9,
      nextDueDate: isoDay(3),
      creditCard: { holderName: 'Joana Prado', number: CARD_NUMBER, expiryMonth: '05', expiryYear: '2031', ccv: '318' },
      creditCardHolderInfo: { cpfCnpj: '11144477735', postalCode: '89223005', addressNumber: '277', phone: '47999991234', email: 'dona@gelada.test' },
    });

    const admin = await server.login('dona@gelada.test', 'segredo1');
    expect((await server.call('GET', `/api/asaas/companhia/${id}`, { token: admin.token })).body).toEqual({ customerId: customer.id, hasDocument: true });
    const listed = (await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${id}`, { token: admin.token })).body.subscriptions;
    expect(listed).toEqual([expect.objectContaining({ status: 'active', planId, value: 99.9, cardLast4: '8829', cardBrand: 'MASTERCARD', customerId: customer.id })]);
    for (const table of ['billing_subscriptions', 'billing_customers', 'invoices', 'company_documents', 'companies']) {
      expect(JSON.stringify(await db()(table).select('*')), table).not.toContain(CARD_NUMBER);
    }

    // The subscription's first charge pays the first invoice.
    const [first] = (await server.call('GET', '/api/invoices/all', { token: admin.token })).body.invoices;
    expect(first).toMatchObject({ value: 99.9, status: 'open', dueDate: isoDay(3) });
    const charge = [...fake.payments.values()].find((p) => p.subscription === listed[0].subscriptionId)!;
    expect(charge).toMatchObject({ value: 99.9, dueDate: isoDay(3) });
  });

  it('with a discount code, the subscription’s first charge is the first invoice’s discounted value', async () => {
    const promo = await server.call('POST', '/api/promotions', { token: superToken, body: { code: 'GELO20', kind: 'discount', amount: 20, usesLeft: 5 } });
    expect(promo.status, JSON.stringify(promo.body)).toBe(201);
    const res = await cadastro(form({ name: 'Gelato Dois', cpf_cnpj: '11.444.777/0001-61', email: 'dois@gelada.test', phone: '(47) 98888-2222', code: 'gelo20' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const admin = await server.login('dois@gelada.test', 'segredo1');
    const [first] = (await server.call('GET', '/api/invoices/all', { token: admin.token })).body.invoices;
    expect(first).toMatchObject({ value: 79.92, status: 'open' });
    const [subscription] = (await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${res.body.id}`, { token: admin.token })).body.subscriptions;
    expect(subscription.value).toBe(99.9);
    const charges = [...fake.payments.values()].filter((p) => p.subscription === subscription.subscriptionId);
    expect(charges.map((c) => c.value)).toEqual([79.92]);
  });

  it('a signup that fails after Asaas took the card (its document taken meanwhile) cancels the subscription and customer there', async () => {
    const subscriptionsBefore = fake.subscriptions.size;
    // Another company takes the document while the card is at Asaas.
    const hold = fake.holdSubscriptions();
    const pending = cadastro(form({ name: 'Gelato Tres', cpf_cnpj: '529.982.247-25', email: 'tres@gelada.test', phone: '(47) 98888-3333' }));
    await eventually(async () => fake.subscriptions.size === subscriptionsBefore && fake.calls.some((c) => c.method === 'POST' && c.path === '/v3/subscriptions' && String(c.body?.description).includes('Gelato Tres')), 5000, 'the card at Asaas');
    const other = await server.call('POST', '/api/companies', { token: superToken, body: { name: 'Concorrente', email: 'c@concorrente.test', password: 'segredo1', planId } });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    await db()('company_documents').insert({ companyId: other.body.company.id, document: '52998224725', createdAt: new Date().toISOString() });
    hold.release();
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Cpf/Cnpj já cadastrado');
    const made = [...fake.subscriptions.values()].find((s) => String(s.description).includes('Gelato Tres'))!;
    expect(made.deleted).toBe(true);
    expect(fake.customers.get(made.customer)!.deleted).toBe(true);
    expect((await server.call('POST', '/api/auth/login', { body: { email: 'tres@gelada.test', password: 'segredo1' } })).status).toBe(401);
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
