import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/socket.js';
import { startFakeSmtp, type FakeSmtp } from '../helpers/fake-smtp.js';
import { createConnection, createMember, createTenant, eventually, PASSWORD, type InboxTenant } from '../helpers/inbox.js';
import { crc16, pixPayload } from '../../plugins/billing/pix/br-code.js';

const DUE_DATES_JOB = 'billing.due-dates';

/** YYYY-MM-DD `days` from today (UTC; the tests keep days of margin from any zone's edge). */
function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe('the Pix BR Code', () => {
  it('matches the Banco Central manual’s example, CRC included', () => {
    expect(crc16('123456789')).toBe('29B1'); // the CRC16/CCITT-FALSE check value
    const example =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    expect(pixPayload({ key: '123e4567-e12b-12d1-a456-426655440000', name: 'Fulano de Tal', city: 'BRASILIA', amount: 0, txid: '' })).toBe(example);
  });

  it('carries the amount, a plain name and city cut to their sizes, and a txid of letters and digits', () => {
    const payload = pixPayload({ key: 'pix@atende.test', name: 'Atendê Serviços Digitais Ltda ME', city: 'São José dos Campos', amount: 149.9, txid: 'FATURA-12' });
    expect(payload).toContain('5406149.90');
    expect(payload).toContain('5924Atende Servicos Digitais6015Sao Jose dos Ca');
    expect(payload).toContain('62120508FATURA12');
    expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)));
  });
});

