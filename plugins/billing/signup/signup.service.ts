import type { Knex } from 'knex';
import { AttemptLimiter, ConflictError, ErrorCode, NotFoundError, TooManyAttemptsError, ValidationError, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { firstInvoiceValue, type InvoicesService } from '../invoices/invoices.service.js';
import type { PromotionsService } from '../promotions/promotions.service.js';
import { providerOf } from '../provider/provider-of.js';
import type { SignupSubscription, SubscriptionsService } from '../subscriptions/subscriptions.service.js';
import { digitsOnly } from './documents.js';
import { SIGNUP_MESSAGES, type SignupInput } from './signup.schema.js';

/** Signups allowed from one client address: 5 an hour. */
const SIGNUPS_PER_ADDRESS = 5;
const SIGNUP_WINDOW_MS = 60 * 60_000;
/** Verify calls from one address: plenty for a person filling the form, too few to sweep e-mails or documents. */
export const CHECKS_PER_ADDRESS = 120;
const CHECK_WINDOW_MS = 15 * 60_000;
/** The spec's trial: the new company is due three days from today. */
const TRIAL_DAYS = 3;
const CARD_MISSING = 'Informe o cartão de crédito';

function today(plusDays: number): string {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + plusDays);
  return day.toISOString().slice(0, 10);
}

function taken(message: string): ConflictError {
  return new ConflictError(ErrorCode.ERR_VALIDATION, message);
}

/**
 * Self-signup (spec: Signup): public, on when billing is on and the platform owner has not turned
 * `signup` off. The verify calls say whether a value can be used; the signup creates the company on
 * the chosen plan with a 3-day trial, its admin, settings and queue, and its document, all or
 * nothing, then opens its first invoice.
 */
export class SignupService {
  private readonly limiter: AttemptLimiter;
  private readonly checkLimiter: AttemptLimiter;

  constructor(
    private readonly app: PluginApp<BillingConfig>,
    private readonly invoices: InvoicesService,
    private readonly promotions: PromotionsService,
    private readonly subscriptions: SubscriptionsService,
  ) {
    // Only the address counts: the e-mail key is the address too, so its limit is the same.
    this.limiter = new AttemptLimiter(
      'billing:signup',
      app.attempts,
      { maxPerEmail: SIGNUPS_PER_ADDRESS, maxPerAddress: SIGNUPS_PER_ADDRESS, windowMs: SIGNUP_WINDOW_MS },
      (seconds) => new TooManyAttemptsError(ErrorCode.ERR_TOO_MANY_SIGNUPS, `Too many sign-ups from this address, try again in ${Math.ceil(seconds / 60)} minute(s)`, seconds),
    );
    this.checkLimiter = new AttemptLimiter(
      'billing:signup-check',
      app.attempts,
      { maxPerEmail: CHECKS_PER_ADDRESS, maxPerAddress: CHECKS_PER_ADDRESS, windowMs: CHECK_WINDOW_MS },
      (seconds) => new TooManyAttemptsError(ErrorCode.ERR_TOO_MANY_SIGNUPS, `Too many checks from this address, try again in ${Math.ceil(seconds / 60)} minute(s)`, seconds),
    );
  }

  get enabled(): boolean {
    return Boolean(this.app.config.provider) && this.app.config.signup;
  }

  /** Whether the signup asks for a card (its Cartão step): a provider that takes cards. */
  get takesCards(): boolean {
    return providerOf(this.app).cards;
  }

  assertEnabled(): void {
    if (!this.enabled) throw new NotFoundError(ErrorCode.ERR_SIGNUP_OFF);
  }

  /** Before each verify call: on, and this address has checks left. */
  async countCheck(address: string): Promise<void> {
    this.assertEnabled();
    await this.checkLimiter.assertAllowed(address, address);
    await this.checkLimiter.record(address, address);
  }

  async nameFree(name: string): Promise<boolean> {
    const wanted = name.trim().toLowerCase();
    return !(await this.app.services.companies.list()).some((c) => c.name.trim().toLowerCase() === wanted);
  }

  async phoneFree(phone: string): Promise<boolean> {
    const wanted = digitsOnly(phone);
    if (!wanted) return true;
    return !(await this.app.services.companies.list()).some((c) => digitsOnly(c.phone ?? '') === wanted);
  }

