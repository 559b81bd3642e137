import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  AppError,
  ConflictError,
  ErrorCode,
  ForbiddenError,
  isAdmin,
  NotFoundError,
  todayIn,
  ValidationError,
  type AuthUser,
  type PluginApp,
} from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { customerIdOf, documentOf, ensureCustomer } from '../provider/customers.js';
import type { PaymentProvider, ProviderSubscription } from '../provider/payment-provider.js';
import { Invoice } from '../invoices/invoice.model.js';
import { dropStaleCharge, providerOf } from '../provider/provider-of.js';
import type { CustomerView, PaymentView, SubscriptionView } from './subscription-view.js';
import type { CardFields, SignupCardFields } from './subscriptions.schema.js';

/** Payments a page (POST …/load/payments/to/subscriptions). */
export const PAYMENTS_PAGE_SIZE = 10;
const NO_CUSTOMER = 'Não foi criado o cliente.';
/** A `pending` reservation older than this was left by a process that stopped while asking the provider. */
const STALE_RESERVATION_MS = 10 * 60_000;

/** What a subscription row keeps of the provider's answer: its id and the card's last digits and brand, never its number. */
export function liveFields(created: ProviderSubscription) {
  return { subscriptionId: created.id, status: 'active' as const, cardLast4: created.cardLast4, cardBrand: created.cardBrand };
}

interface SubscriptionRow {
  id: number;
  companyId: number;
  provider: string;
  subscriptionId: string;
  customerId: string;
  planId: number | null;
  /** pending: reserved while the provider is asked (never shown). */
  status: 'pending' | 'active' | 'inactive';
  value: string | number;
  cardLast4: string | null;
  cardBrand: string | null;
  createdAt: string;
}

/** A signup's card subscription made at the provider, to keep with the new company or to undo. */
export interface SignupSubscription {
  record(trx: Knex.Transaction, companyId: number): Promise<void>;
  undo(): Promise<void>;
}

/**
 * Card subscriptions at the payment provider (spec: Billing /financeiro, §7 Billing). A company's
 * admins (and its financial users, whom the finance guard sends here) act on their own company;
 * super users on any. The price is the plan's, read here; the card goes to the provider and is
 * never stored.
 */
export class SubscriptionsService {
  constructor(private readonly app: PluginApp<BillingConfig>) {}

  private get provider(): PaymentProvider {
    const provider = providerOf(this.app);
    if (!this.app.config.provider || !provider.cards) {
      throw new ValidationError('Card payments need a payment provider; this installation bills by Pix', undefined, ErrorCode.ERR_NO_CARD_PAYMENTS);
    }
    return provider;
  }

