import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';

const isoDay = (plusDays: number) => {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + plusDays);
  return day.toISOString().slice(0, 10);
};

describe('promotion codes', () => {
  let server: TestServer;
  let superToken: string;
  let adminToken: string;
  let planId: number;
  let serial = 0;
  // Each signup its own company: name, e-mail, phone and a valid CNPJ of its own.
  const CNPJS = ['11.222.333/0001-81', '11444777000161', '45.997.418/0001-53', '529.982.247-25', '111.444.777-35', '123.456.789-09'];
  const form = (code?: string) => {
    serial += 1;
    return {
      name: `Loja Promo ${serial}`,
      cpf_cnpj: CNPJS[serial - 1],
      email: `dono${serial}@promo.test`,
      phone: `(11) 97777-00${String(serial).padStart(2, '0')}`,
      password: 'segredo1',
      planId,
      ...(code === undefined ? {} : { code }),
    };
  };
  const cadastro = (body: Record<string, unknown>) => server.call('POST', '/api/companies/cadastro', { body });
  const create = (body: Record<string, unknown>, token = superToken) => server.call('POST', '/api/promotions', { token, body });
  const promotion = async (code: string) => ((await server.call('GET', '/api/promotions', { token: superToken })).body as { code: string; usesLeft: number; id: number }[]).find((p) => p.code === code)!;
  const verify = async (code: string) => (await server.call('GET', `/api/companies/promotion/code/exist/valid/${encodeURIComponent(code)}`)).body.status as boolean;

  beforeAll(async () => {
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test' } } });
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const plan = await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Promo', users: 5, connections: 2, queues: 5, value: 100 } });
    planId = plan.body.id;
    const tenant = await server.call('POST', '/api/companies', { token: superToken, body: { name: 'Outra', email: 'admin@outra.test', password: 'segredo1', planId } });
    expect(tenant.status, JSON.stringify(tenant.body)).toBe(201);
    adminToken = (await server.login('admin@outra.test', 'segredo1')).token;
  });
  afterAll(async () => {
    await server.close();
  });

  it('are written by super users only', async () => {
    const body = { code: 'NOPE', kind: 'discount', amount: 10, usesLeft: 5 };
    expect((await create(body, adminToken)).status).toBe(403);
    expect((await server.call('GET', '/api/promotions', { token: adminToken })).status).toBe(403);
    expect((await server.call('GET', '/api/promotions')).status).toBe(401);
    const made = await create({ code: 'owned', kind: 'discount', amount: 10, usesLeft: 5 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ code: 'OWNED', kind: 'discount', amount: 10, usesLeft: 5, expiresAt: null });
    expect((await server.call('PUT', `/api/promotions/${made.body.id}`, { token: adminToken, body: body })).status).toBe(403);
    expect((await server.call('DELETE', `/api/promotions/${made.body.id}`, { token: adminToken })).status).toBe(403);
    const edited = await server.call('PUT', `/api/promotions/${made.body.id}`, { token: superToken, body: { code: 'OWNED', kind: 'trialDays', amount: 7, usesLeft: 2, expiresAt: isoDay(10) } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ kind: 'trialDays', amount: 7, usesLeft: 2, expiresAt: isoDay(10) });
    expect((await server.call('DELETE', `/api/promotions/${made.body.id}`, { token: superToken })).status).toBe(204);
    expect((await server.call('DELETE', `/api/promotions/${made.body.id}`, { token: superToken })).status).toBe(404);
  });

  it('answers each bad field with its message, and a taken code (any case) under the code', async () => {
    const ok = { code: 'BOAS-VINDAS', kind: 'discount', amount: 10, usesLeft: 3 };
    const cases: [Record<string, unknown>, string][] = [
      [{ code: 'AB' }, 'code: Código muito curto'],
      [{ code: 'com espaço' }, 'code: Use apenas letras'],
      [{ kind: 'free' }, 'kind: Tipo inválido'],
      [{ amount: 0 }, 'amount: Valor mínimo 1'],
      [{ amount: 100 }, 'amount: Desconto máximo de 99%'],
      [{ kind: 'trialDays', amount: 366 }, 'amount: Máximo de 365 dias'],
      [{ usesLeft: -1 }, 'usesLeft: Usos não pode ser negativo'],
      [{ expiresAt: '2026-02-30' }, 'expiresAt: Data inválida'],
    ];
    for (const [change, message] of cases) {
      const res = await create({ ...ok, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect((await create(ok)).status).toBe(201);
    const again = await create({ ...ok, code: 'boas-vindas' });
    expect(again.status).toBe(400);
    expect(again.body.details.issues).toEqual([{ path: 'code', message: 'Código já cadastrado' }]);
  });

  it('are checked by the signup page: unknown, expired and used-up codes are invalid', async () => {
    expect((await create({ code: 'VENCIDO', kind: 'discount', amount: 10, usesLeft: 5, expiresAt: isoDay(-1) })).status).toBe(201);
    expect((await create({ code: 'ESGOTADO', kind: 'discount', amount: 10, usesLeft: 0 })).status).toBe(201);
    expect((await create({ code: 'HOJE', kind: 'discount', amount: 10, usesLeft: 1, expiresAt: isoDay(0) })).status).toBe(201);
    expect(await verify('NAOEXISTE')).toBe(false);
    expect(await verify('VENCIDO')).toBe(false);
    expect(await verify('ESGOTADO')).toBe(false);
    expect(await verify('hoje')).toBe(true);
    for (const code of ['VENCIDO', 'ESGOTADO']) {
      const res = await cadastro(form(code));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Promoção inválida ou vencida');
    }
    serial -= 2; // nothing was created: the next signups may use those documents
    expect((await promotion('VENCIDO')).usesLeft).toBe(5);
  });

  it('adds trial days to the new company’s due date, and takes one use', async () => {
    expect((await create({ code: 'MAIS7', kind: 'trialDays', amount: 7, usesLeft: 3 })).status).toBe(201);
    const res = await cadastro(form('mais7'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const company = await server.call('GET', `/api/companies/${res.body.id}`, { token: superToken });
    expect(company.body.dueDate).toBe(isoDay(10));
    expect((await promotion('MAIS7')).usesLeft).toBe(2);
    const admin = await server.login(`dono${serial}@promo.test`, 'segredo1');
    const invoices = await server.call('GET', '/api/invoices/all', { token: admin.token });
    expect(invoices.body.invoices).toEqual([expect.objectContaining({ dueDate: isoDay(10), value: 100, status: 'open' })]);
  });

  it('takes a discount off the first invoice only', async () => {
    expect((await create({ code: 'DEZ', kind: 'discount', amount: 15, usesLeft: 3 })).status).toBe(201);
    const res = await cadastro(form('DEZ'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const company = await server.call('GET', `/api/companies/${res.body.id}`, { token: superToken });
    expect(company.body.dueDate).toBe(isoDay(3));
    const admin = await server.login(`dono${serial}@promo.test`, 'segredo1');
    const invoices = await server.call('GET', '/api/invoices/all', { token: admin.token });
    expect(invoices.body.invoices).toEqual([expect.objectContaining({ dueDate: isoDay(3), value: 85, status: 'open' })]);
    // Paid, the next period's invoice is at the plan's full value.
    const first = invoices.body.invoices[0].id as number;
    expect((await server.call('POST', `/api/invoices/${first}/pay`, { token: superToken })).status).toBe(200);
    const after = await server.call('GET', '/api/invoices/all', { token: admin.token });
    expect(after.body.invoices[0]).toMatchObject({ status: 'open', value: 100 });
  });

  it('gives its last use to one of two signups racing for it', async () => {
    expect((await create({ code: 'ULTIMO', kind: 'trialDays', amount: 2, usesLeft: 1 })).status).toBe(201);
    const [a, b] = await Promise.all([cadastro(form('ULTIMO')), cadastro(form('ULTIMO'))]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([201, 400]);
    expect([a, b].find((r) => r.status === 400)!.body.message).toBe('Promoção inválida ou vencida');
    expect((await promotion('ULTIMO')).usesLeft).toBe(0);
    expect(await verify('ULTIMO')).toBe(false);
  });
});
