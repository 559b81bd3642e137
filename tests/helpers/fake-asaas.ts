import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A card number (Luhn-valid) the fake refuses, as Asaas refuses a card its issuer declines. */
export const REFUSED_CARD = '4111111111111111';
export const REFUSAL = 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.';
/** The PNG the fake gives as a Pix QR image (one pixel). */
export const FAKE_QR_IMAGE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the fake keeps Asaas's loose shapes

export interface AsaasCall {
  method: string;
  path: string;
  accessToken: string | undefined;
  body: Json | null;
}

export interface FakeAsaas {
  /** The base URL to configure (`http://127.0.0.1:<port>/v3`). */
  url: string;
  key: string;
  calls: AsaasCall[];
  customers: Map<string, Json>;
  subscriptions: Map<string, Json>;
  payments: Map<string, Json>;
  /** Where and with which token the fake calls the platform back. */
  webhook: { url: string; token: string };
  /** The charge Asaas would make next for a subscription (a new month): a PENDING payment. */
  charge(subscriptionId: string, value?: number): Json;
  /**
   * The payment paid (CONFIRMED or RECEIVED) and the platform told, as Asaas's webhook does; `value`
   * overrides what the call says was paid, `eventId` repeats an earlier delivery, `token` forges one.
   */
  pay(paymentId: string, options?: { event?: 'PAYMENT_CONFIRMED' | 'PAYMENT_RECEIVED'; value?: number; eventId?: string; token?: string }): Promise<{ status: number; body: Json; eventId: string }>;
  /**
   * Holds each card subscription call until the answer is released (two requests at once meet
   * there); the call is counted in `calls` as it arrives.
   */
  holdSubscriptions(): { release: () => void };
  /** Posts any event body to the webhook (with the right token unless `token` is given). */
  send(body: Json, token?: string | null): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

async function jsonOf(req: IncomingMessage): Promise<Json | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw ? (JSON.parse(raw) as Json) : null;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const invalid = (description: string, code = 'invalid_object') => ({ errors: [{ code, description }] });

/**
 * A local stand-in for Asaas's REST API v3: the endpoints billing uses (customers, card
 * subscriptions and their payments, plan change, cancellation, Pix charges and QR codes), the
 * `access_token` header checked, and its webhook calls back to the platform.
 */
export async function startFakeAsaas(key = 'fake-asaas-key'): Promise<FakeAsaas> {
  const calls: AsaasCall[] = [];
  const customers = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const payments = new Map<string, Json>();
  let seq = 0;
  let held: Promise<void> | null = null;
  const next = (prefix: string) => `${prefix}_${String((seq += 1)).padStart(12, '0')}`;

  const newPayment = (fields: Json): Json => {
    const payment = { object: 'payment', id: next('pay'), dateCreated: new Date().toISOString().slice(0, 10), status: 'PENDING', originalDueDate: fields.dueDate, invoiceUrl: 'https://asaas.test/i/1', ...fields };
    payments.set(payment.id, payment);
    return payment;
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = req.method === 'GET' || req.method === 'DELETE' ? null : await jsonOf(req);
    const accessToken = req.headers.access_token as string | undefined;
    calls.push({ method: req.method ?? '', path: url.pathname + url.search, accessToken, body });
    if (accessToken !== key) return send(res, 401, invalid('A chave de API fornecida é inválida', 'invalid_access_token'));
    const parts = url.pathname.replace(/^\/v3\//, '').split('/');

    if (req.method === 'POST' && url.pathname === '/v3/customers') {
      if (!body?.name || !body.cpfCnpj) return send(res, 400, invalid('O CPF/CNPJ informado é inválido.', 'invalid_cpfCnpj'));
      const customer = { object: 'customer', id: next('cus'), ...body };
      customers.set(customer.id, customer);
      return send(res, 200, customer);
    }
    if (req.method === 'DELETE' && parts[0] === 'customers' && parts[1]) {
      const customer = customers.get(parts[1]);
      if (!customer) return send(res, 404, {});
      customer.deleted = true;
      return send(res, 200, { deleted: true, id: customer.id });
    }
    if (req.method === 'POST' && url.pathname === '/v3/subscriptions') {
      if (!body || !customers.has(body.customer)) return send(res, 400, invalid('Cliente inválido ou não informado.', 'invalid_customer'));
      if (body.billingType !== 'CREDIT_CARD' || !body.creditCard?.number || !body.creditCardHolderInfo?.postalCode || !body.remoteIp) {
        return send(res, 400, invalid('Informe os dados do cartão de crédito.', 'invalid_creditCard'));
      }
      if (held) await held;
      if (body.creditCard.number === REFUSED_CARD) return send(res, 400, invalid(REFUSAL, 'invalid_creditCard'));
      const { creditCard, creditCardHolderInfo: _holder, remoteIp: _ip, ...kept } = body;
      const subscription = {
        object: 'subscription',
        id: next('sub'),
        status: 'ACTIVE',
        deleted: false,
        ...kept,
        creditCard: { creditCardNumber: String(creditCard.number).slice(-4), creditCardBrand: 'MASTERCARD', creditCardToken: 'tok' },
      };
      subscriptions.set(subscription.id, subscription);
      newPayment({ customer: body.customer, subscription: subscription.id, value: body.value, dueDate: body.nextDueDate, billingType: 'CREDIT_CARD' });
      return send(res, 200, subscription);
    }
    if (parts[0] === 'subscriptions' && parts[1]) {
      const subscription = subscriptions.get(parts[1]);
      if (!subscription) return send(res, 404, {});
      if (req.method === 'GET' && parts[2] === 'payments') {
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 10);
        const all = [...payments.values()].filter((p) => p.subscription === subscription.id).reverse();
        return send(res, 200, { object: 'list', hasMore: offset + limit < all.length, totalCount: all.length, limit, offset, data: all.slice(offset, offset + limit) });
      }
      if (req.method === 'PUT' && !parts[2]) {
        if (typeof body?.value !== 'number' || body.value <= 0) return send(res, 400, invalid('Valor inválido.'));
        subscription.value = body.value;
        if (body.description) subscription.description = body.description;
        if (body.updatePendingPayments) {
          for (const p of payments.values()) if (p.subscription === subscription.id && p.status === 'PENDING') p.value = body.value;
        }
        return send(res, 200, subscription);
      }
      if (req.method === 'DELETE' && !parts[2]) {
        subscription.deleted = true;
        subscription.status = 'INACTIVE';
        return send(res, 200, { deleted: true, id: subscription.id });
      }
    }
    if (req.method === 'POST' && url.pathname === '/v3/payments') {
      if (!body || !customers.has(body.customer)) return send(res, 400, invalid('Cliente inválido ou não informado.', 'invalid_customer'));
      return send(res, 200, newPayment({ customer: body.customer, subscription: null, value: body.value, dueDate: body.dueDate, billingType: body.billingType, externalReference: body.externalReference ?? null }));
    }
    if (req.method === 'PUT' && parts[0] === 'payments' && parts[1] && !parts[2]) {
      const payment = payments.get(parts[1]);
      if (!payment) return send(res, 404, {});
      if (typeof body?.value === 'number' && body.value > 0) payment.value = body.value;
      return send(res, 200, payment);
    }
    if (req.method === 'DELETE' && parts[0] === 'payments' && parts[1] && !parts[2]) {
      const payment = payments.get(parts[1]);
      if (!payment) return send(res, 404, {});
      if (payment.status !== 'PENDING' && payment.status !== 'OVERDUE') return send(res, 400, invalid('Somente cobranças pendentes ou vencidas podem ser removidas.'));
      payment.deleted = true;
      payment.status = 'DELETED';
      return send(res, 200, { deleted: true, id: payment.id });
    }
    if (req.method === 'GET' && parts[0] === 'payments' && parts[2] === 'pixQrCode') {
      const payment = payments.get(parts[1]!);
      if (!payment) return send(res, 404, {});
      return send(res, 200, { encodedImage: FAKE_QR_IMAGE, payload: `00020126PIXFAKE${payment.id}5204000053039865406${Number(payment.value).toFixed(2)}`, expirationDate: '2099-12-31 23:59:59' });
    }
    return send(res, 404, {});
  };

  const server = createServer((req, res) => {
    route(req, res).catch((err: Error) => send(res, 500, { error: err.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const webhook = { url: '', token: '' };

  const post = async (body: Json, token: string | null): Promise<{ status: number; body: Json }> => {
    const res = await fetch(webhook.url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token === null ? {} : { 'asaas-access-token': token }) }, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
  };

  return {
    url: `http://127.0.0.1:${port}/v3`,
    key,
    calls,
    customers,
    subscriptions,
    payments,
    webhook,
    charge(subscriptionId, value) {
      const subscription = subscriptions.get(subscriptionId)!;
      return newPayment({ customer: subscription.customer, subscription: subscriptionId, value: value ?? subscription.value, dueDate: '2099-12-01', billingType: 'CREDIT_CARD' });
    },
    async pay(paymentId, options = {}) {
      const payment = payments.get(paymentId)!;
      const event = options.event ?? 'PAYMENT_RECEIVED';
      payment.status = event === 'PAYMENT_CONFIRMED' ? 'CONFIRMED' : 'RECEIVED';
      const eventId = options.eventId ?? next('evt');
      const answer = await post({ id: eventId, event, dateCreated: new Date().toISOString(), payment: { ...payment, value: options.value ?? payment.value } }, options.token ?? webhook.token);
      return { ...answer, eventId };
    },
    holdSubscriptions() {
      let release = () => {};
      held = new Promise<void>((resolve) => {
        release = () => {
          held = null;
          resolve();
        };
      });
      return { release };
    },
    send: (body, token) => post(body, token === undefined ? webhook.token : token),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