  /** Another company's id answers 404, as if it did not exist; a user without the right, 403. */
  private assertCompany(actor: AuthUser, companyId: number): void {
    if (actor.super) return;
    if (companyId !== actor.companyId) throw new NotFoundError(ErrorCode.ERR_NO_COMPANY_FOUND);
    if (!isAdmin(actor) && !actor.financial) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION);
  }

  /** The company's subscriptions made at the provider (a pending reservation is none yet). */
  private rows(companyId: number) {
    return this.app.db('billing_subscriptions').where({ companyId, provider: this.provider.name }).whereNot('status', 'pending');
  }

  private async view(rows: SubscriptionRow[]): Promise<SubscriptionView[]> {
    const plans = new Map((await this.app.services.plans.list()).map((p) => [p.id, p.name]));
    return rows.map((r) => ({
      id: r.id,
      companyId: r.companyId,
      provider: r.provider,
      subscriptionId: r.subscriptionId,
      customerId: r.customerId,
      planId: r.planId,
      planName: r.planId === null ? null : (plans.get(r.planId) ?? null),
      status: r.status === 'active' ? 'active' : 'inactive',
      value: Number(r.value),
      cardLast4: r.cardLast4,
      cardBrand: r.cardBrand,
      createdAt: r.createdAt,
    }));
  }

  private async active(companyId: number): Promise<SubscriptionRow | undefined> {
    return (await this.rows(companyId).where('status', 'active').orderBy('id', 'desc').first()) as SubscriptionRow | undefined;
  }

  /** A subscription row `actor` may act on (404 otherwise, whatever the reason). */
  private async visibleRow(actor: AuthUser, id: number): Promise<SubscriptionRow> {
    const row = (await this.app.db('billing_subscriptions').where({ id }).first()) as SubscriptionRow | undefined;
    if (!row || row.status === 'pending' || (!actor.super && row.companyId !== actor.companyId)) throw new NotFoundError(ErrorCode.ERR_NO_SUBSCRIPTION_FOUND, 'No such subscription');
    this.assertCompany(actor, row.companyId);
    return row;
  }

  /** GET /{provider}/companhia/:companyId */
  async customer(actor: AuthUser, companyId: number): Promise<CustomerView> {
    this.assertCompany(actor, companyId);
    const provider = this.provider;
    await this.app.services.companies.get(companyId);
    return { customerId: await customerIdOf(this.app, provider, companyId), hasDocument: (await documentOf(this.app, companyId)) !== null };
  }

  /** POST /{provider}/companhia/create/customer: the company's customer, made once. */
  async createCustomer(actor: AuthUser, companyId: number, cpfCnpj?: string): Promise<{ customerId: string }> {
    this.assertCompany(actor, companyId);
    return { customerId: await ensureCustomer(this.app, this.provider, companyId, cpfCnpj) };
  }

  /**
   * POST /{provider}/companhia/create/subscriptions: a monthly card subscription at the plan's
   * value, first charged on the company's due date (today when it is past). One live at a time,
   * held by the database: the row is reserved (`pending`, under a unique index) before the provider
   * is asked, so two requests at once, on one server or two, make one subscription there; it is
   * made `active` with the provider's answer, or removed when the provider refuses.
   */
  async createSubscription(actor: AuthUser, companyId: number, card: CardFields, remoteIp: string): Promise<{ status: 'ACTIVE'; subscription: SubscriptionView }> {
    this.assertCompany(actor, companyId);
    const provider = this.provider;
    const customerId = await customerIdOf(this.app, provider, companyId);
    if (!customerId) throw new ValidationError(NO_CUSTOMER, { errors: [{ code: 'customer', description: NO_CUSTOMER }] }, ErrorCode.ERR_NO_PROVIDER_CUSTOMER);
    const exists = () => new ConflictError(ErrorCode.ERR_SUBSCRIPTION_EXISTS, 'A empresa já tem uma assinatura ativa');
    if (await this.active(companyId)) throw exists();
    const company = await this.app.services.companies.get(companyId);
    if (company.planId === null) throw new ValidationError('A empresa não tem plano', undefined, ErrorCode.ERR_NO_PLAN);
    const plan = await this.app.services.plans.view(company.planId);
    if (Number(plan.value) <= 0) throw new ValidationError('O plano da empresa é gratuito: não há o que cobrar', undefined, ErrorCode.ERR_FREE_PLAN);
    const today = todayIn(await this.app.services.settings.get(companyId, 'timezone'));
    const document = (await documentOf(this.app, companyId)) ?? '';
    const reserved = await this.reserve({ companyId, provider: provider.name, customerId, planId: plan.id, value: Number(plan.value) });
    if (reserved === null) throw exists();
    let created: ProviderSubscription;
    try {
      created = await provider.createCardSubscription({
        customerId,
        companyId,
        value: Number(plan.value),
        nextDueDate: company.dueDate && company.dueDate > today ? company.dueDate : today,
        description: `Plano ${plan.name} - ${company.name}`,
        card,
        holder: { name: card.holderName, email: company.email, cpfCnpj: document, phone: company.phone ?? '' },
        remoteIp,
      });
    } catch (err) {
      await this.app.db('billing_subscriptions').where({ id: reserved, status: 'pending' }).delete();
      throw err;
    }
    const [row] = (await this.app
      .db('billing_subscriptions')
      .where({ id: reserved })
      .update({ ...liveFields(created), updatedAt: new Date().toISOString() })
      .returning('*')) as SubscriptionRow[];
    return { status: 'ACTIVE', subscription: (await this.view([row!]))[0]! };
  }

  /**
   * The company's live subscription row, reserved as `pending` (its id), or null when it has one
   * already (active, or being made by another request). A reservation left by a process that died
   * while the provider was asked is given up after STALE_RESERVATION_MS.
   */
  private async reserve(fields: { companyId: number; provider: string; customerId: string; planId: number; value: number }): Promise<number | null> {
    const stale = new Date(Date.now() - STALE_RESERVATION_MS).toISOString();
    await this.app.db('billing_subscriptions').where({ companyId: fields.companyId, provider: fields.provider, status: 'pending' }).where('createdAt', '<', stale).delete();
    const now = new Date().toISOString();
    const inserted = await this.app
      .db('billing_subscriptions')
      // The provider's id comes with its answer; until then a placeholder no provider id looks like.
      .insert({ ...fields, subscriptionId: `pending:${randomUUID()}`, status: 'pending', createdAt: now, updatedAt: now })
      .onConflict()
      .ignore()
      .returning('id');
    return inserted.length === 0 ? null : (inserted[0] as { id: number }).id;
  }

  /**
   * A signing-up company's card subscription, made at the provider before the company is (so a
   * refused card leaves nothing here): its customer, then the monthly subscription at the plan's
   * value from `nextDueDate` (the trial's end), its first charge at `firstValue` (a promotion's
   * discount). A refused card answers ERR_CARD_REFUSED and the customer is removed again.
   * `record` keeps both inside the signup's transaction; `undo` cancels both at the provider when
   * that transaction fails.
   */
  async startForSignup(input: {
    company: { name: string; email: string; phone: string; cpfCnpj: string };
    plan: { id: number; name: string; value: number | string };
    firstValue: number;
    nextDueDate: string;
    card: SignupCardFields;
    remoteIp: string;
  }): Promise<SignupSubscription> {
    const provider = this.provider;
    const { company, plan, card } = input;
    const { id: customerId } = await provider.createCustomer({ companyId: null, ...company });
    let created: ProviderSubscription | undefined;
    const leftAtProvider = (err: unknown) => this.app.log.warn({ err, customerId, subscriptionId: created?.id }, 'a failed signup’s customer or subscription is left at the payment provider');
    const undo = async () => {
      if (created) await provider.cancelSubscription(created.id).catch(leftAtProvider);
      await provider.removeCustomer(customerId).catch(leftAtProvider);
    };
    try {
      created = await provider.createCardSubscription({
        customerId,
        companyId: null,
        value: Number(plan.value),
        nextDueDate: input.nextDueDate,
        description: `Plano ${plan.name} - ${company.name}`,
        card,
        holder: { name: card.holderName, email: company.email, cpfCnpj: card.holderCpfCnpj, phone: card.holderPhone },
        remoteIp: input.remoteIp,
      });
      if (Math.round(input.firstValue * 100) !== Math.round(Number(plan.value) * 100)) {
        const [first] = (await provider.listSubscriptionPayments(created.id, 0, 1)).data;
        if (first) await provider.setPaymentValue(first.id, input.firstValue);
      }
    } catch (err) {
      await undo();
      if (err instanceof AppError && err.code === ErrorCode.ERR_PAYMENT_PROVIDER_REFUSED) {
        throw new ValidationError(`O cartão foi recusado: ${err.message}`, err.details, ErrorCode.ERR_CARD_REFUSED);
      }
      throw err;
    }
    const subscription = created;
    return {
      record: async (trx, companyId) => {
        const now = new Date().toISOString();
        await trx('billing_customers').insert({ companyId, provider: provider.name, customerId, createdAt: now });
        await trx('billing_subscriptions').insert({ companyId, provider: provider.name, customerId, planId: plan.id, value: Number(plan.value), ...liveFields(subscription), createdAt: now, updatedAt: now });
      },
      undo,
    };
  }

  /** GET /{provider}/companhia/load/all/company/{provider}/by/:companyId: newest first. */
  async list(actor: AuthUser, companyId: number): Promise<{ subscriptions: SubscriptionView[] }> {
    this.assertCompany(actor, companyId);
    const rows = (await this.rows(companyId).orderBy('id', 'desc')) as SubscriptionRow[];
    return { subscriptions: await this.view(rows) };
  }

  /** POST /{provider}/companhia/load/payments/to/subscriptions: a page of the subscription's charges. */
  async payments(actor: AuthUser, id: number, offset: number): Promise<{ data: PaymentView[]; hasMore: boolean }> {
    const provider = this.provider;
    const row = await this.visibleRow(actor, id);
    return provider.listSubscriptionPayments(row.subscriptionId, offset, PAYMENTS_PAGE_SIZE);
  }

  /**
   * POST /{provider}/change-plan/…: the company moves to `planId`; its subscription charges the
   * new value from now on (its pending charges too), and so do its open invoices.
   */
  async changePlan(actor: AuthUser, companyId: number, planId: number): Promise<{ subscription: SubscriptionView }> {
    this.assertCompany(actor, companyId);
    const provider = this.provider;
    const row = await this.active(companyId);
    if (!row) throw new NotFoundError(ErrorCode.ERR_NO_SUBSCRIPTION_FOUND, 'A empresa não tem assinatura ativa');
    const plan = await this.app.services.plans.view(planId);
    if (Number(plan.value) <= 0) throw new ValidationError('Escolha um plano pago para a assinatura', undefined, ErrorCode.ERR_FREE_PLAN);
    // Refused before the provider charges the new value.
    await this.app.services.plans.assertFits(companyId, plan.id);
    const company = await this.app.services.companies.get(companyId);
    await provider.changePlan(row.subscriptionId, { value: Number(plan.value), description: `Plano ${plan.name} - ${company.name}` });
    const now = new Date().toISOString();
    await this.app.db.transaction(async (trx) => {
      await trx('billing_subscriptions').where({ id: row.id }).update({ planId: plan.id, value: Number(plan.value), updatedAt: now });
      // The open invoices follow the plan, so the subscription's next charge matches them.
      await trx('invoices').where({ companyId, status: 'open' }).update({ detail: plan.name, value: Number(plan.value), updatedAt: now });
    });
    // A Pix charge made for an old amount is cancelled at once (else on the next Pix code asked).
    for (const invoice of await Invoice.query(this.app.db).where({ companyId, status: 'open' }).whereNotNull('providerPaymentId')) {
      await dropStaleCharge(this.app, invoice).catch((err: unknown) => this.app.log.warn({ err, invoiceId: invoice.id }, 'a repriced invoice’s old Pix charge is cancelled on its next Pix code'));
    }
    await this.app.services.companies.update(companyId, { planId: plan.id });
    const updated = (await this.app.db('billing_subscriptions').where({ id: row.id }).first()) as SubscriptionRow;
    return { subscription: (await this.view([updated]))[0]! };
  }

  /** DELETE /{provider}/remove/subscriptions/by-id/:id: cancelled at the provider, kept here as inactive. */
  async remove(actor: AuthUser, id: number, companyId: number | undefined): Promise<void> {
    const provider = this.provider;
    const row = await this.visibleRow(actor, id);
    if (companyId !== undefined && row.companyId !== companyId) throw new NotFoundError(ErrorCode.ERR_NO_SUBSCRIPTION_FOUND, 'No such subscription');
    if (row.status !== 'active') throw new ConflictError(ErrorCode.ERR_SUBSCRIPTION_INACTIVE, 'Esta assinatura já foi removida');
    await provider.cancelSubscription(row.subscriptionId);
    await this.app.db('billing_subscriptions').where({ id: row.id }).update({ status: 'inactive', updatedAt: new Date().toISOString() });
  }

  /** The provider ended a subscription on its side (webhook): it is inactive here too. */
  async ended(subscriptionId: string, db = this.app.db): Promise<number> {
    return db('billing_subscriptions').where({ provider: providerOf(this.app).name, subscriptionId, status: 'active' }).update({ status: 'inactive', updatedAt: new Date().toISOString() });
  }
}
