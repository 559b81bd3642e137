import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/socket.js';
import { FAKE_QR_IMAGE, REFUSAL, REFUSED_CARD, startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas.js';
import { createMember, createTenant, eventually, type InboxTenant } from '../helpers/inbox.js';

const DUE_DATES_JOB = 'billing.due-dates';
const WEBHOOK_TOKEN = 'asaas-webhook-secret';
const CARD_NUMBER = '5162306219378829';
const CARD = { number: '5162 3062 1937 8829', holderName: 'Maria da Silva', expiryMonth: '05', expiryYear: '2031', ccv: '318', postalCode: '89223-005', addressNumber: '277' };
const CPF = '529.982.247-25';

describe('billing through Asaas: customers, card subscriptions, webhooks', () => {
  let server: TestServer;
  let fake: FakeAsaas;
  let superToken: string;
  let a: InboxTenant;
  let b: InboxTenant;
  let pro: { id: number };
  let max: { id: number };

  const db = () => server.atende.container.db;
  const invoicesOf = async (tenant: InboxTenant) => (await server.call('GET', '/api/invoices/all', { token: tenant.admin.token })).body.invoices as { id: number; dueDate: string; status: string; value: number; detail: string; paidValue: number | null }[];
  const dueDateOf = async (tenant: InboxTenant) => (await server.call('GET', `/api/companies/${tenant.companyId}`, { token: superToken })).body.dueDate as string;
  const openInvoice = async (tenant: InboxTenant, dueDate: string) => {
    await server.atende.container.jobs.now(DUE_DATES_JOB, {});
    return eventually(async () => (await invoicesOf(tenant)).find((i) => i.dueDate === dueDate), 5000, `the invoice due ${dueDate}`);
  };
  const subscribe = (tenant: InboxTenant, creditCard: unknown, token = tenant.admin.token) =>
    server.call('POST', '/api/asaas/companhia/create/subscriptions', { token, body: { companyId: tenant.companyId, creditCard } });

  beforeAll(async () => {
    fake = await startFakeAsaas();
    server = await startTestServer({
      allowPrivateUrls: true,
      pluginConfig: { billing: { provider: 'asaas', asaasUrl: fake.url, asaasKey: fake.key, asaasWebhookToken: WEBHOOK_TOKEN } },
    });
    fake.webhook.url = `${server.url}/api/asaas/webhook`;
    fake.webhook.token = WEBHOOK_TOKEN;
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    pro = (await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Pro', users: 5, connections: 2, queues: 5, value: 149.9 } })).body;
    max = (await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Max', users: 10, connections: 4, queues: 10, value: 199.9 } })).body;
    a = await createTenant(server, 'Alfa Cartao');
    b = await createTenant(server, 'Beta Cartao');
    for (const tenant of [a, b]) {
      const res = await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId: pro.id, dueDate: '2099-01-31', recurrence: 'MENSAL' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('creates the company’s customer once, asking for a CPF/CNPJ when it has none; only its own admins or super users may', async () => {
    const before = await server.call('GET', `/api/asaas/companhia/${a.companyId}`, { token: a.admin.token });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ customerId: null, hasDocument: false });

    const noDocument = await server.call('POST', '/api/asaas/companhia/create/customer', { token: a.admin.token, body: { companyId: a.companyId } });
    expect(noDocument.status).toBe(400);
    expect(noDocument.body.error).toBe('ERR_COMPANY_DOCUMENT_MISSING');
    const badDocument = await server.call('POST', '/api/asaas/companhia/create/customer', { token: a.admin.token, body: { companyId: a.companyId, cpfCnpj: '123.456.789-00' } });
    expect(badDocument.status).toBe(400);

    const byOther = await server.call('POST', '/api/asaas/companhia/create/customer', { token: b.admin.token, body: { companyId: a.companyId, cpfCnpj: CPF } });
    expect(byOther.status).toBe(404);
    expect((await server.call('GET', `/api/asaas/companhia/${a.companyId}`, { token: b.admin.token })).status).toBe(404);
    const agent = await createMember(server, a, 'agente-cartao');
    expect((await server.call('POST', '/api/asaas/companhia/create/customer', { token: agent.token, body: { companyId: a.companyId, cpfCnpj: CPF } })).status).toBe(403);
    expect(fake.customers.size).toBe(0);

    const created = await server.call('POST', '/api/asaas/companhia/create/customer', { token: a.admin.token, body: { companyId: a.companyId, cpfCnpj: CPF } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.customerId).toMatch(/^cus_/);
    const again = await server.call('POST', '/api/asaas/companhia/create/customer', { token: a.admin.token, body: { companyId: a.companyId } });
    expect(again.body.customerId).toBe(created.body.customerId);
    expect(fake.customers.size).toBe(1);
    const customer = fake.customers.get(created.body.customerId)!;
    expect(customer).toMatchObject({ name: 'Alfa Cartao', cpfCnpj: '52998224725', email: 'admin@alfacartao.test', externalReference: `company:${a.companyId}` });
    expect(fake.calls.every((c) => c.accessToken === fake.key)).toBe(true);
    expect((await server.call('GET', `/api/asaas/companhia/${a.companyId}`, { token: superToken })).body).toEqual({ customerId: created.body.customerId, hasDocument: true });
  });

  it('refuses a subscription without a customer, and a card that fails §5 without asking Asaas', async () => {
    const noCustomer = await subscribe(b, CARD);
    expect(noCustomer.status).toBe(400);
    expect(noCustomer.body.details.errors).toEqual([{ code: 'customer', description: 'Não foi criado o cliente.' }]);

    const calls = fake.calls.length;
    const bad = await subscribe(a, { ...CARD, number: '5162 3062 1937 882', holderName: 'Maria 2', expiryMonth: '13', ccv: '12', postalCode: '8922300', addressNumber: '7' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors.map((e: { description: string }) => e.description)).toEqual([
      'O número do cartão tem 16 dígitos',
      'O nome do titular tem apenas letras e espaços',
      'Mês de validade inválido',
      'O CCV tem 3 ou 4 dígitos',
      'CEP inválido',
      'O número do endereço tem ao menos 2 caracteres',
    ]);
    const expired = await subscribe(a, { ...CARD, expiryMonth: '01', expiryYear: '2020' });
    expect(expired.body.details.errors).toEqual([{ code: 'expiryYear', description: 'Cartão vencido' }]);
    const mistyped = await subscribe(a, { ...CARD, number: '5162306219378828' });
    expect(mistyped.body.details.errors).toEqual([{ code: 'number', description: 'Número do cartão inválido' }]);
    expect(fake.calls.length).toBe(calls);
  });

  it('shows Asaas’s refusal of a card with its description, and keeps nothing', async () => {
    const refused = await subscribe(a, { ...CARD, number: REFUSED_CARD });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_PAYMENT_PROVIDER_REFUSED');
    expect(refused.body.details.errors).toEqual([{ code: 'invalid_creditCard', description: REFUSAL }]);
    expect(Number((await db()('billing_subscriptions').count({ n: '*' }))[0]!.n)).toBe(0);
  });

  it('subscribes by card at the plan’s value from the due date; the card number is stored nowhere; one active subscription', async () => {
    const created = await subscribe(a, { ...CARD, value: 1 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ status: 'ACTIVE', company: { id: a.companyId }, subscription: { companyId: a.companyId, planId: pro.id, planName: 'Pro', status: 'active', value: 149.9, cardLast4: '8829', cardBrand: 'MASTERCARD' } });
    const sent = fake.calls.find((c) => c.method === 'POST' && c.path === '/v3/subscriptions' && c.body?.creditCard.number === CARD_NUMBER)!;
    expect(sent.body).toMatchObject({
      billingType: 'CREDIT_CARD',
      cycle: 'MONTHLY',
      value: 149.9,
      nextDueDate: '2099-01-31',
      creditCard: { holderName: 'Maria da Silva', number: CARD_NUMBER, expiryMonth: '05', expiryYear: '2031', ccv: '318' },
      creditCardHolderInfo: { cpfCnpj: '52998224725', postalCode: '89223005', addressNumber: '277' },
      remoteIp: expect.any(String),
    });

    for (const table of ['billing_subscriptions', 'billing_customers', 'invoices', 'company_documents']) {
      expect(JSON.stringify(await db()(table).select('*'))).not.toContain(CARD_NUMBER);
    }
    const second = await subscribe(a, CARD);
    expect(second.status).toBe(409);

    const listed = await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${a.companyId}`, { token: a.admin.token });
    expect(listed.body.subscriptions).toHaveLength(1);
    expect(listed.body.subscriptions[0]).toMatchObject({ subscriptionId: created.body.subscription.subscriptionId, customerId: expect.stringMatching(/^cus_/) });
    expect((await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${a.companyId}`, { token: b.admin.token })).status).toBe(404);
  });

  it('loads the subscription’s payments, for its own company only', async () => {
    const [subscription] = (await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${a.companyId}`, { token: a.admin.token })).body.subscriptions;
    const payments = await server.call('POST', '/api/asaas/companhia/load/payments/to/subscriptions', { token: a.admin.token, body: { id: subscription.id, offset: 0 } });
    expect(payments.status).toBe(200);
    expect(payments.body).toEqual({
      hasMore: false,
      data: [expect.objectContaining({ subscription: subscription.subscriptionId, value: 149.9, dueDate: '2099-01-31', status: 'PENDING', billingType: 'CREDIT_CARD' })],
    });
    const byOther = await server.call('POST', '/api/asaas/companhia/load/payments/to/subscriptions', { token: b.admin.token, body: { id: subscription.id, offset: 0 } });
    expect(byOther.status).toBe(404);
  });

  it('refuses a forged or tokenless webhook and changes nothing', async () => {
    const invoice = await openInvoice(a, '2099-01-31');
    const [payment] = [...fake.payments.values()];
    const forged = await fake.pay(payment!.id, { token: 'guessed' });
    expect(forged.status).toBe(401);
    const tokenless = await fake.send({ id: 'evt_x', event: 'PAYMENT_RECEIVED', payment: { id: payment!.id, value: 149.9, subscription: payment!.subscription } }, null);
    expect(tokenless.status).toBe(401);
    expect((await invoicesOf(a)).find((i) => i.id === invoice.id)!.status).toBe('open');
    expect(await dueDateOf(a)).toBe('2099-01-31');
    expect(await db()('billing_provider_events').select('*')).toEqual([]);
  });

  it('a paid charge pays the invoice once: the company renews and hears CONCLUIDA; replays and a second event of the same payment change nothing', async () => {
    const invoice = await openInvoice(a, '2099-01-31');
    const payment = [...fake.payments.values()][0]!;
    const socket = await openSocket(server.url, a.admin.token);
    let confirmed;
    try {
      confirmed = await fake.pay(payment.id, { event: 'PAYMENT_CONFIRMED' });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(confirmed.body).toEqual({ received: true, outcome: 'paid' });
      const frame = await socket.next((f) => f.channel === `company-${a.companyId}-payment`);
      expect(frame.data).toEqual({ action: 'CONCLUIDA', company: { id: a.companyId, dueDate: '2099-02-28' } });
    } finally {
      await socket.close();
    }
    expect((await invoicesOf(a)).find((i) => i.id === invoice.id)).toMatchObject({ status: 'paid', paidValue: 149.9 });

    const replay = await fake.pay(payment.id, { event: 'PAYMENT_CONFIRMED', eventId: confirmed.eventId });
    expect(replay.body).toEqual({ received: true, outcome: 'duplicate' });
    const received = await fake.pay(payment.id, { event: 'PAYMENT_RECEIVED' });
    expect(received.body).toEqual({ received: true, outcome: 'already-paid' });
    expect(await dueDateOf(a)).toBe('2099-02-28');
    const events = await db()('billing_provider_events').orderBy('id').select('event', 'outcome', 'invoiceId');
    expect(events).toEqual([
      { event: 'PAYMENT_CONFIRMED', outcome: 'paid', invoiceId: invoice.id },
      { event: 'PAYMENT_RECEIVED', outcome: 'already-paid', invoiceId: invoice.id },
    ]);
  });

  it('a charge of another amount pays nothing: recorded and refused', async () => {
    const next = await openInvoice(a, '2099-02-28');
    const [subscription] = (await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${a.companyId}`, { token: a.admin.token })).body.subscriptions;
    const charge = fake.charge(subscription.subscriptionId, 10);
    const paid = await fake.pay(charge.id);
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ received: true, outcome: 'amount-mismatch' });
    expect((await invoicesOf(a)).find((i) => i.id === next.id)).toMatchObject({ status: 'open', paidValue: null });
    expect(await dueDateOf(a)).toBe('2099-02-28');
    const mismatch = await fake.pay(fake.charge(subscription.subscriptionId).id, { value: 149.89 });
    expect(mismatch.body.outcome).toBe('amount-mismatch');
    expect(await dueDateOf(a)).toBe('2099-02-28');
  });

  it('changes the plan: the subscription and the open invoice follow its value; another company may not', async () => {
    const byOther = await server.call('POST', '/api/asaas/change-plan/subscriptions/new-subscriptions/asaas', { token: b.admin.token, body: { companyId: a.companyId, planId: max.id } });
    expect(byOther.status).toBe(404);
    // A plan below the company's users is refused before Asaas hears of it.
    const tiny = (await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Tiny', users: 0, connections: 4, queues: 10, value: 9.9 } })).body;
    const calls = fake.calls.length;
    const below = await server.call('POST', '/api/asaas/change-plan/subscriptions/new-subscriptions/asaas', { token: a.admin.token, body: { companyId: a.companyId, planId: tiny.id } });
    expect(below.status).toBe(409);
    expect(below.body.error).toBe('ERR_PLAN_BELOW_USERS');
    expect(fake.calls.length).toBe(calls);
    const changed = await server.call('POST', '/api/asaas/change-plan/subscriptions/new-subscriptions/asaas', { token: a.admin.token, body: { companyId: a.companyId, planId: max.id } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.subscription).toMatchObject({ planId: max.id, planName: 'Max', value: 199.9 });
    const atAsaas = fake.subscriptions.get(changed.body.subscription.subscriptionId)!;
    expect(atAsaas.value).toBe(199.9);
    expect(fake.calls.some((c) => c.method === 'PUT' && c.body?.updatePendingPayments === true)).toBe(true);
    expect((await server.call('GET', `/api/companies/${a.companyId}`, { token: superToken })).body.planId).toBe(max.id);
    expect((await invoicesOf(a)).find((i) => i.dueDate === '2099-02-28')).toMatchObject({ status: 'open', detail: 'Max', value: 199.9 });

    // The new month's charge at the new value pays the invoice.
    const paid = await fake.pay(fake.charge(changed.body.subscription.subscriptionId).id);
    expect(paid.body.outcome).toBe('paid');
    expect(await dueDateOf(a)).toBe('2099-03-28');
  });

  it('gives an invoice’s Pix charge from Asaas for the invoice’s value; its payment pays that invoice', async () => {
    const invoice = await openInvoice(a, '2099-03-28');
    expect((await server.call('GET', '/api/billing/status', { token: a.admin.token })).body).toEqual({ provider: 'asaas', pix: true });
    const pix = await server.call('GET', `/api/invoices/${invoice.id}/pix`, { token: a.admin.token });
    expect(pix.status, JSON.stringify(pix.body)).toBe(200);
    expect(pix.body).toMatchObject({ invoiceId: invoice.id, value: 199.9, encodedImage: FAKE_QR_IMAGE });
    const charge = [...fake.payments.values()].find((p) => p.externalReference === `invoice:${invoice.id}`)!;
    expect(charge).toMatchObject({ billingType: 'PIX', value: 199.9, dueDate: '2099-03-28' });
    expect(pix.body.payload).toContain(charge.id);
    // Asked again: the same charge, not a second one.
    await server.call('GET', `/api/invoices/${invoice.id}/pix`, { token: a.admin.token });
    expect([...fake.payments.values()].filter((p) => p.externalReference === `invoice:${invoice.id}`)).toHaveLength(1);
    expect((await server.call('GET', `/api/invoices/${invoice.id}/pix`, { token: b.admin.token })).status).toBe(404);

    const paid = await fake.pay(charge.id);
    expect(paid.body.outcome).toBe('paid');
    expect((await invoicesOf(a)).find((i) => i.id === invoice.id)).toMatchObject({ status: 'paid', paidValue: 199.9 });
    expect(await dueDateOf(a)).toBe('2099-04-28');
  });

  it('removes a subscription at Asaas; only its company may; the card tab can subscribe again after', async () => {
    const [subscription] = (await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${a.companyId}`, { token: a.admin.token })).body.subscriptions;
    const byOther = await server.call('DELETE', `/api/asaas/remove/subscriptions/by-id/${subscription.id}?companyId=${b.companyId}`, { token: b.admin.token });
    expect(byOther.status).toBe(404);
    const wrongCompany = await server.call('DELETE', `/api/asaas/remove/subscriptions/by-id/${subscription.id}?companyId=${b.companyId}`, { token: superToken });
    expect(wrongCompany.status).toBe(404);
    expect(fake.subscriptions.get(subscription.subscriptionId)!.deleted).toBe(false);

    const removed = await server.call('DELETE', `/api/asaas/remove/subscriptions/by-id/${subscription.id}?companyId=${a.companyId}`, { token: a.admin.token });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    expect(fake.subscriptions.get(subscription.subscriptionId)!.deleted).toBe(true);
    const listed = (await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${a.companyId}`, { token: a.admin.token })).body.subscriptions;
    expect(listed.map((s: { status: string }) => s.status)).toEqual(['inactive']);
    const again = await server.call('DELETE', `/api/asaas/remove/subscriptions/by-id/${subscription.id}?companyId=${a.companyId}`, { token: a.admin.token });
    expect(again.status).toBe(409);
    expect((await subscribe(a, CARD)).status).toBe(201);
  });

  it('marks a subscription inactive when Asaas ends it, once', async () => {
    const [active] = (await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${a.companyId}`, { token: a.admin.token })).body.subscriptions;
    const ended = await fake.send({ id: 'evt_sub_end', event: 'SUBSCRIPTION_DELETED', subscription: { id: active.subscriptionId } });
    expect(ended.body).toEqual({ received: true, outcome: 'subscription-ended' });
    expect((await fake.send({ id: 'evt_sub_end', event: 'SUBSCRIPTION_DELETED', subscription: { id: active.subscriptionId } })).body.outcome).toBe('duplicate');
    const listed = (await server.call('GET', `/api/asaas/companhia/load/all/company/asaas/by/${a.companyId}`, { token: a.admin.token })).body.subscriptions;
    expect(listed.map((s: { status: string }) => s.status)).toEqual(['inactive', 'inactive']);
  });
});

describe('billing in manual mode', () => {
  it('offers no card payments and no webhook', async () => {
    const server = await startTestServer({ pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test' } } });
    try {
      const tenant = await createTenant(server, 'Gama Manual');
      const customer = await server.call('GET', `/api/asaas/companhia/${tenant.companyId}`, { token: tenant.admin.token });
      expect(customer.status).toBe(400);
      expect(customer.body.error).toBe('ERR_NO_CARD_PAYMENTS');
      const webhook = await server.call('POST', '/api/asaas/webhook', { body: { id: 'evt', event: 'PAYMENT_RECEIVED' }, headers: { 'asaas-access-token': 'x' } });
      expect(webhook.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
