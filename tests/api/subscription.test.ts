import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { createMember, createQueue, createTenant, eventually, type InboxTenant } from '../helpers/inbox.js';
import { crc16 } from '../../plugins/billing/pix/br-code.js';
import { Whatsapp } from '../../core/modules/whatsapp/whatsapp.model.js';

function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A BR Code's last four characters are the CRC16 of everything before them. */
function crcHolds(payload: string): boolean {
  return crc16(payload.slice(0, -4)) === payload.slice(-4);
}

const CHECKOUT = { firstName: 'Maria Souza', address2: 'Rua das Flores, 10', city: 'São Paulo', state: 'SP', zipcode: '01001-000', country: 'BR' };

describe('the subscription checkout', () => {
  let server: TestServer;
  let superToken: string;
  let basic: number;
  let pro: number;
  let shop: InboxTenant;
  let other: InboxTenant;
  let otherInvoiceId: number;

  beforeAll(async () => {
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test', pixName: 'Atende', pixCity: 'Sao Paulo' } } });
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    basic = (await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Básico', users: 5, connections: 2, queues: 5, value: 99.9 } })).body.id;
    pro = (await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Pro', users: 10, connections: 4, queues: 10, value: 149.5 } })).body.id;
    shop = await createTenant(server, 'Loja Checkout');
    other = await createTenant(server, 'Loja Vizinha');
    for (const t of [shop, other]) {
      await server.call('PUT', `/api/companies/${t.companyId}`, { token: superToken, body: { planId: basic, dueDate: dayFromToday(3), recurrence: 'MENSAL' } });
    }
    await server.atende.container.jobs.now('billing.due-dates', {});
    // The job runs in the job runner, not in this call: wait for the invoice it opens.
    otherInvoiceId = await eventually(async () => (await server.call('GET', '/api/invoices/all', { token: other.admin.token })).body.invoices[0]?.id as number | undefined, 10_000, "the other company's invoice");
  });
  afterAll(async () => {
    await server.close();
  });

  it('names billing among the active plugins, to signed-in users only', async () => {
    expect((await server.call('GET', '/api/plugins/active')).status).toBe(401);
    const res = await server.call('GET', '/api/plugins/active', { token: shop.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.plugins).toContain('billing');
    expect(res.body.plugins).toContain('campaigns');
  });

  it('shows the company’s trial days, e-mail and plan', async () => {
    const res = await server.call('GET', '/api/subscription', { token: shop.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ companyName: 'Loja Checkout', email: shop.admin.email, trial: true, trialDaysLeft: 3, plan: { id: basic, name: 'Básico', value: 99.9 } });
  });

  it('answers the server’s price and a valid BR Code, whatever price or invoice the browser sends', async () => {
    const res = await server.call('POST', '/api/subscription', { token: shop.admin.token, body: { ...CHECKOUT, price: 0.01, users: 99, connections: 99, invoiceId: otherInvoiceId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.valor).toEqual({ original: '99.90' });
    const payload = res.body.qrcode.qrcode as string;
    expect(payload).toMatch(/^000201.*br\.gov\.bcb\.pix.*540599\.90.*6304[0-9A-F]{4}$/);
    expect(crcHolds(payload)).toBe(true);
    expect(res.body.invoiceId).not.toBe(otherInvoiceId);
    const own = await server.call('GET', '/api/invoices/all', { token: shop.admin.token });
    expect(own.body.invoices.map((i: { id: number }) => i.id)).toContain(res.body.invoiceId);
    const others = await server.call('GET', '/api/invoices/all', { token: other.admin.token });
    expect(others.body.invoices[0]).toMatchObject({ id: otherInvoiceId, value: 99.9, status: 'open' });
  });

  it('checks the spec’s address fields', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ firstName: '' }, 'O nome completo é obrigatório'],
      [{ address2: ' ' }, 'O Endereço é obrigatório'],
      [{ city: '' }, 'Cidade é obrigatória'],
      [{ zipcode: '' }, 'CEP é obrigatório'],
      [{ country: 'FR' }, 'País é obrigatório'],
    ];
    for (const [change, message] of cases) {
      const res = await server.call('POST', '/api/subscription', { token: shop.admin.token, body: { ...CHECKOUT, ...change } });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.message).toContain(message);
    }
  });

  it('changes the plan when another is chosen, and prices the open invoice by it', async () => {
    const agent = await createMember(server, shop, 'agente');
    expect((await server.call('POST', '/api/subscription', { token: agent.token, body: CHECKOUT })).status).toBe(403);
    expect((await server.call('POST', '/api/subscription', { token: shop.admin.token, body: { ...CHECKOUT, plan: 999_999 } })).status).toBe(404);
    const res = await server.call('POST', '/api/subscription', { token: shop.admin.token, body: { ...CHECKOUT, plan: { id: pro, value: 1 }, price: 1 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.valor).toEqual({ original: '149.50' });
    expect(crcHolds(res.body.qrcode.qrcode)).toBe(true);
    const company = await server.call('GET', `/api/companies/${shop.companyId}`, { token: superToken });
    expect(company.body.planId).toBe(pro);
    const invoices = await server.call('GET', '/api/invoices/all', { token: shop.admin.token });
    expect(invoices.body.invoices).toEqual([expect.objectContaining({ id: res.body.invoiceId, detail: 'Pro', value: 149.5, status: 'open' })]);
  });
});

describe('a plan change below what the company has', () => {
  let server: TestServer;
  let superToken: string;
  let basic: number;
  let fewUsers: number;
  let oneConnection: number;
  let oneQueue: number;
  let shop: InboxTenant;

  beforeAll(async () => {
    server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test', pixName: 'Atende', pixCity: 'Sao Paulo' } } });
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const plan = async (name: string, users: number, connections: number, queues = 5) =>
      (await server.call('POST', '/api/plans', { token: superToken, body: { name, users, connections, queues, value: 49.9 } })).body.id as number;
    basic = await plan('Básico', 5, 3);
    fewUsers = await plan('Solo', 1, 3);
    oneConnection = await plan('Uma Conexão', 5, 1);
    oneQueue = await plan('Uma Fila', 5, 3, 1);
    shop = await createTenant(server, 'Loja Cheia');
    await server.call('PUT', `/api/companies/${shop.companyId}`, { token: superToken, body: { planId: basic, dueDate: dayFromToday(3), recurrence: 'MENSAL' } });
    await createMember(server, shop, 'agente');
    // With the company's first queue, two.
    await createQueue(server, shop, 'Suporte');
    for (const name of ['Loja Cheia 1', 'Loja Cheia 2']) await Whatsapp.query(server.atende.container.db).insert({ companyId: shop.companyId, name });
  });
  afterAll(async () => {
    await server.close();
  });

  async function planOfShop(): Promise<number> {
    return (await server.call('GET', `/api/companies/${shop.companyId}`, { token: superToken })).body.planId;
  }

  it('the checkout refuses a plan with fewer users, connections or queues than the company has: 409, the plan kept', async () => {
    const users = await server.call('POST', '/api/subscription', { token: shop.admin.token, body: { ...CHECKOUT, plan: fewUsers } });
    expect(users.status).toBe(409);
    expect(users.body).toMatchObject({ error: 'ERR_PLAN_BELOW_USERS', details: { limit: 'users', max: 1 } });
    const connections = await server.call('POST', '/api/subscription', { token: shop.admin.token, body: { ...CHECKOUT, plan: { id: oneConnection } } });
    expect(connections.status).toBe(409);
    expect(connections.body).toMatchObject({ error: 'ERR_PLAN_BELOW_CONNECTIONS', details: { limit: 'connections', max: 1 } });
    const queues = await server.call('POST', '/api/subscription', { token: shop.admin.token, body: { ...CHECKOUT, plan: { id: oneQueue } } });
    expect(queues.status).toBe(409);
    expect(queues.body).toMatchObject({ error: 'ERR_PLAN_BELOW_QUEUES', details: { limit: 'queues', max: 1, used: 2 } });
    expect(await planOfShop()).toBe(basic);
    const invoices = await server.call('GET', '/api/invoices/all', { token: shop.admin.token });
    expect(invoices.body.invoices.every((i: { detail: string }) => i.detail.startsWith('Básico'))).toBe(true);
  });

  it('so does a super user’s company edit; keeping the plan the company is on is never refused', async () => {
    const res = await server.call('PUT', `/api/companies/${shop.companyId}`, { token: superToken, body: { planId: fewUsers } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_PLAN_BELOW_USERS');
    expect(await planOfShop()).toBe(basic);
    const same = await server.call('PUT', `/api/companies/${shop.companyId}`, { token: superToken, body: { planId: basic, name: 'Loja Cheia' } });
    expect(same.status).toBe(200);
  });
});

describe('the subscription checkout with billing off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('leaves billing out of the active plugins, the others in', async () => {
    const tenant = await createTenant(server, 'Sem Plugins Cobranca');
    const res = await server.call('GET', '/api/plugins/active', { token: tenant.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.plugins).not.toContain('billing');
    expect(res.body.plugins).toContain('campaigns');
  });

  it('answers 400 ERR_BILLING_OFF', async () => {
    const tenant = await createTenant(server, 'Sem Cobranca');
    const res = await server.call('POST', '/api/subscription', { token: tenant.admin.token, body: CHECKOUT });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_BILLING_OFF');
    expect((await server.call('GET', '/api/subscription', { token: tenant.admin.token })).body.error).toBe('ERR_BILLING_OFF');
  });
});