describe('invoices in manual mode', () => {
  let server: TestServer;
  let superToken: string;
  let a: InboxTenant;
  let b: InboxTenant;
  let planId: number;

  const openInvoices = async () => {
    await server.atende.container.jobs.now(DUE_DATES_JOB, {});
  };
  const invoicesOf = async (token: string, query = '') => server.call('GET', `/api/invoices/all${query}`, { token });

  beforeAll(async () => {
    server = await startTestServer({
      pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test', pixName: 'Atende', pixCity: 'Sao Paulo' } },
    });
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const plan = await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Pro', users: 5, connections: 2, queues: 5, value: 149.9 } });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    planId = plan.body.id;
    a = await createTenant(server, 'Alfa Billing');
    b = await createTenant(server, 'Beta Billing');
    for (const [tenant, dueDate] of [
      [a, '2099-01-31'],
      [b, '2099-02-10'],
    ] as const) {
      const res = await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId, dueDate, recurrence: 'MENSAL' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('opens one invoice per company and due date, however often the job runs', async () => {
    await openInvoices();
    await openInvoices();
    const listed = await eventually(async () => {
      const res = await invoicesOf(a.admin.token);
      return res.body.invoices?.length > 0 ? res : undefined;
    });
    expect(listed.status).toBe(200);
    expect(listed.body.invoices).toEqual([
      expect.objectContaining({ companyId: a.companyId, companyName: 'Alfa Billing', detail: 'Pro', value: 149.9, dueDate: '2099-01-31', status: 'open', paidAt: null }),
    ]);
    expect(listed.body.hasMore).toBe(false);
  });

  it('lets a company read only its own invoices; super users read all and search them', async () => {
    await openInvoices();
    const own = await eventually(async () => {
      const res = await invoicesOf(b.admin.token);
      return res.body.invoices?.length > 0 ? res : undefined;
    });
    expect(own.body.invoices.map((i: { companyId: number }) => i.companyId)).toEqual([b.companyId]);
    const all = await invoicesOf(superToken);
    expect(all.body.invoices.map((i: { companyId: number }) => i.companyId).sort()).toEqual([a.companyId, b.companyId].sort());
    const searched = await invoicesOf(superToken, '?searchParam=beta');
    expect(searched.body.invoices.map((i: { companyId: number }) => i.companyId)).toEqual([b.companyId]);
  });

  it('refuses agents without the financial flag, and hides another company’s invoice', async () => {
    const agent = await createMember(server, a, 'agente');
    expect((await invoicesOf(agent.token)).status).toBe(403);
    const invoiceOfB = (await invoicesOf(b.admin.token)).body.invoices[0].id;
    const pix = await server.call('GET', `/api/invoices/${invoiceOfB}/pix`, { token: a.admin.token });
    expect(pix.status).toBe(404);
    expect(pix.body.error).toBe('ERR_NO_INVOICE_FOUND');
  });

  it('gives the Pix code for the invoice’s own amount, built on the server', async () => {
    const invoice = (await invoicesOf(a.admin.token)).body.invoices[0];
    const pix = await server.call('GET', `/api/invoices/${invoice.id}/pix`, { token: a.admin.token });
    expect(pix.status).toBe(200);
    expect(pix.body).toMatchObject({ invoiceId: invoice.id, value: 149.9, dueDate: '2099-01-31' });
    expect(pix.body.payload).toContain('0115pix@atende.test');
    expect(pix.body.payload).toContain('5406149.90');
    expect(pix.body.payload).toContain(`FATURA${invoice.id}`);
    expect(pix.body.payload.slice(-4)).toBe(crc16(pix.body.payload.slice(0, -4)));
  });

  it('lets only super users mark an invoice paid: the due date moves a month, the company hears CONCLUIDA, the next invoice opens', async () => {
    const invoice = (await invoicesOf(a.admin.token)).body.invoices[0];
    const byAdmin = await server.call('POST', `/api/invoices/${invoice.id}/pay`, { token: a.admin.token });
    expect(byAdmin.status).toBe(403);
    expect((await invoicesOf(a.admin.token)).body.invoices[0].status).toBe('open');

    const socket = await openSocket(server.url, a.admin.token);
    try {
      const paid = await server.call('POST', `/api/invoices/${invoice.id}/pay`, { token: superToken });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      expect(paid.body).toMatchObject({ id: invoice.id, status: 'paid', paidValue: 149.9 });
      const frame = await socket.next((f) => f.channel === `company-${a.companyId}-payment`);
      expect(frame.data).toEqual({ action: 'CONCLUIDA', company: { id: a.companyId, dueDate: '2099-02-28' } });
    } finally {
      await socket.close();
    }
    const company = await server.call('GET', `/api/companies/${a.companyId}`, { token: superToken });
    expect(company.body.dueDate).toBe('2099-02-28');

    const again = await server.call('POST', `/api/invoices/${invoice.id}/pay`, { token: superToken });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_INVOICE_ALREADY_PAID');
    const pix = await server.call('GET', `/api/invoices/${invoice.id}/pix`, { token: a.admin.token });
    expect(pix.status).toBe(409);

    const listed = (await invoicesOf(a.admin.token)).body.invoices;
    expect(listed.map((i: { dueDate: string; status: string }) => [i.dueDate, i.status])).toEqual([
      ['2099-02-28', 'open'],
      ['2099-01-31', 'paid'],
    ]);
    expect((await invoicesOf(b.admin.token)).body.invoices.map((i: { status: string }) => i.status)).toEqual(['open']);
  });

  it('answers 404 for an unknown or malformed invoice id', async () => {
    for (const id of ['999999', 'abc', '0']) {
      const res = await server.call('POST', `/api/invoices/${id}/pay`, { token: superToken });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_INVOICE_FOUND');
    }
  });
});

describe('a company past its due date', () => {
  let server: TestServer;
  let superToken: string;
  let late: InboxTenant;
  let onTime: InboxTenant;
  let connectionId: number;

  const statusOf = async (tenant: InboxTenant, id: number) =>
    (await server.atende.container.db('whatsapps').where({ id, companyId: tenant.companyId }).first('status')).status as string;
  const company = async (id: number) => (await server.call('GET', `/api/companies/${id}`, { token: superToken })).body;

  beforeAll(async () => {
    server = await startTestServer({ simulator: true, pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test', blockAfterDays: 3 } } });
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const plan = await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Básico', users: 5, connections: 2, queues: 5, value: 59 } });
    late = await createTenant(server, 'Atrasada Ltda');
    onTime = await createTenant(server, 'Em Dia Ltda');
    connectionId = await createConnection(server, late, 'Loja');
    await eventually(async () => (await statusOf(late, connectionId)) === 'CONNECTED');
    for (const [tenant, dueDate] of [
      [late, dayFromToday(-10)],
      [onTime, dayFromToday(-2)],
    ] as const) {
      await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId: plan.body.id, dueDate } });
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('is blocked more than blockAfterDays late: its sessions stop and stay stopped; one within the days is not', async () => {
    await server.atende.container.jobs.now(DUE_DATES_JOB, {});
    await eventually(async () => (await company(late.companyId)).blockedAt !== null);
    await eventually(async () => (await statusOf(late, connectionId)) === 'DISCONNECTED');
    expect((await company(onTime.companyId)).blockedAt).toBeNull();

    const start = await server.call('POST', `/api/whatsappsession/${connectionId}`, { token: late.admin.token });
    expect(start.status).toBe(402);
    expect(start.body.error).toBe('ERR_COMPANY_BLOCKED');
    // Its users meet the expired-subscription rule at login.
    const login = await server.call('POST', '/api/auth/login', { body: { email: late.admin.email, password: PASSWORD } });
    expect(login.status).toBe(402);
    expect(login.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
  });

  it('is unblocked at once when it pays: the due date moves on and its sessions start again', async () => {
    const invoices = await server.call('GET', '/api/invoices/all?searchParam=atrasada', { token: superToken });
    const open = invoices.body.invoices.find((i: { status: string }) => i.status === 'open');
    const paid = await server.call('POST', `/api/invoices/${open.id}/pay`, { token: superToken });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    await eventually(async () => (await company(late.companyId)).blockedAt === null);
    await eventually(async () => (await statusOf(late, connectionId)) === 'CONNECTED', 10_000, 'the session back');
    // Paid within blockAfterDays of its new due date: the next run leaves it alone.
    await server.atende.container.jobs.now(DUE_DATES_JOB, {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await company(late.companyId)).blockedAt).toBeNull();
  });
});

describe('invoice e-mails', () => {
  let server: TestServer;
  let smtp: FakeSmtp;
  let superToken: string;

  const run = async () => {
    await server.atende.container.jobs.now(DUE_DATES_JOB, {});
    await new Promise((resolve) => setTimeout(resolve, 500));
  };
  const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    server = await startTestServer({
      smtpUrl: smtp.url,
      publicUrl: 'https://atende.example.com',
      pluginConfig: { billing: { provider: 'manual', pixKey: 'pix@atende.test', remindDaysBefore: 3 } },
    });
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('tells the company once when an invoice opens, and reminds it once a few days before the due date', async () => {
    const plan = await server.call('POST', '/api/plans', { token: superToken, body: { name: 'Mensal', users: 5, connections: 2, queues: 5, value: 99.5 } });
    const tenant = await createTenant(server, 'Correio Ltda');
    await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId: plan.body.id, dueDate: dayFromToday(20) } });
    await run();
    const opened = await eventually(async () => mailsTo(tenant.admin.email).length === 1 && mailsTo(tenant.admin.email));
    expect(opened[0]!.subject).toBe(`Nova fatura de R$ 99,50, vencimento ${dayFromToday(20).split('-').reverse().join('/')}`);
    expect(opened[0]!.text).toContain('Pague por Pix em: https://atende.example.com/financeiro');
    await run();
    expect(mailsTo(tenant.admin.email)).toHaveLength(1);

    // Two days before it is due (the invoice and the company moved there together): one reminder, then nothing more.
    await server.atende.container.db('invoices').where({ companyId: tenant.companyId }).update({ dueDate: dayFromToday(2) });
    await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { dueDate: dayFromToday(2) } });
    await run();
    const reminded = await eventually(async () => mailsTo(tenant.admin.email).length === 2 && mailsTo(tenant.admin.email));
    expect(reminded[1]!.subject).toMatch(/^Lembrete: sua fatura de R\$ 99,50 vence em /);
    await run();
    expect(mailsTo(tenant.admin.email)).toHaveLength(2);
  });

  it('tries a refused e-mail again on the next run', async () => {
    const tenant = await createTenant(server, 'Recusa Ltda');
    const plan = (await server.call('GET', '/api/plans/all', { token: superToken })).body.find((p: { name: string }) => p.name === 'Mensal');
    smtp.refuse = true;
    await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId: plan.id, dueDate: dayFromToday(20) } });
    await run();
    await eventually(async () => smtp.refused > 0);
    smtp.refuse = false;
    await run();
    await eventually(async () => mailsTo(tenant.admin.email).length === 1);
  });
});

describe('with billing off (no provider)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('opens no invoice and says it is off', async () => {
    const superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const tenant = await createTenant(server, 'Gama Billing');
    await server.call('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { dueDate: '2099-01-31' } });
    await server.atende.container.jobs.now(DUE_DATES_JOB, {});
    const status = await server.call('GET', '/api/billing/status', { token: tenant.admin.token });
    expect(status.body).toEqual({ provider: null, pix: false });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await server.call('GET', '/api/invoices/all', { token: tenant.admin.token })).body.invoices).toEqual([]);
  });
});
