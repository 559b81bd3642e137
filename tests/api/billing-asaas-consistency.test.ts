import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { REFUSED_CARD, startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas.js';
import { createTenant, eventually, type InboxTenant } from '../helpers/inbox.js';

const DUE_DATES_JOB = 'billing.due-dates';
const WEBHOOK_TOKEN = 'asaas-webhook-secret';
const CARD = { number: '5162 3062 1937 8829', holderName: 'Maria da Silva', expiryMonth: '05', expiryYear: '2031', ccv: '318', postalCode: '89223-005', addressNumber: '277' };
const CHECKOUT = { firstName: 'Maria', lastName: 'Silva', address2: 'Rua A, 10', city: 'Blumenau', state: 'SC', zipcode: '89010-000', country: 'BR' };
const CPFS = ['529.982.247-25', '111.444.777-35', '390.533.447-05'];

/**
 * What holds across requests and servers: one card subscription a company, whatever arrives at
 * once; and an invoice's Pix charge always for the invoice's current value.
 */
describe('billing through Asaas, across requests and servers', () => {
  let server: TestServer;
  let second: TestServer;
  let fake: FakeAsaas;
  let superToken: string;
  let pro: { id: number };
  let max: { id: number };
  let tenants: InboxTenant[];

  const subscribe = (on: TestServer, tenant: InboxTenant, creditCard: unknown) =>
    on.call('POST', '/api/asaas/companhia/create/subscriptions', { token: tenant.admin.token, body: { companyId: tenant.companyId, creditCard } });
  const subscriptionCalls = (tenant: InboxTenant) => fake.calls.filter((c) => c.method === 'POST' && c.path === '/v3/subscriptions' && c.body?.externalReference === `company:${tenant.companyId}`);
  const openInvoice = async (tenant: InboxTenant, dueDate: string) => {
    await server.atende.container.jobs.now(DUE_DATES_JOB, {});
    return eventually(async () => {
      const { invoices } = (await server.call('GET', '/api/invoices/all', { token: tenant.admin.token })).body as { invoices: { id: number; dueDate: string }[] };
      return invoices.find((i) => i.dueDate === dueDate);
    }, 5000, `the invoice due ${dueDate}`);
  };
  const invoice = async (tenant: InboxTenant, id: number) =>
    ((await server.call('GET', '/api/invoices/all', { token: tenant.admin.token })).body.invoices as { id: number; status: string; value: number; detail: string }[]).find((i) => i.id === id)!;
  const chargesOf = (invoiceId: number) => [...fake.payments.values()].filter((p) => p.externalReference === `invoice:${invoiceId}`);

  beforeAll(async () => {
    fake = await startFakeAsaas();
    const billing = { provider: 'asaas', asaasUrl: fake.url, asaasKey: fake.key, asaasWebhookToken: WEBHOOK_TOKEN };
    server = await startTestServer({ allowPrivateUrls: true, pluginConfig: { billing } });
    second = await startTestServer({ allowPrivateUrls: true, pluginConfig: { billing } }, { sameDatabaseAs: server });
    fake.webhook.url = `${server.url}/api/asaas/webhook`;
    fake.webhook.token = WEBHOOK_TOKEN;
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    pro = (await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Pro', users: 5, connections: 2, queues: 5, value: 149.9 } })).body;
    max = (await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Max', users: 10, connections: 4, queues: 10, value: 199.9 } })).body;
    tenants = [];
    for (const [i, name] of ['Corrida Um', 'Corrida Dois', 'Reprecificada'].entries()) {
      const tenant = await createTenant(server, name);
      await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId: pro.id, dueDate: '2099-01-31', recurrence: 'MENSAL' } });
      const customer = await server.call('POST', '/api/asaas/companhia/create/customer', { token: tenant.admin.token, body: { companyId: tenant.companyId, cpfCnpj: CPFS[i] } });
      expect(customer.status, JSON.stringify(customer.body)).toBe(200);
      tenants.push(tenant);
    }
  });
  afterAll(async () => {
    await second?.close();
    await server?.close();
    await fake?.close();
  });

  it('two card subscriptions at once, on two servers sharing the database, make one at Asaas', async () => {
    const [tenant] = tenants as [InboxTenant];
    const hold = fake.holdSubscriptions();
    const first = subscribe(server, tenant, CARD);
    // The first request reaches Asaas and waits there; the second, on the other server, meets its reservation.
    await eventually(async () => subscriptionCalls(tenant).length === 1, 5000, 'the first request at Asaas');
    const other = await subscribe(second, tenant, CARD);
    hold.release();
    const made = await first;
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('ERR_SUBSCRIPTION_EXISTS');
    expect(subscriptionCalls(tenant)).toHaveLength(1);
    const listed = (await second.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${tenant.companyId}`, { token: tenant.admin.token })).body.subscriptions;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ status: 'active', subscriptionId: made.body.subscription.subscriptionId });
    expect((await subscribe(second, tenant, CARD)).status).toBe(409);
  });

  it('many at once on both servers still make one; a refused card gives the place back', async () => {
    const [, tenant] = tenants as [InboxTenant, InboxTenant];
    const refused = await subscribe(second, tenant, { ...CARD, number: REFUSED_CARD });
    expect(refused.body.error).toBe('ERR_PAYMENT_PROVIDER_REFUSED');
    expect(Number((await server.atende.container.db('billing_subscriptions').where({ companyId: tenant.companyId }).count({ n: '*' }))[0]!.n)).toBe(0);

    const answers = await Promise.all([server, second, server, second].map((on) => subscribe(on, tenant, CARD)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect(subscriptionCalls(tenant).filter((c) => c.body?.creditCard.number !== REFUSED_CARD)).toHaveLength(1);
  });

  it('a repriced invoice gets a new Pix charge at its new value; the old one is cancelled and its payment pays nothing', async () => {
    const tenant = tenants[2]!;
    const open = await openInvoice(tenant, '2099-01-31');
    const pix = await server.call('GET', `/api/invoices/${open.id}/pix`, { token: tenant.admin.token });
    expect(pix.body.value).toBe(149.9);
    const [old] = chargesOf(open.id);
    expect(old).toMatchObject({ value: 149.9, status: 'PENDING' });

    // The checkout with another plan reprices the invoice: its Pix is a new charge, the old one cancelled at Asaas.
    const checkout = await server.call('POST', '/api/subscription', { token: tenant.admin.token, body: { ...CHECKOUT, plan: max.id } });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect(checkout.body.valor).toEqual({ original: '199.90' });
    expect(old!.deleted).toBe(true);
    const live = chargesOf(open.id).filter((c) => !c.deleted);
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ value: 199.9, billingType: 'PIX' });
    expect(checkout.body.qrcode.qrcode).toContain(live[0]!.id);
    // Asked again: the same new charge.
    expect((await server.call('GET', `/api/invoices/${open.id}/pix`, { token: tenant.admin.token })).body.payload).toContain(live[0]!.id);
    expect(chargesOf(open.id)).toHaveLength(2);

    // The old charge paid anyway: recorded, pays nothing.
    const stale = await fake.pay(old!.id);
    expect(stale.body).toEqual({ received: true, outcome: 'amount-mismatch' });
    expect(await invoice(tenant, open.id)).toMatchObject({ status: 'open', value: 199.9 });
    const paid = await fake.pay(live[0]!.id);
    expect(paid.body.outcome).toBe('paid');
    expect((await invoice(tenant, open.id)).status).toBe('paid');
  });

  it('a plan change of a card subscription cancels the open invoice’s Pix charge at once; the next Pix is at the new value', async () => {
    const [tenant] = tenants as [InboxTenant];
    const open = await openInvoice(tenant, '2099-01-31');
    await server.call('GET', `/api/invoices/${open.id}/pix`, { token: tenant.admin.token });
    const [old] = chargesOf(open.id);
    expect(old).toMatchObject({ value: 149.9 });

    const changed = await second.call('POST', '/api/asaas/change-plan/subscriptions/new-subscriptions/asaas', { token: tenant.admin.token, body: { companyId: tenant.companyId, planId: max.id } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(old!.deleted).toBe(true);
    expect(await invoice(tenant, open.id)).toMatchObject({ status: 'open', value: 199.9, detail: 'Max' });
    expect((await fake.pay(old!.id)).body.outcome).toBe('amount-mismatch');
    expect((await invoice(tenant, open.id)).status).toBe('open');

    const pix = await server.call('GET', `/api/invoices/${open.id}/pix`, { token: tenant.admin.token });
    expect(pix.body.value).toBe(199.9);
    const live = chargesOf(open.id).filter((c) => !c.deleted);
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ value: 199.9 });
    expect((await fake.pay(live[0]!.id)).body.outcome).toBe('paid');
  });
});
