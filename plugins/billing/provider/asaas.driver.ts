import { timingSafeEqual, createHash } from 'node:crypto';
import { AppError, ErrorCode, UnauthorizedError, ValidationError, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import type {
  CardSubscriptionInput,
  CustomerInput,
  PaymentProvider,
  PixCode,
  PixInvoice,
  ProviderEvent,
  ProviderPayment,
  ProviderSubscription,
} from './payment-provider.js';

/** How long a call to Asaas may take: a card charge is checked for fraud, which takes seconds. */
const TIMEOUT_MS = 20_000;
/** Answers bigger than this are refused rather than held in memory (a page of payments is a few KB). */
const MAX_ANSWER_BYTES = 1_000_000;

const PAID_EVENTS = new Set(['PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED']);
const ENDED_EVENTS = new Set(['SUBSCRIPTION_DELETED', 'SUBSCRIPTION_INACTIVATED']);

type Json = Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function money(value: unknown): number {
  return typeof value === 'number' ? value : Number(value ?? NaN);
}

/** Whether two secrets are equal, in a time that does not tell how much of them matched. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Asaas's refusal: its `errors` (each with a description), the page shows each as a toast. */
function refusal(status: number, body: unknown): AppError {
  const errors = Array.isArray((body as Json | null)?.errors)
    ? ((body as Json).errors as Json[]).map((e) => ({ code: text(e.code) ?? '', description: text(e.description) ?? 'Recusado pelo provedor de pagamento' }))
    : [];
  if (status === 400 && errors.length > 0) {
    return new ValidationError(errors.map((e) => e.description).join('; '), { errors }, ErrorCode.ERR_PAYMENT_PROVIDER_REFUSED);
  }
  // A wrong key (401), an unknown id (404) or a fault at Asaas: the platform's to fix, not the company's.
  const description = `O provedor de pagamento respondeu HTTP ${status}`;
  return new AppError(ErrorCode.ERR_PAYMENT_PROVIDER_UNAVAILABLE, 502, description, { errors: errors.length > 0 ? errors : [{ code: '', description }] });
}

function unavailable(description: string): AppError {
  return new AppError(ErrorCode.ERR_PAYMENT_PROVIDER_UNAVAILABLE, 502, description, { errors: [{ code: '', description }] });
}

function toPayment(p: Json): ProviderPayment {
  return {
    id: String(p.id),
    subscription: text(p.subscription),
    customer: String(p.customer ?? ''),
    value: money(p.value),
    dueDate: String(p.dueDate ?? ''),
    originalDueDate: text(p.originalDueDate),
    status: String(p.status ?? ''),
    billingType: String(p.billingType ?? ''),
    invoiceUrl: text(p.invoiceUrl),
  };
}

function toSubscription(s: Json): ProviderSubscription {
  const card = (s.creditCard ?? {}) as Json;
  return {
    id: String(s.id),
    customerId: String(s.customer ?? ''),
    status: s.status === 'ACTIVE' || s.status === undefined ? 'active' : 'inactive',
    value: money(s.value),
    nextDueDate: text(s.nextDueDate),
    cardLast4: text(card.creditCardNumber)?.slice(-4) ?? null,
    cardBrand: text(card.creditCardBrand),
  };
}

/** The company a customer or subscription is for, as Asaas's external reference (none yet at signup). */
function reference(companyId: number | null): { externalReference?: string } {
  return companyId === null ? {} : { externalReference: `company:${companyId}` };
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * Asaas, REST API v3 (https://docs.asaas.com): customers, card subscriptions and their payments,
 * Pix charges. The key goes in the `access_token` header; webhooks carry the token set in Asaas's
 * panel in `asaas-access-token`. Every call goes through the product's URL check, with a time limit,
 * no redirects and a size limit on the answer.
 */
export class AsaasProvider implements PaymentProvider {
  readonly name = 'asaas' as const;
  readonly cards = true;

  constructor(private readonly app: PluginApp<BillingConfig>) {}

  async createCustomer(input: CustomerInput): Promise<{ id: string }> {
    const customer = await this.call('POST', '/customers', {
      name: input.name,
      cpfCnpj: input.cpfCnpj,
      email: input.email,
      mobilePhone: input.phone.replace(/\D/g, ''),
      ...reference(input.companyId),
      // The platform tells its companies itself (invoice e-mails); Asaas would write twice.
      notificationDisabled: true,
    });
    return { id: String(customer.id) };
  }

  async removeCustomer(customerId: string): Promise<void> {
    await this.call('DELETE', `/customers/${encodeURIComponent(customerId)}`);
  }

  async createCardSubscription(input: CardSubscriptionInput): Promise<ProviderSubscription> {
    const { card, holder } = input;
    const subscription = await this.call('POST', '/subscriptions', {
      customer: input.customerId,
      billingType: 'CREDIT_CARD',
      value: input.value,
      nextDueDate: input.nextDueDate,
      cycle: 'MONTHLY',
      description: input.description,
      ...reference(input.companyId),
      creditCard: { holderName: card.holderName, number: card.number, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, ccv: card.ccv },
      creditCardHolderInfo: {
        name: holder.name,
        email: holder.email,
        cpfCnpj: holder.cpfCnpj,
        postalCode: card.postalCode,
        addressNumber: card.addressNumber,
        phone: holder.phone.replace(/\D/g, ''),
      },
      remoteIp: input.remoteIp,
    });
    const view = toSubscription(subscription);
    // Asaas may leave the card's digits out of the answer: the last four are the company's own.
    return { ...view, cardLast4: view.cardLast4 ?? card.number.slice(-4) };
  }

  async listSubscriptionPayments(subscriptionId: string, offset: number, limit: number): Promise<{ data: ProviderPayment[]; hasMore: boolean }> {
    const page = await this.call('GET', `/subscriptions/${encodeURIComponent(subscriptionId)}/payments?offset=${offset}&limit=${limit}`);
    const data = Array.isArray(page.data) ? (page.data as Json[]).map(toPayment) : [];
    return { data, hasMore: page.hasMore === true };
  }

  async changePlan(subscriptionId: string, change: { value: number; description: string }): Promise<void> {
    await this.call('PUT', `/subscriptions/${encodeURIComponent(subscriptionId)}`, { value: change.value, description: change.description, updatePendingPayments: true });
  }

  async cancelSubscription(subscriptionId: string): Promise<void> {
    await this.call('DELETE', `/subscriptions/${encodeURIComponent(subscriptionId)}`);
  }

  /** The invoice's Pix charge at Asaas (made once, for the invoice's value) and its QR code. */
  async pixQrCodeFor(invoice: PixInvoice): Promise<PixCode> {
    let paymentId = invoice.providerPaymentId;
    if (!paymentId) {
      if (!invoice.customerId) throw new ValidationError('The company has no customer at the payment provider', undefined, ErrorCode.ERR_NO_PROVIDER_CUSTOMER);
      const payment = await this.call('POST', '/payments', {
        customer: invoice.customerId,
        billingType: 'PIX',
        value: invoice.value,
        // Asaas takes no charge due in the past: an overdue invoice is charged for today.
        dueDate: invoice.dueDate < today() ? today() : invoice.dueDate,
        description: `Fatura ${invoice.id}`,
        externalReference: `invoice:${invoice.id}`,
      });
      paymentId = String(payment.id);
    }
    const qr = await this.call('GET', `/payments/${encodeURIComponent(paymentId)}/pixQrCode`);
    return { payload: String(qr.payload ?? ''), encodedImage: text(qr.encodedImage), expiresAt: text(qr.expirationDate), providerPaymentId: paymentId };
  }

  async setPaymentValue(paymentId: string, value: number): Promise<void> {
    await this.call('PUT', `/payments/${encodeURIComponent(paymentId)}`, { value });
  }

  async cancelPayment(paymentId: string): Promise<void> {
    await this.call('DELETE', `/payments/${encodeURIComponent(paymentId)}`);
  }

  parseWebhook(headers: Record<string, string | string[] | undefined>, body: unknown): ProviderEvent {
    const expected = this.app.config.asaasWebhookToken;
    const given = headers['asaas-access-token'];
    // No token configured: every call is refused, never accepted unauthenticated.
    if (!expected || typeof given !== 'string' || !sameSecret(given, expected)) {
      throw new UnauthorizedError(ErrorCode.ERR_WEBHOOK_UNAUTHORIZED, 'Wrong or missing asaas-access-token');
    }
    const event = (body ?? {}) as Json;
    const id = text(event.id);
    const type = text(event.event);
    if (!id || !type) throw new ValidationError('Not an Asaas event: id and event are required', undefined, ErrorCode.ERR_WEBHOOK_INVALID);
    const p = typeof event.payment === 'object' && event.payment !== null ? (event.payment as Json) : null;
    const s = typeof event.subscription === 'object' && event.subscription !== null ? (event.subscription as Json) : null;
    const payment = p && text(p.id)
      ? { id: String(p.id), value: money(p.value), subscription: text(p.subscription), customer: text(p.customer), externalReference: text(p.externalReference) }
      : null;
    const kind = PAID_EVENTS.has(type) ? 'paid' : type === 'PAYMENT_OVERDUE' ? 'overdue' : ENDED_EVENTS.has(type) ? 'subscription-ended' : 'other';
    return { id, type, kind, payment, subscriptionId: text(s?.id) ?? payment?.subscription ?? null };
  }

  /** One call: JSON in and out; Asaas's refusals and failures as errors the page can show. */
  private async call(method: string, path: string, body?: Json): Promise<Json> {
    const { asaasUrl, asaasKey } = this.app.config;
    if (!asaasKey) throw unavailable('A chave da API do Asaas não está configurada');
    const url = await this.app.outgoing.checkUrl(`${asaasUrl.replace(/\/+$/, '')}${path}`);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { access_token: asaasKey, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'atende' },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      this.app.log.warn({ err, method, path: path.split('?')[0] }, 'Asaas could not be reached');
      throw unavailable('O provedor de pagamento não respondeu; tente novamente em instantes');
    }
    const raw = await res.text();
    if (raw.length > MAX_ANSWER_BYTES) throw unavailable('O provedor de pagamento respondeu demais');
    let answer: unknown;
    try {
      answer = raw ? JSON.parse(raw) : {};
    } catch {
      answer = {};
    }
    if (!res.ok) {
      this.app.log.info({ status: res.status, method, path: path.split('?')[0] }, 'Asaas refused a call');
      throw refusal(res.status, answer);
    }
    return (typeof answer === 'object' && answer !== null ? answer : {}) as Json;
  }
}