  async emailFree(email: string): Promise<boolean> {
    return !(await this.app.services.users.emailTaken(email));
  }

  async documentFree(document: string, db: Knex = this.app.db): Promise<boolean> {
    const digits = digitsOnly(document);
    if (!digits) return true;
    return (await db('company_documents').where('document', digits).first('id')) === undefined;
  }

  /** A code with uses left whose expiry day has not passed. */
  promotionValid(code: string): Promise<boolean> {
    return this.promotions.valid(code);
  }

  /**
   * POST /companies/cadastro: the new company's id. With a card provider (Asaas) and a paid plan,
   * the Cartão step's card is required: the provider's customer and card subscription are made
   * first (a refused card, ERR_CARD_REFUSED, leaves nothing), then the company in one transaction
   * with them; should that transaction fail, both are cancelled at the provider.
   */
  async signUp(input: SignupInput, address: string): Promise<{ id: number }> {
    this.assertEnabled();
    await this.limiter.assertAllowed(address, address);
    const invalidPromotion = () => new ValidationError(SIGNUP_MESSAGES.invalidPromotion, { issues: [{ path: 'code', message: SIGNUP_MESSAGES.invalidPromotion }] });
    const offer = input.code ? await this.promotions.offer(input.code) : undefined;
    if (input.code && !offer) throw invalidPromotion();
    if (!(await this.nameFree(input.name))) throw taken(SIGNUP_MESSAGES.nameTaken);
    if (!(await this.phoneFree(input.phone))) throw taken(SIGNUP_MESSAGES.phoneTaken);
    if (!(await this.emailFree(input.email))) throw taken(SIGNUP_MESSAGES.emailTaken);
    const plan = await this.app.services.plans.view(input.planId); // an unknown plan: 404, nothing created
    const byCard = providerOf(this.app).cards && Number(plan.value) > 0;
    if (byCard && !input.card) throw new ValidationError(CARD_MISSING, { issues: [{ path: 'card', message: CARD_MISSING }] });
    await this.limiter.record(address, address);
    // Extra trial days move the first due date; a discount applies to the first invoice only.
    const dueDate = today(TRIAL_DAYS + (offer?.kind === 'trialDays' ? Number(offer.amount) : 0));
    const discount = offer?.kind === 'discount' ? Number(offer.amount) : 0;
    let subscription: SignupSubscription | undefined;
    if (byCard) {
      // Checked before the provider is asked; the unique column settles a race in the transaction.
      if (!(await this.documentFree(input.cpf_cnpj))) throw taken(SIGNUP_MESSAGES.documentTaken);
      subscription = await this.subscriptions.startForSignup({
        company: { name: input.name, email: input.email, phone: input.phone, cpfCnpj: digitsOnly(input.cpf_cnpj) },
        plan,
        firstValue: firstInvoiceValue(plan.value, discount),
        nextDueDate: dueDate,
        card: input.card!,
        remoteIp: address,
      });
    }
    try {
      const companyId = await this.app.db.transaction(async (trx) => {
        if (!(await this.documentFree(input.cpf_cnpj, trx))) throw taken(SIGNUP_MESSAGES.documentTaken);
        // The code's use is taken here, so a signup that fails later gives it back (rolled back with it).
        const promotion = input.code ? await this.promotions.take(input.code, trx) : undefined;
        if (input.code && !promotion) throw invalidPromotion(); // its last use went to another signup meanwhile
        const { company } = await this.app.services.companies.createTenant(
          { name: input.name, email: input.email, password: input.password, phone: input.phone, planId: input.planId, dueDate, recurrence: 'MENSAL', status: true, campaignsEnabled: true },
          trx,
        );
        // The unique column settles a race between two signups with one document: the second rolls back.
        await trx('company_documents').insert({ companyId: company.id, document: digitsOnly(input.cpf_cnpj), createdAt: new Date().toISOString() });
        if (promotion) await this.promotions.record(promotion, company.id, trx);
        await this.invoices.openFirst(company.id, dueDate, plan, discount, trx);
        await subscription?.record(trx, company.id);
        return company.id;
      });
      return { id: companyId };
    } catch (err) {
      await subscription?.undo();
      throw err;
    }
  }
}
